package canon

import (
	"encoding/hex"
	"testing"

	"cliff/lib/ir"
)

func dv(t *testing.T, typ, hexLE string) ir.DataValue {
	t.Helper()
	ty, ok := ir.ParseType(typ)
	if !ok {
		t.Fatalf("bad type %q", typ)
	}
	b, err := hex.DecodeString(hexLE)
	if err != nil || len(b) != ty.Bytes() {
		t.Fatalf("bad value %s %s", typ, hexLE)
	}
	return ir.DataValue{Type: ty, Bytes: b}
}

func TestValueCanonicalisesNaNLanesOnly(t *testing.T) {
	tests := []struct {
		name, typ, in, want string
	}{
		{"f32 signalling NaN", "f32", "0100807f", "0000c07f"},
		{"f32 negative quiet NaN", "f32", "0000c0ff", "0000c07f"},
		{"f32 canonical stays", "f32", "0000c07f", "0000c07f"},
		{"f32 +inf is not NaN", "f32", "0000807f", "0000807f"},
		{"f32 -0.0 stays", "f32", "00000080", "00000080"},
		{"f64 NaN with payload", "f64", "010000000000f8ff", "000000000000f87f"},
		{"f64 -inf is not NaN", "f64", "000000000000f0ff", "000000000000f0ff"},
		{"f16 NaN", "f16", "01fc", "007e"},
		{"f16 inf", "f16", "007c", "007c"},
		{"f128 NaN low payload", "f128", "0100000000000000" + "000000000000ff7f", "0000000000000000" + "000000000080ff7f"},
		{"f128 inf", "f128", "0000000000000000" + "000000000000ff7f", "0000000000000000" + "000000000000ff7f"},
		{"f32x4 one NaN lane", "f32x4", "0000803f" + "0100807f" + "00000000" + "ffffffff", "0000803f" + "0000c07f" + "00000000" + "0000c07f"},
		{"i32 all ones untouched", "i32", "ffffffff", "ffffffff"},
		{"i32x4 NaN pattern untouched", "i32x4", "0100807f0100807f0100807f0100807f", "0100807f0100807f0100807f0100807f"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := dv(t, tc.typ, tc.in)
			orig := append([]byte(nil), in.Bytes...)
			got := Value(in)
			if h := hex.EncodeToString(got.Bytes); h != tc.want {
				t.Errorf("Value(%s %s) = %s, want %s", tc.typ, tc.in, h, tc.want)
			}
			if hex.EncodeToString(in.Bytes) != hex.EncodeToString(orig) {
				t.Errorf("Value modified its argument")
			}
		})
	}
}

func TestTextIsTypedAndCanonical(t *testing.T) {
	got := Text([]ir.DataValue{dv(t, "i32", "2a000000"), dv(t, "f32", "0100807f")})
	want := Text([]ir.DataValue{dv(t, "i32", "2a000000"), dv(t, "f32", "0000c0ff")})
	if got != want {
		t.Errorf("NaN payloads leak into the text: %q vs %q", got, want)
	}
	if got != "i32 42, f32 +NaN" {
		t.Errorf("Text = %q, want %q", got, "i32 42, f32 +NaN")
	}
}

func TestHasherDistinguishesOutcomes(t *testing.T) {
	one := []ir.DataValue{dv(t, "i32", "01000000")}
	two := []ir.DataValue{dv(t, "i32", "02000000")}
	i64one := []ir.DataValue{dv(t, "i64", "0100000000000000")}
	pair := []ir.DataValue{dv(t, "i32", "01000000"), dv(t, "i32", "02000000")}
	sum := func(steps ...func(*Hasher)) string {
		h := NewHasher()
		for _, s := range steps {
			s(h)
		}
		return h.Sum()
	}
	res := func(v []ir.DataValue) func(*Hasher) { return func(h *Hasher) { h.Results(v) } }
	trap := func(c string) func(*Hasher) { return func(h *Hasher) { h.Trap(c) } }
	distinct := map[string]string{
		"1":                 sum(res(one)),
		"2":                 sum(res(two)),
		"i64 1":             sum(res(i64one)),
		"1,2 as one vector": sum(res(pair)),
		"1 then 2":          sum(res(one), res(two)),
		"2 then 1":          sum(res(two), res(one)),
		"trap divz":         sum(trap("int_divz")),
		"trap ovf":          sum(trap("int_ovf")),
		"1 then trap":       sum(res(one), trap("int_divz")),
		"none":              sum(),
	}
	seen := map[string]string{}
	for name, h := range distinct {
		if len(h) != 16 {
			t.Errorf("%s: hash %q is not 16 hex digits", name, h)
		}
		if other, ok := seen[h]; ok {
			t.Errorf("%s and %s hash alike (%s)", name, other, h)
		}
		seen[h] = name
	}
	nan1 := []ir.DataValue{dv(t, "f64", "010000000000f8ff")}
	nan2 := []ir.DataValue{dv(t, "f64", "000000000000f87f")}
	if sum(res(nan1)) != sum(res(nan2)) {
		t.Error("NaN payloads change the hash")
	}
	if sum(res(one), res(two)) != sum(res(one), res(two)) {
		t.Error("the hash is not deterministic")
	}
}
