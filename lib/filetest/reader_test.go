package filetest

import (
	"os"
	"path/filepath"
	"testing"

	"cliff/lib/driver/drivertest"
)

// TestGoldenFilesReadByCranelift: the rendered filetests (the golden
// files) are files Cranelift's own reader takes, with their run lines:
// cranelift_reader's parse_test and parse_run_command, through the
// driver. A file that only cliff's parser reads would be useless upstream.
func TestGoldenFilesReadByCranelift(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.clif")
	if len(files) == 0 {
		t.Fatal("no golden files")
	}
	texts := map[string]string{}
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		texts[name] = string(src)
	}
	// And a file with a run line the reader rejects, so the check can fail.
	const bad = "a run line with two args for one param"
	texts[bad] = "test run\ntarget x86_64\n\nfunction %f(i32) -> i32 {\nblock0(v0: i32):\n    return v0\n}\n; run: %f(1, 2) == 1\n"
	for name, r := range drivertest.ReadByCranelift(t, texts) {
		switch {
		case name == bad:
			if r.Err == nil {
				t.Errorf("%s was accepted", bad)
			}
		case r.Err != nil:
			t.Errorf("%s: %v", name, r.Err)
		case r.Functions == 0:
			t.Errorf("%s: Cranelift's reader found no function", name)
		default:
			t.Logf("%s: %d functions, %d run commands", name, r.Functions, r.RunCommands)
		}
	}
}
