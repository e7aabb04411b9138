package gen

import (
	"slices"
	"testing"

	"cliff/lib/ir"
)

// TestScopeReset: reset empties the lists of the types pushed (typed)
// only, so every list must be empty after it, whatever types were pushed
// and popped before, and the next function's scope must hold just its
// own values.
func TestScopeReset(t *testing.T) {
	for _, tc := range []struct {
		name  string
		types []ir.Type
		pop   int // values popped before reset
	}{
		{"none", nil, 0},
		{"one", []ir.Type{ir.I32}, 0},
		{"several", []ir.Type{ir.I8, ir.I32, ir.F64, ir.I32, ir.Vector(ir.I8, 16), ir.I128}, 0},
		{"popped", []ir.Type{ir.I8, ir.I32, ir.F64}, 2},
		{"all popped", []ir.Type{ir.I64, ir.F32}, 2},
		{"word edges", []ir.Type{0, 63, 64, 127, 128, 191, 192, fixedTypeCodes - 1}, 3},
		{"every code", func() (out []ir.Type) {
			for c := range fixedTypeCodes {
				out = append(out, ir.Type(c))
			}
			return out
		}(), 100},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var s scope
			for round := range 3 {
				s.reset()
				for c := range fixedTypeCodes {
					if n := len(s.values(ir.Type(c))); n != 0 {
						t.Fatalf("round %d: after reset, %d values of type code %#x", round, n, c)
					}
				}
				for k, ty := range tc.types {
					s.push(ir.Value(k), ty)
				}
				s.pop(len(tc.types) - tc.pop)
				for k, ty := range tc.types[:len(tc.types)-tc.pop] {
					if vs := s.values(ty); len(vs) == 0 || !slices.Contains(vs, ir.Value(k)) {
						t.Fatalf("round %d: v%d of %s not in scope: %v", round, k, ty, vs)
					}
				}
			}
		})
	}
}
