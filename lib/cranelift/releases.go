package cranelift

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"text/tabwriter"
)

// PrintReleases writes a table of the releases from `from` on (with
// minors, the newest patch of each minor version only): each one's
// rust-version, the installed toolchain that would build it, and what the
// cache holds of its build with this driver source.
func PrintReleases(ctx context.Context, w io.Writer, b *Builder, from string, minors bool) error {
	if _, err := ParseSemver(from); err != nil {
		return fmt.Errorf("--from: %w", err)
	}
	rels, err := b.Releases(ctx)
	if err != nil {
		return err
	}
	if minors {
		rels = Minors(rels, from)
	} else {
		var keep []ReleaseInfo
		for _, r := range rels {
			if CompareVersions(r.Version, from) >= 0 {
				keep = append(keep, r)
			}
		}
		rels = keep
	}
	tcs, err := b.Toolchains(ctx)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "version\trust-version\ttoolchain\tbuild")
	for _, r := range rels {
		tc := "-"
		if t, err := ChooseToolchain(tcs, r.RustVersion); err == nil {
			tc = t.Short()
		} else {
			tc = "none (needs " + r.RustVersion + ")"
		}
		state := b.CacheState(r.Version)
		if r.Yanked {
			state += " (yanked)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", r.Version, r.RustVersion, tc, state)
	}
	return tw.Flush()
}

// CacheState says what the cache holds of a release's build with this
// driver source: "built (153 s)", "fails: REASON", or "-".
func (b *Builder) CacheState(version string) string {
	src, err := b.sourceHash()
	if err != nil {
		return "-"
	}
	info, ok := readBuildInfo(filepath.Join(b.Cache, "drivers", version+"-"+src[:12]))
	switch {
	case !ok:
		return "-"
	case info.OK:
		return fmt.Sprintf("built (%.0f s)", info.Seconds)
	}
	return "fails: " + info.Reason
}

// Install copies a driver to path (make's bin/cliff-driver), and the
// cliff-pulley built with it beside it (bin/cliff-pulley).
func Install(driver, path string) error {
	if err := copyFile(driver, path); err != nil {
		return fmt.Errorf("installing the driver as %s: %w", path, err)
	}
	runner := filepath.Join(filepath.Dir(driver), "cliff-pulley")
	if err := copyFile(runner, filepath.Join(filepath.Dir(path), "cliff-pulley")); err != nil {
		return fmt.Errorf("installing cliff-pulley beside %s: %w", path, err)
	}
	return nil
}

// Drivers builds (or finds in the cache) the driver of each spec, in
// order, for cliff-run and cliff-locate's --cranelift. Two specs that
// are one Cranelift (latest and its release) are an error: their
// results could not be told apart.
func Drivers(ctx context.Context, b *Builder, specs []Spec) ([]*Build, error) {
	var out []*Build
	seen := map[string]string{}
	for _, s := range specs {
		build, err := b.Ensure(ctx, s)
		if err != nil {
			return nil, err
		}
		if other, ok := seen[build.Label]; ok {
			return nil, fmt.Errorf("--cranelift %s and %s are both Cranelift %s", other, s, build.Label)
		}
		seen[build.Label] = s.String()
		out = append(out, build)
	}
	return out, nil
}

// VersionsOf are the Cranelift versions specs name, without building
// anything: a release's own, the default's from the driver's manifest,
// latest's from the registry, a checkout's from its manifests. For
// cliff-gen, which makes cases for versions it does not run.
func (b *Builder) VersionsOf(ctx context.Context, specs []Spec) ([]string, error) {
	var out []string
	for _, s := range specs {
		s, err := b.Resolve(ctx, s)
		if err != nil {
			return nil, err
		}
		switch s.Kind {
		case Release:
			out = append(out, s.Version)
		case Default:
			v, err := b.DefaultVersion()
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		case Checkout:
			co, err := openCheckout(ctx, s.Path)
			if err != nil {
				return nil, err
			}
			out = append(out, co.version)
		}
	}
	return out, nil
}

// ToolchainFor is the installed toolchain that builds a release (""
// the default release): its rust-version from the registry, chosen as
// every build chooses it.
func ToolchainFor(ctx context.Context, b *Builder, version string) (Toolchain, error) {
	if version == "" {
		v, err := b.DefaultVersion()
		if err != nil {
			return Toolchain{}, err
		}
		version = v
	}
	rel, ok, err := b.release(ctx, version)
	if err != nil {
		return Toolchain{}, err
	}
	if !ok {
		return Toolchain{}, fmt.Errorf("Cranelift %s is not a release on crates.io", version)
	}
	tcs, err := b.Toolchains(ctx)
	if err != nil {
		return Toolchain{}, err
	}
	tc, err := ChooseToolchain(tcs, rel.RustVersion)
	if err != nil {
		return Toolchain{}, &BuildError{Spec: version, Reason: err.Error()}
	}
	return tc, nil
}
