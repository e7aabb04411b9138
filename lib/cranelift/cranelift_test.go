package cranelift

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestParseSpec(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		in   string
		want Spec
		err  string
	}{
		{in: "0.137.1", want: Spec{Kind: Release, Version: "0.137.1"}},
		{in: " 0.137.0-rc.1 ", want: Spec{Kind: Release, Version: "0.137.0-rc.1"}},
		{in: "latest", want: Spec{Kind: Latest}},
		{in: "default", want: Spec{Kind: Default}},
		{in: dir, want: Spec{Kind: Checkout, Path: dir}},
		{in: "./wasmtime", want: Spec{Kind: Checkout, Path: must(filepath.Abs("./wasmtime"))}},
		{in: "0.137", err: "want a version"},
		{in: "lastest", err: "want a version"},
		{in: "", err: "empty"},
	}
	for _, tt := range tests {
		got, err := ParseSpec(tt.in)
		switch {
		case tt.err != "":
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("ParseSpec(%q) = %v, %v; want an error with %q", tt.in, got, err, tt.err)
			}
		case err != nil || got != tt.want:
			t.Errorf("ParseSpec(%q) = %+v, %v; want %+v", tt.in, got, err, tt.want)
		}
	}
	specs, err := ParseSpecs([]string{"0.135.8,0.137.1", "0.135.8", "latest"})
	if err != nil || len(specs) != 3 || specs[0].Version != "0.135.8" || specs[1].Version != "0.137.1" || specs[2].Kind != Latest {
		t.Errorf("ParseSpecs: %v, %v; want 0.135.8, 0.137.1, latest once each", specs, err)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func TestSemver(t *testing.T) {
	less := [][2]string{
		{"0.99.0", "0.135.8"}, {"0.137.0-rc.1", "0.137.0"}, {"0.135.8", "0.137.0-rc.1"}, {"1.95.0", "1.97.0-nightly"},
	}
	for _, p := range less {
		if CompareVersions(p[0], p[1]) >= 0 || CompareVersions(p[1], p[0]) <= 0 {
			t.Errorf("%s must sort before %s", p[0], p[1])
		}
	}
	nightly := must(ParseSemver("1.97.0-nightly"))
	if !nightly.Satisfies(must(ParseSemver("1.97.0"))) {
		t.Errorf("a 1.97 nightly must build a crate that needs 1.97.0 (as cargo lets it)")
	}
	if must(ParseSemver("1.95.0")).Satisfies(must(ParseSemver("1.96"))) {
		t.Errorf("1.95 must not build a crate that needs 1.96")
	}
}

func TestChooseToolchain(t *testing.T) {
	stable := Toolchain{Name: "stable-x86_64-unknown-linux-gnu", Rustc: must(ParseSemver("1.95.0"))}
	pinned := Toolchain{Name: "1.96.0-x86_64-unknown-linux-gnu", Rustc: must(ParseSemver("1.96.0"))}
	nightly := Toolchain{Name: "nightly-x86_64-unknown-linux-gnu", Rustc: must(ParseSemver("1.97.0-nightly"))}
	all := []Toolchain{nightly, pinned, stable}
	tests := []struct {
		need string
		tcs  []Toolchain
		want string
		err  string
	}{
		{need: "1.84.0", tcs: all, want: "stable"},
		{need: "1.95.0", tcs: all, want: "stable"},
		{need: "1.96.0", tcs: all, want: "1.96.0"},
		{need: "1.97.0", tcs: all, want: "nightly"},
		{need: "1.96.0", tcs: []Toolchain{stable, nightly}, want: "nightly"},
		{need: "1.98.0", tcs: all, err: "needs Rust 1.98.0, installed: nightly (rustc 1.97.0-nightly), 1.96.0 (rustc 1.96.0), stable (rustc 1.95.0)"},
		{need: "", tcs: all, want: "stable"},
	}
	for _, tt := range tests {
		got, err := ChooseToolchain(tt.tcs, tt.need)
		switch {
		case tt.err != "":
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("need %s: %v, %v; want error %q", tt.need, got, err, tt.err)
			}
		case err != nil || got.Short() != tt.want:
			t.Errorf("need %s: %v, %v; want %s", tt.need, got, err, tt.want)
		}
	}
}

const manifest = `[package]
name = "cliff-driver"
rust-version = "1.97"

[dependencies]
cranelift-codegen = { version = "=0.137.1", features = ["all-arch"] }
cranelift-reader = "=0.137.1"
pulley-interpreter = { version = "=50.0.1", features = ["interp"] }
serde = { version = "1", features = ["derive"] }

[dev-dependencies]
cranelift-codegen = "=0.137.1"
`

func TestRewriteManifest(t *testing.T) {
	got, err := rewriteManifest(manifest, "0.120.2", "1.84.0", map[string]string{"cranelift-codegen": "/w/cranelift/codegen", "cranelift-entity": "/w/cranelift/entity"})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`rust-version = "1.84.0"`,
		`cranelift-codegen = { version = "=0.120.2", features = ["all-arch"] }`,
		`cranelift-reader = "=0.120.2"`,
		`pulley-interpreter = { version = "=33.0.2", features = ["interp"] }`,
		`serde = { version = "1", features = ["derive"] }`,
		"[workspace]\n",
		"[patch.crates-io]\ncranelift-codegen = { path = \"/w/cranelift/codegen\" }\ncranelift-entity = { path = \"/w/cranelift/entity\" }\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("rewritten manifest lacks %q:\n%s", want, got)
		}
	}
	// Only [dependencies] is pinned.
	if !strings.Contains(got, "[dev-dependencies]\ncranelift-codegen = \"=0.137.1\"") {
		t.Errorf("a dev-dependency was rewritten:\n%s", got)
	}
	if v, err := manifestVersion(manifest); err != nil || v != "0.137.1" {
		t.Errorf("manifestVersion = %q, %v; want 0.137.1", v, err)
	}
	if _, err := rewriteManifest("[package]\nname = \"x\"\n", "0.1.0", "", nil); err == nil {
		t.Errorf("a manifest without cranelift dependencies must be refused")
	}
}

const index = `{"name":"cranelift-codegen","vers":"0.120.0","rust_version":"1.84.0","yanked":false}
{"name":"cranelift-codegen","vers":"0.120.2","rust_version":"1.84.0","yanked":false}
{"name":"cranelift-codegen","vers":"0.121.0","rust_version":"1.85.0","yanked":true}
{"name":"cranelift-codegen","vers":"0.137.0-rc.1","rust_version":"1.97.0","yanked":false}
{"name":"cranelift-codegen","vers":"0.123.20","rust_version":"1.86.0","yanked":false}
{"name":"cranelift-codegen","vers":"0.123.3","rust_version":"1.86.0","yanked":false}
{"name":"cranelift-codegen","vers":"0.119.1","rust_version":"1.84.0","yanked":false}
`

func TestRegistry(t *testing.T) {
	var hits atomic.Int32
	up := true
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if !up {
			http.Error(w, "down", http.StatusServiceUnavailable)
			return
		}
		w.Write([]byte(index))
	}))
	defer srv.Close()
	now := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	reg := &Registry{Cache: filepath.Join(t.TempDir(), "idx"), URL: srv.URL, Now: func() time.Time { return now }}
	rels, err := reg.Releases(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var versions []string
	for _, r := range rels {
		versions = append(versions, r.Version)
	}
	if got := strings.Join(versions, " "); got != "0.119.1 0.120.0 0.120.2 0.121.0 0.123.3 0.123.20 0.137.0-rc.1" {
		t.Errorf("releases in order: %s", got)
	}
	var minors []string
	for _, r := range Minors(rels, "0.120.0") {
		minors = append(minors, r.Version)
	}
	if got := strings.Join(minors, " "); got != "0.120.2 0.123.20" {
		t.Errorf("Minors from 0.120 (no yanked, no rc): %s", got)
	}
	// Within a day the cache answers; the registry is not asked again.
	os.Chtimes(reg.Cache, now, now)
	if _, err := reg.Releases(context.Background()); err != nil || hits.Load() != 1 {
		t.Errorf("second ask within a day: %v, %d fetches; want 1", err, hits.Load())
	}
	// A day later it is asked; when it is down the stale copy serves.
	now = now.Add(25 * time.Hour)
	up = false
	if rels, err := reg.Releases(context.Background()); err != nil || len(rels) != 7 || hits.Load() != 2 {
		t.Errorf("stale cache with the registry down: %d releases, %v, %d fetches; want 7, nil, 2", len(rels), err, hits.Load())
	}
	// Without a cache, a registry that is down is an error.
	empty := &Registry{Cache: filepath.Join(t.TempDir(), "none"), URL: srv.URL}
	if _, err := empty.Releases(context.Background()); err == nil {
		t.Errorf("no cache and no registry: want an error")
	}
}

// TestCheckout reads a directory laid out like wasmtime: the crates the
// driver reaches, their version through the workspace, the commit and
// the hash of uncommitted changes.
func TestCheckout(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	root := t.TempDir()
	write := func(path, text string) {
		t.Helper()
		p := filepath.Join(root, path)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("Cargo.toml", "[workspace]\nmembers = []\n[workspace.package]\nversion = \"42.0.0\"\nrust-version = \"1.97.0\"\n")
	pkg := func(dir, name, version, deps string) {
		write(dir+"/Cargo.toml", "[package]\nname = \""+name+"\"\n"+version+"\n[dependencies]\n"+deps)
	}
	pkg("cranelift/codegen", "cranelift-codegen", "version = \"0.139.0\"\nrust-version.workspace = true", "cranelift-entity = { workspace = true }\nregalloc = { package = \"regalloc2\", version = \"0.13\" }\n")
	pkg("cranelift/entity", "cranelift-entity", "version = \"0.139.0\"", "")
	pkg("cranelift/reader", "cranelift-reader", "version = \"0.139.0\"", "cranelift-codegen.workspace = true\n")
	pkg("cranelift/module", "cranelift-module", "version = \"0.139.0\"", "")
	pkg("cranelift/object", "cranelift-object", "version = \"0.139.0\"", "")
	pkg("cranelift/interpreter", "cranelift-interpreter", "version = \"0.139.0\"", "wasmtime-internal-math = { workspace = true }\n")
	pkg("crates/math", "wasmtime-internal-math", "version.workspace = true", "")
	pkg("crates/wasmtime", "wasmtime", "version.workspace = true", "")
	pkg("cranelift/codegen/tests/fixture", "cranelift-fixture", "version = \"0.1.0\"", "")
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", root, "-c", "user.name=t", "-c", "user.email=t@t"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	git("add", ".")
	git("commit", "-q", "-m", "x")
	co, err := openCheckout(context.Background(), filepath.Join(root, "cranelift"))
	if err != nil {
		t.Fatal(err)
	}
	if co.root != root || co.version != "0.139.0" || co.rustVersion != "1.97.0" || co.dirty != "" || len(co.rev) != 40 {
		t.Errorf("checkout %+v", co)
	}
	var names []string
	for n := range co.crates {
		names = append(names, n)
	}
	want := "cranelift-codegen cranelift-entity cranelift-interpreter cranelift-module cranelift-object cranelift-reader wasmtime-internal-math"
	if got := strings.Join(slices.Sorted(slices.Values(names)), " "); got != want {
		t.Errorf("crates the driver reaches: %s\nwant %s", got, want)
	}
	clean := co.label()
	write("cranelift/codegen/src/lib.rs", "// changed\n")
	co2, err := openCheckout(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	if co2.dirty == "" || co2.label() == clean || !strings.HasPrefix(co2.label(), "0.139.0@"+co.rev[:12]+"-dirty.") {
		t.Errorf("an untracked file: label %q (clean %q)", co2.label(), clean)
	}
	write("cranelift/codegen/src/lib.rs", "// changed again\n")
	co3, _ := openCheckout(context.Background(), root)
	if co3.dirty == co2.dirty {
		t.Errorf("another change must give another dirty hash")
	}
	if _, err := openCheckout(context.Background(), t.TempDir()); err == nil || !strings.Contains(err.Error(), "no cranelift/codegen/Cargo.toml") {
		t.Errorf("a directory that is no checkout: %v", err)
	}
}
