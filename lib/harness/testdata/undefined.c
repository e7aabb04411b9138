/* A batch object with an unresolved import, for TestLinkError. */
#include <stdint.h>

void cliff_no_such_function(void);

const uint64_t cliff_entry_count = 1;
void *const cliff_entries[1] = {(void *)cliff_no_such_function};
