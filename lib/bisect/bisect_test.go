package bisect

import (
	"context"
	"strings"
	"testing"
)

var releases = []string{"0.130.0", "0.131.0", "0.132.0", "0.133.0", "0.134.0", "0.135.0", "0.136.0", "0.137.0", "0.138.0"}

// states makes a probe from a table of states; a version missing from it
// cannot be judged (it does not build), and every probe is counted.
func states(m map[string]State, probed *[]string) func(string) Probe {
	return func(v string) Probe {
		*probed = append(*probed, v)
		s, ok := m[v]
		if !ok {
			return Probe{Version: v, State: Unknown, Why: "cannot build: error[E0432]"}
		}
		return Probe{Version: v, State: s}
	}
}

func TestSearch(t *testing.T) {
	all := func(change string, before, after State) map[string]State {
		m := map[string]State{}
		for _, v := range releases {
			if v < change {
				m[v] = before
			} else {
				m[v] = after
			}
		}
		return m
	}
	without := func(m map[string]State, vs ...string) map[string]State {
		for _, v := range vs {
			delete(m, v)
		}
		return m
	}
	tests := []struct {
		name              string
		states            map[string]State
		kind, last, first string
		maxProbes         int
		err               string
	}{
		{name: "fixed in 0.136", states: all("0.136.0", Fails, Passes), kind: "fixed", last: "0.135.0", first: "0.136.0", maxProbes: 5},
		{name: "broken in 0.131", states: all("0.131.0", Passes, Fails), kind: "regression", last: "0.130.0", first: "0.131.0", maxProbes: 5},
		{name: "fixed in the newest", states: all("0.138.0", Fails, Passes), kind: "fixed", last: "0.137.0", first: "0.138.0", maxProbes: 5},
		{name: "the same at both ends", states: all("0.999.0", Fails, Fails), kind: "unchanged", maxProbes: 2},
		{
			name:   "releases that do not build are stepped over: the change lies between the nearest that do",
			states: without(all("0.135.0", Fails, Passes), "0.134.0", "0.135.0"),
			kind:   "fixed", last: "0.133.0", first: "0.136.0", maxProbes: 7,
		},
		{name: "an end that cannot be judged", states: without(all("0.135.0", Fails, Passes), "0.130.0"), err: "cannot judge it on 0.130.0: cannot build"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var probed []string
			kind, last, first, err := search(context.Background(), "f.clif", releases, states(tt.states, &probed))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil || kind != tt.kind || last != tt.last || first != tt.first {
				t.Fatalf("search = %s %s..%s, %v; want %s %s..%s", kind, last, first, err, tt.kind, tt.last, tt.first)
			}
			if len(probed) > tt.maxProbes {
				t.Errorf("%d probes (%v), want at most %d: a binary search", len(probed), probed, tt.maxProbes)
			}
		})
	}
}

func TestMatrixMarkdown(t *testing.T) {
	m := &Matrix{
		Versions: []string{"0.120.2", "0.135.8", "0.137.1"},
		Files:    []string{"findings/03-x.clif", "findings/04-y.clif"},
		Cells: [][]Probe{
			{{Version: "0.120.2", State: Unknown, Why: "0 passed, 0 failed, 6 skipped: nothing could be judged"}, {Version: "0.135.8", State: Fails}, {Version: "0.137.1", State: Passes}},
			{{Version: "0.120.2", State: Unknown, Why: "cannot build: needs Rust 1.99"}, {Version: "0.135.8", State: Fails, Kinds: []string{"compile_crash"}}, {Version: "0.137.1", State: Fails, Kinds: []string{"compile_error"}}},
		},
		Expect:  map[string][]string{"04-y.clif": {"compile_crash"}},
		Builds:  []Probe{{Version: "0.120.2", Seconds: 0}, {Version: "0.135.8", Seconds: 181}, {Version: "0.137.1"}},
		Seconds: 200,
	}
	var b strings.Builder
	if err := m.WriteMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"| finding | 0.120.2 | 0.135.8 | 0.137.1 | first | last |",
		"| 03-x | cannot run | **reproduces** | fixed | 0.135.8 | 0.135.8 |",
		"| 04-y | cannot build | **reproduces** | fails otherwise (compile_error) | 0.135.8 | 0.135.8 |",
		"- 03-x on 0.120.2: 0 passed, 0 failed, 6 skipped: nothing could be judged",
		"- 0.120.2: cannot build: needs Rust 1.99",
		"0.135.8 181;",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the matrix lacks %q:\n%s", want, out)
		}
	}
}

func TestFailKinds(t *testing.T) {
	log := `f.clif:9: FAIL x86_64/none/native: %a: 1 run lines: compile_crash: internal error
f.clif:12: FAIL x86_64/none/native: %b: 1 run lines: compile_error: function %b: Unsupported feature
f.clif:20: FAIL riscv64/speed/qemu: run: %c(1) == 2: got 3
f.clif:20: FAIL riscv64/none/qemu: run: %c(1) == 2: got 3
f.clif:22: SKIP interp/none/interp: run: %d(1) == 2: unsupported: not implemented
`
	if got := strings.Join(FailKinds(log), ","); got != "compile_crash,compile_error,wrong" {
		t.Errorf("FailKinds = %s", got)
	}
}

func TestExpectedKinds(t *testing.T) {
	exp, err := ExpectedKinds("../profile/data/findings/expected/0.135.8.txt")
	if err != nil {
		t.Fatal(err)
	}
	for file, want := range map[string]string{
		"01-x86_64-band-bor-f16-f128.clif":                "compile_crash",
		"05-aarch64-fpromote-f16-fdemote-f128-wrong.clif": "wrong",
		"20-riscv64-swizzle-splat-index.clif":             "wrong,crash",
	} {
		if got := strings.Join(exp[file], ","); got != want {
			t.Errorf("%s: %s, want %s", file, got, want)
		}
	}
	if _, ok := exp["12-qemu72-riscv64-vfcvt-rtz-assert.clif"]; ok {
		t.Errorf("a QEMU finding (harness_error) has Cranelift failure kinds")
	}
}
