/*
 * probe HEX: runs the instruction bytes HEX (memory order) followed by a
 * return, with a pointer to 64 bytes of scratch memory in the first
 * argument register. Exit status: 0 the instructions ran, 4 SIGILL, 5
 * another fault. ProbeEmulator (emulators.go) runs it under each QEMU to
 * learn which CPU features each -cpu string really has.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static void on_signal(int sig)
{
	_exit(sig == SIGILL ? 4 : 5);
}

int main(int argc, char **argv)
{
	static const unsigned char ret[] =
#if defined(__x86_64__)
		{0xc3};
#elif defined(__aarch64__)
		{0xc0, 0x03, 0x5f, 0xd6};
#elif defined(__riscv)
		{0x67, 0x80, 0x00, 0x00};
#elif defined(__s390x__)
		{0x07, 0xfe};
#else
#error "unsupported architecture"
#endif
	unsigned char scratch[64] __attribute__((aligned(16))) = {0};
	unsigned char *code;
	size_t n = 0;
	const char *h;
	unsigned byte;

	if (argc != 2)
		return 2;
	signal(SIGILL, on_signal);
	signal(SIGSEGV, on_signal);
	signal(SIGBUS, on_signal);
	signal(SIGFPE, on_signal);
	signal(SIGTRAP, on_signal);
	code = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (code == MAP_FAILED)
		return 3;
	for (h = argv[1]; h[0] && h[1] && n < 4000; h += 2) {
		if (sscanf(h, "%2x", &byte) != 1)
			return 2;
		code[n++] = (unsigned char)byte;
	}
	memcpy(code + n, ret, sizeof ret);
	n += sizeof ret;
	__builtin___clear_cache((char *)code, (char *)code + n);
	((void (*)(void *))code)(scratch);
	return 0;
}
