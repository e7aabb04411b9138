package coverage

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
)

// crateMarker is a source file of cranelift-codegen that the driver's line
// table names with its full path: the crate's directory is its prefix, and
// the .isle files that rules name (src/...) are under it.
const crateMarker = "/src/isa/x64/lower.rs"

// ruleSources reads the .isle files rules name, to show each listed rule
// with its first line.
type ruleSources struct {
	crateDir string // cranelift-codegen's source; "" if unknown
	outDir   string // its OUT_DIR, for <OUT_DIR>/... rules
	files    map[string][]string
}

// path is where a rule's .isle file is, or "".
func (s *ruleSources) path(r Rule) string {
	if rest, ok := strings.CutPrefix(r.Source, "<OUT_DIR>/"); ok {
		return filepath.Join(s.outDir, rest)
	}
	if s.crateDir == "" {
		return ""
	}
	return filepath.Join(s.crateDir, r.Source)
}

// text is the rule's first line, trimmed, or "" when its file cannot be
// read (the list then gives file:line alone).
func (s *ruleSources) text(r Rule) string {
	path := s.path(r)
	if path == "" {
		return ""
	}
	lines, ok := s.files[path]
	if !ok {
		src, err := os.ReadFile(path)
		if err == nil {
			for _, l := range bytes.Split(src, []byte("\n")) {
				lines = append(lines, strings.TrimSpace(string(l)))
			}
		}
		s.files[path] = lines
	}
	if r.Line < 1 || r.Line > len(lines) {
		return ""
	}
	return lines[r.Line-1]
}
