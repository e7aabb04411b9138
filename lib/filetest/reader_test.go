package filetest

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"cliff/lib/driver"
	"cliff/lib/driver/drivertest"
)

// TestGoldenFilesReadByCranelift: the rendered filetests (the golden
// files) are files Cranelift's own reader takes, with their run lines:
// cranelift_reader's parse_test and parse_run_command, through the
// driver. A file that only cliff's parser reads would be useless upstream.
func TestGoldenFilesReadByCranelift(t *testing.T) {
	drv, err := drivertest.Path()
	if err != nil {
		t.Fatal(err)
	}
	c := driver.New(drv)
	defer c.Close()
	files, _ := filepath.Glob("testdata/*.clif")
	if len(files) == 0 {
		t.Fatal("no golden files")
	}
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		a, err := c.ParseTest(ctx, string(src))
		cancel()
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if a.Functions == 0 {
			t.Errorf("%s: Cranelift's reader found no function", name)
		}
		t.Logf("%s: %d functions, %d run commands", name, a.Functions, a.RunCommands)
	}
	// And a file with a run line the reader rejects is an error, so the
	// check above can fail.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := c.ParseTest(ctx, "test run\ntarget x86_64\n\nfunction %f(i32) -> i32 {\nblock0(v0: i32):\n    return v0\n}\n; run: %f(1, 2) == 1\n"); err == nil {
		t.Error("a run line with two args for one param was accepted")
	}
}
