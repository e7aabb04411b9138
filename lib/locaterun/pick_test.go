package locaterun

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"cliff/lib/record"
)

func cfg(arch, opt, exec string) record.Config {
	return record.Config{Arch: arch, OptLevel: opt, Executor: exec}
}

// TestPickStakes: the configurations a failure is re-run on are cheap and
// keep the blame where the verdict put it.
func TestPickStakes(t *testing.T) {
	x86 := []record.Config{cfg("x86_64", "none", "native"), cfg("x86_64", "speed", "native")}
	rv := []record.Config{cfg("riscv64", "none", "qemu"), cfg("riscv64", "speed", "qemu")}
	s390 := []record.Config{cfg("s390x", "none", "qemu")}
	for _, tc := range []struct {
		name string
		v    record.Verdict
		want [][]string // per stake: the configurations, then "final:" ones
	}{
		{"divergence without the reference or the interpreter: the reference first, then interp as the second passing configuration, else another arch",
			record.Verdict{Verdict: record.OutcomeDivergent, Sides: []record.Side{
				{Configs: append(slices.Clone(x86), s390...), Status: record.StatusOK},
				{Configs: rv, Status: record.StatusOK}}},
			[][]string{{"riscv64/none/qemu", "ref/none/ref", "x86_64/none/native"},
				{"riscv64/none/qemu", "x86_64/none/native", "interp/none/interp"},
				{"riscv64/none/qemu", "x86_64/none/native", "s390x/none/qemu"}}},
		{"divergence the reference decided: the reference alone",
			record.Verdict{Verdict: record.OutcomeDivergent, Sides: []record.Side{
				{Configs: append(slices.Clone(rv), cfg("ref", "none", "ref")), Status: record.StatusOK},
				{Configs: append(slices.Clone(x86), s390...), Status: record.StatusOK}}},
			[][]string{{"x86_64/none/native", "ref/none/ref"}}},
		{"reference divergence: the cheapest of Cranelift and the reference",
			record.Verdict{Verdict: record.OutcomeReferenceDivergent, Sides: []record.Side{
				{Configs: []record.Config{cfg("ref", "none", "ref")}, Status: record.StatusOK},
				{Configs: append(slices.Clone(rv), x86...), Status: record.StatusOK}}},
			[][]string{{"x86_64/none/native", "ref/none/ref"}}},
		{"compile crash: the failing config alone, a native passing configuration for the last run",
			record.Verdict{Verdict: record.OutcomeCompileCrash, Sides: []record.Side{
				{Configs: rv, Status: record.StatusCompileCrash},
				{Configs: x86, Status: record.StatusOK}}},
			[][]string{{"riscv64/none/qemu", "final:x86_64/none/native"}}},
		{"compile crash at none only: the passing target from another architecture, even under QEMU",
			record.Verdict{Verdict: record.OutcomeCompileCrash, Sides: []record.Side{
				{Configs: x86[:1], Status: record.StatusCompileCrash},
				{Configs: append(slices.Clone(x86[1:]), rv...), Status: record.StatusOK}}},
			[][]string{{"x86_64/none/native", "final:riscv64/none/qemu"}}},
		{"run-time crash with only QEMU passing configurations: none",
			record.Verdict{Verdict: record.OutcomeCrash, Sides: []record.Side{
				{Configs: x86, Status: record.StatusCrash},
				{Configs: rv, Status: record.StatusOK}}},
			[][]string{{"x86_64/none/native"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got [][]string
			for _, st := range pickStakes(&tc.v) {
				var names []string
				for _, c := range st.configs() {
					names = append(names, c.String())
				}
				for _, c := range st.finalPassing {
					names = append(names, "final:"+c.String())
				}
				got = append(got, names)
			}
			if !slices.EqualFunc(got, tc.want, slices.Equal) {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}

// TestReproPath: a second reduced file of one signature gets a name of
// its own; the same text keeps its file.
func TestReproPath(t *testing.T) {
	o := &Options{Dir: t.TempDir()}
	first := o.reproPath("abc", "one")
	if err := os.WriteFile(first, []byte("one"), 0o644); err != nil {
		t.Fatal(err)
	}
	if again := o.reproPath("abc", "one"); again != first {
		t.Errorf("the same text: %s, want %s", again, first)
	}
	second := o.reproPath("abc", "two")
	if second == first || filepath.Base(second) != "abc-2.clif" {
		t.Errorf("another text: %s", second)
	}
}
