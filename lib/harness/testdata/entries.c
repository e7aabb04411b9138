/*
 * A fake batch object, standing in for what cliff-driver compiles: it
 * defines cliff_entry_count and cliff_entries, and each entry has the
 * trampoline signature entry(args, results). Values in args and results
 * are little-endian on every target, as in cliff's trampolines.
 *
 * The entry order is the test's table: keep harness_test.go in sync.
 */
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

static uint32_t load32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void store32(unsigned char *p, uint32_t v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

/* results = {a + b, a ^ b} for args = {a, b} (u32 each). */
static void add_xor(const unsigned char *args, unsigned char *results)
{
	uint32_t a = load32(args), b = load32(args + 4);
	store32(results, a + b);
	store32(results + 4, a ^ b);
}

static void loop_forever(const unsigned char *args, unsigned char *results)
{
	(void)args;
	(void)results;
	for (;;)
		__asm__ volatile("");
}

static void builtin_trap(const unsigned char *args, unsigned char *results)
{
	(void)args;
	(void)results;
	__builtin_trap();
}

static void bad_pointer(const unsigned char *args, unsigned char *results)
{
	(void)args;
	store32(results, *(volatile uint32_t *)(uintptr_t)16);
}

/* Not a tail call, and the frame is touched: this overflows the stack. */
static unsigned recurse(unsigned depth)
{
	volatile unsigned char frame[256];
	frame[0] = (unsigned char)depth;
	return recurse(depth + 1) + frame[0];
}

static void overflow_stack(const unsigned char *args, unsigned char *results)
{
	store32(results, recurse(load32(args)));
}

/* args = {a, b}: results = {a / b} (signed). Traps on x86_64 and s390x
 * when b is 0; aarch64 gives 0 and riscv64 gives -1. */
static void divide(const unsigned char *args, unsigned char *results)
{
	volatile int32_t a = (int32_t)load32(args), b = (int32_t)load32(args + 4);
	store32(results, (uint32_t)(a / b));
}

static void call_abort(const unsigned char *args, unsigned char *results)
{
	(void)args;
	(void)results;
	abort();
}

static void call_exit(const unsigned char *args, unsigned char *results)
{
	(void)args;
	(void)results;
	_exit(7);
}

/* Blocks without using CPU time: only the wall-clock backstop ends it. */
static void block(const unsigned char *args, unsigned char *results)
{
	(void)args;
	(void)results;
	for (;;)
		pause();
}

/* Kills the harness's parent process: the jobs after this one get no answer. */
static void kill_harness(const unsigned char *args, unsigned char *results)
{
	(void)args;
	store32(results, (uint32_t)kill(getppid(), SIGKILL));
}

/* args = {mode, a}: mode 0 returns {a + 1}; 1 faults; 2 loops; 3 exits;
 * 4 aborts; 5 blocks; 6 kills the harness, then blocks. For failures in
 * the middle of a group of same-entry jobs. */
static void by_mode(const unsigned char *args, unsigned char *results)
{
	switch (load32(args)) {
	case 0:
		store32(results, load32(args + 4) + 1);
		return;
	case 1:
		bad_pointer(args, results);
		return;
	case 2:
		loop_forever(args, results);
		return;
	case 3:
		_exit(9);
	case 4:
		abort();
	case 6:
		kill(getppid(), SIGKILL);
		/* fall through */
	default:
		block(args, results);
	}
}

/* Returns how often it was called in this process: shows which jobs
 * shared a child. */
static void count_calls(const unsigned char *args, unsigned char *results)
{
	static uint32_t calls;
	(void)args;
	store32(results, ++calls);
}

/*
 * trap_at_8: two 4-byte no-ops, then the target's illegal instruction at
 * offset 8 (the form Cranelift emits for a trap), so a test can name the
 * trap site as trap_at_8+8.
 */
void trap_at_8(void);
__asm__(".text\n"
	".globl trap_at_8\n"
	".type trap_at_8, @function\n"
	"trap_at_8:\n"
#if defined(__x86_64__)
	".byte 0x0f, 0x1f, 0x40, 0x00\n" /* nopl 0(%rax) */
	".byte 0x0f, 0x1f, 0x40, 0x00\n"
	"ud2\n"
#elif defined(__aarch64__)
	"nop\n"
	"nop\n"
	".inst 0x0000c11f\n" /* udf #0xc11f */
#elif defined(__riscv)
	".4byte 0x00000013\n" /* addi x0, x0, 0: uncompressed */
	".4byte 0x00000013\n"
	".2byte 0x0000\n" /* c.unimp */
	".2byte 0x0000\n"
#elif defined(__s390x__)
	".4byte 0x47000000\n" /* nop */
	".4byte 0x47000000\n"
	".2byte 0x0000\n" /* illegal operation */
	".2byte 0x0000\n"
#else
#error "unsupported architecture"
#endif
	".size trap_at_8, .-trap_at_8\n");

/*
 * clobber_pinned sets the register Cranelift pins with enable_pinned_reg
 * (x86_64 r15, aarch64 x21) to all ones and returns without restoring
 * it, as code compiled with that setting does; elsewhere it only returns.
 * The harness must not keep anything there across a call.
 */
void clobber_pinned(void);
__asm__(".text\n"
	".globl clobber_pinned\n"
	".type clobber_pinned, @function\n"
	"clobber_pinned:\n"
#if defined(__x86_64__)
	"mov $-1, %r15\n"
	"ret\n"
#elif defined(__aarch64__)
	"mov x21, #-1\n"
	"ret\n"
#elif defined(__riscv)
	"ret\n"
#elif defined(__s390x__)
	"br %r14\n"
#endif
	".size clobber_pinned, .-clobber_pinned\n");

const uint64_t cliff_entry_count = 15;
void *const cliff_entries[15] = {
	(void *)add_xor,        /* 0 */
	(void *)loop_forever,   /* 1 */
	(void *)builtin_trap,   /* 2 */
	(void *)bad_pointer,    /* 3 */
	(void *)overflow_stack, /* 4 */
	(void *)divide,         /* 5 */
	(void *)call_abort,     /* 6 */
	(void *)call_exit,      /* 7 */
	(void *)block,          /* 8 */
	(void *)trap_at_8,      /* 9 */
	0,                      /* 10: a module that failed to compile */
	(void *)kill_harness,   /* 11 */
	(void *)by_mode,        /* 12 */
	(void *)count_calls,    /* 13 */
	(void *)clobber_pinned, /* 14 */
};
