package extract

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Source is one CLIF input: a file path, or "-" for stdin.
type Source struct {
	Path string
	// Found says the file was found by walking a directory, rather than
	// named: a tool may pass over a found file it has no use for, but not
	// a named one.
	Found bool
}

// Name is the source's name in messages and provenance.
func (s Source) Name() string {
	if s.Path == "-" {
		return "stdin"
	}
	return s.Path
}

// Expand turns command-line paths into sources: files as given (whatever
// their extension), directories walked recursively for *.clif files in
// lexical order, "-" as stdin. No paths means stdin.
func Expand(paths []string) ([]Source, error) {
	if len(paths) == 0 {
		return []Source{{Path: "-"}}, nil
	}
	var out []Source
	for _, p := range paths {
		if p == "-" {
			out = append(out, Source{Path: "-"})
			continue
		}
		st, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			out = append(out, Source{Path: p})
			continue
		}
		var found []string
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && strings.HasSuffix(path, ".clif") {
				found = append(found, path)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		if len(found) == 0 {
			// A typo'd directory, or the wrong one: reading nothing would
			// pass for reading an empty corpus.
			return nil, fmt.Errorf("%s: no .clif files in this directory", p)
		}
		sort.Strings(found)
		for _, f := range found {
			out = append(out, Source{Path: f, Found: true})
		}
	}
	return out, nil
}

// Read returns the source's bytes.
func (s Source) Read() ([]byte, error) {
	if s.Path == "-" {
		return io.ReadAll(os.Stdin)
	}
	return os.ReadFile(s.Path)
}
