package gen

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cespare/xxhash/v2"
)

// TestLoadCorpora checks that several corpora load as one, in order, and
// that the record's hash names each file's exact bytes: one file keeps
// the hash it always had, so cases made before several were possible
// keep their identity.
func TestLoadCorpora(t *testing.T) {
	data, err := os.ReadFile(testCorpus)
	if err != nil {
		t.Fatal(err)
	}
	hash := fmt.Sprintf("%016x", xxhash.Sum64(data))
	one, err := LoadCorpus(testCorpus)
	if err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(t.TempDir(), "none.jsonl")
	tests := []struct {
		paths    string
		wantLen  int
		wantHash string
		err      string
	}{
		{paths: testCorpus, wantLen: one.Len(), wantHash: hash},
		{paths: testCorpus + "," + testCorpus, wantLen: 2 * one.Len(), wantHash: hash + "," + hash},
		{paths: testCorpus + ",", wantLen: one.Len(), wantHash: hash},
		{paths: testCorpus + "," + missing, err: "none.jsonl"},
		{paths: ",", err: "no corpus file"},
	}
	for _, tt := range tests {
		c, err := LoadCorpus(tt.paths)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("LoadCorpus(%q): error %v, want one with %q", tt.paths, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("LoadCorpus(%q): %v", tt.paths, err)
			continue
		}
		if c.Len() != tt.wantLen || c.Hash != tt.wantHash || c.Path != tt.paths {
			t.Errorf("LoadCorpus(%q) = %d snippets, hash %s, path %s; want %d, %s, %s",
				tt.paths, c.Len(), c.Hash, c.Path, tt.wantLen, tt.wantHash, tt.paths)
		}
	}
}
