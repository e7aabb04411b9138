package profile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
)

// A MaskAddition is an entry for AppendMask and where it comes from.
type MaskAddition struct {
	Entry     MaskEntry
	Signature string // the signature of the cluster that located it
	Repro     string // the reproducer file's name
}

// AppendMask appends to the mask file at path (created when missing) each
// entry of adds that the file does not hold yet, spelled as
// FormatMaskEntry does, under a comment line naming its cluster signature
// and reproducer, so that the next campaign's cliff-gen --mask leaves it
// out. It returns the entries appended. A file that does not parse as a
// mask is left as it is and is an error: appending would hide where it
// went wrong.
func AppendMask(path string, adds []MaskAddition) ([]MaskEntry, error) {
	src, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	have, err := ParseMask(path, src)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for _, e := range have {
		seen[FormatMaskEntry(e)] = true
	}
	var b strings.Builder
	if len(src) > 0 && src[len(src)-1] != '\n' {
		b.WriteByte('\n')
	}
	var added []MaskEntry
	for _, a := range adds {
		line := FormatMaskEntry(a.Entry)
		if seen[line] {
			continue
		}
		if _, err := ParseMask("entry", []byte(line)); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err) // an entry that could not be read back
		}
		seen[line] = true
		fmt.Fprintf(&b, "# %s (%s)\n%s\n", oneLine(a.Signature), oneLine(a.Repro), line)
		added = append(added, a.Entry)
	}
	if len(added) == 0 {
		return nil, nil
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	if _, err := f.WriteString(b.String()); err != nil {
		f.Close()
		return nil, err
	}
	return added, f.Close()
}

// oneLine keeps a comment on its line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
