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
// Cranelift of its driver, and QEMU for code that ran under it. QEMU is
// asked once per architecture, when its first result is written.
type versions struct {
	cliff     string
	cranelift map[string]string // by Config.Cranelift: the driver's crate version
	mu        sync.Mutex
	qemuOf    map[string]string              // by arch
	stamps    map[[2]string]*record.Versions // by Cranelift and QEMU ("" when native): the shared stamps
}

func newVersions(cranelift map[string]string) *versions {
	return &versions{cliff: cliapp.Version(), cranelift: cranelift, qemuOf: map[string]string{}, stamps: map[[2]string]*record.Versions{}}
}

// stamp sets res.Versions (results share the stamps: they are never
// changed once made).
func (v *versions) stamp(res *record.RunResult) {
	if v == nil || res.Versions != nil {
		return
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	qemu := ""
	if res.Config.Executor == record.ExecQemu {
		var ok bool
		if qemu, ok = v.qemuOf[res.Config.Arch]; !ok {
			// A QEMU that cannot say its version still ran the code: the
			// stamp then lacks it rather than failing the run.
			qemu, _ = harness.EmulatorVersion(context.Background(), res.Config.Arch)
			v.qemuOf[res.Config.Arch] = qemu
		}
	}
	key := [2]string{res.Config.Cranelift, qemu}
	s := v.stamps[key]
	if s == nil {
		s = &record.Versions{Cliff: v.cliff, Cranelift: v.cranelift[res.Config.Cranelift], QEMU: qemu}
		v.stamps[key] = s
	}
	res.Versions = s
}

// PrintVersions is cliff-run's --version: cliff's, then Cranelift's (from
// the driver) and each QEMU's, each saying why when it cannot be had.
func PrintVersions(w io.Writer, driverPath string) {
	fmt.Fprintf(w, "cliff-run version %s\n", cliapp.Version())
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	driverPath, err := driver.Resolve(driverPath)
	if err != nil {
		fmt.Fprintf(w, "cranelift: unknown (%v)\n", err)
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
		if v, err := harness.EmulatorVersion(ctx, a); err != nil {
			fmt.Fprintf(w, "qemu-%s: unknown (%v)\n", a, err)
		} else {
			fmt.Fprintf(w, "qemu-%s %s\n", a, v)
		}
	}
}
