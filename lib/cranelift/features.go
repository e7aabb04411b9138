package cranelift

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"cliff/lib/driver"
	"cliff/lib/ir"
)

// Features asks a driver what its Cranelift knows.
func Features(ctx context.Context, driverPath string) (*driver.FeaturesAnswer, error) {
	a, err := ask(ctx, driverPath, (*driver.Client).Features)
	if err != nil {
		return nil, fmt.Errorf("%s: features: %w", driverPath, err)
	}
	return a, nil
}

// keys are the release table's names of what a release knows.
func keys(a *driver.FeaturesAnswer) []string {
	var out []string
	for _, op := range a.Opcodes {
		out = append(out, ir.KindOpcode+" "+op)
	}
	for _, s := range a.SharedSettings {
		out = append(out, ir.KindSetting+" "+s.Name)
		for _, v := range s.Values {
			out = append(out, ir.KindSettingValue+" "+s.Name+"="+v)
		}
	}
	for target, flags := range a.ISAFlags {
		for _, f := range flags {
			out = append(out, ir.KindISAFlag+" "+target+" "+f.Name)
		}
	}
	return out
}

// WriteReleaseTable writes lib/ir's release table (see lib/ir/releases.go)
// from what each release's driver answered, releases oldest first;
// skipped names the releases left out and why, in the header.
func WriteReleaseTable(w io.Writer, releases []string, answers []*driver.FeaturesAnswer, skipped []string) error {
	if len(releases) != len(answers) || len(releases) == 0 {
		return fmt.Errorf("the release table needs at least one release's features")
	}
	known := map[string][]bool{}
	for i, a := range answers {
		for _, k := range keys(a) {
			if known[k] == nil {
				known[k] = make([]bool, len(releases))
			}
			known[k][i] = true
		}
	}
	var b strings.Builder
	b.WriteString("# What each Cranelift release knows: opcodes, shared settings, ISA flags.\n")
	b.WriteString("# Made from the releases themselves (each one's driver, op features) by\n")
	b.WriteString("#   cliff-cranelift features --write lib/ir/releases.txt\n")
	b.WriteString("# Do not edit; the format is in lib/ir/releases.go.\n")
	for _, s := range skipped {
		b.WriteString("# left out: " + s + "\n")
	}
	for _, r := range releases {
		b.WriteString("release " + r + "\n")
	}
	names := make([]string, 0, len(known))
	for k := range known {
		names = append(names, k)
	}
	kindRank := func(k string) int {
		switch {
		case strings.HasPrefix(k, ir.KindOpcode+" "):
			return 0
		case strings.HasPrefix(k, ir.KindSetting+" "):
			return 1
		case strings.HasPrefix(k, ir.KindSettingValue+" "):
			return 2
		}
		return 3
	}
	slices.SortFunc(names, func(a, b string) int {
		if d := kindRank(a) - kindRank(b); d != 0 {
			return d
		}
		return strings.Compare(a, b)
	})
	for _, k := range names {
		fmt.Fprintf(&b, "%s %s\n", k, ir.FormatRanges(releases, known[k]))
	}
	if _, err := ir.ParseReleaseTable(b.String()); err != nil {
		return fmt.Errorf("the release table made does not read back: %w", err)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Stale compares what a release's driver answered with the table's
// column for it: the names one has and the other lacks, at most max of
// them. The table's test runs it on the drivers at hand.
func Stale(t *ir.ReleaseTable, a *driver.FeaturesAnswer, max int) []string {
	var out []string
	add := func(s string) {
		if len(out) < max {
			out = append(out, s)
		}
	}
	if !t.Listed(a.Cranelift) {
		return []string{fmt.Sprintf("the table has no column for Cranelift %s (it lists %s)", a.Cranelift, strings.Join(t.Releases, " "))}
	}
	have := map[string]bool{}
	for _, k := range keys(a) {
		have[k] = true
		kind, name, _ := strings.Cut(k, " ")
		if !t.Knows(kind, name, a.Cranelift) || t.Range(kind, name) == "" {
			add(fmt.Sprintf("%s: Cranelift %s has it, the table says not", k, a.Cranelift))
		}
	}
	for _, kind := range []string{ir.KindOpcode, ir.KindSetting, ir.KindSettingValue, ir.KindISAFlag} {
		for _, name := range t.Names(kind) {
			if t.Knows(kind, name, a.Cranelift) && !have[kind+" "+name] {
				add(fmt.Sprintf("%s %s: the table says Cranelift %s has it, it does not", kind, name, a.Cranelift))
			}
		}
	}
	return out
}

// ReleaseList turns specs into release versions, oldest first, each
// once: latest and default resolved, none meaning the newest patch of
// every minor release from `from` on.
func ReleaseList(ctx context.Context, b *Builder, specs []string, from string) ([]string, error) {
	var versions []string
	if len(specs) == 0 {
		rels, err := b.Releases(ctx)
		if err != nil {
			return nil, err
		}
		for _, r := range Minors(rels, from) {
			versions = append(versions, r.Version)
		}
		return versions, nil
	}
	parsed, err := ParseSpecs(specs)
	if err != nil {
		return nil, err
	}
	for _, s := range parsed {
		if s.Kind == Checkout {
			return nil, fmt.Errorf("%s: a checkout, want releases", s)
		}
	}
	if versions, err = b.VersionsOf(ctx, parsed); err != nil {
		return nil, err
	}
	slices.SortFunc(versions, CompareVersions)
	return slices.Compact(versions), nil
}

// MakeReleaseTable builds each release of specs (none: the newest patch
// of every minor release from `from` on), asks each driver its features
// and writes the table to path ("-": stdout).
func MakeReleaseTable(ctx context.Context, b *Builder, specs []string, from, path string) error {
	versions, err := ReleaseList(ctx, b, specs, from)
	if err != nil {
		return err
	}
	var listed, skipped []string
	var answers []*driver.FeaturesAnswer
	for _, v := range versions {
		build, err := b.Ensure(ctx, Spec{Kind: Release, Version: v})
		var be *BuildError
		if errors.As(err, &be) {
			skipped = append(skipped, v+": "+be.Reason)
			continue
		}
		if err != nil {
			return err
		}
		a, err := Features(ctx, build.Driver)
		if err != nil {
			return err
		}
		if a.Cranelift != v {
			return fmt.Errorf("the driver built for %s says it is Cranelift %s", v, a.Cranelift)
		}
		listed = append(listed, v)
		answers = append(answers, a)
	}
	var sb strings.Builder
	if err := WriteReleaseTable(&sb, listed, answers, skipped); err != nil {
		return err
	}
	if path == "-" {
		_, err := io.WriteString(os.Stdout, sb.String())
		return err
	}
	return writeFileAtomic(path, []byte(sb.String()))
}
