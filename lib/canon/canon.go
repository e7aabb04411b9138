// Package canon turns the results of running a case into the canonical form
// that cliff compares across configurations: typed values, little-endian
// per lane, every NaN lane replaced by one canonical quiet NaN, then text
// for humans and an xxhash64 for cliff-diff.
//
// NaN payloads and signs are not specified by CLIF (they differ between
// architectures by design), so two targets that agree up to NaN payloads
// agree. Everything else is compared bit for bit. The byte form is the
// same whichever target produced it: values arrive little-endian from the
// harness (see lib/tramp) and from the interpreter alike.
package canon

import (
	"encoding/binary"
	"strings"

	"github.com/cespare/xxhash/v2"

	"cliff/lib/ir"
	"cliff/lib/printer"
)

// Value returns v with each NaN float lane replaced by the canonical quiet
// NaN of its width (sign clear, only the quiet bit in the payload). v's
// bytes are not modified.
func Value(v ir.DataValue) ir.DataValue {
	if !v.Type.IsFloat() {
		return v
	}
	size := v.Type.LaneBits() / 8
	out := ir.DataValue{Type: v.Type, Bytes: append([]byte(nil), v.Bytes...)}
	for off := 0; off+size <= len(out.Bytes); off += size {
		canonicalizeLane(out.Bytes[off : off+size])
	}
	return out
}

// canonicalizeLane rewrites one little-endian float lane in place if it is
// a NaN: exponent all ones and a non-zero mantissa.
func canonicalizeLane(b []byte) {
	switch len(b) {
	case 2:
		x := binary.LittleEndian.Uint16(b)
		if x&0x7c00 == 0x7c00 && x&0x03ff != 0 {
			binary.LittleEndian.PutUint16(b, 0x7e00)
		}
	case 4:
		x := binary.LittleEndian.Uint32(b)
		if x&0x7f800000 == 0x7f800000 && x&0x007fffff != 0 {
			binary.LittleEndian.PutUint32(b, 0x7fc00000)
		}
	case 8:
		x := binary.LittleEndian.Uint64(b)
		if x&0x7ff0000000000000 == 0x7ff0000000000000 && x&0x000fffffffffffff != 0 {
			binary.LittleEndian.PutUint64(b, 0x7ff8000000000000)
		}
	case 16:
		lo := binary.LittleEndian.Uint64(b[:8])
		hi := binary.LittleEndian.Uint64(b[8:])
		if hi&0x7fff000000000000 == 0x7fff000000000000 && (hi&0x0000ffffffffffff != 0 || lo != 0) {
			binary.LittleEndian.PutUint64(b[:8], 0)
			binary.LittleEndian.PutUint64(b[8:], 0x7fff800000000000)
		}
	}
}

// Values canonicalises each value.
func Values(vs []ir.DataValue) []ir.DataValue {
	out := make([]ir.DataValue, len(vs))
	for i, v := range vs {
		out[i] = Value(v)
	}
	return out
}

// Text is the canonical text of one input vector's results: each value as
// in a run command, with its type, comma separated: "i32 0x2a, f32 +NaN".
func Text(vs []ir.DataValue) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		v = Value(v)
		parts[i] = v.Type.String() + " " + printer.DataValue(v)
	}
	return strings.Join(parts, ", ")
}

// TrapText is the canonical text of an input vector that trapped.
func TrapText(code string) string { return "trap " + code }

// A Hasher hashes the outcomes of a run's input vectors, in order. The
// encoding is unambiguous (tags and lengths), so different outcome
// sequences cannot collide by concatenation.
type Hasher struct {
	d   *xxhash.Digest
	buf []byte
}

// NewHasher returns an empty Hasher.
func NewHasher() *Hasher { return &Hasher{d: xxhash.New()} }

// Results adds one input vector's results.
func (h *Hasher) Results(vs []ir.DataValue) {
	h.buf = append(h.buf[:0], 'R')
	h.buf = binary.LittleEndian.AppendUint32(h.buf, uint32(len(vs)))
	for _, v := range vs {
		v = Value(v)
		h.buf = binary.LittleEndian.AppendUint16(h.buf, uint16(v.Type))
		h.buf = binary.LittleEndian.AppendUint32(h.buf, uint32(len(v.Bytes)))
		h.buf = append(h.buf, v.Bytes...)
	}
	h.d.Write(h.buf)
}

// Trap adds an input vector that trapped with code.
func (h *Hasher) Trap(code string) {
	h.buf = append(h.buf[:0], 'T')
	h.buf = binary.LittleEndian.AppendUint32(h.buf, uint32(len(code)))
	h.buf = append(h.buf, code...)
	h.d.Write(h.buf)
}

// Sum returns the hash as record.Hash spells it: 16 hex digits.
func (h *Hasher) Sum() string {
	const digits = "0123456789abcdef"
	s := h.d.Sum64()
	var b [16]byte
	for i := 15; i >= 0; i-- {
		b[i] = digits[s&15]
		s >>= 4
	}
	return string(b[:])
}
