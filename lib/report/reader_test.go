package report

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"cliff/lib/driver"
	"cliff/lib/driver/drivertest"
)

// TestGoldenFilesReadByCranelift: the test files the report writes for
// unreduced representatives (the golden ones) are files Cranelift's own
// reader takes, run lines included (cranelift_reader through the
// driver's parse_test), as cliff-locate's reduced files are.
func TestGoldenFilesReadByCranelift(t *testing.T) {
	drv, err := drivertest.Path()
	if err != nil {
		t.Fatal(err)
	}
	c := driver.New(drv)
	defer c.Close()
	// Every cluster's test file, from the real verdicts of testdata
	// (compile crashes, a divergence with a run line), and the golden ones.
	texts := map[string]string{}
	for _, e := range campaign(t).Clusters {
		texts["cluster "+e.Cluster.SignatureHash] = TestFile(e)
	}
	files, _ := filepath.Glob("testdata/*.clif")
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		texts[name] = string(src)
	}
	runLines := 0
	for name, text := range texts {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		a, err := c.ParseTest(ctx, text)
		cancel()
		if err != nil {
			t.Errorf("%s: %v\n%s", name, err, text)
			continue
		}
		runLines += a.RunCommands
	}
	if runLines == 0 {
		t.Error("no run line among the test files: the check does not cover them")
	}
}
