package report

import (
	"os"
	"path/filepath"
	"testing"

	"cliff/lib/driver/drivertest"
)

// TestGoldenFilesReadByCranelift: the test files the report writes for
// unreduced representatives are files Cranelift's own reader takes, run
// lines included (cranelift_reader through the driver's parse_test), as
// cliff-locate's reduced files are.
func TestGoldenFilesReadByCranelift(t *testing.T) {
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
	for name, r := range drivertest.ReadByCranelift(t, texts) {
		if r.Err != nil {
			t.Errorf("%s: %v\n%s", name, r.Err, texts[name])
			continue
		}
		runLines += r.RunCommands
	}
	if runLines == 0 {
		t.Error("no run line among the test files: the check does not cover them")
	}
}
