package cranelift

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// The driver's manifest is rewritten per build, line by line: it is
// cliff's own file, in a shape this code knows, so no TOML library is
// needed to change three kinds of line in it.

var (
	// cranelift-codegen = { version = "=0.137.1", features = [...] }
	// cranelift-reader = "=0.137.1"
	craneliftDep   = regexp.MustCompile(`^(cranelift-[a-z0-9-]+)\s*=\s*(.*)$`)
	quotedVersion  = regexp.MustCompile(`"=?[0-9][^"]*"`)
	rustVersionKey = regexp.MustCompile(`^rust-version\s*=\s*"[^"]*"`)
	// pulley-interpreter = { version = "=50.0.1", features = ["interp"] }
	pulleyDep = regexp.MustCompile(`^pulley-interpreter\s*=\s*(.*)$`)
)

// pulleyVersion is the pulley-interpreter release of a Cranelift
// release: wasmtime numbers them together, Cranelift 0.M.P with
// wasmtime (M-87).0.P (0.137.1 and 50.0.1, 0.120.2 and 33.0.2).
func pulleyVersion(cranelift string) (string, error) {
	var minor, patch int
	if _, err := fmt.Sscanf(cranelift, "0.%d.%d", &minor, &patch); err != nil || minor < 88 {
		return "", fmt.Errorf("Cranelift %s: no pulley-interpreter release matches it", cranelift)
	}
	return fmt.Sprintf("%d.0.%d", minor-87, patch), nil
}

// rewriteManifest gives the driver's Cargo.toml the version of Cranelift
// to build (every cranelift-* dependency pinned to it, and
// pulley-interpreter to its release, in [dependencies] only), the release's rust-version, its own empty [workspace] (the
// build directory belongs to no other), and path patches for a
// checkout's crates (name → directory).
func rewriteManifest(manifest, version, rustVersion string, patches map[string]string) (string, error) {
	var out []string
	section := ""
	pinned := 0
	for _, line := range strings.Split(manifest, "\n") {
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "[") {
			section = trimmed
		}
		switch {
		case section == "[package]" && rustVersionKey.MatchString(trimmed) && rustVersion != "":
			line = fmt.Sprintf("rust-version = %q", rustVersion)
		case section == "[dependencies]" && pulleyDep.MatchString(trimmed):
			pv, err := pulleyVersion(version)
			if err != nil {
				return "", err
			}
			m := pulleyDep.FindStringSubmatch(trimmed)
			line = "pulley-interpreter = " + quotedVersion.ReplaceAllLiteralString(m[1], fmt.Sprintf("%q", "="+pv))
		case section == "[dependencies]" && craneliftDep.MatchString(trimmed):
			m := craneliftDep.FindStringSubmatch(trimmed)
			if !quotedVersion.MatchString(m[2]) {
				return "", fmt.Errorf("driver/Cargo.toml: %s has no version to pin", m[1])
			}
			line = m[1] + " = " + quotedVersion.ReplaceAllLiteralString(m[2], fmt.Sprintf("%q", "="+version))
			pinned++
		case trimmed == "[workspace]" || strings.HasPrefix(trimmed, "[patch."):
			return "", fmt.Errorf("driver/Cargo.toml: %s: the build adds its own", trimmed)
		}
		out = append(out, line)
	}
	if pinned == 0 {
		return "", fmt.Errorf("driver/Cargo.toml: no cranelift-* dependency")
	}
	text := strings.TrimRight(strings.Join(out, "\n"), "\n") + "\n\n# Added by cliff (lib/cranelift): this build directory is its own workspace.\n[workspace]\n"
	if len(patches) > 0 {
		names := make([]string, 0, len(patches))
		for n := range patches {
			names = append(names, n)
		}
		sort.Strings(names)
		text += "\n# The checkout's crates, in place of crates.io's.\n[patch.crates-io]\n"
		for _, n := range names {
			text += fmt.Sprintf("%s = { path = %q }\n", n, patches[n])
		}
	}
	return text, nil
}

// manifestVersion is the Cranelift version a driver manifest pins: that
// of its cranelift-codegen dependency.
func manifestVersion(manifest string) (string, error) {
	section := ""
	for _, line := range strings.Split(manifest, "\n") {
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "[") {
			section = trimmed
		}
		if m := craneliftDep.FindStringSubmatch(trimmed); section == "[dependencies]" && m != nil && m[1] == "cranelift-codegen" {
			if v := quotedVersion.FindString(m[2]); v != "" {
				return strings.TrimPrefix(strings.Trim(v, `"`), "="), nil
			}
		}
	}
	return "", fmt.Errorf("driver/Cargo.toml names no cranelift-codegen version")
}

// lockVersion is the version of package name in a Cargo.lock.
func lockVersion(lock, name string) string {
	for _, block := range strings.Split(lock, "[[package]]") {
		if !strings.Contains(block, "name = \""+name+"\"\n") {
			continue
		}
		for _, line := range strings.Split(block, "\n") {
			if v, ok := strings.CutPrefix(line, "version = \""); ok {
				return strings.TrimSuffix(v, "\"")
			}
		}
	}
	return ""
}
