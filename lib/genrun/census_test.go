package genrun

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"cliff/lib/jsonl"
	"cliff/lib/parser"
	"cliff/lib/profile"
	"cliff/lib/record"
	"cliff/lib/verify"
)

// TestCensusEveryCaseVerifies: the census of every target writes cases
// that parse and verify as written, one per combination the verifier
// takes; it has what the profile excludes and leaves out what the
// verifier rejects.
func TestCensusEveryCaseVerifies(t *testing.T) {
	for _, arch := range profile.Arches {
		out := filepath.Join(t.TempDir(), "census.jsonl")
		var log bytes.Buffer
		err := Run(context.Background(), Options{Seed: 1, Profile: arch, Enumerate: true, All: true, Inputs: 8, Depth: 5, Funcs: 4, Output: out, Log: &log})
		if err != nil {
			t.Fatalf("%s: %v", arch, err)
		}
		r, closer, err := jsonl.Open(out)
		if err != nil {
			t.Fatal(err)
		}
		ids := map[string]bool{}
		for {
			var c record.Case
			if err := r.Next(&c); err != nil {
				break
			}
			ids[c.ID] = true
			mod, err := parser.ParseModuleString(c.ID, c.CLIF)
			if err != nil {
				t.Fatalf("%s: %s: %v", arch, c.ID, err)
			}
			prof, err := profile.Load(arch)
			if err != nil {
				t.Fatal(err)
			}
			if errs := verify.ModuleWith(mod, verify.Options{PointerType: prof.Pointer}); len(errs) > 0 {
				t.Errorf("%s: %s does not verify: %v", arch, c.ID, errs)
			}
			if len(c.Inputs) == 0 || c.Options.Mode != "census" {
				t.Errorf("%s: %s: %d inputs, mode %q", arch, c.ID, len(c.Inputs), c.Options.Mode)
			}
		}
		closer.Close()
		for _, want := range []string{"census-iadd.i32", "census-uadd_overflow_cin.i32", "census-udiv.i128", "census-atomic_rmw.i128.xchg"} {
			if arch == "pulley32" {
				want = strings.Replace(want, "census-atomic", "census-p32:atomic", 1)
			}
			if !ids[want] {
				t.Errorf("%s: census lacks %s", arch, want)
			}
		}
		if arch == "x86_64" && !ids["census-fcvt_to_uint.i8.f64"] {
			t.Errorf("x86_64: census lacks fcvt_to_uint.i8.f64")
		}
		if ids["census-bitcast.i8.i16"] {
			t.Errorf("%s: census has bitcast.i8.i16, which the verifier rejects", arch)
		}
		if !strings.Contains(log.String(), "rejected by cliff's verifier") {
			t.Errorf("%s: log %q", arch, log.String())
		}
	}
}
