package cranelift

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"testing/fstest"
)

// fakeCargo puts a `cargo` on $PATH (and takes rustup off it) that
// records its arguments and manifest, and either fails like a compile
// error or "builds" a driver: a shell script.
func fakeCargo(t *testing.T, fail bool) (calls string) {
	t.Helper()
	bin := t.TempDir()
	calls = filepath.Join(bin, "calls")
	script := `#!/bin/sh
if [ "$1" = "--version" ]; then echo "cargo 1.95.0"; exit 0; fi
echo "$PWD $*" >> ` + calls + `
cp Cargo.toml "` + bin + `/last-manifest"
`
	if fail {
		script += "echo '   Compiling cliff-driver v0.1.0' >&2\necho 'error[E0432]: unresolved import `cranelift_codegen::FinalizedMachReloc`' >&2\nexit 101\n"
	} else {
		script += "mkdir -p \"$CARGO_TARGET_DIR/release\"\nprintf '#!/bin/sh\\necho driver\\n' > \"$CARGO_TARGET_DIR/release/cliff-driver\"\nprintf '#!/bin/sh\\necho runner\\n' > \"$CARGO_TARGET_DIR/release/cliff-pulley\"\n"
	}
	rustc := "#!/bin/sh\necho 'rustc 1.95.0 (59807616e 2026-04-14)'\n"
	for name, text := range map[string]string{"cargo": script, "rustc": rustc} {
		if err := os.WriteFile(filepath.Join(bin, name), []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", bin+":/usr/bin:/bin")
	return calls
}

func testBuilder(t *testing.T) *Builder {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, index) }))
	t.Cleanup(srv.Close)
	cache := t.TempDir()
	src := fstest.MapFS{
		"Cargo.toml":  {Data: []byte(manifest)},
		"Cargo.lock":  {Data: []byte("# lock\n")},
		"src/main.rs": {Data: []byte("fn main() {}\n")},
	}
	b := &Builder{Cache: cache, Source: src}
	// The registry of the test, cached where Releases looks.
	reg := &Registry{Cache: filepath.Join(cache, "registry", "cranelift-codegen.index"), URL: srv.URL}
	if _, err := reg.Releases(context.Background()); err != nil {
		t.Fatal(err)
	}
	return b
}

func TestBuildCachesByKey(t *testing.T) {
	calls := fakeCargo(t, false)
	b := testBuilder(t)
	ctx := context.Background()
	first, err := b.Ensure(ctx, Spec{Kind: Release, Version: "0.120.2"})
	if err != nil {
		t.Fatal(err)
	}
	if first.Cached || first.Label != "0.120.2" || !strings.HasPrefix(first.Key, "0.120.2-") || first.Toolchain != "cargo (rustc 1.95.0)" {
		t.Errorf("first build: %+v", first)
	}
	built, _ := os.ReadFile(filepath.Join(filepath.Dir(calls), "last-manifest"))
	if !strings.Contains(string(built), `cranelift-reader = "=0.120.2"`) || !strings.Contains(string(built), `rust-version = "1.84.0"`) || !strings.Contains(string(built), `pulley-interpreter = { version = "=33.0.2"`) {
		t.Errorf("the build's manifest is not pinned to 0.120.2:\n%s", built)
	}
	if out, err := os.ReadFile(first.Driver); err != nil || !strings.Contains(string(out), "driver") {
		t.Errorf("the driver was not installed in the cache: %v", err)
	}
	if out, err := os.ReadFile(filepath.Join(filepath.Dir(first.Driver), "cliff-pulley")); err != nil || !strings.Contains(string(out), "runner") {
		t.Errorf("cliff-pulley was not installed beside the driver: %v", err)
	}
	again, err := (&Builder{Cache: b.Cache, Source: b.Source}).Ensure(ctx, Spec{Kind: Release, Version: "0.120.2"})
	if err != nil || !again.Cached || again.Driver != first.Driver {
		t.Errorf("the same key again: %+v, %v; want the cached driver", again, err)
	}
	log, _ := os.ReadFile(calls)
	if n := strings.Count(string(log), "build --release"); n != 1 {
		t.Errorf("cargo ran %d times for one key, want 1:\n%s", n, log)
	}
	// A build in the cache needs no registry: one that is down, with no
	// index cached, is not asked.
	var asked atomic.Int32
	down := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.Add(1)
		http.Error(w, "down", http.StatusServiceUnavailable)
	}))
	defer down.Close()
	os.Remove(b.Registry().Cache)
	offline := &Builder{Cache: b.Cache, Source: b.Source, IndexURL: down.URL}
	if again, err := offline.Ensure(ctx, Spec{Kind: Release, Version: "0.120.2"}); err != nil || !again.Cached || asked.Load() != 0 {
		t.Errorf("a cached build with the registry down: %+v, %v, %d requests; want the cached driver and none", again, err, asked.Load())
	}
	if _, err := offline.Ensure(ctx, Spec{Kind: Release, Version: "0.123.20"}); err == nil || !strings.Contains(err.Error(), "the list of Cranelift releases") {
		t.Errorf("a build the cache lacks, with the registry down: %v", err)
	}
	if _, err := os.Stat(filepath.Join(b.Cache, "drivers", "0.123.20-"+first.Key[len("0.120.2-"):])); err == nil {
		t.Errorf("a release that could not be described left a directory in the cache")
	}
	// A changed driver source is a new key: built again.
	b2 := &Builder{Cache: b.Cache, Source: fstest.MapFS{
		"Cargo.toml":  {Data: []byte(manifest)},
		"Cargo.lock":  {Data: []byte("# lock\n")},
		"src/main.rs": {Data: []byte("fn main() { /* changed */ }\n")},
	}}
	changed, err := b2.Ensure(ctx, Spec{Kind: Release, Version: "0.120.2"})
	if err != nil || changed.Cached || changed.Key == first.Key {
		t.Errorf("a changed driver source: %+v, %v; want a new build under a new key", changed, err)
	}
	// The committed default (0.137.1 in the manifest) builds --locked;
	// a release it does not serve is refused with the newest named.
	if _, err := b.Ensure(ctx, Spec{Kind: Release, Version: "0.999.0"}); err == nil || !strings.Contains(err.Error(), "not a release on crates.io (the newest is 0.137.0-rc.1)") {
		t.Errorf("an unknown release: %v", err)
	}
	// latest skips release candidates and yanked releases.
	if s, err := b.Resolve(ctx, Spec{Kind: Latest}); err != nil || s.Version != "0.123.20" {
		t.Errorf("latest = %+v, %v; want 0.123.20", s, err)
	}
}

func TestBuildFailureIsOneLineAndRemembered(t *testing.T) {
	calls := fakeCargo(t, true)
	b := testBuilder(t)
	ctx := context.Background()
	_, err := b.Ensure(ctx, Spec{Kind: Release, Version: "0.123.20"})
	var be *BuildError
	if !errors.As(err, &be) || be.Reason != "error[E0432]: unresolved import `cranelift_codegen::FinalizedMachReloc`" || strings.Contains(err.Error(), "\n") {
		t.Fatalf("a failed build: %v; want one line with cargo's first error", err)
	}
	if _, err := os.Stat(be.Log); err != nil {
		t.Errorf("cargo's output is not kept: %v", err)
	}
	_, err = b.Ensure(ctx, Spec{Kind: Release, Version: "0.123.20"})
	if !errors.As(err, &be) {
		t.Errorf("the second try: %v, want the remembered BuildError", err)
	}
	log, _ := os.ReadFile(calls)
	if n := strings.Count(string(log), "build --release"); n != 1 {
		t.Errorf("cargo ran %d times for a release that does not build, want 1", n)
	}
	if got := b.CacheState("0.123.20"); !strings.HasPrefix(got, "fails: error[E0432]") {
		t.Errorf("CacheState = %q", got)
	}
}

func TestBuildNeedsAToolchain(t *testing.T) {
	fakeCargo(t, false)
	b := testBuilder(t)
	_, err := b.Ensure(context.Background(), Spec{Kind: Release, Version: "0.137.0-rc.1"})
	if err == nil || !strings.Contains(err.Error(), "cannot build: needs Rust 1.97.0, installed: cargo (rustc 1.95.0)") {
		t.Errorf("a release no toolchain builds: %v", err)
	}
}
