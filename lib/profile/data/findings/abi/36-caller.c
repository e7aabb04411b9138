/* Finding 36: a C caller that keeps values in fs0 and fs1, both
 * callee-saved under the RISC-V psABI (lp64d), across a call of the
 * Cranelift-compiled %f (the first entry of the object's cliff_entries
 * table). Prints what the registers hold after the call; exit status 1
 * when either changed. */
#include <stdio.h>

extern void *cliff_entries[];
typedef double (*fn)(double);

int main(void) {
	register double s0 asm("fs0") = 42.0;
	register double s1 asm("fs1") = 43.0;
	asm volatile("" : "+f"(s0), "+f"(s1));
	double r = ((fn)cliff_entries[0])(1.0);
	asm volatile("" : "+f"(s0), "+f"(s1));
	printf("result %g; after the call fs0 = %g (was 42), fs1 = %g (was 43)\n", r, s0, s1);
	return s0 != 42.0 || s1 != 43.0;
}
