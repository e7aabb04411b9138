package gen

import (
	"slices"
	"testing"

	"cliff/lib/profile"
)

// TestTakers checks the cached takers of each family and candidate type
// against a scan of the family with takesType, asked twice (computed,
// then cached), for profiles of different opcode and type tables.
func TestTakers(t *testing.T) {
	for _, name := range []string{"compat", "x86_64", "aarch64", "s390x", "pulley32"} {
		t.Run(name, func(t *testing.T) {
			p, err := profile.Load(name)
			if err != nil {
				t.Fatal(err)
			}
			tab := newTables(p, false)
			some := 0
			for fam := range tab.byFamily {
				for _, ty := range candidateTypes {
					var want []opType
					for _, ot := range tab.byFamily[fam] {
						if takesType(ot, ty) {
							want = append(want, ot)
						}
					}
					some += len(want)
					for range 2 {
						if got := tab.takers(fam, ty); !slices.Equal(got, want) {
							t.Fatalf("family %s, %s: takers %v, want %v", families[fam].name, ty, got, want)
						}
					}
				}
			}
			if some == 0 {
				t.Error("no computation takes any type")
			}
		})
	}
}
