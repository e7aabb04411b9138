package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"cliff/lib/arch"
	"cliff/lib/driver"
	"cliff/lib/record"
)

// Before any case runs, an engine checks what a typo or a broken set-up
// would otherwise turn into a failure on every case: the limits and the
// driver (New: it must start and answer), and the ISA flags and settings
// of the configurations (Cranelift must accept them on every
// architecture they apply to). A rejected flag would make every result a
// compile_error, blamed on Cranelift.

// checkSpec checks the configurations of spec: its ISA flags and
// settings on each of its architectures (on every one for nil arches:
// .clif files may name any of them).
func (e *Engine) checkSpec(ctx context.Context, spec *ConfigSpec) error {
	if err := spec.check(); err != nil {
		return err
	}
	arches := spec.Arches
	if arches == nil {
		arches = arch.Names()
	}
	labels := spec.Cranelifts
	if len(labels) == 0 {
		labels = []string{""}
	}
	for _, a := range arches {
		if a == arch.Ref {
			continue // cliff's own: no driver, no flags to check
		}
		for _, v := range spec.variantsOf(a) {
			for _, label := range labels {
				// A flag one release lacks fails here, naming it.
				cfg := record.Config{Arch: a, OptLevel: "none", Flags: v.Flags, Settings: append(slices.Clone(spec.Settings), v.Settings...), Cranelift: label}
				if err := e.checkTarget(ctx, cfg); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// checkTarget has Cranelift compile an empty function for cfg's target
// and settings, once per engine for each; the interpreters (Cranelift's
// and the reference) compile nothing.
func (e *Engine) checkTarget(ctx context.Context, cfg record.Config) error {
	if _, ok := e.workers[0].drv[cfg.Cranelift]; !ok && cfg.Executor != record.ExecRef && cfg.Arch != arch.Ref {
		if cfg.Cranelift == "" {
			return fmt.Errorf("%s names no Cranelift, and this run tests several (--cranelift)", cfg)
		}
		return fmt.Errorf("%s: this run has no driver for Cranelift %s (add it to --cranelift)", cfg, cfg.Cranelift)
	}
	if interpreted(cfg.Arch) {
		return nil
	}
	key := fmt.Sprint(cfg.Cranelift, targetString(cfg), sharedFlags(cfg))
	if err, ok := e.checked[key]; ok {
		return err
	}
	w := e.workers[0]
	req := &driver.CompileRequest{
		Target:  targetString(cfg),
		Flags:   sharedFlags(cfg),
		Output:  filepath.Join(w.dir, "check-"+cfg.Arch+".o"),
		Modules: []string{"function %f() {\nblock0:\n    return\n}\n"},
	}
	defer os.Remove(req.Output)
	cctx, cancel := context.WithTimeout(ctx, time.Minute)
	_, err := w.driverFor(cfg).Compile(cctx, req)
	cancel()
	var f *driver.Failure
	switch {
	case errors.As(err, &f):
		who := "Cranelift"
		if cfg.Cranelift != "" {
			who += " " + cfg.Cranelift
		}
		err = fmt.Errorf("%s: %s refuses the command line's ISA flags or settings (--isa-flags, --set): %s", cfg.Arch, who, f.Message)
	case err != nil:
		// Not the configuration's fault: not remembered.
		return fmt.Errorf("the driver of Cranelift %q: %w", cfg.Cranelift, err)
	}
	e.checked[key] = err
	return err
}
