package cluster

import (
	"cmp"
	"slices"

	"cliff/lib/record"
)

// A HarnessErrors entry counts the cases whose runs failed in cliff's own
// machinery rather than in Cranelift (status harness_error: QEMU's own
// aborts, say), for one executor and its version. They are in no cluster,
// since they say nothing about Cranelift, but the report shows them as
// what they are: a campaign that lost cases to its emulator says so.
type HarnessErrors struct {
	// Executor is what ran the code: "qemu-riscv64" for QEMU, else the
	// executor (native, interp, ...).
	Executor string
	// Version is QEMU's version from the results (record.Versions), ""
	// when not known or not QEMU.
	Version string
	Cases   int
	// Example is the first such case: its ID, configuration and message.
	Example, Config, Message string
}

// harnessErrors notes the harness errors of a verdict's case: each
// executor counts the case once.
func (s *Stats) harnessErrors(v *record.Verdict) {
	seen := map[[2]string]bool{}
	note := func(cfg record.Config, version, message string) {
		exec := cfg.Executor
		if exec == record.ExecQemu {
			exec = "qemu-" + cfg.Arch
		}
		key := [2]string{exec, version}
		if seen[key] {
			return
		}
		seen[key] = true
		i := slices.IndexFunc(s.Harness, func(h HarnessErrors) bool { return h.Executor == exec && h.Version == version })
		if i < 0 {
			s.Harness = append(s.Harness, HarnessErrors{Executor: exec, Version: version, Example: v.CaseID, Config: cfg.String(), Message: message})
			i = len(s.Harness) - 1
		}
		s.Harness[i].Cases++
	}
	if v.Case != nil && len(v.Case.Results) > 0 {
		for _, r := range v.Case.Results {
			if r.Status != record.StatusHarnessError {
				continue
			}
			version := ""
			if r.Versions != nil {
				version = r.Versions.QEMU
			}
			note(r.Config, version, r.Message)
		}
		return
	}
	for _, side := range v.Sides {
		if side.Status == record.StatusHarnessError {
			for _, cfg := range side.Configs {
				note(cfg, "", "")
			}
		}
	}
}

// HarnessErrorsByCount are the harness errors, the most cases first.
func (s *Stats) HarnessErrorsByCount() []HarnessErrors {
	out := slices.Clone(s.Harness)
	slices.SortStableFunc(out, func(a, b HarnessErrors) int { return cmp.Compare(b.Cases, a.Cases) })
	return out
}
