package census

import (
	"slices"
	"strings"

	"cliff/lib/arch"
	"cliff/lib/profile"
	"cliff/lib/record"
)

// A Target is what the census classifies a combination on: a backend
// compiled with one flag set, since what a backend lowers, and how,
// depends on its ISA flags (riscv64 lowers no vector without V, x86_64
// at SSE2 lowers some opcodes not at all).
type Target struct {
	Arch string
	// Set is the name of the flag set in lib/arch's table
	// (arch.DefaultSet for the default flags), or the flags themselves,
	// comma-separated, when they are no named set.
	Set string
}

// TargetOf is the target a configuration ran on.
func TargetOf(c record.Config) Target {
	t := Target{Arch: c.Arch, Set: strings.Join(c.Flags, ",")}
	a, _ := arch.Lookup(c.Arch)
	if name := a.SetName(c.Flags); name != "" {
		t.Set = name
	} else if len(c.Flags) == 0 {
		t.Set = arch.DefaultSet // no flags said: the defaults
	}
	return t
}

// String names the target as the report does: "riscv64 (zcb)".
func (t Target) String() string { return t.Arch + " (" + t.Set + ")" }

// compareTargets orders targets as the report lists them: by
// architecture in profile.Arches' order, then by flag set in lib/arch's
// table order, unnamed sets last.
func compareTargets(a, b Target) int {
	if c := slices.Index(profile.Arches, a.Arch) - slices.Index(profile.Arches, b.Arch); c != 0 {
		return c
	}
	return setIndex(a) - setIndex(b)
}

func setIndex(t Target) int {
	a, _ := arch.Lookup(t.Arch)
	if i := slices.Index(a.SetNames(), t.Set); i >= 0 {
		return i
	}
	return len(a.FlagSets)
}
