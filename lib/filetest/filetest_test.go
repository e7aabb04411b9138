package filetest_test

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cliff/lib/filetest"
	"cliff/lib/ir"
	"cliff/lib/parser"
	"cliff/lib/printer"
	"cliff/lib/record"
	"cliff/lib/reduce"
	"cliff/lib/reduce/reducetest"
	"cliff/lib/verify"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// roundTrip checks that text is a filetest Cranelift's reader would take:
// it parses as a file, its functions verify under its header, and
// printing it again gives it back (after the header comments).
func roundTrip(t *testing.T, text string) *ir.File {
	t.Helper()
	file, err := parser.ParseFile("repro.clif", []byte(text))
	if err != nil {
		t.Fatalf("rendered filetest does not parse: %v\n%s", err, text)
	}
	if errs := verify.ModuleWith(&file.Module, verify.OptionsFor(file)); len(errs) > 0 {
		t.Fatalf("rendered filetest does not verify: %v\n%s", errs, text)
	}
	var b bytes.Buffer
	if err := printer.File(&b, file); err != nil {
		t.Fatal(err)
	}
	body := text
	for strings.HasPrefix(body, ";") {
		_, body, _ = strings.Cut(body, "\n")
	}
	if b.String() != body {
		t.Errorf("printing the parsed filetest changes it:\n%s\nwant:\n%s", b.String(), body)
	}
	if strings.Contains(text, "@c1ff") {
		t.Errorf("cliff's scaffold mark is in the filetest:\n%s", text)
	}
	return file
}

func TestRenderGolden(t *testing.T) {
	mod, err := parser.ParseModuleString("m", `function %main(i32, i8) -> i32, i8x16 tail {
block0(v0: i32, v1: i8):
@c1ff v2 = imul v0, v0
    v3 = scalar_to_vector.i8x16 v1
    return v2, v3
}
`)
	if err != nil {
		t.Fatal(err)
	}
	args, err := filetest.Inputs(record.InputVector{{Type: "i32", Value: "-3"}, {Type: "i8", Value: "0x5a"}})
	if err != nil {
		t.Fatal(err)
	}
	want, trap, err := filetest.Outputs("i32 9, i8x16 0x0000000000000000000000000000005a")
	if err != nil || trap != "" {
		t.Fatal(err, trap)
	}
	for _, tc := range []struct {
		name string
		spec filetest.Spec
	}{
		{"run", filetest.Spec{Module: mod, Settings: []string{"enable_multi_ret_implicit_sret=true"},
			Failing: []record.Config{{Arch: "x86_64", OptLevel: "speed", Flags: []string{"has_avx"}, Executor: record.ExecNative},
				{Arch: "x86_64", OptLevel: "none", Executor: record.ExecNative}},
			Passing: []record.Config{{Arch: "aarch64", OptLevel: "speed", Executor: record.ExecQemu},
				{Arch: "x86_64", OptLevel: "none", Executor: record.ExecInterp}},
			Runs: []filetest.Run{{Args: args, Want: want}}, Symptom: "divergent: x86_64 returns i32 -9", Notes: []string{"reduced by cliff-locate"}}},
		// The reference decided: it passes, but has no target line
		// (Cranelift's reader knows no architecture "ref").
		{"reference", filetest.Spec{Module: mod,
			Failing: []record.Config{{Arch: "x86_64", OptLevel: "none", Executor: record.ExecNative}},
			Passing: []record.Config{{Arch: "ref", OptLevel: "none", Executor: record.ExecRef}},
			Runs:    []filetest.Run{{Args: args, Want: want}}, Symptom: "divergent x86_64/*: i32 value"}},
		{"compile", filetest.Spec{Module: mod, Compile: true,
			Failing: []record.Config{{Arch: "x86_64", OptLevel: "none", Executor: record.ExecNative}},
			Passing: []record.Config{{Arch: "aarch64", OptLevel: "none", Executor: record.ExecQemu}},
			Symptom: "compile_crash x86_64: no rule matched for term bitcast_gpr_to_xmm"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			text, err := filetest.Render(tc.spec)
			if err != nil {
				t.Fatal(err)
			}
			file := roundTrip(t, text)
			if strings.Contains(text, "target ref") {
				t.Errorf("a target line for the reference:\n%s", text)
			}
			if !tc.spec.Compile && len(file.Commands) != 1 {
				t.Errorf("%d run commands, want 1", len(file.Commands))
			}
			golden := filepath.Join("testdata", tc.name+".clif")
			if *update {
				if err := os.WriteFile(golden, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			g, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if string(g) != text {
				t.Errorf("rendered:\n%s\nwant (%s):\n%s", text, golden, g)
			}
		})
	}
}

func TestOutputs(t *testing.T) {
	for _, tc := range []struct {
		text, trap string
		n          int
		err        bool
	}{
		{"i32 42, f32 +NaN", "", 2, false},
		{"i8x16 0x000102030405060708090a0b0c0d0e0f", "", 1, false},
		{"trap int_divz", "int_divz", 0, false},
		{"", "", 0, false},
		{"i32", "", 0, true},
		{"i33 1", "", 0, true},
	} {
		vals, trap, err := filetest.Outputs(tc.text)
		if (err != nil) != tc.err || trap != tc.trap || len(vals) != tc.n {
			t.Errorf("Outputs(%q) = %v, %q, %v", tc.text, vals, trap, err)
		}
	}
	// The canonical text round-trips through the printer's spelling.
	vals, _, _ := filetest.Outputs("i64 -5, f64 0x1.8p1")
	if got := printer.DataValue(vals[0]) + " " + printer.DataValue(vals[1]); got != "-5 0x1.8000000000000p1" {
		t.Errorf("values print as %q", got)
	}
}

func TestExpected(t *testing.T) {
	x86 := record.Config{Arch: "x86_64", OptLevel: "speed", Executor: record.ExecNative}
	arm := record.Config{Arch: "aarch64", OptLevel: "speed", Executor: record.ExecQemu}
	rv := record.Config{Arch: "riscv64", OptLevel: "speed", Executor: record.ExecQemu}
	interp := record.Config{Arch: "x86_64", OptLevel: "none", Executor: record.ExecInterp}
	res := func(c record.Config, out ...string) record.RunResult {
		return record.RunResult{Config: c, Status: record.StatusOK, Outputs: out}
	}
	ref := record.Config{Arch: "ref", OptLevel: "none", Executor: record.ExecRef}
	unsupported := record.RunResult{Config: interp, Status: record.StatusUnsupported, Outputs: []string{"unsupported: not implemented: SequencePoint"}}
	refUnsupported := record.RunResult{Config: ref, Status: record.StatusUnsupported, Outputs: []string{"unsupported: reference: unsupported"}}
	for _, tc := range []struct {
		name    string
		results []record.RunResult
		want    string
		ok      bool
	}{
		{"majority", []record.RunResult{res(x86, "a", "bad"), res(arm, "a", "b"), res(rv, "a", "b")}, "b", true},
		{"interpreter first", []record.RunResult{res(arm, "a", "c"), res(rv, "a", "c"), res(interp, "a", "b")}, "b", true},
		{"even", []record.RunResult{res(x86, "a", "bad"), res(arm, "a", "b"), res(rv, "a", "c")}, "", false},
		// An interpreter that did not take the case is no reference: its
		// outputs are the reason.
		{"interpreter unsupported", []record.RunResult{unsupported, res(arm, "a", "b"), res(rv, "a", "b")}, "b", true},
		// cliff's reference, when it answered, before Cranelift's
		// interpreter and any majority.
		{"reference first", []record.RunResult{res(interp, "a", "c"), res(arm, "a", "c"), res(ref, "a", "b")}, "b", true},
		{"reference unsupported", []record.RunResult{refUnsupported, res(interp, "a", "c"), res(arm, "a", "b")}, "c", true},
	} {
		got, ok := filetest.Expected(tc.results, []record.Config{x86}, 1)
		if ok != tc.ok || ok && got != tc.want {
			t.Errorf("%s: Expected = %q, %v; want %q, %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
	// On the input its reason stands at, too.
	if got, ok := filetest.Expected([]record.RunResult{unsupported, res(arm, "a", "b")}, []record.Config{x86}, 0); got != "a" || !ok {
		t.Errorf("interpreter unsupported, input 0: Expected = %q, %v; want \"a\", true", got, ok)
	}
}

// TestRenderReduced renders the reductions of generated cases with a
// modelled crash and miscompile: the filetests parse, verify and
// round-trip.
func TestRenderReduced(t *testing.T) {
	configs := []record.Config{{Arch: "x86_64", OptLevel: "speed", Executor: record.ExecNative},
		{Arch: "aarch64", OptLevel: "speed", Executor: record.ExecQemu}}
	for _, tc := range []struct {
		name    string
		shape   reducetest.Shape
		seed    uint64
		compile bool
	}{
		{"crash", reducetest.Crash(reducetest.Culprit{Op: ir.OpScalarToVector, Type: ir.I8X16}, ""), 1, true},
		{"miscompile", reducetest.Miscompile(reducetest.Culprit{Op: ir.OpImul, Type: ir.I32}), 2, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cand, err := reducetest.Generated(tc.seed, 5, 200, configs, tc.shape)
			if err != nil {
				t.Fatal(err)
			}
			tester := reduce.NewTester(&reducetest.Checked{Shape: tc.shape}, tc.shape(cand))
			res, err := reduce.Reduce(context.Background(), tester, cand, reduce.Options{Input: record.InputIndex(0)})
			if err != nil {
				t.Fatal(err)
			}
			c := res.Case
			spec := filetest.Spec{Module: c.Module, Entry: c.Entry, Settings: c.Settings, Failing: c.Configs[:1],
				Passing: c.Configs[1:], Compile: tc.compile, Symptom: tester.Want}
			if !tc.compile {
				var run filetest.Run
				if run.Args, err = filetest.Inputs(c.Inputs[0]); err != nil {
					t.Fatal(err)
				}
				for _, r := range c.EntryFunc().Sig.Returns {
					run.Want = append(run.Want, ir.DataValue{Type: r.Type, Bytes: make([]byte, r.Type.Bytes())})
				}
				spec.Runs = []filetest.Run{run}
			}
			text, err := filetest.Render(spec)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("\n%s", text)
			roundTrip(t, text)
		})
	}
}
