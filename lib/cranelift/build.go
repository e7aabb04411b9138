package cranelift

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/cespare/xxhash/v2"

	driversrc "cliff/driver"
	"cliff/lib/driver"
)

// BuildTimeout bounds one driver build: a cold build of Cranelift takes
// two to five minutes on two cores.
const BuildTimeout = 60 * time.Minute

// A Build is a cliff-driver built for one Cranelift.
type Build struct {
	Spec Spec
	// Version is the cranelift-codegen version built (0.137.1; a
	// checkout's own).
	Version string
	// Label names it in results (config.cranelift): the version, and for
	// a checkout its commit and dirty-tree hash.
	Label string
	// Driver is the binary.
	Driver string
	// Toolchain built it ("nightly (rustc 1.97.0-nightly)"); empty for
	// the default driver, built by make.
	Toolchain string
	// Key names the build in the cache; Dir holds it.
	Key, Dir string
	// Seconds is how long the build took, when it was built (and not
	// found in the cache).
	Seconds float64
	Cached  bool
}

// A BuildError is a Cranelift that cannot be built here: no toolchain is
// new enough, or cargo failed. Reason is one line.
type BuildError struct {
	Spec   string
	Reason string
	Log    string // cargo's output, when it ran
}

func (e *BuildError) Error() string {
	s := "Cranelift " + e.Spec + ": cannot build: " + e.Reason
	if e.Log != "" {
		s += " (cargo's output: " + e.Log + ")"
	}
	return s
}

// A Builder builds cliff-driver for any Cranelift into a cache, each
// build keyed by what went into it: the release (or the checkout's path,
// commit and uncommitted changes) and the driver's own source. A build
// whose key is in the cache is not built again; one that failed is not
// tried again either (its reason is kept), until the key changes.
type Builder struct {
	// Cache is the root of cliff's cache (~/.cache/cliff): builds go in
	// drivers/, cargo's build directory is cargo-target/, the registry's
	// index registry/.
	Cache string
	// Source is the driver's crate (driver.Source).
	Source fs.FS
	// DefaultDriver finds the default driver (driver.Find).
	DefaultDriver func() (string, error)
	// Log receives cargo's progress and a line per build.
	Log io.Writer
	// IndexURL is crates.io's index entry of cranelift-codegen; IndexURL
	// (the package's) when empty.
	IndexURL string

	tcOnce     sync.Once
	toolchains []Toolchain
	tcErr      error
	releases   []ReleaseInfo
	relErr     error
	relOnce    sync.Once
}

// NewBuilder is the driver builder of cliff's tools: the user's cache,
// the driver source the tool was built with, make's driver as the
// default; log receives cargo's progress.
func NewBuilder(log io.Writer) (*Builder, error) {
	cache, err := DefaultCache()
	if err != nil {
		return nil, err
	}
	return &Builder{Cache: cache, Source: driversrc.Source, DefaultDriver: driver.Find, Log: log}, nil
}

// DefaultCache is os.UserCacheDir()/cliff, or $CLIFF_CACHE.
func DefaultCache() (string, error) {
	if d := os.Getenv("CLIFF_CACHE"); d != "" {
		return d, nil
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(base, "cliff"), nil
}

func (b *Builder) log() io.Writer {
	if b.Log == nil {
		return io.Discard
	}
	return b.Log
}

// Registry is the crates.io index, cached in Cache.
func (b *Builder) Registry() *Registry {
	return &Registry{Cache: filepath.Join(b.Cache, "registry", "cranelift-codegen.index"), URL: b.IndexURL}
}

// Releases lists Cranelift's releases (once per Builder).
func (b *Builder) Releases(ctx context.Context) ([]ReleaseInfo, error) {
	b.relOnce.Do(func() { b.releases, b.relErr = b.Registry().Releases(ctx) })
	return b.releases, b.relErr
}

// Toolchains lists the installed Rust toolchains (once per Builder).
func (b *Builder) Toolchains(ctx context.Context) ([]Toolchain, error) {
	b.tcOnce.Do(func() { b.toolchains, b.tcErr = Toolchains(ctx) })
	return b.toolchains, b.tcErr
}

// DefaultVersion is the Cranelift the driver's committed manifest pins:
// the one the default driver is built with.
func (b *Builder) DefaultVersion() (string, error) {
	data, err := fs.ReadFile(b.Source, "Cargo.toml")
	if err != nil {
		return "", err
	}
	return manifestVersion(string(data))
}

// Resolve turns "latest" into the newest release an installed toolchain
// can build (release candidates and yanked releases aside); other specs
// are returned as they are.
func (b *Builder) Resolve(ctx context.Context, spec Spec) (Spec, error) {
	if spec.Kind != Latest {
		return spec, nil
	}
	rels, err := b.Releases(ctx)
	if err != nil {
		return spec, err
	}
	tcs, err := b.Toolchains(ctx)
	if err != nil {
		return spec, err
	}
	for i := len(rels) - 1; i >= 0; i-- {
		r := rels[i]
		if r.Yanked || r.Prerelease() {
			continue
		}
		if _, err := ChooseToolchain(tcs, r.RustVersion); err == nil {
			return Spec{Kind: Release, Version: r.Version}, nil
		}
	}
	return spec, fmt.Errorf("latest: no Cranelift release can be built with the installed toolchains")
}

// Ensure returns the driver for spec, building it when the cache does
// not hold it. The default spec is the default driver; a release equal
// to the default's version is that driver too, when it is there.
func (b *Builder) Ensure(ctx context.Context, spec Spec) (*Build, error) {
	spec, err := b.Resolve(ctx, spec)
	if err != nil {
		return nil, err
	}
	def, defErr := b.DefaultVersion()
	if spec.Kind == Default || spec.Kind == Release && defErr == nil && spec.Version == def {
		if b.DefaultDriver != nil {
			p, err := b.DefaultDriver()
			if err == nil {
				// $CLIFF_DRIVER may name another release's driver: a
				// release is that driver only when it says so.
				var v string
				if v, err = driverVersion(ctx, p); err == nil && (spec.Kind == Default || v == spec.Version) {
					return &Build{Spec: spec, Version: v, Label: v, Driver: p, Cached: true}, nil
				}
			}
			if spec.Kind == Default {
				return nil, err
			}
		}
		if defErr != nil {
			return nil, defErr
		}
		spec = Spec{Kind: Release, Version: def}
	}
	switch spec.Kind {
	case Release:
		return b.buildRelease(ctx, spec)
	case Checkout:
		return b.buildCheckout(ctx, spec)
	}
	return nil, fmt.Errorf("Cranelift %s: nothing to build", spec)
}

func (b *Builder) buildRelease(ctx context.Context, spec Spec) (*Build, error) {
	src, err := b.sourceHash()
	if err != nil {
		return nil, err
	}
	job := &buildJob{
		spec: spec, version: spec.Version, label: spec.Version, key: spec.Version + "-" + src[:12],
		// Asked only when the cache lacks the build: a cached driver
		// needs no registry.
		describe: func(ctx context.Context) (string, error) {
			rel, ok, err := b.release(ctx, spec.Version)
			if err != nil {
				return "", err
			}
			if !ok {
				newest := "none"
				if rels, _ := b.Releases(ctx); len(rels) > 0 {
					newest = rels[len(rels)-1].Version
				}
				return "", fmt.Errorf("Cranelift %s is not a release on crates.io (the newest is %s)", spec.Version, newest)
			}
			return rel.RustVersion, nil
		},
	}
	if def, err := b.DefaultVersion(); err == nil && def == spec.Version {
		job.locked = true // the committed Cargo.lock is this release's
	}
	return b.build(ctx, job)
}

// release describes a release: the default one from the driver's own
// manifest (so that set-up builds it without asking the registry), the
// others from crates.io's index.
func (b *Builder) release(ctx context.Context, version string) (ReleaseInfo, bool, error) {
	if def, err := b.DefaultVersion(); err == nil && def == version {
		data, err := fs.ReadFile(b.Source, "Cargo.toml")
		if err != nil {
			return ReleaseInfo{}, false, err
		}
		if rv := tomlKeys(string(data), "[package]")["rust-version"]; rv != "" {
			return ReleaseInfo{Version: version, RustVersion: strings.Trim(rv, `"`)}, true, nil
		}
	}
	rels, err := b.Releases(ctx)
	if err != nil {
		return ReleaseInfo{}, false, err
	}
	rel, ok := Find(rels, version)
	return rel, ok, nil
}

func (b *Builder) buildCheckout(ctx context.Context, spec Spec) (*Build, error) {
	co, err := openCheckout(ctx, spec.Path)
	if err != nil {
		return nil, err
	}
	src, err := b.sourceHash()
	if err != nil {
		return nil, err
	}
	where := xxhash.Sum64String(co.root)
	key := fmt.Sprintf("checkout-%016x-%s", where, ShortRev(co.rev))
	if co.dirty != "" {
		key += "-dirty." + co.dirty[:8]
	}
	return b.build(ctx, &buildJob{
		spec: spec, version: co.version, label: co.label(),
		describe: func(context.Context) (string, error) { return co.rustVersion, nil },
		key:      key + "-" + src[:12], patches: co.crates,
	})
}

// ask starts the driver at path, asks it one question within a minute
// and ends it.
func ask[T any](ctx context.Context, path string, question func(*driver.Client, context.Context) (T, error)) (T, error) {
	c := driver.New(path)
	defer c.Close()
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	return question(c, ctx)
}

// driverVersion asks a driver which Cranelift it was built with.
func driverVersion(ctx context.Context, path string) (string, error) {
	a, err := ask(ctx, path, (*driver.Client).Version)
	if err != nil {
		return "", err
	}
	return a.Cranelift, nil
}

// A buildJob is one build's inputs.
type buildJob struct {
	spec           Spec
	version, label string
	// describe gives the rust-version the build needs (or why there is
	// nothing to build), asked only when the cache lacks the build.
	describe    func(context.Context) (string, error)
	rustVersion string // describe's answer
	key         string
	patches     map[string]string
	locked      bool
}

// buildInfo is build.json, what the cache keeps of a build.
type buildInfo struct {
	Spec      string    `json:"spec"`
	Version   string    `json:"version"`
	Label     string    `json:"label"`
	Toolchain string    `json:"toolchain,omitempty"`
	OK        bool      `json:"ok"`
	Reason    string    `json:"reason,omitempty"`
	Seconds   float64   `json:"seconds"`
	When      time.Time `json:"when"`
}

func (b *Builder) build(ctx context.Context, job *buildJob) (*Build, error) {
	dir := filepath.Join(b.Cache, "drivers", job.key)
	res := &Build{Spec: job.spec, Version: job.version, Label: job.label, Key: job.key, Dir: dir, Driver: filepath.Join(dir, "cliff-driver")}
	if info, ok := readBuildInfo(dir); !ok || !info.OK || !exists(res.Driver) {
		// Only a build the cache lacks needs its release described (the
		// registry asked): nothing is made in the cache for a release
		// that does not exist.
		var err error
		if job.rustVersion, err = job.describe(ctx); err != nil {
			return nil, err
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	// One build at a time per key across processes (campaign chunks ask
	// at once); cargo serialises the rest on its build directory.
	unlock, err := lockFile(ctx, dir+".lock")
	if err != nil {
		return nil, err
	}
	defer unlock()
	if info, ok := readBuildInfo(dir); ok {
		res.Toolchain = info.Toolchain
		if !info.OK {
			return nil, &BuildError{Spec: job.spec.String(), Reason: info.Reason, Log: logIfThere(dir)}
		}
		if exists(res.Driver) {
			res.Cached = true
			return res, nil
		}
	}
	tcs, err := b.Toolchains(ctx)
	if err != nil {
		return nil, err
	}
	tc, err := ChooseToolchain(tcs, job.rustVersion)
	if err != nil {
		// Not recorded: installing a toolchain changes the answer.
		return nil, &BuildError{Spec: job.spec.String(), Reason: err.Error()}
	}
	res.Toolchain = tc.String()
	if err := b.writeCrate(dir, job); err != nil {
		return nil, err
	}
	start := time.Now()
	fmt.Fprintf(b.log(), "cliff: building cliff-driver for Cranelift %s with %s in %s\n", job.label, tc, dir)
	reason, err := b.cargoBuild(ctx, tc, dir, job)
	res.Seconds = time.Since(start).Seconds()
	if err != nil {
		return nil, err // cliff's own trouble or a cancelled context: not a verdict on the release
	}
	info := buildInfo{Spec: job.spec.String(), Version: job.version, Label: job.label, Toolchain: res.Toolchain, OK: reason == "", Reason: reason, Seconds: res.Seconds, When: time.Now().UTC()}
	if err := writeBuildInfo(dir, info); err != nil {
		return nil, err
	}
	if reason != "" {
		fmt.Fprintf(b.log(), "cliff: Cranelift %s does not build (%.0f s): %s\n", job.label, res.Seconds, reason)
		return nil, &BuildError{Spec: job.spec.String(), Reason: reason, Log: logIfThere(dir)}
	}
	fmt.Fprintf(b.log(), "cliff: built cliff-driver for Cranelift %s in %.0f s: %s\n", job.label, res.Seconds, res.Driver)
	return res, nil
}

// writeCrate lays the driver's crate out in dir with its manifest
// rewritten for the job.
func (b *Builder) writeCrate(dir string, job *buildJob) error {
	err := fs.WalkDir(b.Source, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(b.Source, path)
		if err != nil {
			return err
		}
		if path == "Cargo.toml" {
			text, err := rewriteManifest(string(data), job.version, job.rustVersion, job.patches)
			if err != nil {
				return err
			}
			data = []byte(text)
		}
		if path == "Cargo.lock" {
			// A lock from an earlier try of this key is kept: cargo
			// resolved it for this very manifest.
			if _, err := os.Stat(filepath.Join(dir, path)); err == nil {
				return nil
			}
		}
		target := filepath.Join(dir, filepath.FromSlash(path))
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		return writeFileAtomic(target, data)
	})
	if err != nil {
		return fmt.Errorf("laying out the driver in %s: %w", dir, err)
	}
	return nil
}

// cargoBuild runs cargo build --release in dir and installs the binaries
// as dir/cliff-driver and dir/cliff-pulley. A build that fails is a reason (its first error
// line); err is for what is not cargo's verdict (no cargo, a timeout, a
// cancelled run, a file that cannot be copied).
func (b *Builder) cargoBuild(ctx context.Context, tc Toolchain, dir string, job *buildJob) (reason string, err error) {
	target := filepath.Join(b.Cache, "cargo-target")
	// The build directory is shared (common crates build once), and with
	// it cargo's release/cliff-driver: one build at a time, from cargo's
	// start to the copy of its binary.
	unlock, err := lockFile(ctx, filepath.Join(b.Cache, "drivers", ".cargo.lock"))
	if err != nil {
		return "", err
	}
	defer unlock()
	logPath := filepath.Join(dir, "build.log")
	logFile, err := os.Create(logPath)
	if err != nil {
		return "", err
	}
	defer logFile.Close()
	bctx, cancel := context.WithTimeout(ctx, BuildTimeout)
	defer cancel()
	args := []string{"build", "--release", "--bin", "cliff-driver", "--bin", "cliff-pulley"}
	if job.locked {
		args = append(args, "--locked")
	}
	cmd := tc.Cargo(bctx, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CARGO_TARGET_DIR="+target, "CARGO_TERM_PROGRESS_WHEN=never")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 10 * time.Second
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return "", err
	}
	cmd.Stdout = logFile
	if err := cmd.Start(); err != nil {
		return "", fmt.Errorf("starting cargo (%s): %w", tc, err)
	}
	first := ""
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		line := sc.Text()
		fmt.Fprintln(logFile, line)
		fmt.Fprintln(b.log(), line)
		if first == "" && strings.HasPrefix(line, "error") {
			first = line
		}
	}
	werr := cmd.Wait()
	switch {
	case bctx.Err() == context.DeadlineExceeded:
		return "", fmt.Errorf("Cranelift %s: cargo build did not finish in %s (log: %s)", job.label, BuildTimeout, logPath)
	case ctx.Err() != nil:
		return "", ctx.Err()
	case werr != nil:
		var ee *exec.ExitError
		if !errors.As(werr, &ee) {
			return "", fmt.Errorf("cargo (%s): %w", tc, werr)
		}
		if first == "" {
			first = "cargo build failed: " + werr.Error()
		}
		return first, nil
	}
	// cliff-pulley, the Pulley runner, lives beside the driver, which is
	// how cliff-run finds it (lib/engine).
	for _, bin := range []string{"cliff-driver", "cliff-pulley"} {
		if err := copyFile(filepath.Join(target, "release", bin), filepath.Join(dir, bin)); err != nil {
			return "", err
		}
	}
	return "", nil
}

// sourceHash is the hash of the driver's crate: a changed driver is a
// new key.
func (b *Builder) sourceHash() (string, error) {
	var paths []string
	err := fs.WalkDir(b.Source, ".", func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			paths = append(paths, path)
		}
		return err
	})
	if err != nil {
		return "", err
	}
	sort.Strings(paths)
	h := xxhash.New()
	for _, p := range paths {
		data, err := fs.ReadFile(b.Source, p)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s\x00%d\x00", p, len(data))
		h.Write(data)
	}
	return fmt.Sprintf("%016x", h.Sum64()), nil
}

func readBuildInfo(dir string) (buildInfo, bool) {
	var info buildInfo
	data, err := os.ReadFile(filepath.Join(dir, "build.json"))
	if err != nil || json.Unmarshal(data, &info) != nil {
		return info, false
	}
	return info, true
}

func writeBuildInfo(dir string, info buildInfo) error {
	data, err := json.MarshalIndent(info, "", "  ")
	if err != nil {
		return err
	}
	return writeFileAtomic(filepath.Join(dir, "build.json"), append(data, '\n'))
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

func logIfThere(dir string) string {
	if p := filepath.Join(dir, "build.log"); exists(p) {
		return p
	}
	return ""
}

func copyFile(from, to string) error {
	data, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	if err := writeFileAtomic(to, data); err != nil {
		return err
	}
	return os.Chmod(to, 0o755)
}

// lockFile takes an exclusive lock on path (made if missing), waiting
// for it while ctx lasts.
func lockFile(ctx context.Context, path string) (func(), error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return func() { syscall.Flock(int(f.Fd()), syscall.LOCK_UN); f.Close() }, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			f.Close()
			return nil, fmt.Errorf("locking %s: %w", path, err)
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
}
