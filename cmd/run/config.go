package main

import (
	"fmt"
	"runtime"
	"slices"
	"strings"

	"cliff/lib/ir"
	"cliff/lib/record"
)

// Architectures cliff compiles for, and the interpreter pseudo-arch.
var (
	compiledArches = []string{"x86_64", "aarch64", "riscv64", "s390x"}
	archInterp     = "interp"
	optLevels      = []string{"none", "speed", "speed_and_size"}
)

// defaultISAFlags are the ISA flags a case is compiled with on each
// architecture when --isa-flags does not say: the richest set that QEMU
// 7.2 executes, so that the most lowering rules are exercised. They do not
// depend on the machine, so a campaign spread over several compiles the
// same code everywhere; an x86_64 host without AVX2, BMI2 or FMA runs the
// code that needs them under qemu-x86_64 (see worker.place).
var defaultISAFlags = map[string][]string{
	"x86_64":  {"has_sse3", "has_ssse3", "has_sse41", "has_sse42", "has_popcnt", "has_avx", "has_avx2", "has_fma", "has_bmi1", "has_bmi2", "has_lzcnt"},
	"aarch64": {"has_lse"},
	"riscv64": {"has_v", "has_zba", "has_zbb", "has_zbc", "has_zbs"},
	"s390x":   {},
}

// hostArch is the architecture whose code runs natively here.
func hostArch() string {
	switch runtime.GOARCH {
	case "amd64":
		return "x86_64"
	case "arm64":
		return "aarch64"
	case "riscv64", "s390x":
		return runtime.GOARCH
	}
	return runtime.GOARCH
}

// executorFor says how code for arch runs on this machine.
func executorFor(arch string) string {
	switch {
	case arch == archInterp:
		return record.ExecInterp
	case arch == hostArch():
		return record.ExecNative
	}
	return record.ExecQemu
}

// configSet is the command line's choice of configurations.
type configSet struct {
	arches   []string            // nil: every arch a .clif file names (cases: the host)
	opts     []string            // opt levels
	isaFlags map[string][]string // per arch; missing arch: defaultISAFlags
	settings []string            // shared settings for every config
}

func parseArches(list []string) ([]string, error) {
	var out []string
	for _, item := range list {
		for _, a := range strings.Split(item, ",") {
			a = strings.TrimSpace(a)
			switch {
			case a == "":
			case a == "all":
				out = append(out, compiledArches...)
				out = append(out, archInterp)
			case a == archInterp || slices.Contains(compiledArches, a):
				out = append(out, a)
			default:
				return nil, fmt.Errorf("--arch %q: want one of %s, %s or all", a, strings.Join(compiledArches, ", "), archInterp)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

func parseOpts(list []string) ([]string, error) {
	var out []string
	for _, item := range list {
		for _, o := range strings.Split(item, ",") {
			o = strings.TrimSpace(o)
			if o == "" {
				continue
			}
			if !slices.Contains(optLevels, o) {
				return nil, fmt.Errorf("--opt %q: want one of %s", o, strings.Join(optLevels, ", "))
			}
			if !slices.Contains(out, o) {
				out = append(out, o)
			}
		}
	}
	if len(out) == 0 {
		return optLevels, nil
	}
	return out, nil
}

// parseISAFlags reads --isa-flags ARCH=FLAG,FLAG (ARCH= for none). The
// command line library splits a value at commas, so an item without "="
// is one more flag of the architecture before it.
func parseISAFlags(list []string) (map[string][]string, error) {
	m := map[string][]string{}
	last := ""
	for _, item := range list {
		if !strings.Contains(item, "=") && last != "" {
			m[last] = append(m[last], strings.Fields(item)...)
			continue
		}
		arch, flags, ok := strings.Cut(item, "=")
		last = arch
		if !ok || !slices.Contains(compiledArches, arch) {
			return nil, fmt.Errorf("--isa-flags %q: want ARCH=FLAG,FLAG... with ARCH one of %s", item, strings.Join(compiledArches, ", "))
		}
		m[arch] = []string{}
		for _, f := range strings.FieldsFunc(flags, func(r rune) bool { return r == ',' || r == ' ' }) {
			m[arch] = append(m[arch], f)
		}
	}
	return m, nil
}

func (s *configSet) flagsFor(arch string) []string {
	if f, ok := s.isaFlags[arch]; ok {
		return f
	}
	return defaultISAFlags[arch]
}

// forCases lists the configurations a case record runs under: the
// command line's, with the settings the case needs added (a setting the
// command line gives itself keeps the command line's value, so a user can
// still try other values).
func (s *configSet) forCases(needs []string) []record.Config {
	settings := s.settings
	for _, n := range needs {
		name, _, _ := strings.Cut(n, "=")
		if !slices.ContainsFunc(settings, func(have string) bool { h, _, _ := strings.Cut(have, "="); return h == name }) {
			settings = append(slices.Clip(settings), n)
		}
	}
	arches := s.arches
	if arches == nil {
		arches = []string{hostArch()}
	}
	var out []record.Config
	for _, a := range arches {
		if a == archInterp {
			out = append(out, interpConfig(settings))
			continue
		}
		for _, o := range s.opts {
			out = append(out, record.Config{Arch: a, OptLevel: o, Flags: s.flagsFor(a), Settings: settings, Executor: executorFor(a)})
		}
	}
	return out
}

func interpConfig(settings []string) record.Config {
	return record.Config{Arch: archInterp, OptLevel: "none", Settings: settings, Executor: record.ExecInterp}
}

// A skip is a configuration a .clif file names that cliff-run does not
// run, with the reason; its run lines count as skipped.
type skip struct {
	target string
	reason string
}

// forFile lists the configurations a .clif file asks for: each `target`
// line (with the `set` lines before it) at each opt level, and the
// interpreter for `test interpret`. --arch overrides that: the file runs on
// exactly the architectures it names, with the file's own target lines for
// an architecture the file has, and otherwise as a case would (the default
// or --isa-flags flags), so that `--arch all repro.clif` checks a repro
// everywhere, whatever targets its author had at hand.
func (s *configSet) forFile(f *ir.File) ([]record.Config, []skip) {
	var out []record.Config
	var skips []skip
	var settings, all []string // before the current target line; in the whole header
	covered := map[string]bool{}
	sawTarget := false
	config := func(arch string, flags []string, settings []string) record.Config {
		return record.Config{Arch: arch, Flags: flags, Settings: append(slices.Clone(settings), s.settings...), Executor: executorFor(arch)}
	}
	for _, h := range f.Header {
		switch h.Kind {
		case ir.HeaderSet:
			for _, w := range h.Words {
				if !strings.HasPrefix(w, "opt_level=") {
					settings = append(settings, w)
					all = append(all, w)
				}
			}
		case ir.HeaderTarget:
			sawTarget = true
			if len(h.Words) == 0 {
				continue
			}
			arch := h.Words[0]
			if !slices.Contains(compiledArches, arch) {
				if s.arches == nil {
					skips = append(skips, skip{strings.Join(h.Words, " "), "cliff-run does not run " + arch + " code"})
				}
				continue
			}
			if s.arches != nil && !slices.Contains(s.arches, arch) {
				continue
			}
			covered[arch] = true
			if why := unsupportedSettings(settings); why != "" {
				skips = append(skips, skip{strings.Join(h.Words, " "), why})
				continue
			}
			for _, o := range s.opts {
				c := config(arch, slices.Clone(h.Words[1:]), settings)
				c.OptLevel = o
				out = append(out, c)
			}
		}
	}
	hasTest := func(name string) bool {
		return slices.ContainsFunc(f.Tests, func(t ir.HeaderLine) bool { return len(t.Words) > 0 && t.Words[0] == name })
	}
	if s.arches == nil {
		if !sawTarget && hasTest("run") {
			// Cranelift runs a target-less `test run` file on the host.
			for _, o := range s.opts {
				c := config(hostArch(), nil, all)
				c.OptLevel = o
				out = append(out, c)
			}
		}
		if hasTest("interpret") {
			out = append(out, interpConfig(append(slices.Clone(all), s.settings...)))
		}
		return out, skips
	}
	for _, arch := range s.arches {
		switch {
		case arch == archInterp:
			out = append(out, interpConfig(append(slices.Clone(all), s.settings...)))
		case !covered[arch]:
			for _, o := range s.opts {
				c := config(arch, s.flagsFor(arch), all)
				c.OptLevel = o
				out = append(out, c)
			}
		}
	}
	return out, skips
}

// unsupportedSettings says why cliff cannot build code with these
// settings, or "". cliff links ELF executables: thread-local storage for
// another object format cannot even be placed in its object.
func unsupportedSettings(settings []string) string {
	for _, w := range settings {
		if w == "tls_model=coff" || w == "tls_model=macho" {
			return w + " is for another object format than ELF, which cliff-run emits"
		}
	}
	return ""
}

// targetString is the driver's target: the arch and ISA flags.
func targetString(c record.Config) string {
	return strings.Join(append([]string{c.Arch}, c.Flags...), " ")
}

// sharedFlags are the driver's shared settings for c.
func sharedFlags(c record.Config) []string {
	return append([]string{"opt_level=" + c.OptLevel}, c.Settings...)
}
