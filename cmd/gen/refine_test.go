package main

import (
	"bytes"
	"cliff/lib/cliapp"
	"os"
	"path/filepath"
	"testing"

	"cliff/lib/profile"
	"cliff/lib/record"
	"cliff/lib/refine"
)

// TestRefineInProcessIsThePipe: cliff-gen --refine writes, byte for byte,
// what cliff-gen | cliff-refine writes (cliff-refine refines each record
// with refine.Case and stamps it). On one core the in-process path is the
// faster one, and a campaign may use either. With a mask, both honour its
// operand-producer patterns (cliff-refine reads them from the records).
func TestRefineInProcessIsThePipe(t *testing.T) {
	known := filepath.Join("..", "..", "lib", "profile", "data", "known.mask")
	mask, err := profile.ReadMask(known)
	if err != nil {
		t.Fatal(err)
	}
	compat, err := profile.Load("compat")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		flags []string
		mask  *profile.Patterns // what cliff-refine reads from each record
	}{
		{"no mask", nil, nil},
		// known.mask's patterns: cliff-refine reads them from the
		// records; --refine must honour them too.
		{"known.mask", []string{"--mask", known}, compat.Without(mask).Patterns()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			plain, refined := filepath.Join(dir, "plain.jsonl"), filepath.Join(dir, "refined.jsonl")
			for _, args := range [][]string{
				append([]string{"cliff-gen", "--seed", "11", "-n", "40", "--depth", "5", "-o", plain}, tc.flags...),
				append([]string{"cliff-gen", "--seed", "11", "-n", "40", "--depth", "5", "--refine", "-o", refined}, tc.flags...),
			} {
				if code := cliapp.Run(app(os.Stderr), exits, args, os.Stderr); code != 0 {
					t.Fatalf("%v: exit %d", args, code)
				}
			}
			plainLines := readLines(t, plain)
			refinedLines := readLines(t, refined)
			if len(plainLines) != 40 || len(refinedLines) != 40 {
				t.Fatalf("%d and %d records, want 40 each", len(plainLines), len(refinedLines))
			}
			for i, line := range plainLines {
				r, err := record.Decode(line)
				if err != nil {
					t.Fatal(err)
				}
				c := r.(*record.Case)
				if err := refine.Case(c, refine.Options{Passes: refine.Passes(), Mask: tc.mask}); err != nil {
					t.Fatal(err)
				}
				c.Stamp()
				piped, err := c.AppendJSON(nil)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(piped, refinedLines[i]) {
					t.Fatalf("case %d: cliff-gen --refine differs from cliff-gen | cliff-refine", i)
				}
			}
		})
	}
}

func readLines(t *testing.T, path string) [][]byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n"))
}
