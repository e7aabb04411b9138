package weights

import (
	"strings"
	"testing"
)

// TestParse: every line form, and each bad line named by file:line with
// what is wrong.
func TestParse(t *testing.T) {
	tests := []struct {
		name, text string
		families   map[string]float64
		types      map[string]float64
		err        string
	}{
		{name: "empty", text: "", families: map[string]float64{}, types: map[string]float64{}},
		{name: "comments and blanks", text: "# header\n\n  family bitwise 3.5  # more bitwise\ntype i8x16 2\ntype f16 0.5\n",
			families: map[string]float64{"bitwise": 3.5}, types: map[string]float64{"i8x16": 2, "f16": 0.5}},
		{name: "target family", text: "family target 2\n", families: map[string]float64{"target": 2}, types: map[string]float64{}},
		{name: "two fields", text: "family bitwise\n", err: "w.txt:1: want 'family NAME WEIGHT'"},
		{name: "unknown family", text: "\nfamily bits 2\n", err: `w.txt:2: unknown family "bits"`},
		{name: "unknown kind", text: "opcode iadd 2\n", err: `w.txt:1: unknown kind "opcode"`},
		{name: "not a type", text: "type i7 2\n", err: `w.txt:1: type "i7": want a scalar or 128-bit vector`},
		{name: "wide vector", text: "type i32x8 2\n", err: `w.txt:1: type "i32x8"`},
		{name: "dynamic vector", text: "type i32x4xN 2\n", err: `w.txt:1: type "i32x4xN"`},
		{name: "not a number", text: "type i32 lots\n", err: `w.txt:1: weight "lots" is not a number`},
		{name: "NaN", text: "type i32 NaN\n", err: `w.txt:1: weight "NaN" is not a number`},
		{name: "zero", text: "family float 0\n", err: "w.txt:1: weight 0 of family float: want 0.125 to 16"},
		{name: "too big", text: "family float 17\n", err: "w.txt:1: weight 17 of family float"},
		{name: "twice", text: "family float 2\nfamily float 3\n", err: "w.txt:2: family float is weighted twice"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, err := Parse("w.txt", []byte(tt.text))
			if tt.err != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tt.err) {
					t.Fatalf("error %v, want one starting %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !equal(w.Families, tt.families) || !equal(w.Types, tt.types) {
				t.Errorf("got %v %v, want %v %v", w.Families, w.Types, tt.families, tt.types)
			}
		})
	}
}

func equal(a, b map[string]float64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if bv, ok := b[k]; !ok || bv != v {
			return false
		}
	}
	return true
}

// TestWriteReadsBack: what Write writes, Parse reads as the same weights,
// sorted, with the header as comments.
func TestWriteReadsBack(t *testing.T) {
	w := Weights{Families: map[string]float64{"lanes": 2.25, "bitwise": 4}, Types: map[string]float64{"i8x16": 3, "f32": 1.5}}
	var b strings.Builder
	if err := Write(&b, w, []string{"from compat:500"}); err != nil {
		t.Fatal(err)
	}
	want := "# from compat:500\nfamily bitwise 4\nfamily lanes 2.25\ntype f32 1.5\ntype i8x16 3\n"
	if b.String() != want {
		t.Fatalf("Write:\n%s\nwant:\n%s", b.String(), want)
	}
	back, err := Parse("w", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if !equal(back.Families, w.Families) || !equal(back.Types, w.Types) {
		t.Errorf("read back %v %v", back.Families, back.Types)
	}
	if back.Family("float") != 1 || back.Family("lanes") != 2.25 {
		t.Errorf("Family: %v %v", back.Family("float"), back.Family("lanes"))
	}
}
