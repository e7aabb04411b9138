package engine

import (
	"fmt"
	"runtime"
	"slices"
	"strings"

	"cliff/lib/arch"
	"cliff/lib/ir"
	"cliff/lib/record"
)

// OptLevels are Cranelift's opt levels, the default --opt.
var OptLevels = []string{"none", "speed", "speed_and_size"}

// defaultISAFlags are the ISA flags a case is compiled with on arch when
// the configurations do not say (lib/arch's DefaultISAFlags).
func defaultISAFlags(name string) []string {
	a, _ := arch.Lookup(name)
	return a.DefaultISAFlags
}

// hostArch is the architecture whose code runs natively here.
func hostArch() string {
	if a := arch.Host(); a != "" {
		return a
	}
	return runtime.GOARCH
}

// executorFor says how code for arch runs on this machine.
func executorFor(a string) string {
	switch {
	case a == arch.Interp:
		return record.ExecInterp
	case a == arch.Ref:
		return record.ExecRef
	case arch.IsBytecode(a):
		return record.ExecPulley
	case a == hostArch():
		return record.ExecNative
	}
	return record.ExecQemu
}

// A ConfigSpec is a choice of configurations, as cliff-run's command line
// makes it (--arch, --opt, --isa-flags, --set, --swarm).
type ConfigSpec struct {
	// Arches are architectures (lib/arch's, arch.Interp for Cranelift's
	// interpreter and arch.Ref for cliff's reference); nil: for cases the host's, for a .clif file the
	// architectures of its target lines.
	Arches []string
	// Opts are opt levels (OptLevels); nil: all of them.
	Opts []string
	// Variants are the ways to compile for each architecture, each with
	// its own ISA flags and settings: one configuration per variant and
	// opt level. An architecture missing from it has one variant, its
	// default flags (lib/arch).
	Variants map[string][]Variant
	// Settings are shared Cranelift settings (name=value) for every
	// configuration, before a variant's own; the opt level is Opts'.
	Settings []string
	// Cranelifts are the labels of the Cranelifts to test (Options'
	// Cranelifts): each configuration of Cranelift's, compiled or
	// interpreted, once per label, in their order. Nil: the one driver,
	// unnamed.
	Cranelifts []string
}

// A Variant is one way to compile for an architecture: ISA flags, as on
// a CLIF target line, and Cranelift settings of its own (name=value).
type Variant struct {
	Flags    []string
	Settings []string
}

// String is the variant as --isa-flags takes it after ARCH=: the flags,
// then "+" and the settings.
func (v Variant) String() string {
	s := strings.Join(v.Flags, ",")
	if len(v.Settings) > 0 {
		s += "+" + strings.Join(v.Settings, ",")
	}
	return s
}

// Configs lists the configurations cliff-run runs a case record under
// for spec, in the order of its results. Engine.Run adds the settings a
// case needs, as cliff-run does.
func Configs(spec ConfigSpec) ([]record.Config, error) {
	if err := spec.check(); err != nil {
		return nil, err
	}
	return spec.normal().forCases(nil), nil
}

// perCranelift is configs once per Cranelift of s, each copy naming it;
// cliff's reference, which is no Cranelift, once.
func (s *ConfigSpec) perCranelift(configs []record.Config) []record.Config {
	if len(s.Cranelifts) == 0 {
		return configs
	}
	var out []record.Config
	for _, c := range configs {
		if c.Executor == record.ExecRef {
			out = append(out, c)
			continue
		}
		for _, label := range s.Cranelifts {
			c.Cranelift = label
			out = append(out, c)
		}
	}
	return out
}

// check rejects names that no configuration has.
func (s *ConfigSpec) check() error {
	for _, a := range s.Arches {
		if !interpreted(a) && !arch.Known(a) {
			return fmt.Errorf("architecture %q: want one of %s, %s or %s", a, strings.Join(arch.Names(), ", "), arch.Interp, arch.Ref)
		}
	}
	for _, o := range s.Opts {
		if !slices.Contains(OptLevels, o) {
			return fmt.Errorf("opt level %q: want one of %s", o, strings.Join(OptLevels, ", "))
		}
	}
	for a, vs := range s.Variants {
		if !arch.Known(a) {
			return fmt.Errorf("ISA flags for %q: want one of %s", a, strings.Join(arch.Names(), ", "))
		}
		for i, v := range vs {
			if err := checkSettings(v.Settings); err != nil {
				return err
			}
			for _, w := range vs[:i] {
				if w.String() == v.String() {
					return fmt.Errorf("ISA flags for %s: %q twice", a, v)
				}
			}
		}
	}
	return checkSettings(s.Settings)
}

func checkSettings(settings []string) error {
	for _, set := range settings {
		if !strings.Contains(set, "=") || strings.HasPrefix(strings.TrimSpace(set), "opt_level") {
			return fmt.Errorf("setting %q: want name=value, not the opt level", set)
		}
	}
	return nil
}

// normal is s with the defaults filled in: every opt level when s names
// none, and nil arches for an empty list.
func (s ConfigSpec) normal() *ConfigSpec {
	if len(s.Opts) == 0 {
		s.Opts = OptLevels
	}
	if len(s.Arches) == 0 {
		s.Arches = nil
	}
	return &s
}

// interpreted reports whether a is a pseudo-architecture whose
// configuration interprets the CLIF instead of compiling it: Cranelift's
// interpreter or cliff's reference.
func interpreted(a string) bool { return a == arch.Interp || a == arch.Ref }

// ParseArches reads cliff-run's --arch values: names, comma-separated or
// repeated, and "all"; sorted, each once. "all" is Cranelift's
// configurations (the architectures and its interpreter), not the
// reference: a campaign asks for that second opinion by name, as it
// changes what cliff-diff calls right.
func ParseArches(list []string) ([]string, error) {
	var out []string
	for _, item := range list {
		for _, a := range strings.Split(item, ",") {
			a = strings.TrimSpace(a)
			switch {
			case a == "":
			case a == "all":
				out = append(out, arch.Names()...)
				out = append(out, arch.Interp)
			case interpreted(a) || arch.Known(a):
				out = append(out, a)
			default:
				return nil, fmt.Errorf("--arch %q: want one of %s, %s, %s or all", a, strings.Join(arch.Names(), ", "), arch.Interp, arch.Ref)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// ParseOpts reads cliff-run's --opt values; none means all of OptLevels.
func ParseOpts(list []string) ([]string, error) {
	var out []string
	for _, item := range list {
		for _, o := range strings.Split(item, ",") {
			o = strings.TrimSpace(o)
			if o == "" {
				continue
			}
			if !slices.Contains(OptLevels, o) {
				return nil, fmt.Errorf("--opt %q: want one of %s", o, strings.Join(OptLevels, ", "))
			}
			if !slices.Contains(out, o) {
				out = append(out, o)
			}
		}
	}
	if len(out) == 0 {
		return OptLevels, nil
	}
	return out, nil
}

// ParseISAFlags reads --isa-flags values, each ARCH=FLAGS[+SETTINGS]: one
// variant of ARCH per value (ARCH= for no flags), so that an arch given
// twice is compiled both ways. FLAGS are ISA flags, comma-separated, or
// the names of lib/arch's flag sets (riscv64=base), which stand for
// their flags; SETTINGS are Cranelift settings (name=value) of this
// variant only. The command line library splits a value at commas, so
// an item that does not start with a known ARCH= continues the value
// before it.
func ParseISAFlags(list []string) (map[string][]Variant, error) {
	m := map[string][]Variant{}
	last := ""          // the arch of the variant being read
	inSettings := false // past its "+"
	for _, item := range list {
		item = strings.TrimSpace(item)
		name, rest, ok := strings.Cut(item, "=")
		if ok && arch.Known(name) {
			last, inSettings = name, false
			m[name] = append(m[name], Variant{Flags: []string{}})
		} else {
			if last == "" {
				return nil, fmt.Errorf("--isa-flags %q: want ARCH=FLAG,FLAG...[+SETTING=VALUE,...] with ARCH one of %s", item, strings.Join(arch.Names(), ", "))
			}
			rest = item
		}
		v := &m[last][len(m[last])-1]
		if !inSettings {
			var flags string
			flags, rest, inSettings = strings.Cut(rest, "+")
			a, _ := arch.Lookup(last)
			for _, f := range strings.Fields(flags) {
				if set, ok := a.FlagSet(f); ok {
					v.Flags = append(v.Flags, set.Flags...)
				} else {
					v.Flags = append(v.Flags, f)
				}
			}
			if !inSettings {
				continue
			}
		}
		for _, set := range strings.Fields(rest) {
			if !strings.Contains(set, "=") {
				return nil, fmt.Errorf("--isa-flags %q: setting %q: want name=value", item, set)
			}
			v.Settings = append(v.Settings, set)
		}
	}
	return m, nil
}

// variantsOf lists the ways spec compiles for arch a.
func (s *ConfigSpec) variantsOf(a string) []Variant {
	if vs, ok := s.Variants[a]; ok && len(vs) > 0 {
		return vs
	}
	return []Variant{{Flags: defaultISAFlags(a)}}
}

// forCases lists the configurations a case record runs under: the
// spec's, with the settings the case needs added (a setting the spec
// gives itself keeps the spec's value, so that a user can still try
// other values).
func (s *ConfigSpec) forCases(needs []string) []record.Config {
	settings := withSettings(s.Settings, needs)
	arches := s.Arches
	if arches == nil {
		arches = []string{hostArch()}
	}
	var out []record.Config
	for _, a := range arches {
		if a == arch.Interp {
			out = append(out, interpConfig(settings))
			continue
		}
		if a == arch.Ref {
			out = append(out, refConfig(settings))
			continue
		}
		for _, v := range s.variantsOf(a) {
			vs := withSettings(append(slices.Clone(s.Settings), v.Settings...), needs)
			for _, o := range s.Opts {
				out = append(out, record.Config{Arch: a, OptLevel: o, Flags: v.Flags, Settings: vs, Executor: executorFor(a)})
			}
		}
	}
	return s.perCranelift(out)
}

// withSettings is settings with each of needs (name=value) added whose
// name it does not set.
func withSettings(settings, needs []string) []string {
	for _, n := range needs {
		name, _, _ := strings.Cut(n, "=")
		if !slices.ContainsFunc(settings, func(have string) bool { h, _, _ := strings.Cut(have, "="); return h == name }) {
			settings = append(slices.Clip(settings), n)
		}
	}
	return settings
}

// forConfigs is configs with the settings a case needs added to each, as
// forCases adds them.
func forConfigs(configs []record.Config, needs []string) []record.Config {
	out := slices.Clone(configs)
	for i := range out {
		out[i].Settings = withSettings(out[i].Settings, needs)
	}
	return out
}

func interpConfig(settings []string) record.Config {
	return record.Config{Arch: arch.Interp, OptLevel: "none", Settings: settings, Executor: record.ExecInterp}
}

// refConfig is cliff's reference: one configuration, at opt level none
// (it runs the CLIF as written). It keeps the settings so that its
// configuration reads like the others'; lib/refinterp's semantics do not
// depend on them.
func refConfig(settings []string) record.Config {
	return record.Config{Arch: arch.Ref, OptLevel: "none", Settings: settings, Executor: record.ExecRef}
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
func (s *ConfigSpec) forFile(f *ir.File) ([]record.Config, []skip) {
	var out []record.Config
	var skips []skip
	var settings, all []string // before the current target line; in the whole header
	covered := map[string]bool{}
	sawTarget := false
	config := func(a string, flags []string, settings []string) record.Config {
		return record.Config{Arch: a, Flags: flags, Settings: append(slices.Clone(settings), s.Settings...), Executor: executorFor(a)}
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
			a := h.Words[0]
			if !arch.Known(a) {
				if s.Arches == nil {
					skips = append(skips, skip{strings.Join(h.Words, " "), "cliff-run does not run " + a + " code"})
				}
				continue
			}
			if s.Arches == nil && arch.IsBytecode(a) {
				// Opt-in, so that a default run costs what it did: Pulley
				// targets add about 100,000 of the runtests' run lines.
				skips = append(skips, skip{strings.Join(h.Words, " "), "Pulley runs only when --arch names it (--arch " + a + ")"})
				continue
			}
			if s.Arches != nil && !slices.Contains(s.Arches, a) {
				continue
			}
			covered[a] = true
			if why := unsupportedSettings(settings); why != "" {
				skips = append(skips, skip{strings.Join(h.Words, " "), why})
				continue
			}
			for _, o := range s.Opts {
				c := config(a, slices.Clone(h.Words[1:]), settings)
				c.OptLevel = o
				out = append(out, c)
			}
		}
	}
	hasTest := func(name string) bool {
		return slices.ContainsFunc(f.Tests, func(t ir.HeaderLine) bool { return len(t.Words) > 0 && t.Words[0] == name })
	}
	if s.Arches == nil {
		if !sawTarget && hasTest("run") {
			// Cranelift runs a target-less `test run` file on the host.
			for _, o := range s.Opts {
				c := config(hostArch(), nil, all)
				c.OptLevel = o
				out = append(out, c)
			}
		}
		if hasTest("interpret") {
			out = append(out, interpConfig(append(slices.Clone(all), s.Settings...)))
		}
		return out, skips
	}
	for _, a := range s.Arches {
		switch {
		case a == arch.Interp:
			out = append(out, interpConfig(append(slices.Clone(all), s.Settings...)))
		case a == arch.Ref:
			out = append(out, refConfig(append(slices.Clone(all), s.Settings...)))
		case !covered[a]:
			for _, v := range s.variantsOf(a) {
				for _, o := range s.Opts {
					c := config(a, v.Flags, all)
					c.Settings = append(c.Settings, v.Settings...)
					c.OptLevel = o
					out = append(out, c)
				}
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
