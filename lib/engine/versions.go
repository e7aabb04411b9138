package engine

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"

	"cliff/lib/arch"
	"cliff/lib/cliapp"
	"cliff/lib/driver"
	"cliff/lib/harness"
	"cliff/lib/record"
)

// versions stamps every result with the tools behind it: cliff, the
// driver's Cranelift, and QEMU for code that ran under it. QEMU is asked
// once per architecture, when its first result is written.
type versions struct {
	cliff, cranelift string
	mu               sync.Mutex
	qemu             map[string]*record.Versions // by arch; the shared stamps
	native           *record.Versions
}

func newVersions(cranelift string) *versions {
	v := &versions{cliff: cliapp.Version(), cranelift: cranelift, qemu: map[string]*record.Versions{}}
	v.native = &record.Versions{Cliff: v.cliff, Cranelift: cranelift}
	return v
}

// stamp sets res.Versions (results share the stamps: they are never
// changed once made).
func (v *versions) stamp(res *record.RunResult) {
	if v == nil || res.Versions != nil {
		return
	}
	if res.Config.Executor != record.ExecQemu {
		res.Versions = v.native
		return
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	s := v.qemu[res.Config.Arch]
	if s == nil {
		s = &record.Versions{Cliff: v.cliff, Cranelift: v.cranelift}
		// A QEMU that cannot say its version still ran the code: the
		// stamp then lacks it rather than failing the run.
		s.QEMU, _ = harness.EmulatorVersion(context.Background(), harness.Arch(res.Config.Arch))
		v.qemu[res.Config.Arch] = s
	}
	res.Versions = s
}

// PrintVersions is cliff-run's --version: cliff's, then Cranelift's (from
// the driver) and each QEMU's, each saying why when it cannot be had.
func PrintVersions(w io.Writer, driverPath string) {
	fmt.Fprintf(w, "cliff-run version %s\n", cliapp.Version())
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if driverPath == "" {
		var err error
		if driverPath, err = driver.Find(); err != nil {
			fmt.Fprintf(w, "cranelift: unknown (%v)\n", err)
		}
	}
	if driverPath != "" {
		c := driver.New(driverPath)
		defer c.Close()
		if a, err := c.Version(ctx); err != nil {
			fmt.Fprintf(w, "cranelift: unknown (%v)\n", err)
		} else {
			fmt.Fprintf(w, "cranelift %s (%s)\n", a.Cranelift, driverPath)
		}
	}
	for _, a := range arch.Names() {
		if a == hostArch() {
			continue
		}
		if v, err := harness.EmulatorVersion(ctx, harness.Arch(a)); err != nil {
			fmt.Fprintf(w, "qemu-%s: unknown (%v)\n", a, err)
		} else {
			fmt.Fprintf(w, "qemu-%s %s\n", a, v)
		}
	}
}
