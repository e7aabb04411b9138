package engine

import (
	"context"
	"os"
	"slices"
	"sync"
	"time"

	"cliff/lib/driver"
	"cliff/lib/harness"
	"cliff/lib/record"
	"cliff/lib/tramp"
)

// place runs a built batch where its code can run. Code for the host's
// architecture runs natively when the host has every CPU feature its ISA
// flags need; other code runs under qemu-user. When the code cannot run
// as compiled, cliff tries, in this order:
//
//  1. for the host's architecture: compile again without the flags the
//     host lacks; entries whose code comes out identical run natively;
//  2. run the rest under QEMU as compiled, if QEMU emulates every flag;
//  3. else compile again without the flags QEMU lacks; entries whose code
//     comes out identical run under QEMU;
//
// and skips what is left, with the reason.
func (w *worker) place(ctx context.Context, t *task, b *built) {
	if b.exe.Pulley() {
		// cliff-pulley runs Pulley code on any host; no ISA flag needs a CPU.
		w.execute(ctx, t, b, harness.Placement{})
		return
	}
	arch := t.cfg.Arch
	flags := b.answer.ISAFlags
	where, err := harness.Place(w.host, arch, flags)
	if err == nil && (!where.Emulated || !harness.Native(arch)) {
		w.execute(ctx, t, b, where)
		return
	}
	var pending []*entry
	for _, u := range b.units {
		for _, e := range u.entries {
			if e.err == nil && !b.skip[e] {
				pending = append(pending, e)
			}
		}
	}
	var nativeOff []string
	if harness.Native(arch) {
		nativeOff = harness.NativeBlockers(w.host, arch, flags)
		pending = w.runIdentical(ctx, t, b, pending, nativeOff, false)
	}
	if len(pending) == 0 {
		return
	}
	if err == nil {
		w.execute(ctx, t, b.only(pending), where) // QEMU runs the code as compiled
		return
	}
	qemuOff := harness.QemuBlockers(w.host, arch, flags)
	if !slices.Equal(qemuOff, nativeOff) { // else that build was just tried
		pending = w.runIdentical(ctx, t, b, pending, qemuOff, true)
	}
	if len(pending) > 0 {
		why := err.Error()
		if len(nativeOff) > 0 || len(qemuOff) > 0 {
			why += "; and the code differs without it"
		}
		for _, e := range pending {
			// Recorded, so that a campaign can say how much this machine
			// could not run; unsupported results are never compared.
			e.results[t.cfgIndex] = &record.RunResult{Config: t.cfg, Status: record.StatusUnsupported, Message: shorten(record.NotRunnableHere + why)}
		}
		w.out.skippedEntries(pending, t.cfg.Arch, t.cfg.String(), why)
	}
}

// runIdentical compiles b's units again with the flags off turned off and
// runs, from that build, the pending entries whose reachable functions all
// compiled to identical code, natively or under QEMU as emulated says
// (when the new flags allow it). It returns the entries it did not run.
func (w *worker) runIdentical(ctx context.Context, t *task, b *built, pending []*entry, off []string, emulated bool) []*entry {
	if len(off) == 0 || len(pending) == 0 {
		return pending
	}
	arch := t.cfg.Arch
	target := targetString(t.cfg)
	for _, f := range off {
		target += " " + f + "=false"
	}
	obj, exe := w.scratch()
	defer os.Remove(obj)
	ans, entryIndex, err := w.compile(ctx, target, t.cfg, b.units, obj)
	if err != nil {
		return pending
	}
	where, err := harness.Place(w.host, arch, ans.ISAFlags)
	if err != nil || where.Emulated != emulated {
		return pending
	}
	waiting := map[*entry]bool{}
	for _, e := range pending {
		waiting[e] = true
	}
	same := &built{answer: ans, entryIndex: entryIndex, skip: map[*entry]bool{}}
	var rest []*entry
	for k, u := range b.units {
		m := ans.Modules[k]
		with, without := codeHashes(b.modules[k]), codeHashes(m)
		n := 0
		for _, e := range u.entries {
			if !waiting[e] {
				same.skip[e] = true
				continue
			}
			// Every reachable function compiled to the same code both
			// times, and the entry is in the new object (a function that
			// failed has no hash; the driver leaves out whatever refers
			// to one).
			identical := placed(m, tramp.Name(e.fn.Name))
			for _, name := range u.reachable(e) {
				if h := with[name]; h == "" || h != without[name] {
					identical = false
				}
			}
			if identical {
				n++
			} else {
				same.skip[e] = true
				rest = append(rest, e)
			}
		}
		if n > 0 {
			same.units = append(same.units, u)
			same.modules = append(same.modules, m)
		}
	}
	if len(same.units) == 0 {
		return rest
	}
	lctx, cancel2 := context.WithTimeout(ctx, w.lim.link)
	defer cancel2()
	start := time.Now()
	if same.exe, err = harness.Link(lctx, arch, obj, exe); err != nil {
		for _, u := range same.units {
			w.failUnit(t, u, record.StatusHarnessError, err.Error(), record.Timings{})
		}
		return rest
	}
	defer os.Remove(same.exe.Path)
	same.linkMS = msSince(start)
	w.execute(ctx, t, same, where)
	return rest
}

// only is b restricted to some of its entries.
func (b *built) only(entries []*entry) *built {
	keep := map[*entry]bool{}
	for _, e := range entries {
		keep[e] = true
	}
	c := *b
	c.skip = map[*entry]bool{}
	for _, u := range b.units {
		for _, e := range u.entries {
			if !keep[e] {
				c.skip[e] = true
			}
		}
	}
	return &c
}

// placed reports whether the function name of a compiled module is in
// the object.
func placed(m driver.ModuleOutcome, name string) bool {
	for i := range m.Functions {
		if m.Functions[i].Name == name {
			return m.Functions[i].Placed()
		}
	}
	return false
}

// codeHashes maps a compiled module's function names to their code hashes.
func codeHashes(m driver.ModuleOutcome) map[string]string {
	out := make(map[string]string, len(m.Functions))
	for _, f := range m.Functions {
		out[f.Name] = f.CodeHash
	}
	return out
}

// toolchains remembers, per architecture, whether this machine can build
// and run its code (harness.CheckToolchain): checked once per process,
// when the first batch for the architecture comes, and shared by the
// workers, so that a missing C library costs one check and one message,
// not a failure per case.
type toolchains struct {
	mu     sync.Mutex
	checks map[string]*toolchainCheck
}

type toolchainCheck struct {
	once sync.Once
	err  error
}

func (tc *toolchains) check(ctx context.Context, arch string) error {
	tc.mu.Lock()
	if tc.checks == nil {
		tc.checks = map[string]*toolchainCheck{}
	}
	c := tc.checks[arch]
	if c == nil {
		c = &toolchainCheck{}
		tc.checks[arch] = c
	}
	tc.mu.Unlock()
	c.once.Do(func() { c.err = harness.CheckToolchainCached(ctx, arch) })
	return c.err
}

// failEnvironment records an entry-wide harness error for every entry of
// u: this machine cannot build or run the configuration's code.
func (w *worker) failEnvironment(t *task, u *unit, err error) {
	for _, e := range u.entries {
		if e.results[t.cfgIndex] == nil {
			e.results[t.cfgIndex] = &record.RunResult{Config: t.cfg, Status: record.StatusHarnessError, Message: shorten(err.Error())}
		}
	}
	w.out.unusable(u, t.cfg, err)
}
