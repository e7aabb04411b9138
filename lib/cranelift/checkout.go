package cranelift

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/cespare/xxhash/v2"
)

// A checkout is a wasmtime work tree (or one laid out like it) whose
// cranelift/ crates the driver is built against.
type checkout struct {
	root        string            // the git work tree
	version     string            // cranelift-codegen's version there
	rustVersion string            // what it declares, "" when nothing does
	crates      map[string]string // package name → directory, those the driver's build reaches
	rev         string            // git rev-parse HEAD
	dirty       string            // a hash of the uncommitted changes, "" when clean
}

// label is how results name a checkout's Cranelift: its version, commit
// and, when the tree has uncommitted changes, their hash.
func (c *checkout) label() string {
	s := c.version + "@" + ShortRev(c.rev)
	if c.dirty != "" {
		s += "-dirty." + c.dirty[:8]
	}
	return s
}

// ShortRev is a commit's first 12 hex digits, as labels and keys write it.
func ShortRev(rev string) string {
	if len(rev) > 12 {
		return rev[:12]
	}
	return rev
}

// openCheckout reads a checkout: path is the work tree's root or its
// cranelift/ directory.
func openCheckout(ctx context.Context, path string) (*checkout, error) {
	root := path
	if _, err := os.Stat(filepath.Join(path, "codegen", "Cargo.toml")); err == nil && filepath.Base(path) == "cranelift" {
		root = filepath.Dir(path)
	}
	codegen := filepath.Join(root, "cranelift", "codegen", "Cargo.toml")
	if _, err := os.Stat(codegen); err != nil {
		return nil, fmt.Errorf("Cranelift checkout %s: no cranelift/codegen/Cargo.toml (want a wasmtime checkout)", path)
	}
	c := &checkout{root: root}
	all, err := findCrates(root)
	if err != nil {
		return nil, fmt.Errorf("Cranelift checkout %s: %w", root, err)
	}
	var reach func(name string)
	c.crates = map[string]string{}
	reach = func(name string) {
		cr, ok := all[name]
		if !ok || c.crates[name] != "" {
			return
		}
		c.crates[name] = cr.dir
		for _, d := range cr.deps {
			reach(d)
		}
	}
	for _, direct := range []string{"cranelift-codegen", "cranelift-reader", "cranelift-module", "cranelift-object", "cranelift-interpreter"} {
		if _, ok := all[direct]; !ok {
			return nil, fmt.Errorf("Cranelift checkout %s: no crate %s", root, direct)
		}
		reach(direct)
	}
	cg := all["cranelift-codegen"]
	c.version, c.rustVersion = cg.version, cg.rustVersion
	if c.version == "" {
		return nil, fmt.Errorf("%s: no version", codegen)
	}
	if err := c.readGit(ctx); err != nil {
		return nil, fmt.Errorf("Cranelift checkout %s: %w", root, err)
	}
	return c, nil
}

// A crate is one package of a checkout.
type crate struct {
	dir, version, rustVersion string
	deps                      []string // the packages it depends on, by their real names
}

// findCrates reads every Cargo.toml of the work tree but its build
// outputs, tests and fuzzers: package name → crate. Workspace-inherited
// version and rust-version come from the root manifest.
func findCrates(root string) (map[string]crate, error) {
	rootPkg := map[string]string{}
	if data, err := os.ReadFile(filepath.Join(root, "Cargo.toml")); err == nil {
		rootPkg = tomlKeys(string(data), "[workspace.package]")
	}
	crates := map[string]crate{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "target", "tests", "fuzz", "benches", "examples", "node_modules":
				if path != root {
					return filepath.SkipDir
				}
			}
			return nil
		}
		if d.Name() != "Cargo.toml" {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		text := string(data)
		pkg := tomlKeys(text, "[package]")
		name := strings.Trim(pkg["name"], `"`)
		if name == "" {
			return nil
		}
		inherit := func(key string) string {
			if v := pkg[key]; v != "" {
				return strings.Trim(v, `"`)
			}
			if pkg[key+".workspace"] == "true" {
				return strings.Trim(rootPkg[key], `"`)
			}
			return ""
		}
		crates[name] = crate{dir: filepath.Dir(path), version: inherit("version"), rustVersion: inherit("rust-version"), deps: dependencyNames(text)}
		return nil
	})
	return crates, err
}

var tomlKey = regexp.MustCompile(`^([A-Za-z0-9_.-]+)\s*=\s*(.*)$`)

// tomlKeys are the simple `key = value` lines of one section.
func tomlKeys(text, section string) map[string]string {
	out := map[string]string{}
	in := false
	for _, line := range strings.Split(text, "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "[") {
			in = t == section
			continue
		}
		if m := tomlKey.FindStringSubmatch(t); in && m != nil {
			out[m[1]] = strings.TrimSpace(m[2])
		}
	}
	return out
}

var packageRename = regexp.MustCompile(`package\s*=\s*"([^"]+)"`)

// dependencyNames lists the packages a manifest depends on in any
// dependencies table, by their real names (`package = "..."` renames).
func dependencyNames(text string) []string {
	var out []string
	in := false
	for _, line := range strings.Split(text, "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "[") {
			header := strings.Trim(t, "[]")
			in = strings.HasSuffix(header, "dependencies")
			// [dependencies.name] and [target.'cfg(..)'.dependencies.name]
			if i := strings.LastIndex(header, "dependencies."); i >= 0 {
				out = append(out, header[i+len("dependencies."):])
			}
			continue
		}
		m := tomlKey.FindStringSubmatch(t)
		if !in || m == nil {
			continue
		}
		name, _, _ := strings.Cut(m[1], ".")
		if r := packageRename.FindStringSubmatch(m[2]); r != nil {
			name = r[1]
		}
		out = append(out, name)
	}
	return out
}

// readGit finds the commit and the hash of what differs from it.
func (c *checkout) readGit(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	git := func(args ...string) ([]byte, error) {
		cmd := exec.CommandContext(ctx, "git", append([]string{"-C", c.root}, args...)...)
		out, err := cmd.Output()
		if err != nil {
			if ee, ok := err.(*exec.ExitError); ok && len(ee.Stderr) > 0 {
				return nil, fmt.Errorf("git %s: %s", strings.Join(args, " "), strings.TrimSpace(string(ee.Stderr)))
			}
			return nil, fmt.Errorf("git %s: %w", strings.Join(args, " "), err)
		}
		return out, nil
	}
	rev, err := git("rev-parse", "HEAD")
	if err != nil {
		return fmt.Errorf("not a git work tree with a commit (cliff keys its build by the commit): %w", err)
	}
	c.rev = strings.TrimSpace(string(rev))
	status, err := git("status", "--porcelain=v1", "-z", "--untracked-files=all")
	if err != nil {
		return err
	}
	if len(status) == 0 {
		return nil
	}
	h := xxhash.New()
	h.Write(status)
	diff, err := git("diff", "--binary", "HEAD")
	if err != nil {
		return err
	}
	h.Write(diff)
	// Untracked files are in no diff: their contents count too.
	for _, entry := range strings.Split(string(status), "\x00") {
		if name, ok := strings.CutPrefix(entry, "?? "); ok {
			if data, err := os.ReadFile(filepath.Join(c.root, name)); err == nil {
				h.Write([]byte(name))
				h.Write(data)
			}
		}
	}
	c.dirty = fmt.Sprintf("%016x", h.Sum64())
	return nil
}
