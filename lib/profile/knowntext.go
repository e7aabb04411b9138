package profile

import (
	"embed"
	"io/fs"
	"path"
	"strings"
)

// The findings' files, embedded for tools that match a new failure
// against them (cliff-cluster's dedup).
//
//go:embed data/findings/*.clif
var findingsData embed.FS

// KnownMaskText returns the embedded data/known.mask as written, comments
// included: the comments name each finding's panic message and site.
func KnownMaskText() []byte {
	src, err := data.ReadFile("data/known.mask")
	if err != nil {
		panic("profile: embedded known.mask: " + err.Error()) // embedded at build time
	}
	return src
}

// A FindingHeader is a reduced finding under data/findings: its file name
// and the comment header before its first function (source, symptom,
// verdict, evidence), comment markers kept.
type FindingHeader struct {
	Name   string // e.g. "03-x86_64-scalar-to-vector-i8x16.clif"
	Header string
}

// FindingHeaders returns every embedded finding's header, by file name.
func FindingHeaders() []FindingHeader {
	var out []FindingHeader
	err := fs.WalkDir(findingsData, "data/findings", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		src, err := findingsData.ReadFile(p)
		if err != nil {
			return err
		}
		text := string(src)
		if i := strings.Index(text, "\nfunction"); i >= 0 {
			text = text[:i+1]
		}
		out = append(out, FindingHeader{Name: path.Base(p), Header: text})
		return nil
	})
	if err != nil {
		panic("profile: embedded findings: " + err.Error())
	}
	return out
}

// FactsText returns the embedded data/facts.txt as written: the facts the
// profiles are generated from, for tools that ask why a combination is
// left out (lib/profile/universe).
func FactsText() []byte {
	src, err := data.ReadFile("data/facts.txt")
	if err != nil {
		panic("profile: embedded facts.txt: " + err.Error()) // embedded at build time
	}
	return src
}
