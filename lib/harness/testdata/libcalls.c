/*
 * A batch object that calls every libcall the harness provides on all
 * targets, the way Cranelift's code does: through the symbol. Compiled
 * with -fno-builtin so that gcc calls them instead of inlining them; the
 * image's link resolves them to the harness program's wrappers
 * (TestLibcallsRun). In static glibc several are IFUNCs: a call of the
 * symbol's own address would call the resolver and return garbage.
 *
 * One entry: results (u64 each) are, in order,
 *   ceil, floor, trunc, nearbyint of 2.5 (f64 bits)
 *   ceilf, floorf, truncf, nearbyintf of -2.5 (f32 bits, zero-extended)
 *   fma(2, 3, 1) (f64 bits), fmaf(2, 3, 1) (f32 bits)
 *   memcmp of "abc" and "abd" (< 0: 1), the bytes memcpy, memmove and
 *   memset made of args (a u64)
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

static void put64(unsigned char *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = v >> (8 * i);
}

static uint64_t f64bits(double d)
{
	uint64_t u;
	memcpy(&u, &d, 8);
	return u;
}

static uint64_t f32bits(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return u;
}

/* volatile: the compiler must not fold the calls. */
static volatile double d = 2.5;
static volatile float f = -2.5f;

static void all(const unsigned char *args, unsigned char *results)
{
	unsigned char buf[16];
	uint64_t v = 0;

	put64(results + 0, f64bits(ceil(d)));
	put64(results + 8, f64bits(floor(d)));
	put64(results + 16, f64bits(trunc(d)));
	put64(results + 24, f64bits(nearbyint(d)));
	put64(results + 32, f32bits(ceilf(f)));
	put64(results + 40, f32bits(floorf(f)));
	put64(results + 48, f32bits(truncf(f)));
	put64(results + 56, f32bits(nearbyintf(f)));
	put64(results + 64, f64bits(fma(d - 0.5, d + 0.5, 1)));
	put64(results + 72, f32bits(fmaf(f + 4.5f, f + 5.5f, 1)));
	put64(results + 80, memcmp("abc", "abd", 3) < 0);
	memcpy(buf, args, 8);
	memmove(buf + 1, buf, 8); /* overlapping: the bytes shift by one */
	memset(buf + 9, 0x5a, 7);
	for (int i = 0; i < 8; i++)
		v |= (uint64_t)buf[i + 8] << (8 * i);
	put64(results + 88, v);
}

const uint64_t cliff_entry_count = 1;
void *const cliff_entries[] = {(void *)all};
