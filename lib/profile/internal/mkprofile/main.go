// Command mkprofile regenerates the profile data files (DIR/ARCH.txt) from
// DIR/facts.txt and the opcode table. Run it from the repository root as
// `go run ./lib/profile/internal/mkprofile`, or through `go generate
// ./lib/profile`; a test in lib/profile fails when the checked-in files are
// stale. The work is done by package gen, which that test also uses.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"cliff/lib/profile/internal/gen"
)

func main() {
	dir := flag.String("dir", "lib/profile/data", "directory with facts.txt; the profiles are written there")
	flag.Parse()
	if err := run(*dir); err != nil {
		fmt.Fprintln(os.Stderr, "mkprofile:", err)
		os.Exit(1)
	}
}

func run(dir string) error {
	path := filepath.Join(dir, "facts.txt")
	src, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	facts, err := gen.ParseFacts(path, src)
	if err != nil {
		return err
	}
	files, err := gen.Generate(facts)
	if err != nil {
		return err
	}
	for _, name := range slices.Sorted(maps.Keys(files)) {
		out := filepath.Join(dir, name)
		// Leave an unchanged file (and its modification time) alone.
		if old, err := os.ReadFile(out); err == nil && bytes.Equal(old, files[name]) {
			continue
		}
		if err := os.WriteFile(out, files[name], 0o644); err != nil {
			return err
		}
	}
	return nil
}
