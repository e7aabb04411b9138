package refine

import (
	"fmt"
	"reflect"
	"slices"
	"testing"

	"cliff/lib/gen"
	"cliff/lib/metrics"
	"cliff/lib/parser"
	"cliff/lib/printer"
	"cliff/lib/profile"
	"cliff/lib/record"
)

// TestCaseInRecycledMemory: Case, which builds each case in the memory of
// the cases before (caseMemory), gives every case what refining it in new
// memory gives (freshCase): the same record, or the same error. The cases
// come from tiny to deep, big after small and small after big, with other
// passes and with VerifyEach, and with bad input in between; one
// caseMemory refines them all, twice over in opposite orders.
func TestCaseInRecycledMemory(t *testing.T) {
	cases := recycledCases(t)
	noSink, err := Select([]string{"decoy", "merge", "operands"})
	if err != nil {
		t.Fatal(err)
	}
	optionSets := []Options{{Passes: Passes()}, {Passes: noSink}, {Passes: Passes(), VerifyEach: true}}
	var m caseMemory
	for round := range 2 {
		for k := range cases {
			if round == 1 {
				k = len(cases) - 1 - k
			}
			opts := optionSets[(k+round)%len(optionSets)]
			want, got := cases[k], cases[k]
			want.Refined, got.Refined = slices.Clone(want.Refined), slices.Clone(got.Refined)
			wantErr := freshCase(&want, opts)
			_, gotErr := m.refineCase(&got, opts)
			if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
				t.Fatalf("%s: error %v in recycled memory, %v in new", cases[k].ID, gotErr, wantErr)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s: refined in recycled memory:\n%s\nin new memory:\n%s", cases[k].ID, got.CLIF, want.CLIF)
			}
		}
	}
}

// freshCase is Case in new memory: the parser's and the passes'.
func freshCase(c *record.Case, opts Options) error {
	mod, err := parser.ParseModuleString("clif", c.CLIF)
	if err != nil {
		return &InputError{err}
	}
	names, err := refineModule(mod, c.Seed, c.Options.Index, opts, maskEachPass, new(scratch))
	if err != nil {
		return err
	}
	pruned, _, err := Prune(mod, c, opts)
	if err != nil {
		return err
	}
	if pruned {
		names = append(names, PruneStep)
	}
	c.CLIF = printer.Options{Compact: true}.ModuleString(mod)
	c.Refined = append(c.Refined, names...)
	c.Metrics = metrics.Of(mod)
	return nil
}

// recycledCases returns cliff-gen's cases at depths from 0 to 10, in an
// order that puts small ones after big ones and the reverse, with the
// hand-written modules and cases that do not parse among them.
func recycledCases(t *testing.T) []record.Case {
	p, err := profile.Load("compat")
	if err != nil {
		t.Fatal(err)
	}
	var out []record.Case
	for k, depth := range []int{5, 0, 10, 1, 8, 2, 10, 0, 5} {
		g, err := gen.New(gen.DefaultOptions(p, uint64(k), depth))
		if err != nil {
			t.Fatal(err)
		}
		for i := range 3 {
			c, _, err := g.Case(uint64(i))
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, *c)
		}
		bad := out[len(out)-1]
		bad.ID += " cut short"
		bad.CLIF = bad.CLIF[:len(bad.CLIF)/2]
		out = append(out, bad)
		name := handWritten[k%len(handWritten)]
		out = append(out, record.Case{ID: name, Seed: uint64(k), CLIF: text(readModule(t, name)),
			Refined: []string{"merge"}})
	}
	return out
}
