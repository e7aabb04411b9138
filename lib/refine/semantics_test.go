package refine

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cliff/lib/driver"
	"cliff/lib/driver/drivertest"
)

// passSets are the combinations most tests refine with: each pass alone
// and all of them.
var passSets = [][]string{{"decoy"}, {"merge"}, {"operands"}, {"sink"}, {"decoy", "merge", "operands", "sink"}}

// functionPasses are the names of the passes that rewrite functions (all
// but the case-level prune, which needs a case's inputs and features).
func functionPasses() []string {
	var out []string
	for _, p := range table {
		if p.run != nil {
			out = append(out, p.Name)
		}
	}
	return out
}

// everySubset is every non-empty combination of the function passes.
func everySubset() [][]string {
	var out [][]string
	names := functionPasses()
	for mask := 1; mask < 1<<len(names); mask++ {
		var set []string
		for i, n := range names {
			if mask&(1<<i) != 0 {
				set = append(set, n)
			}
		}
		out = append(out, set)
	}
	return out
}

func keepsResults(names []string) bool {
	ps, _ := Select(names)
	for _, p := range ps {
		if !p.KeepsResults {
			return false
		}
	}
	return true
}

// TestRefinedCasesRunTheSame runs every test module before and after
// refinement by every combination of passes in Cranelift's interpreter
// (which also runs Cranelift's verifier): passes that keep results must
// give the same outputs on every input; the others must still run without
// a trap or running out of fuel, as a refined case must stay free of
// undefined behaviour.
func TestRefinedCasesRunTheSame(t *testing.T) {
	d := drivertest.Client(t)
	for k, m := range testModules(t, 20) {
		orig := parse(t, m.clif)
		vectors := inputs(orig.Funcs[0].Sig, 4, uint64(k))
		want := run(t, d, orig, vectors)
		for _, line := range want {
			if strings.Contains(line, "trap") || strings.Contains(line, "timeout") {
				t.Fatalf("%s: the input module itself fails: %s\n%s", m.name, line, m.clif)
			}
		}
		for _, set := range everySubset() {
			mod := refined(t, m.clif, set...)
			got := run(t, d, mod, vectors)
			for i := range got {
				switch {
				case strings.Contains(got[i], "trap") || strings.Contains(got[i], "timeout"):
					t.Errorf("%s after %v, input %d: %s\n%s", m.name, set, i, got[i], text(mod))
				case keepsResults(set) && got[i] != want[i]:
					t.Errorf("%s after %v, input %d: got %s, want %s (unchanged)\n%s", m.name, set, i, got[i], want[i], text(mod))
				}
			}
		}
	}
}

// compileTargets are the targets refined cases are compiled for.
var compileTargets = []string{"x86_64", "aarch64", "riscv64 has_v", "s390x"}

// TestRefinedCasesCompile compiles every test module, refined by all
// passes, for each target at opt_level=speed: what the passes add
// (conversions, extra params, decoys) must lower wherever the input does.
func TestRefinedCasesCompile(t *testing.T) {
	d := drivertest.Client(t)
	var before, after []string
	for _, m := range testModules(t, 20) {
		before = append(before, m.clif)
		after = append(after, text(refined(t, m.clif, "decoy", "merge", "operands", "sink")))
	}
	for _, target := range compileTargets {
		b := compile(t, d, target, before)
		a := compile(t, d, target, after)
		for i := range a {
			if b[i] == "" && a[i] != "" {
				t.Errorf("%s: module %d compiles, refined it does not: %s", target, i, a[i])
			}
		}
	}
}

// compile compiles each module in its own batch and returns, per module,
// "" or why it failed.
func compile(t *testing.T, d *driver.Client, target string, modules []string) []string {
	out := make([]string, len(modules))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	req := &driver.CompileRequest{Target: target, Flags: []string{"opt_level=speed", "preserve_frame_pointers=true", "enable_multi_ret_implicit_sret=true"},
		Output: filepath.Join(t.TempDir(), "out.o"), Modules: modules}
	ans, err := d.Compile(ctx, req)
	if err != nil {
		t.Fatalf("%s: %v", target, err)
	}
	for i, m := range ans.Modules {
		if m.Status != driver.StatusOK {
			out[i] = fmt.Sprintf("%s: %s %s", m.Status, m.Message, m.Location)
		}
	}
	return out
}

// TestRefinedCasesVerifyForTheTarget runs Cranelift's verifier with the
// x86_64 ISA (the interpreter's has none) on every refined module.
func TestRefinedCasesVerifyForTheTarget(t *testing.T) {
	d := drivertest.Client(t)
	for _, m := range testModules(t, 20) {
		for _, set := range passSets {
			clif := text(refined(t, m.clif, set...))
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			if err := d.Verify(ctx, clif, "x86_64", nil); err != nil {
				t.Errorf("%s after %v: %v\n%s", m.name, set, err, clif)
			}
			cancel()
		}
	}
}
