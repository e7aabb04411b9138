package cluster

import (
	"slices"
	"strings"

	"cliff/lib/record"
)

// abstractConfigs is R: the failing configurations, said per architecture
// in the fewest words that still tell them from the passing
// configurations of the same architecture (all: every configuration the
// verdict names, failing ones included).
//
//   - Opt levels: "*" when the failure shows without optimisation (the
//     failing code is in the input; an optimising level that passes only
//     removed it, which is the case's accident, not the bug's) or when no
//     level of the architecture passed; "opt" when only optimising levels
//     fail (the mid-end made the failing code).
//   - ISA flags and settings: named only when the architecture ran with
//     several sets and not all failed: "[has_avx2]" for what every failing
//     set has and some passing set lacks, "[!has_avx2]" the other way.
//   - Executor: named ("@qemu") only when the architecture ran under
//     several and not all failed.
//
// When every compiled architecture of the verdict (at least two) fails
// alike, they are written "*". The interpreter is the architecture
// "interp", cliff's reference the architecture "ref"; neither is
// compiled.
//
// blamed are the names R's parts start with, sorted (Signature.Blamed).
func abstractConfigs(failing, all []record.Config) (r string, blamed []string) {
	isFailing := func(c record.Config) bool {
		return slices.ContainsFunc(failing, func(f record.Config) bool { return sameConfig(f, c) })
	}
	byArch := map[string][]record.Config{}
	for _, c := range dedupConfigs(append(slices.Clone(all), failing...)) {
		byArch[archOf(c)] = append(byArch[archOf(c)], c)
	}
	failingArches := []string{} // not nil: R blames no architecture, not all
	for _, c := range failing {
		if a := archOf(c); !slices.Contains(failingArches, a) {
			failingArches = append(failingArches, a)
		}
	}
	slices.Sort(failingArches)
	parts := make([]string, len(failingArches))
	suffixes := map[string]bool{}
	plain := true
	for i, a := range failingArches {
		var fl, pa []record.Config
		for _, c := range byArch[a] {
			if isFailing(c) {
				fl = append(fl, c)
			} else {
				pa = append(pa, c)
			}
		}
		flags := flagsPart(fl, pa)
		suffix := "/" + optPart(fl, pa) + executorPart(fl, pa) + versionPart(fl, pa)
		parts[i] = a + flags + suffix
		suffixes[suffix] = true
		plain = plain && flags == ""
	}
	compiled := 0
	for a := range byArch {
		if a != record.ExecInterp && a != record.ExecRef {
			compiled++
		}
	}
	failingCompiled := len(failingArches)
	if slices.Contains(failingArches, record.ExecInterp) {
		failingCompiled--
	}
	if slices.Contains(failingArches, record.ExecRef) {
		failingCompiled--
	}
	if compiled >= 2 && failingCompiled == compiled && plain && len(suffixes) == 1 {
		var s string
		for s = range suffixes {
		}
		out, blamed := "*"+s, []string{"*"}
		if slices.Contains(failingArches, record.ExecInterp) {
			out, blamed = "interp"+s+","+out, []string{"*", "interp"}
		}
		return out, blamed
	}
	return strings.Join(parts, ","), failingArches
}

func archOf(c record.Config) string {
	if c.Executor == record.ExecInterp || c.Executor == record.ExecRef {
		return c.Executor
	}
	return c.Arch
}

func dedupConfigs(cs []record.Config) []record.Config {
	var out []record.Config
	for _, c := range cs {
		if !slices.ContainsFunc(out, func(o record.Config) bool { return sameConfig(o, c) }) {
			out = append(out, c)
		}
	}
	return out
}

// versionPart names the Cranelift versions that fail ("@0.135.8") when
// a run tested several and they tell the failing configurations from the
// passing ones; "" otherwise.
func versionPart(fl, pa []record.Config) string {
	var failing []string
	for _, c := range fl {
		if c.Cranelift == "" {
			return ""
		}
		if !slices.Contains(failing, c.Cranelift) {
			failing = append(failing, c.Cranelift)
		}
	}
	split := slices.ContainsFunc(pa, func(c record.Config) bool { return c.Cranelift != "" && !slices.Contains(failing, c.Cranelift) })
	if !split {
		return ""
	}
	slices.Sort(failing)
	return "@" + strings.Join(failing, ",")
}

func optPart(fl, pa []record.Config) string {
	failingLevels := map[string]bool{}
	for _, c := range fl {
		failingLevels[c.OptLevel] = true
	}
	if failingLevels["none"] {
		return "*"
	}
	for _, c := range pa {
		if !failingLevels[c.OptLevel] {
			return "opt"
		}
	}
	return "*"
}

// flagsPart names the ISA flags and settings that tell the failing
// configurations from the passing ones, if any set does.
func flagsPart(fl, pa []record.Config) string {
	if len(pa) == 0 {
		return ""
	}
	// Most campaigns run an architecture with one set of flags: nothing to
	// tell apart, and nothing to allocate.
	sameFlags := true
	for _, c := range append(slices.Clone(fl), pa...) {
		sameFlags = sameFlags && slices.Equal(c.Flags, fl[0].Flags) && slices.Equal(c.Settings, fl[0].Settings)
	}
	if sameFlags {
		return ""
	}
	variant := func(c record.Config) string { return strings.Join(flagSet(c), ",") }
	failingVariants := map[string]bool{}
	for _, c := range fl {
		failingVariants[variant(c)] = true
	}
	split := false
	for _, c := range pa {
		if !failingVariants[variant(c)] {
			split = true
		}
	}
	allVariants := map[string]bool{}
	for _, c := range append(slices.Clone(fl), pa...) {
		allVariants[variant(c)] = true
	}
	if !split || len(allVariants) < 2 || len(failingVariants) == len(allVariants) {
		return ""
	}
	common := func(cs []record.Config) []string {
		var out []string
		for i, c := range cs {
			if i == 0 {
				out = flagSet(c)
				continue
			}
			out = slices.DeleteFunc(out, func(f string) bool { return !slices.Contains(flagSet(c), f) })
		}
		return out
	}
	var passingVariants []record.Config
	for _, c := range pa {
		if !failingVariants[variant(c)] {
			passingVariants = append(passingVariants, c)
		}
	}
	inFailing, inPassing := common(fl), common(passingVariants)
	// A word tells failing from passing only if no configuration of the
	// other side has it: a flag every failing set has but one passing set
	// has too explains nothing (a swarm draws different sets per chunk,
	// and naming such flags split one bug into a cluster per draw).
	inAny := func(cs []record.Config, f string) bool {
		return slices.ContainsFunc(cs, func(c record.Config) bool { return slices.Contains(flagSet(c), f) })
	}
	var words []string
	for _, f := range inFailing {
		if !inAny(passingVariants, f) {
			words = append(words, f)
		}
	}
	for _, f := range inPassing {
		if !inAny(fl, f) {
			words = append(words, "!"+f)
		}
	}
	// A setting the failing side has is named alone: a swarm draws
	// settings with the flag sets, and the setting (a register allocator,
	// say) is what changes the code; the flags drawn beside it are the
	// chunk's accident.
	// What the failing side has is named before what it lacks.
	var settingWords, hasWords []string
	for _, w := range words {
		if !strings.HasPrefix(w, "!") {
			hasWords = append(hasWords, w)
			if strings.Contains(w, "=") {
				settingWords = append(settingWords, w)
			}
		}
	}
	switch {
	case len(settingWords) > 0:
		words = settingWords
	case len(hasWords) > 0:
		words = hasWords
	}
	if len(words) == 0 {
		return ""
	}
	return "[" + strings.Join(words, ",") + "]"
}

func flagSet(c record.Config) []string {
	s := append(slices.Clone(c.Flags), c.Settings...)
	slices.Sort(s)
	return s
}

func executorPart(fl, pa []record.Config) string {
	failing := map[string]bool{}
	for _, c := range fl {
		failing[c.Executor] = true
	}
	for _, c := range pa {
		if !failing[c.Executor] {
			execs := make([]string, 0, len(failing))
			for e := range failing {
				execs = append(execs, e)
			}
			slices.Sort(execs)
			return "@" + strings.Join(execs, ",")
		}
	}
	return ""
}
