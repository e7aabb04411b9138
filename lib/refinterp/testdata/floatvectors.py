#!/usr/bin/env python3
"""Writes floatvectors.txt: IEEE binary16/32/64/128 results of fadd, fsub,
fmul, fdiv, sqrt and fma on random and edge operands, computed with exact
rational arithmetic (fractions, integer square roots) and rounded to nearest,
ties to even, with subnormals: an implementation that shares nothing with
lib/refinterp's. NaN results are written as "nan" (their bits are Cranelift's
choice, not IEEE's). Also writes convvectors.txt: fdemote, fcvt_from_[us]int, fcvt_to_[us]int_sat
and the roundings, in the same way. Run: python3 floatvectors.py > floatvectors.txt"""
import math
import random
from fractions import Fraction as F

FORMATS = {16: (11, 5), 32: (24, 8), 64: (53, 11), 128: (113, 15)}  # precision, exponent bits


def params(w):
    prec, eb = FORMATS[w]
    bias = (1 << (eb - 1)) - 1
    return prec, eb, bias, 1 - bias  # emin


def decode(w, bits):
    prec, eb, bias, emin = params(w)
    sign = -1 if bits >> (w - 1) else 1
    e = (bits >> (prec - 1)) & ((1 << eb) - 1)
    frac = bits & ((1 << (prec - 1)) - 1)
    if e == (1 << eb) - 1:
        return ("nan", None) if frac else ("inf", sign)
    if e == 0:
        return ("fin", sign * F(frac) * F(2) ** (emin - prec + 1), sign)
    return ("fin", sign * F(frac + (1 << (prec - 1))) * F(2) ** (e - bias - prec + 1), sign)


def encode_special(w, kind, sign):
    prec, eb, bias, emin = params(w)
    s = (1 << (w - 1)) if sign < 0 else 0
    if kind == "inf":
        return s | (((1 << eb) - 1) << (prec - 1))
    return s  # zero


def round_scaled(w, m, e, sticky, sign):
    """Round the positive value (m + sticky*epsilon) * 2^e to format w."""
    prec, eb, bias, emin = params(w)
    qe = emin - prec + 1  # exponent of the least subnormal
    # Exponent of the value's unit in the last place at precision prec.
    if m == 0:
        return encode_special(w, "zero", sign)
    top = m.bit_length() - 1 + e  # the leading bit's weight is 2^top
    ulp = max(top - prec + 1, qe)
    shift = ulp - e
    assert shift >= 2, "not enough guard bits"
    q, r = divmod(m, 1 << shift)
    half = 1 << (shift - 1)
    if r > half or (r == half and (sticky or q & 1)):
        q += 1
    # q * 2^ulp is the rounded value.
    if q == 0:
        return encode_special(w, "zero", sign)
    top = q.bit_length() - 1 + ulp
    if top > bias:
        return encode_special(w, "inf", sign)
    s = (1 << (w - 1)) if sign < 0 else 0
    if top < emin:
        return s | q  # subnormal: q counts least subnormals
    d = ulp - (top - prec + 1)
    q = q << d if d >= 0 else q >> -d  # exact: a carry made q a power of two
    return s | ((top + bias) << (prec - 1)) | (q - (1 << (prec - 1)))


GUARD = 4


def ilog2(x):
    """A lower bound of floor(log2(x)) for x > 0, within 1."""
    return x.numerator.bit_length() - x.denominator.bit_length() - 1


def round_exact(w, x, zero_sign=1):
    prec, eb, bias, emin = params(w)
    if x == 0:
        return encode_special(w, "zero", zero_sign)
    sign = -1 if x < 0 else 1
    x = abs(x)
    e = min(ilog2(x) - prec - GUARD, emin - prec + 1 - GUARD)
    scaled = x / F(2) ** e
    m, r = divmod(scaled.numerator, scaled.denominator)
    return round_scaled(w, m, e, r != 0, sign)


def round_sqrt(w, x):
    prec, eb, bias, emin = params(w)
    e = min(ilog2(x) // 2 - prec - GUARD, emin - prec + 1 - GUARD)
    n = x / F(2) ** (2 * e)  # sqrt(x) = sqrt(n) * 2^e
    N, rem = divmod(n.numerator, n.denominator)
    m = math.isqrt(N)
    sticky = m * m != N or rem != 0
    return round_scaled(w, m, e, sticky, 1)


def op(w, name, args):
    vals = [decode(w, a) for a in args]
    if any(v[0] == "nan" for v in vals):
        return "nan"
    inf = [v[0] == "inf" for v in vals]
    if name in ("fadd", "fsub"):
        (ka, a, sa), (kb, b, sb) = [(v[0], v[1] if v[0] == "fin" else None, v[-1]) for v in vals]
        if name == "fsub":
            sb = -sb
            b = -b if b is not None else None
        if ka == "inf" and kb == "inf":
            return "nan" if sa != sb else encode_special(w, "inf", sa)
        if ka == "inf" or kb == "inf":
            return encode_special(w, "inf", sa if ka == "inf" else sb)
        s = a + b
        if s == 0:
            zs = -1 if (sa < 0 and sb < 0) else 1
            return encode_special(w, "zero", zs)
        return round_exact(w, s)
    if name == "fmul" or name == "fdiv":
        sa, sb = vals[0][-1], vals[1][-1]
        sign = sa * sb
        za = vals[0][0] == "fin" and vals[0][1] == 0
        zb = vals[1][0] == "fin" and vals[1][1] == 0
        if name == "fmul":
            if (inf[0] and zb) or (inf[1] and za):
                return "nan"
            if inf[0] or inf[1]:
                return encode_special(w, "inf", sign)
            p = vals[0][1] * vals[1][1]
            return round_exact(w, p, sign) if p != 0 else encode_special(w, "zero", sign)
        if (inf[0] and inf[1]) or (za and zb):
            return "nan"
        if inf[0] or zb:
            return encode_special(w, "inf", sign)
        if inf[1] or za:
            return encode_special(w, "zero", sign)
        return round_exact(w, vals[0][1] / vals[1][1])
    if name == "sqrt":
        k, x, s = vals[0][0], vals[0][1] if vals[0][0] == "fin" else None, vals[0][-1]
        if k == "inf":
            return "nan" if s < 0 else encode_special(w, "inf", 1)
        if x == 0:
            return encode_special(w, "zero", s)
        if x < 0:
            return "nan"
        return round_sqrt(w, x)
    if name == "fma":
        (ka, a, sa), (kb, b, sb), (kc, c, sc) = [(v[0], v[1] if v[0] == "fin" else None, v[-1]) for v in vals]
        za, zb = ka == "fin" and a == 0, kb == "fin" and b == 0
        if (ka == "inf" and zb) or (kb == "inf" and za):
            return "nan"
        if ka == "inf" or kb == "inf":
            ps = sa * sb
            if kc == "inf" and sc != ps:
                return "nan"
            return encode_special(w, "inf", ps)
        if kc == "inf":
            return encode_special(w, "inf", sc)
        p = a * b
        s = p + c
        if s == 0:
            psign = -1 if (sa * sb < 0) else 1
            if p == 0 and c == 0:
                zs = -1 if (psign < 0 and sc < 0) else 1
            else:
                zs = 1
            return encode_special(w, "zero", zs)
        return round_exact(w, s)
    raise ValueError(name)


def operand(rng, w):
    prec, eb, bias, emin = params(w)
    r = rng.random()
    sign = rng.getrandbits(1) << (w - 1)
    if r < 0.35:
        return rng.getrandbits(w)
    if r < 0.5:  # subnormal
        return sign | rng.getrandbits(prec - 1)
    if r < 0.6:  # near overflow
        e = (1 << eb) - 2 - rng.randrange(3)
        return sign | (e << (prec - 1)) | rng.getrandbits(prec - 1)
    if r < 0.7:  # near the least normal
        e = 1 + rng.randrange(3)
        return sign | (e << (prec - 1)) | rng.getrandbits(prec - 1)
    if r < 0.8:  # few significant bits: exact results and ties
        e = bias + rng.randrange(-3, 4)
        return sign | (e << (prec - 1)) | (rng.getrandbits(4) << (prec - 5))
    if r < 0.9:  # specials
        return rng.choice([0, 1 << (w - 1), encode_special(w, "inf", 1), encode_special(w, "inf", -1),
                           ((1 << eb) - 1) << (prec - 1) | 1, bias << (prec - 1)])
    e = bias + rng.randrange(-20, 20)
    return sign | (e << (prec - 1)) | rng.getrandbits(prec - 1)


def main():
    rng = random.Random(16)
    print("# width op operands... result (hex bits; nan: any NaN). Written by floatvectors.py.")
    for w in (16, 32, 64, 128):
        for name, n in (("fadd", 2), ("fsub", 2), ("fmul", 2), ("fdiv", 2), ("sqrt", 1), ("fma", 3)):
            for _ in range(150):
                args = [operand(rng, w) for _ in range(n)]
                if name == "fma" and rng.random() < 0.3:
                    # c close to -a*b: cancellation, the case fma exists for.
                    a, b = decode(w, args[0]), decode(w, args[1])
                    if a[0] == "fin" and b[0] == "fin" and a[1] * b[1] != 0:
                        args[2] = round_exact(w, -(a[1] * b[1]))
                        if args[2] == "nan":
                            continue
                r = op(w, name, args)
                res = r if r == "nan" else format(r, "x")
                print(w, name, " ".join(format(a, "x") for a in args), res)


main()


def int_operand(rng, bits):
    r = rng.random()
    if r < 0.3:
        return rng.getrandbits(bits)
    if r < 0.5:  # around a power of two: ties when converting
        k = rng.randrange(1, bits)
        return ((1 << k) + rng.choice([-1, 0, 1]) * rng.getrandbits(max(1, k - 30))) % (1 << bits)
    if r < 0.7:
        return rng.choice([0, 1, (1 << bits) - 1, 1 << (bits - 1), (1 << (bits - 1)) - 1])
    return rng.getrandbits(rng.randrange(1, bits + 1))


def conversions():
    """Lines `op srctype dsttype operand result` for conversions."""
    rng = random.Random(17)
    out = []
    floats = (16, 32, 64, 128)
    for src in floats:
        for dst in floats:
            if dst >= src:
                continue
            for _ in range(80):
                a = operand(rng, src)
                k = decode(src, a)
                if k[0] == "nan":
                    r = "nan"
                elif k[0] == "inf":
                    r = format(encode_special(dst, "inf", k[1]), "x")
                else:
                    r = format(round_exact(dst, k[1], k[2]), "x")
                out.append(("fdemote", "f%d" % src, "f%d" % dst, format(a, "x"), r))
    for ib in (32, 64, 128):
        for dst in floats:
            for signed in (False, True):
                for _ in range(40):
                    a = int_operand(rng, ib)
                    v = a - (1 << ib) if signed and a >> (ib - 1) else a
                    r = format(round_exact(dst, F(v)), "x")
                    out.append(("fcvt_from_" + ("sint" if signed else "uint"), "i%d" % ib, "f%d" % dst, format(a, "x"), r))
    for src in floats:
        for ib in (32, 64, 128):
            for signed in (False, True):
                for _ in range(40):
                    a = operand(rng, src)
                    k = decode(src, a)
                    lo, hi = (-(1 << (ib - 1)), (1 << (ib - 1)) - 1) if signed else (0, (1 << ib) - 1)
                    if k[0] == "nan":
                        v = 0
                    elif k[0] == "inf":
                        v = hi if k[1] > 0 else lo
                    else:
                        x = k[1]
                        v = math.floor(x) if x >= 0 else -math.floor(-x)
                        v = min(max(v, lo), hi)
                    out.append(("fcvt_to_" + ("sint" if signed else "uint") + "_sat", "f%d" % src, "i%d" % ib,
                                format(a, "x"), format(v % (1 << ib), "x")))
    for src in floats:
        for name in ("ceil", "floor", "trunc", "nearest"):
            for _ in range(40):
                a = operand(rng, src)
                k = decode(src, a)
                if k[0] == "nan":
                    r = "nan"
                elif k[0] == "inf":
                    r = format(a, "x")
                else:
                    x = k[1]
                    if name == "ceil":
                        v = math.ceil(x)
                    elif name == "floor":
                        v = math.floor(x)
                    elif name == "trunc":
                        v = math.floor(x) if x >= 0 else -math.floor(-x)
                    else:
                        v = round(x)  # Fraction rounds half to even
                    r = format(round_exact(src, F(v), k[2]), "x")
                out.append((name, "f%d" % src, "f%d" % src, format(a, "x"), r))
    return out


with open("convvectors.txt", "w") as f:
    f.write("# op srctype dsttype operand result (hex bits; nan: any NaN). Written by floatvectors.py.\n")
    for line in conversions():
        f.write(" ".join(line) + "\n")
