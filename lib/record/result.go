package record

import (
	"strings"
	"time"
)

// A RunResult is the outcome of compiling and running a case under one
// configuration. cliff-run appends one per configuration to a case's
// Results (kind and version then left out), or writes it alone as a
// "result" record naming the case in CaseID; cliff-diff reads them.
type RunResult struct {
	Kind    string `json:"kind,omitempty"`
	Version int    `json:"v,omitempty"`
	CaseID  string `json:"case_id,omitempty"` // only in a lone "result" record
	Config  Config `json:"config"`
	Status  Status `json:"status"`
	// Hash is the Hash of the canonical outputs of all input vectors: what
	// cliff-diff compares first.
	Hash string `json:"hash,omitempty"`
	// Outputs are the canonical text of each input vector's results, in
	// input order, for the vectors that ran (a run stops at a trap or
	// crash: the last entry is then the failing input).
	Outputs []string `json:"outputs,omitempty"`
	// Message is the compiler's or the harness's error output, shortened.
	Message string  `json:"message,omitempty"`
	Trap    string  `json:"trap,omitempty"`   // trap code for StatusTrap: "int_divz", "user1"
	Signal  string  `json:"signal,omitempty"` // for StatusCrash: "SIGSEGV"
	Timings Timings `json:"timings,omitzero"`
	// Versions name the tools that produced the result, so that a finding
	// can be reproduced with the same ones.
	Versions *Versions `json:"versions,omitempty"`
}

// Versions are the tools behind a result: cliff's commit, the Cranelift
// crates' version, and QEMU's when the code ran under it.
type Versions struct {
	Cliff     string `json:"cliff,omitempty"`
	Cranelift string `json:"cranelift,omitempty"`
	QEMU      string `json:"qemu,omitempty"`
}

// A Config is one way of compiling and running a case.
type Config struct {
	Arch     string   `json:"arch"`            // "x86_64", "aarch64", "riscv64", "s390x"
	OptLevel string   `json:"opt_level"`       // "none", "speed", "speed_and_size"
	Flags    []string `json:"flags,omitempty"` // ISA flags, as on a CLIF target line: "has_avx2", "has_v"
	// Settings are shared Cranelift settings other than opt_level, as on a
	// CLIF set line: "enable_nan_canonicalization=true".
	Settings []string `json:"settings,omitempty"`
	Executor string   `json:"executor"` // ExecNative, ExecQemu, ExecInterp, ExecRef or ExecPulley
	// Cranelift names the Cranelift that compiled (or interpreted) the
	// case when a run tests versions as an axis (cliff-run --cranelift):
	// a release, 0.137.1, or a checkout, 0.139.0@0123456789ab. Empty:
	// the run's one Cranelift, which Versions names.
	Cranelift string `json:"cranelift,omitempty"`
}

// Executors.
const (
	ExecNative = "native" // compiled and run on this machine
	ExecQemu   = "qemu"   // compiled for another arch and run under qemu-user
	ExecInterp = "interp" // Cranelift's interpreter
	// ExecPulley is Pulley bytecode (the pulley* targets) run by
	// cliff-pulley in pulley-interpreter.
	ExecPulley = "pulley"
	// ExecRef is cliff's own CLIF interpreter (lib/refinterp), which shares
	// no code with Cranelift: cliff-diff's reference when it answered.
	ExecRef = "ref"
)

// String returns a compact form usable as a map key and in reports:
// "x86_64/speed/native", "x86_64/speed/native:has_avx2,has_bmi2" or, with
// settings, "x86_64/speed/native:has_avx2+enable_pinned_reg=true"; with
// a Cranelift, "x86_64/speed/native@0.137.1".
func (c Config) String() string {
	s := c.Arch + "/" + c.OptLevel + "/" + c.Executor
	if c.Cranelift != "" {
		s += "@" + c.Cranelift
	}
	if len(c.Flags) > 0 {
		s += ":" + strings.Join(c.Flags, ",")
	}
	if len(c.Settings) > 0 {
		s += "+" + strings.Join(c.Settings, ",")
	}
	return s
}

// Status is how a run ended.
type Status string

// Run statuses.
const (
	StatusOK           Status = "ok"            // compiled and every input ran
	StatusTrap         Status = "trap"          // the code trapped (Trap says how)
	StatusTimeout      Status = "timeout"       // compilation or execution ran out of time
	StatusCrash        Status = "crash"         // the compiled code crashed (Signal says how)
	StatusCompileError Status = "compile_error" // Cranelift rejected the function (verifier, unsupported)
	StatusCompileCrash Status = "compile_crash" // Cranelift panicked
	StatusHarnessError Status = "harness_error" // cliff's own machinery failed; says nothing about Cranelift
	// StatusUnsupported: this configuration cannot run the case at all (the
	// interpreter lacks an instruction, the harness refuses an external
	// name); says nothing about Cranelift's code generation.
	StatusUnsupported Status = "unsupported"
	// StatusStackOverflow: the run exhausted its stack (the interpreter's
	// depth limit): a resource limit like a timeout, not a wrong answer.
	StatusStackOverflow Status = "stack_overflow"
)

// Statuses lists every status.
func Statuses() []Status {
	return []Status{StatusOK, StatusTrap, StatusTimeout, StatusCrash, StatusCompileError, StatusCompileCrash, StatusHarnessError, StatusUnsupported, StatusStackOverflow}
}

// Timings are wall-clock milliseconds of a run's phases, and when its
// results were complete.
type Timings struct {
	CompileMS float64 `json:"compile_ms,omitempty"`
	LinkMS    float64 `json:"link_ms,omitempty"`
	ExecMS    float64 `json:"exec_ms,omitempty"`
	// Done is when cliff-run had every result of the case's chunk (UTC,
	// to the millisecond): the campaign's time at which a failure was
	// found, for cliff-cluster's "first seen".
	Done time.Time `json:"done,omitzero"`
}

// RecordKind implements Record.
func (*RunResult) RecordKind() string { return KindResult }

// Stamp implements Record. Leave a result embedded in a Case unstamped.
func (r *RunResult) Stamp() { r.Kind, r.Version = KindResult, SchemaVersion }

// Validate checks a lone result record (Kind "result", CaseID set) or, when
// Kind is empty, a result as embedded in a Case.
func (r *RunResult) Validate() error {
	p := newProblems(KindResult, r.CaseID)
	r.validate(p, r.Kind == "" && r.Version == 0)
	return p.err()
}

func (r *RunResult) validate(p *problems, embedded bool) {
	p.header(r.Kind, r.Version, KindResult, embedded)
	if !embedded {
		p.require("case_id", r.CaseID)
	}
	r.Config.validate(p, "config")
	oneOf(p, "status", r.Status, Statuses()...)
	if r.Status == StatusOK || r.Hash != "" {
		p.hash("hash", r.Hash)
	}
	if r.Status == StatusTrap {
		p.require("trap", r.Trap)
	}
}

func (c Config) validate(p *problems, field string) {
	p.require(field+".arch", c.Arch)
	p.require(field+".opt_level", c.OptLevel)
	oneOf(p, field+".executor", c.Executor, ExecNative, ExecQemu, ExecInterp, ExecRef, ExecPulley)
	for i, f := range c.Flags {
		if f == "" {
			p.addf(field+".flags", "flag %d is empty", i)
		}
	}
	for i, f := range c.Settings {
		if f == "" {
			p.addf(field+".settings", "setting %d is empty", i)
		}
	}
}

// NotRunnableHere starts the message of an unsupported result whose code
// this machine cannot run: its CPU lacks a feature the ISA flags need and
// its QEMU cannot emulate it (AVX-512 on most x86_64 hosts, Zcb under
// QEMU 7.2). Another machine runs it; cliff-diff counts these apart.
const NotRunnableHere = "not runnable on this machine: "
