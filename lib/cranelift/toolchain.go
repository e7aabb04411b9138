package cranelift

import (
	"context"
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"time"
)

// A Toolchain is an installed Rust toolchain.
type Toolchain struct {
	// Name is rustup's ("stable-x86_64-unknown-linux-gnu"), or "" for the
	// cargo on $PATH when there is no rustup.
	Name string
	// Rustc is its compiler's version: 1.97.0-nightly.
	Rustc Semver
}

// Short is the name without the host triple: "stable", "nightly",
// "1.95.0"; "cargo" for the one on $PATH.
func (t Toolchain) Short() string {
	if t.Name == "" {
		return "cargo"
	}
	for _, channel := range []string{"stable", "beta", "nightly"} {
		if t.Name == channel || strings.HasPrefix(t.Name, channel+"-") {
			if rest := strings.TrimPrefix(t.Name, channel+"-"); len(rest) >= 10 && rest[:4] >= "2000" && rest[4] == '-' {
				return channel + "-" + rest[:10] // a dated nightly
			}
			return channel
		}
	}
	if v, err := ParseSemver(strings.SplitN(t.Name, "-", 2)[0]); err == nil {
		return v.String()
	}
	return t.Name
}

func (t Toolchain) String() string { return fmt.Sprintf("%s (rustc %s)", t.Short(), t.Rustc) }

// Cargo is the command that runs this toolchain's cargo with args.
func (t Toolchain) Cargo(ctx context.Context, args ...string) *exec.Cmd {
	if t.Name == "" {
		return exec.CommandContext(ctx, "cargo", args...)
	}
	return exec.CommandContext(ctx, "rustup", append([]string{"run", t.Name, "cargo"}, args...)...)
}

// Toolchains lists the installed Rust toolchains: rustup's, or the
// rustc on $PATH when there is no rustup. Each is asked its version.
func Toolchains(ctx context.Context) ([]Toolchain, error) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	if _, err := exec.LookPath("rustup"); err != nil {
		out, err := exec.CommandContext(ctx, "rustc", "--version").Output()
		if err != nil {
			return nil, fmt.Errorf("no Rust toolchain: neither rustup nor rustc is on $PATH (install Rust with rustup, https://rustup.rs)")
		}
		v, err := parseRustcVersion(string(out))
		if err != nil {
			return nil, err
		}
		return []Toolchain{{Rustc: v}}, nil
	}
	out, err := exec.CommandContext(ctx, "rustup", "toolchain", "list").Output()
	if err != nil {
		return nil, fmt.Errorf("rustup toolchain list: %w", err)
	}
	var tcs []Toolchain
	for _, line := range strings.Split(string(out), "\n") {
		name, _, _ := strings.Cut(strings.TrimSpace(line), " ")
		if name == "" || strings.HasPrefix(name, "no ") {
			continue
		}
		v, err := exec.CommandContext(ctx, "rustup", "run", name, "rustc", "--version").Output()
		if err != nil {
			continue // a toolchain rustup lists but cannot run builds nothing
		}
		rv, err := parseRustcVersion(string(v))
		if err != nil {
			continue
		}
		tcs = append(tcs, Toolchain{Name: name, Rustc: rv})
	}
	if len(tcs) == 0 {
		return nil, fmt.Errorf("rustup has no working toolchain (rustup toolchain install stable)")
	}
	return tcs, nil
}

// parseRustcVersion reads "rustc 1.97.0-nightly (0d0f3a6b2 2026-05-19)".
func parseRustcVersion(s string) (Semver, error) {
	f := strings.Fields(s)
	if len(f) < 2 || f[0] != "rustc" {
		return Semver{}, fmt.Errorf("unexpected rustc --version: %q", strings.TrimSpace(s))
	}
	return ParseSemver(f[1])
}

// ChooseToolchain picks the toolchain for a crate whose rust-version is
// need: stable when it is new enough, else the oldest release toolchain
// that is, else a beta or nightly that is. None: an error saying what is
// needed and what is installed.
func ChooseToolchain(tcs []Toolchain, need string) (Toolchain, error) {
	if need == "" {
		need = "1.0"
	}
	nv, err := ParseSemver(need)
	if err != nil {
		return Toolchain{}, fmt.Errorf("rust-version %q: %w", need, err)
	}
	var ok []Toolchain
	for _, t := range tcs {
		if t.Rustc.Satisfies(nv) {
			ok = append(ok, t)
		}
	}
	rank := func(t Toolchain) int {
		switch {
		case t.Short() == "stable" || t.Short() == "cargo":
			return 0
		case t.Rustc.Pre == "":
			return 1
		}
		return 2
	}
	slices.SortStableFunc(ok, func(a, b Toolchain) int {
		if d := rank(a) - rank(b); d != 0 {
			return d
		}
		return a.Rustc.Compare(b.Rustc)
	})
	if len(ok) == 0 {
		names := make([]string, len(tcs))
		for i, t := range tcs {
			names[i] = t.String()
		}
		return Toolchain{}, fmt.Errorf("needs Rust %s, installed: %s (rustup toolchain install %s)", need, strings.Join(names, ", "), nv.String())
	}
	return ok[0], nil
}
