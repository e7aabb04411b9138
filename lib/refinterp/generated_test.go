package refinterp

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"cliff/lib/gen"
	"cliff/lib/ir"
	"cliff/lib/parser"
	"cliff/lib/profile"
	"cliff/lib/record"
	"cliff/lib/verify"
)

// caseArgs parses a generated case's input vector against fn's params.
func caseArgs(fn *ir.Function, vec record.InputVector) ([]ir.DataValue, error) {
	if len(vec) != len(fn.Sig.Params) {
		return nil, fmt.Errorf("%d values for %s, which takes %d", len(vec), fn.Name, len(fn.Sig.Params))
	}
	args := make([]ir.DataValue, len(vec))
	for i, v := range vec {
		t, ok := ir.ParseType(v.Type)
		if !ok {
			return nil, fmt.Errorf("value %d: unknown type %q", i, v.Type)
		}
		dv, err := parser.ParseDataValue(t, v.Value)
		if err != nil {
			return nil, fmt.Errorf("value %d: %w", i, err)
		}
		args[i] = dv
	}
	return args, nil
}

func entryOf(c *record.Case, m *ir.Module) string {
	if c.Entry != "" {
		return c.Entry
	}
	return m.Funcs[0].Name
}

// outcomeKind names how a run ended, for counting.
func outcomeKind(o Outcome, err error) string {
	switch {
	case err == nil && o.Trapped():
		return "trap " + o.Trap.String()
	case err == nil:
		return "results"
	case errors.Is(err, ErrUnsupported):
		return "unsupported: " + reasonKey(err.Error())
	case errors.Is(err, ErrFuel):
		return "fuel"
	case errors.Is(err, ErrDepth):
		return "depth"
	case errors.Is(err, ErrMemory):
		return "memory"
	case errors.Is(err, ErrUndefined):
		return "undefined: " + reasonKey(err.Error())
	}
	return "error: " + err.Error()
}

// TestGeneratedCases runs cliff-gen's compat cases (the sample the
// benchmarks use): every run ends with results or a trap, none with an
// error, since generated cases are valid, guarded and use only opcodes
// the reference implements.
func TestGeneratedCases(t *testing.T) {
	cases, mods, err := gen.Sample(200)
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string]int{}
	for i, c := range cases {
		in := New(mods[i], DefaultLimits)
		entry := entryOf(c, mods[i])
		for j, vec := range c.Inputs {
			args, err := caseArgs(mods[i].Func(entry), vec)
			if err != nil {
				t.Fatalf("case %d input %d: %v", i, j, err)
			}
			o, err := in.Call(entry, args)
			k := outcomeKind(o, err)
			counts[k]++
			if err != nil && counts[k] <= 3 {
				t.Errorf("case %d (%s) input %d: %v", i, c.ID, j, err)
			}
		}
	}
	var keys []string
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		t.Logf("%6d %s", counts[k], k)
	}
}

// smallLimits make fuzzed programs end quickly.
var smallLimits = Limits{Fuel: 2000, MaxDepth: 20, MaxStackBytes: 1 << 16}

// FuzzGenerated: no generated module that the verifier accepts makes the
// interpreter panic, on the case's inputs, under small limits; prof picks
// the profile (compat or an architecture's, whose opcodes differ).
func FuzzGenerated(f *testing.F) {
	var profs []*profile.Profile
	for _, name := range []string{"compat", "x86_64", "aarch64", "riscv64", "s390x"} {
		p, err := profile.Load(name)
		if err != nil {
			f.Fatal(err)
		}
		profs = append(profs, p)
	}
	for i, s := range []uint64{0, 1, 2, 3, 42, 1 << 40} {
		f.Add(s, uint8(3), uint8(i))
	}
	f.Fuzz(func(t *testing.T, seed uint64, depth, prof uint8) {
		p := profs[int(prof)%len(profs)]
		g, err := gen.New(gen.DefaultOptions(p, seed, int(depth%6)+1))
		if err != nil {
			t.Skip(err)
		}
		c, m, err := g.Case(seed)
		if err != nil {
			t.Skip(err)
		}
		if errs := verify.Module(m); errs != nil {
			t.Skip(errs)
		}
		in := New(m, smallLimits)
		entry := entryOf(c, m)
		for _, vec := range c.Inputs {
			args, err := caseArgs(m.Func(entry), vec)
			if err != nil {
				t.Fatal(err)
			}
			in.Call(entry, args) // no panic is the property
		}
	})
}

// FuzzCLIF: no CLIF text that parses and verifies makes the interpreter
// panic, on the arguments of its run commands, under small limits. The
// seeds are the semantics test files.
func FuzzCLIF(f *testing.F) {
	files, _ := filepath.Glob("testdata/sem/*.clif")
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		file, err := parser.ParseFile("fuzz.clif", src)
		if err != nil {
			t.Skip()
		}
		if errs := verify.Module(&file.Module); errs != nil {
			t.Skip()
		}
		CheckFile(file, smallLimits) // no panic is the property
	})
}
