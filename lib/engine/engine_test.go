package engine

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"cliff/lib/driver/drivertest"
	"cliff/lib/extract"
	"cliff/lib/jsonl"
	"cliff/lib/record"
)

// tinyCase adds 2 to its argument, and divides by it, so that one input
// vector traps: results carry outputs, a trap and a hash.
func tinyCase(id string) *record.Case {
	c := &record.Case{ID: id, CLIF: "function %f(i32) -> i32 {\nblock0(v0: i32):\n    v1 = iconst.i32 2\n    v2 = iadd v0, v1\n    v3 = udiv v2, v0\n    return v3\n}\n",
		Inputs: []record.InputVector{{{Type: "i32", Value: "1"}}, {{Type: "i32", Value: "5"}}, {{Type: "i32", Value: "0"}}}}
	c.Stamp()
	return c
}

func newTestEngine(t *testing.T) *Engine {
	t.Helper()
	drv := drivertest.Require(t)
	e, err := New(context.Background(), Options{DriverPath: drv, Jobs: 1, Timeout: 10 * time.Second, CompileTimeout: time.Minute, Fuel: 100_000_000})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// withoutTimings is a case's results without their timings, which no two
// runs share.
func withoutTimings(c *record.Case) []record.RunResult {
	out := slices.Clone(c.Results)
	for i := range out {
		out[i].Timings = record.Timings{}
	}
	return out
}

// TestRun runs a case through one engine twice, on x86_64 and in the
// interpreter, and checks that each run appends the results cliff-run's
// Stream writes for the same case, that both runs use the same driver
// process, and that Close removes the scratch directories.
func TestRun(t *testing.T) {
	e := newTestEngine(t)
	configs, err := Configs(ConfigSpec{Arches: []string{"x86_64", "interp"}, Opts: []string{"speed"}})
	if err != nil {
		t.Fatal(err)
	}

	// What the streaming path (cliff-run) writes for the case.
	dir := t.TempDir()
	in, out := filepath.Join(dir, "in.jsonl"), filepath.Join(dir, "out.jsonl")
	w, err := jsonl.Create(in)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(tinyCase("tiny")); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Stream(context.Background(), StreamOptions{Configs: ConfigSpec{Arches: []string{"x86_64", "interp"}, Opts: []string{"speed"}}, Sources: []extract.Source{{Path: in}}, Output: out}); err != nil {
		t.Fatal(err)
	}
	r, closer, err := jsonl.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	var streamed record.Case
	if err := r.Next(&streamed); err != nil {
		t.Fatal(err)
	}
	closer.Close()
	// Each result says when the campaign had it: the report's "first seen".
	for _, res := range streamed.Results {
		if res.Timings.Done.IsZero() || time.Since(res.Timings.Done) > time.Hour || res.Timings.Done.Location() != time.UTC {
			t.Errorf("%s: done %v, want the time the chunk was done (UTC)", res.Config, res.Timings.Done)
		}
	}
	want := withoutTimings(&streamed)
	if len(want) != 2 {
		t.Fatalf("Stream wrote %d results, want 2", len(want))
	}

	for run := range 2 {
		c := tinyCase("tiny")
		if err := e.Run(context.Background(), []*record.Case{c}, configs); err != nil {
			t.Fatalf("run %d: %v", run, err)
		}
		got := withoutTimings(c)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("run %d: results\n%+v\nwant (as Stream writes them)\n%+v", run, got, want)
		}
		for _, res := range got {
			if res.Status != record.StatusTrap || res.Trap != "int_divz" || res.Hash == "" || res.Hash != got[0].Hash ||
				!slices.Equal(res.Outputs, []string{"i32 3", "i32 1", "trap int_divz"}) || res.Versions == nil || res.Versions.Cranelift == "" {
				t.Errorf("run %d: %s: %+v", run, res.Config, res)
			}
		}
	}
	if starts := e.workers[0].drv[""].Starts; starts != 1 {
		t.Errorf("the driver started %d times over one stream and two runs, want 1", starts)
	}
	dirs := []string{e.workers[0].dir}
	e.Close()
	for _, d := range dirs {
		if _, err := os.Stat(d); !os.IsNotExist(err) {
			t.Errorf("scratch directory %s left after Close (%v)", d, err)
		}
	}
}

// TestRunBadCase checks that a case cliff cannot take is an error naming
// it, and that nothing of the batch runs; and that a configuration
// Cranelift refuses is an error too, not a compile_error on every case.
func TestRunBadCase(t *testing.T) {
	e := newTestEngine(t)
	defer e.Close()
	configs, err := Configs(ConfigSpec{Arches: []string{"interp"}})
	if err != nil {
		t.Fatal(err)
	}
	bad := tinyCase("broken")
	bad.CLIF = strings.Replace(bad.CLIF, "return v3", "return v9", 1)
	good := tinyCase("fine")
	err = e.Run(context.Background(), []*record.Case{good, bad}, configs)
	if err == nil || !strings.Contains(err.Error(), `cases[1]: case "broken": clif does not parse`) {
		t.Errorf("bad case: error %v", err)
	}
	if len(good.Results) != 0 {
		t.Errorf("the good case of a batch with a bad one got results: %+v", good.Results)
	}
	refused := []record.Config{{Arch: "x86_64", OptLevel: "none", Flags: []string{"has_nonsense"}, Executor: record.ExecNative}}
	err = e.Run(context.Background(), []*record.Case{good}, refused)
	if err == nil || !strings.Contains(err.Error(), "Cranelift refuses") || len(good.Results) != 0 {
		t.Errorf("refused flag: error %v, results %+v", err, good.Results)
	}
	// The engine still works after both errors.
	if err := e.Run(context.Background(), []*record.Case{good}, configs); err != nil || len(good.Results) != 1 || good.Results[0].Status != record.StatusTrap {
		t.Errorf("after the errors: %v, %+v", err, good.Results)
	}
}

// TestRunCancelled checks that a cancelled run appends nothing.
func TestRunCancelled(t *testing.T) {
	e := newTestEngine(t)
	defer e.Close()
	configs, _ := Configs(ConfigSpec{Arches: []string{"interp"}})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	c := tinyCase("tiny")
	if err := e.Run(ctx, []*record.Case{c}, configs); err == nil || len(c.Results) != 0 {
		t.Errorf("cancelled run: error %v, results %+v", err, c.Results)
	}
}

// TestConfigs pins the configurations a spec makes: cliff-run's for case
// records, in result order, with the defaults filled in.
func TestConfigs(t *testing.T) {
	x86Default := []string{"has_sse3", "has_ssse3", "has_sse41", "has_sse42", "has_popcnt", "has_avx", "has_avx2", "has_fma", "has_bmi1", "has_bmi2", "has_lzcnt"}
	exec := executorFor("aarch64")
	tests := []struct {
		name string
		spec ConfigSpec
		want []record.Config
		err  string
	}{
		{"arch and interp", ConfigSpec{Arches: []string{"x86_64", "interp"}, Opts: []string{"speed"}}, []record.Config{
			{Arch: "x86_64", OptLevel: "speed", Flags: x86Default, Executor: executorFor("x86_64")},
			{Arch: "interp", OptLevel: "none", Executor: record.ExecInterp},
		}, ""},
		{"every opt level, own flags and settings", ConfigSpec{Arches: []string{"aarch64"}, Variants: map[string][]Variant{"aarch64": {{Flags: []string{}}}}, Settings: []string{"enable_nan_canonicalization=true"}}, []record.Config{
			{Arch: "aarch64", OptLevel: "none", Flags: []string{}, Settings: []string{"enable_nan_canonicalization=true"}, Executor: exec},
			{Arch: "aarch64", OptLevel: "speed", Flags: []string{}, Settings: []string{"enable_nan_canonicalization=true"}, Executor: exec},
			{Arch: "aarch64", OptLevel: "speed_and_size", Flags: []string{}, Settings: []string{"enable_nan_canonicalization=true"}, Executor: exec},
		}, ""},
		{"no arch: the host", ConfigSpec{Opts: []string{"none"}}, []record.Config{
			{Arch: hostArch(), OptLevel: "none", Flags: defaultISAFlags(hostArch()), Executor: record.ExecNative},
		}, ""},
		{"unknown arch", ConfigSpec{Arches: []string{"mips64"}}, nil, `architecture "mips64"`},
		{"unknown opt level", ConfigSpec{Opts: []string{"fast"}}, nil, `opt level "fast"`},
		{"flags of an unknown arch", ConfigSpec{Variants: map[string][]Variant{"x86": nil}}, nil, `ISA flags for "x86"`},
		// Several variants of one arch: one configuration per variant and
		// opt level, each with its own flags and settings after the
		// shared ones, so that riscv64 with and without V run side by
		// side; the interpreter has only the shared settings.
		{"variants of one arch", ConfigSpec{Arches: []string{"interp", "riscv64"}, Opts: []string{"none", "speed"}, Settings: []string{"a=1"},
			Variants: map[string][]Variant{"riscv64": {{Flags: []string{"has_v"}}, {Flags: []string{}, Settings: []string{"regalloc_algorithm=single_pass"}}}}}, []record.Config{
			{Arch: "interp", OptLevel: "none", Settings: []string{"a=1"}, Executor: record.ExecInterp},
			{Arch: "riscv64", OptLevel: "none", Flags: []string{"has_v"}, Settings: []string{"a=1"}, Executor: record.ExecQemu},
			{Arch: "riscv64", OptLevel: "speed", Flags: []string{"has_v"}, Settings: []string{"a=1"}, Executor: record.ExecQemu},
			{Arch: "riscv64", OptLevel: "none", Flags: []string{}, Settings: []string{"a=1", "regalloc_algorithm=single_pass"}, Executor: record.ExecQemu},
			{Arch: "riscv64", OptLevel: "speed", Flags: []string{}, Settings: []string{"a=1", "regalloc_algorithm=single_pass"}, Executor: record.ExecQemu},
		}, ""},
		{"a variant twice", ConfigSpec{Variants: map[string][]Variant{"s390x": {{Flags: []string{"has_mie3"}}, {Flags: []string{"has_mie3"}}}}}, nil, `ISA flags for s390x: "has_mie3" twice`},
		{"a variant's setting", ConfigSpec{Variants: map[string][]Variant{"s390x": {{Settings: []string{"opt_level=none"}}}}}, nil, `setting "opt_level=none"`},
		{"opt level as a setting", ConfigSpec{Settings: []string{"opt_level=speed"}}, nil, `setting "opt_level=speed"`},
	}
	for _, tt := range tests {
		got, err := Configs(tt.spec)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s: error %v, want %q", tt.name, err, tt.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: got %+v, %v\nwant %+v", tt.name, got, err, tt.want)
		}
	}
	// A case's settings are added as cliff-run adds them: a setting the
	// configuration gives keeps its value.
	base := []record.Config{{Arch: "interp", OptLevel: "none", Settings: []string{"a=1"}, Executor: record.ExecInterp}}
	got := forConfigs(base, []string{"a=2", "b=3"})
	if !slices.Equal(got[0].Settings, []string{"a=1", "b=3"}) || !slices.Equal(base[0].Settings, []string{"a=1"}) {
		t.Errorf("forConfigs: %v (base now %v)", got[0].Settings, base[0].Settings)
	}
}
