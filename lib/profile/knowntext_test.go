package profile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The embedded findings are the files under data/findings, each cut at
// its first function, and the embedded mask text is the file.
func TestFindingHeaders(t *testing.T) {
	files, err := filepath.Glob("data/findings/*.clif")
	if err != nil {
		t.Fatal(err)
	}
	headers := FindingHeaders()
	if len(headers) != len(files) || len(files) == 0 {
		t.Fatalf("%d headers for %d files", len(headers), len(files))
	}
	for i, h := range headers {
		if h.Name != filepath.Base(files[i]) {
			t.Errorf("header %d is %s, want %s", i, h.Name, filepath.Base(files[i]))
		}
		if !strings.Contains(h.Header, "Symptom") || strings.Contains(h.Header, "\nfunction") {
			t.Errorf("%s: header is not the comment before the first function:\n%s", h.Name, h.Header)
		}
	}
	mask, err := os.ReadFile("data/known.mask")
	if err != nil {
		t.Fatal(err)
	}
	if string(KnownMaskText()) != string(mask) {
		t.Error("KnownMaskText differs from data/known.mask")
	}
}
