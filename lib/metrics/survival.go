package metrics

import (
	"context"
	"fmt"
	"strings"
	"time"

	"cliff/lib/driver"
)

// survivalFlags are the settings survival is measured at: the mid-end's
// full optimisation, where dead and foldable code disappears.
var survivalFlags = []string{"opt_level=speed"}

// Survival measures the fraction of a module's instructions that survive
// Cranelift's mid-end, through a driver. Like the driver's Client, it is
// not safe for concurrent use.
type Survival struct {
	client  *driver.Client
	target  string
	timeout time.Duration
}

// NewSurvival measures with the driver c for target (an ISA name with
// optional ISA flags, written as cliff-run's --isa-flags takes them,
// "riscv64=has_v,has_zbb", or as the driver takes them, "riscv64 has_v
// has_zbb"), giving each module at most timeout (0: the caller's context
// alone, or the driver's default).
func NewSurvival(c *driver.Client, target string, timeout time.Duration) *Survival {
	return &Survival{client: c, target: TargetString(target), timeout: timeout}
}

// TargetString turns "ARCH=FLAG,FLAG" (cliff-run's --isa-flags form) into
// the driver's "ARCH FLAG FLAG"; the driver's form is returned as it is.
func TargetString(target string) string {
	arch, flags, ok := strings.Cut(target, "=")
	if !ok || strings.Contains(arch, " ") {
		return target
	}
	return strings.Join(append([]string{arch}, strings.FieldsFunc(flags, func(r rune) bool { return r == ',' || r == ' ' })...), " ")
}

// Measure returns sum(insts after) / sum(insts before) over the functions
// of the CLIF module clif when the driver optimises it at opt_level=speed,
// clamped to [0, 1] (the mid-end may add instructions, such as constants
// it rematerialises). A module Cranelift rejects or crashes on gives the
// driver's *driver.Failure, wrapped with the target.
func (s *Survival) Measure(ctx context.Context, clif string) (float64, error) {
	if s.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, s.timeout)
		defer cancel()
	}
	a, err := s.client.Optimize(ctx, &driver.OptimizeRequest{CLIF: clif, Target: s.target, Flags: survivalFlags})
	if err != nil {
		return 0, fmt.Errorf("survival on %s: %w", s.target, err)
	}
	before, after := 0, 0
	for _, f := range a.Functions {
		before += f.InstsBefore
		after += f.InstsAfter
	}
	if before == 0 {
		return 0, fmt.Errorf("survival on %s: the driver reported no instructions (%d functions)", s.target, len(a.Functions))
	}
	return min(float64(after)/float64(before), 1), nil
}
