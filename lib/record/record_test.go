package record

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// marshal encodes a record as cliff's Writer does: one line, no HTML escaping.
func marshal(t *testing.T, v any) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

var (
	x86Speed  = Config{Arch: "x86_64", OptLevel: "speed", Flags: []string{"has_avx2", "has_bmi2"}, Executor: ExecNative}
	x86None   = Config{Arch: "x86_64", OptLevel: "none", Executor: ExecNative}
	interp    = Config{Arch: "x86_64", OptLevel: "none", Executor: ExecInterp}
	caseCLIF  = "function %f0(i32, i64) -> i32 fast {\nblock0(v0: i32, v1: i64):\n    v2 = icmp_imm slt v0, 0\n    brif v2, block1, block2(v0)\n\nblock1:\n    v3 = ireduce.i32 v1\n    jump block2(v3)\n\nblock2(v4: i32):\n    v5 = sdiv v4, v0\n    return v5\n}\n"
	exampleID = HashString(caseCLIF)
)

func exampleCase() *Case {
	c := &Case{
		ID:   exampleID,
		Seed: 18446744073709551557, // above 2^53: must survive as text
		Options: GenOptions{Index: 7, Profile: "compat", Depth: 3, Funcs: 2, Mutation: 0.5, Inputs: 2,
			Corpus: "corpus.jsonl.zst", CorpusHash: "0123456789abcdef"},
		Settings: []string{"enable_llvm_abi_extensions=true"},
		Refined:  []string{"merge", "operands", "sink"},
		Features: map[string]bool{"div": true, "float": false, "simd": false},
		Parents: []Source{{File: "filetests/runtests/sdiv.clif", Function: "%f0", Line: 3},
			{File: "filetests/isa/x86/iadd.clif", Function: "%f"}},
		CLIF: caseCLIF,
		Inputs: []InputVector{
			{{Type: "i32", Value: "0x7fffffff"}, {Type: "i64", Value: "-1"}},
			{{Type: "i32", Value: "-1"}, {Type: "i64", Value: "0x8000000000000000"}},
		},
		Metrics: Metrics{Functions: 1, Blocks: 3, Insts: 6, Cyclomatic: 2, DomDepth: 1, DefUseDepth: 3,
			Opcodes: map[string]int{"brif": 1, "icmp_imm": 1, "ireduce": 1, "jump": 1, "return": 1, "sdiv": 1}, Survival: ptr(0.75)},
		Results: []RunResult{
			{Config: interp, Status: StatusOK, Hash: HashString("1\n-1\n"), Outputs: []string{"i32 0x1", "i32 -1"},
				Timings: Timings{CompileMS: 0.25, ExecMS: 0.5}},
			{Config: x86Speed, Status: StatusTrap, Trap: "int_ovf", Outputs: []string{"i32 0x1", "trap int_ovf"},
				Timings: Timings{CompileMS: 1.5, LinkMS: 0.125, ExecMS: 2}},
		},
	}
	c.Stamp()
	return c
}

// examples has one record of every kind, with every field set.
func examples() map[string]Record {
	s := &Snippet{
		ID:     HashString("iadd in0, in1; icmp_imm slt r0.0, 0"),
		Source: Source{File: "filetests/isa/x86/iadd.clif", Function: "%f", Block: "block0", Line: 12},
		Level:  LevelBlock,
		Params: []string{"i32", "i32"},
		Insts: []SnippetInst{
			{Opcode: "iadd", CtrlType: "i32", Args: []Ref{InputRef(0), InputRef(1)}, ArgTypes: []string{"i32", "i32"},
				ResultTypes: []string{"i32"}, Text: "v2 = iadd v0, v1"},
			{Opcode: "icmp_imm", CtrlType: "i32", Args: []Ref{ResultRef(0, 0)}, ArgTypes: []string{"i32"},
				ResultTypes: []string{"i8"}, Imms: Imms{Imm: "0", Cond: "slt"}, Text: "v3 = icmp_imm slt v2, 0"},
			{Opcode: "load", CtrlType: "i64", Args: []Ref{InputRef(1)}, ArgTypes: []string{"i32"}, ResultTypes: []string{"i64"},
				Imms: Imms{Flags: "notrap aligned", Offset: "+8"}, Text: "v4 = load.i64 notrap aligned v1+8"},
		},
		Outputs: []Ref{ResultRef(1, 0), ResultRef(2, 0)},
		Count:   3,
	}
	s.Stamp()
	fn := &Snippet{
		ID:       HashString(caseCLIF),
		Source:   Source{File: "filetests/runtests/sdiv.clif", Function: "%f0"},
		Level:    LevelFunction,
		Count:    1,
		Function: caseCLIF,
		Runs:     []InputVector{{{Type: "i32", Value: "-1"}, {Type: "i64", Value: "0x8000000000000000"}}},
	}
	fn.Stamp()

	r := &RunResult{CaseID: exampleID, Config: x86None, Status: StatusCrash, Signal: "SIGSEGV",
		Message: "signal 11 at pc 0x7f00 <in compiled code> & no symbol", Outputs: []string{"i32 0x1"}}
	r.Stamp()

	v := &Verdict{CaseID: exampleID, Verdict: OutcomeDivergent, Input: InputIndex(1),
		Sides: []Side{
			{Configs: []Config{interp}, Status: StatusOK, Hash: HashString("1\n-1\n"), Output: "i32 -1"},
			{Configs: []Config{x86Speed, x86None}, Status: StatusTrap, Output: "trap int_ovf"},
		},
		Summary: "x86_64 traps int_ovf on sdiv where the interpreter returns -1",
		Case:    exampleCase(),
	}
	v.Stamp()

	cl := &Cluster{Signature: "divergent interp!=x86_64/* trap int_ovf sdiv", Verdict: OutcomeDivergent, Count: 12,
		SignatureHash:  HashString("divergent interp!=x86_64/* trap int_ovf sdiv"),
		FailingConfigs: "x86_64/*", Diagnostic: "trap int_ovf sdiv",
		Representative: exampleID, Members: []string{exampleID, "00000000000000ff"},
		FirstSeen: time.Date(2026, 5, 9, 7, 0, 0, 0, time.UTC), LastSeen: time.Date(2026, 5, 9, 8, 30, 15, 0, time.UTC),
		Known: "known: known.mask: sdiv i32 x86_64", RepresentativeVerdict: v}
	cl.Stamp()

	l := &Location{CaseID: exampleID, Function: "%f0", Block: "block2", Level: LocInstruction,
		Signature: "divergent interp!=x86_64/* trap int_ovf sdiv",
		Inst:      InstLocation{Index: 0, Text: "v5 = sdiv v4, v0", Opcode: "sdiv", Type: "i32"},
		Repro:     "function %f0(i32) -> i32 {\nblock0(v0: i32):\n    v1 = sdiv v0, v0\n    return v1\n}\n",
		Configs:   []Config{interp, x86Speed}, Notes: []string{"disagreement survives removing block1", "only with opt_level=speed"}}
	l.Stamp()

	run := &Run{ID: "20261129T020000Z-4", Seed: 4,
		Started: time.Date(2026, 11, 29, 2, 0, 0, 0, time.UTC), Finished: time.Date(2026, 11, 29, 2, 31, 7, 0, time.UTC),
		Cranelift: "0.137.1", Cliff: "6a937ac7e467", Profile: "compat", Depth: 5, Mask: "/cliff/lib/profile/data/known.mask",
		BudgetMinutes: 60, Cases: 26000, CPUSeconds: 3580.5, WallSeconds: 1867, Failures: 14,
		Clusters: []RunCluster{{Signature: cl.Signature, SignatureHash: cl.SignatureHash, Verdict: OutcomeDivergent,
			Count: 12, Representative: exampleID, Known: cl.Known}}}
	run.Stamp()

	return map[string]Record{
		"snippet": s, "snippet_function": fn, "case": exampleCase(), "result": r,
		"verdict": v, "cluster": cl, "location": l, "run": run,
	}
}

// The wire format of every kind, reviewed as a diff of testdata/*.json
// (indented for reading; the wire form is the same members on one line).
func TestGolden(t *testing.T) {
	for name, rec := range examples() {
		t.Run(name, func(t *testing.T) {
			if err := rec.Validate(); err != nil {
				t.Fatalf("example does not validate: %v", err)
			}
			wire := marshal(t, rec)
			var indented bytes.Buffer
			if err := json.Indent(&indented, wire, "", "  "); err != nil {
				t.Fatal(err)
			}
			indented.WriteByte('\n')
			path := filepath.Join("testdata", name+".json")
			if *update {
				if err := os.WriteFile(path, indented.Bytes(), 0o666); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if !bytes.Equal(indented.Bytes(), want) {
				t.Errorf("%s differs from the encoding; if the change is intended, run go test -update and review the diff.\ngot:\n%s", path, indented.Bytes())
			}
		})
	}
}

// Decoding the wire form gives back the record exactly, through Decode's
// dispatch on kind.
func TestRoundTrip(t *testing.T) {
	for name, rec := range examples() {
		t.Run(name, func(t *testing.T) {
			wire := marshal(t, rec)
			got, err := Decode(wire)
			if err != nil {
				t.Fatalf("Decode: %v", err)
			}
			if !reflect.DeepEqual(got, rec) {
				t.Errorf("round trip changed the record:\n got %+v\nwant %+v", got, rec)
			}
			if again := marshal(t, got); !bytes.Equal(again, wire) {
				t.Errorf("second encoding differs:\n%s\n%s", again, wire)
			}
		})
	}
}

func TestWireDetails(t *testing.T) {
	c := exampleCase()
	wire := string(marshal(t, c))
	for _, want := range []string{
		`{"kind":"case","v":1,`,                // Peek's fast path
		`"seed":"18446744073709551557"`,        // no float64 rounding downstream
		`-> i32`,                               // no HTML escaping
		`"results":[{"config":`,                // embedded results carry no kind
		`"features":{"div":true,"float":false`, // sorted keys
	} {
		if !strings.Contains(wire, want) {
			t.Errorf("wire form lacks %s:\n%s", want, wire)
		}
	}
	s := string(marshal(t, examples()["snippet"]))
	for _, want := range []string{`"args":["in0","in1"]`, `"outputs":["r1.0","r2.0"]`, `"imms":{"imm":"0","cond":"slt"}`} {
		if !strings.Contains(s, want) {
			t.Errorf("snippet wire form lacks %s:\n%s", want, s)
		}
	}
	if strings.Count(s, `"imms"`) != 2 {
		t.Errorf("an instruction without immediates still writes \"imms\":\n%s", s)
	}
}

func TestRef(t *testing.T) {
	for _, tc := range []struct {
		text string
		ref  Ref
		ok   bool
	}{
		{"in0", InputRef(0), true},
		{"in12", InputRef(12), true},
		{"r0.0", ResultRef(0, 0), true},
		{"r3.1", ResultRef(3, 1), true},
		{"r10.2", ResultRef(10, 2), true},
		{"in", Ref{}, false},
		{"in-1", Ref{}, false},
		{"in01", Ref{}, false},
		{"r3", Ref{}, false},
		{"r3.", Ref{}, false},
		{"r.1", Ref{}, false},
		{"r+3.1", Ref{}, false},
		{"v3", Ref{}, false},
		{"", Ref{}, false},
	} {
		ref, err := ParseRef(tc.text)
		if (err == nil) != tc.ok || ref != tc.ref {
			t.Errorf("ParseRef(%q) = %v, %v; want %v, ok=%v", tc.text, ref, err, tc.ref, tc.ok)
		}
		if tc.ok && ref.String() != tc.text {
			t.Errorf("%q prints as %q", tc.text, ref.String())
		}
	}
	var inst SnippetInst
	if err := json.Unmarshal([]byte(`{"opcode":"iadd","args":["in0","x1"]}`), &inst); err == nil {
		t.Error("a bad reference in args decoded without error")
	}
}

func TestPeek(t *testing.T) {
	for _, tc := range []struct {
		name    string
		line    string
		kind    string
		version int
		err     bool
	}{
		{"as written", `{"kind":"case","v":1,"id":"x"}`, "case", 1, false},
		{"only header", `{"kind":"cluster","v":1}`, "cluster", 1, false},
		{"newer version", `{"kind":"case","v":7,"id":"x"}`, "case", 7, false},
		{"other order", `{"id":"x","v":1,"kind":"verdict"}`, "verdict", 1, false},
		{"spaces", `{ "kind" : "result", "v" : 1 }`, "result", 1, false},
		{"escaped kind", `{"kind":"ca\u0073e","v":1}`, "case", 1, false},
		{"no version", `{"kind":"case"}`, "case", 0, false},
		{"huge version falls back", `{"kind":"case","v":12345678901,"id":"x"}`, "case", 12345678901, false},
		{"no kind", `{"v":1,"id":"x"}`, "", 0, true},
		{"not json", `kind case`, "", 0, true},
		{"kind not a string", `{"kind":3,"v":1}`, "", 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			kind, version, err := Peek([]byte(tc.line))
			if (err != nil) != tc.err {
				t.Fatalf("Peek error %v, want error=%v", err, tc.err)
			}
			if kind != tc.kind || version != tc.version {
				t.Errorf("Peek = %q, %d; want %q, %d", kind, version, tc.kind, tc.version)
			}
		})
	}
}

func TestPeekFastPathOnLongLines(t *testing.T) {
	// An unterminated line is not JSON, but starts as cliff writes: the fast
	// path answers without reading the megabytes that follow.
	line := append([]byte(`{"kind":"case","v":1,"clif":"`), bytes.Repeat([]byte("x"), 1<<20)...)
	kind, version, err := Peek(line)
	if err != nil || kind != "case" || version != 1 {
		t.Errorf("Peek = %q, %d, %v; want case, 1 from the fast path", kind, version, err)
	}
}

func TestDecodeRejects(t *testing.T) {
	for _, tc := range []struct {
		name, line, want string
	}{
		{"newer schema", `{"kind":"case","v":2,"id":"x","clif":"f"}`, "case record: schema version 2 is newer than this cliff understands (1)"},
		{"no version", `{"kind":"case","id":"x","clif":"f"}`, `case record: missing or invalid schema version "v": 0`},
		{"unknown kind", `{"kind":"banana","v":1}`, `unknown record kind "banana"`},
		{"wrong field type", `{"kind":"case","v":1,"id":"x","clif":"f","seed":12}`, "case record: json: invalid use of ,string struct tag"},
		{"invalid", `{"kind":"cluster","v":1,"signature":"s","count":0}`, `cluster "s": representative: missing; count: 0, want at least 1`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Decode([]byte(tc.line))
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("Decode error %v, want prefix %q", err, tc.want)
			}
		})
	}
}

// Validate reports every problem of a record, each with its field path.
func TestValidate(t *testing.T) {
	id := exampleID
	for _, tc := range []struct {
		name   string
		rec    Record
		record string // ValidationError.Record
		want   []string
	}{
		{"unstamped case", &Case{ID: "c1", CLIF: "f"}, `case "c1"`,
			[]string{`kind: "", want "case"`, `v: missing or invalid schema version "v": 0`}},
		{"wrong kind", func() Record { c := exampleCase(); c.Kind = KindVerdict; return c }(), `case "` + id + `"`,
			[]string{`kind: "verdict", want "case"`}},
		{"newer version", func() Record { c := exampleCase(); c.Version = 2; return c }(), `case "` + id + `"`,
			[]string{`v: schema version 2 is newer than this cliff understands (1): rebuild cliff from a newer source`}},
		{"case fields", func() Record {
			c := exampleCase()
			c.ID, c.CLIF = "", ""
			c.Inputs = append(c.Inputs, InputVector{{Type: "i32"}})
			c.Metrics.Survival = ptr(1.5)
			c.Settings = append(c.Settings, "opt_level")
			c.Results[0].Config.Executor = "jit"
			c.Results[1].Status = ""
			return c
		}(), "case", []string{
			"id: missing", "clif: missing",
			"inputs[2][0].value: missing", "inputs[2]: 1 values, but inputs[0] has 2",
			"metrics.survival: 1.5, outside [0, 1]",
			`settings[1]: "opt_level" is not name=value`,
			`results[0].config.executor: unknown value "jit"`,
			"results[1].status: missing",
		}},
		{"snippet refs", func() Record {
			s := examples()["snippet"].(*Snippet)
			s.Insts[0].Args[1] = InputRef(2)
			s.Insts[1].Args[0] = ResultRef(1, 0)
			s.Insts[2].ArgTypes = nil
			s.Insts[2].Args = []Ref{ResultRef(1, 1)}
			s.Outputs = []Ref{ResultRef(3, 0)}
			s.Count = 0
			s.ID = "XYZ"
			return s
		}(), `snippet "XYZ"`, []string{
			`id: "XYZ" is not 16 lower-case hex digits`,
			"count: 0, want at least 1",
			"insts[0].args[1]: in2, but the snippet has 2 inputs",
			"insts[1].args[0]: r1.0 does not name an earlier instruction",
			"insts[2].args[0]: r1.1, but instruction 1 has 1 results",
			"outputs[0]: r3.0 does not name an earlier instruction",
		}},
		{"snippet level", func() Record {
			s := examples()["snippet_function"].(*Snippet)
			s.Function = ""
			s.Level = "module"
			return s
		}(), `snippet "` + HashString(caseCLIF) + `"`, []string{`level: unknown value "module"`}},
		{"function snippet without text", func() Record {
			s := examples()["snippet_function"].(*Snippet)
			s.Function = ""
			return s
		}(), `snippet "` + HashString(caseCLIF) + `"`, []string{"function: missing"}},
		{"lone result", &RunResult{Kind: KindResult, Version: 1, Status: StatusOK, Hash: "ABC", Config: interp}, "result",
			[]string{"case_id: missing", `hash: "ABC" is not 16 lower-case hex digits`}},
		{"trap without code", &RunResult{Kind: KindResult, Version: 1, CaseID: "c", Status: StatusTrap, Config: x86None}, `result "c"`,
			[]string{"trap: missing"}},
		{"verdict", func() Record {
			v := examples()["verdict"].(*Verdict)
			v.Sides = v.Sides[:1]
			v.Sides[0].Configs = nil
			v.Input = InputIndex(-1)
			v.Case.ID = "other"
			return v
		}(), `verdict "` + id + `"`, []string{
			"input: -1 is negative",
			"sides: 1 for a divergence, want at least 2",
			"sides[0].configs: missing",
			`case.id: "other", but case_id is "` + id + `"`,
		}},
		{"verdict kind", &Verdict{Kind: KindVerdict, Version: 1, CaseID: "c", Verdict: "odd"}, `verdict "c"`,
			[]string{`verdict: unknown value "odd"`}},
		{"cluster", func() Record {
			c := examples()["cluster"].(*Cluster)
			c.Count = 1
			c.LastSeen = c.FirstSeen.Add(-time.Hour)
			return c
		}(), `cluster "divergent interp!=x86_64/* trap int_ovf sdiv"`, []string{
			"members: 2 listed, more than count 1",
			"last_seen: 2026-05-09 06:00:00 +0000 UTC, before first_seen 2026-05-09 07:00:00 +0000 UTC",
		}},
		{"cluster representative", func() Record {
			c := examples()["cluster"].(*Cluster)
			c.SignatureHash = HashString("other")
			c.Representative = "00000000000000ff"
			c.Verdict = OutcomeCompileCrash
			c.RepresentativeVerdict.Sides = nil
			c.Known = "sdiv i32 x86_64"
			return c
		}(), `cluster "divergent interp!=x86_64/* trap int_ovf sdiv"`, []string{
			"signature_hash: " + HashString("other") + ", but the signature hashes to " + HashString("divergent interp!=x86_64/* trap int_ovf sdiv"),
			`known: "sdiv i32 x86_64", want "known: …" or "possibly: …"`,
			`representative_verdict: verdict "` + id + `": sides: 0 for a divergence, want at least 2`,
			`representative_verdict.case_id: "` + id + `", but representative is "00000000000000ff"`,
			`representative_verdict.verdict: "divergent", but the cluster's verdict is "compile_crash"`,
		}},
		{"location", func() Record {
			l := examples()["location"].(*Location)
			l.Function, l.Block = "", ""
			l.Inst.Text = ""
			l.Inst.Index = 2
			l.Configs[1].Arch = ""
			return l
		}(), `location "` + id + `"`, []string{
			"function: missing", "inst.text: missing", "block: missing", "block: missing", "inst.text: missing", "configs[1].arch: missing",
		}},
		{"location level", func() Record {
			l := examples()["location"].(*Location)
			l.Level = "statement"
			return l
		}(), `location "` + id + `"`, []string{`level: unknown value "statement"`}},
		{"location inst above its level", func() Record {
			l := examples()["location"].(*Location)
			l.Level, l.Inst.Opcode = LocFunction, ""
			return l
		}(), `location "` + id + `"`, []string{"inst.opcode: missing", `inst: set at level "function"`}},
		{"run", func() Record {
			r := examples()["run"].(*Run)
			r.Cranelift = ""
			r.Finished = r.Started.Add(-time.Second)
			r.CPUSeconds = -1
			r.Failures = 3
			r.Clusters = append(r.Clusters, r.Clusters[0], RunCluster{Signature: "x", SignatureHash: HashString("y"), Count: 0})
			return r
		}(), `run "20261129T020000Z-4"`, []string{
			"cranelift: missing",
			"finished: 2026-11-29 01:59:59 +0000 UTC, before started 2026-11-29 02:00:00 +0000 UTC",
			"cpu_seconds: -1, want 0 or more",
			"clusters[1].signature_hash: d87daa937d1d2fea twice",
			"clusters[2].representative: missing",
			"clusters[2].signature_hash: " + HashString("y") + ", but the signature hashes to " + HashString("x"),
			"clusters[2].count: 0, want at least 1",
			"failures: 3, fewer than the clusters' 24 members",
		}},
		{"run without cases", func() Record {
			r := examples()["run"].(*Run)
			r.ID, r.Cases, r.Clusters, r.Failures = "", 0, nil, 0
			return r
		}(), "run", []string{"id: missing", "cases: 0, want at least 1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.rec.Validate()
			ve, ok := err.(*ValidationError)
			if !ok {
				t.Fatalf("Validate = %v, want a *ValidationError", err)
			}
			if ve.Record != tc.record {
				t.Errorf("Record = %q, want %q", ve.Record, tc.record)
			}
			if !reflect.DeepEqual(ve.Problems, tc.want) {
				t.Errorf("problems:\n got %q\nwant %q", ve.Problems, tc.want)
			}
		})
	}
}

func TestValidateEmbeddedResult(t *testing.T) {
	r := exampleCase().Results[0]
	if err := r.Validate(); err != nil {
		t.Errorf("an embedded result (no kind) does not validate: %v", err)
	}
	r.Kind = "case"
	if err := r.Validate(); err == nil {
		t.Error("a result of kind case validated")
	}
}

func TestConfigString(t *testing.T) {
	if got, want := x86Speed.String(), "x86_64/speed/native:has_avx2,has_bmi2"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got, want := interp.String(), "x86_64/none/interp"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestHash(t *testing.T) {
	// Values from the xxhash64 reference implementation (seed 0).
	for _, tc := range []struct{ in, want string }{
		{"", "ef46db3751d8e999"},
		{"a", "d24ec4f1a98c6e5b"},
	} {
		if got := HashString(tc.in); got != tc.want || Hash([]byte(tc.in)) != tc.want {
			t.Errorf("HashString(%q) = %s, want %s", tc.in, got, tc.want)
		}
		if !isHash(tc.want) {
			t.Errorf("isHash(%q) = false", tc.want)
		}
	}
}

func TestNewCoversEveryKind(t *testing.T) {
	for _, kind := range []string{KindSnippet, KindCase, KindResult, KindVerdict, KindCluster, KindLocation, KindRun} {
		r := New(kind)
		if r == nil || r.RecordKind() != kind {
			t.Errorf("New(%q) = %T", kind, r)
			continue
		}
		r.Stamp()
		kindGot, version, err := Peek(marshal(t, r))
		if err != nil || kindGot != kind || version != SchemaVersion {
			t.Errorf("stamped %s peeks as %q, %d, %v", kind, kindGot, version, err)
		}
	}
}

func ptr[T any](x T) *T { return &x }
