package ir

import (
	_ "embed"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// What each Cranelift release knows: its opcodes, shared settings and
// ISA flags, per minor release from 0.120 on. releases.txt is made from
// the releases themselves (each release's driver answers the features
// op; `cliff-cranelift features --write lib/ir/releases.txt`), never by
// hand, and TestReleasesCurrent fails when it disagrees with the driver
// the tests run.
//
// Its lines:
//
//	release 0.120.2                  a release listed, oldest first
//	opcode band_not 0.120-0.133      the minor releases that know it
//	setting enable_verifier 0.120-   ("-" at the end: up to the newest listed)
//	setting_value regalloc_algorithm=single_pass 0.126-
//	isa_flag x86_64 has_avx 0.120-
//
// A version is looked up by its minor release: 0.135.8 and a checkout's
// 0.135.0@abcdef as 0.135. A version newer than the newest listed is
// taken as the newest listed (a checkout of the next release knows what
// the last one did, until the table is made again), one older than the
// oldest as unknown: everything is allowed.

//go:embed releases.txt
var releasesText string

// A ReleaseTable says which releases know each name.
type ReleaseTable struct {
	// Releases are the releases listed, oldest first.
	Releases []string
	minors   []int
	known    map[string][]bool // by key ("opcode iadd", "isa_flag x86_64 has_avx"): per release
}

var releases = sync.OnceValues(func() (*ReleaseTable, error) { return ParseReleaseTable(releasesText) })

// Releases is the embedded release table.
func Releases() *ReleaseTable {
	t, err := releases()
	if err != nil {
		panic("lib/ir/releases.txt: " + err.Error()) // TestReleaseTable keeps it readable
	}
	return t
}

// Kinds of name in the table.
const (
	KindOpcode  = "opcode"
	KindSetting = "setting"
	// KindSettingValue is one value of an enum setting, named
	// "NAME=VALUE": regalloc_algorithm=single_pass is not 0.120's.
	KindSettingValue = "setting_value"
	KindISAFlag      = "isa_flag" // named "ARCH FLAG"
)

// ParseReleaseTable reads the format above.
func ParseReleaseTable(text string) (*ReleaseTable, error) {
	t := &ReleaseTable{known: map[string][]bool{}}
	for n, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		fail := func(format string, args ...any) error {
			return fmt.Errorf("line %d: %s", n+1, fmt.Sprintf(format, args...))
		}
		switch {
		case f[0] == "release" && len(f) == 2:
			m, ok := minorOf(f[1])
			if !ok || len(t.minors) > 0 && m <= t.minors[len(t.minors)-1] {
				return nil, fail("release %s: want a version newer than the one before", f[1])
			}
			t.Releases = append(t.Releases, f[1])
			t.minors = append(t.minors, m)
		case (f[0] == KindOpcode || f[0] == KindSetting || f[0] == KindSettingValue) && len(f) == 3, f[0] == KindISAFlag && len(f) == 4:
			if len(t.minors) == 0 {
				return nil, fail("%s before any release line", f[0])
			}
			key := strings.Join(f[:len(f)-1], " ")
			if _, dup := t.known[key]; dup {
				return nil, fail("%s twice", key)
			}
			set, err := t.parseRanges(f[len(f)-1])
			if err != nil {
				return nil, fail("%s: %v", key, err)
			}
			t.known[key] = set
		default:
			return nil, fail("want release V, opcode NAME RANGES, setting NAME RANGES, setting_value NAME=VALUE RANGES or isa_flag ARCH NAME RANGES")
		}
	}
	if len(t.Releases) == 0 {
		return nil, fmt.Errorf("no release listed")
	}
	return t, nil
}

// parseRanges reads "0.120-0.125,0.130-" into one flag per release.
func (t *ReleaseTable) parseRanges(s string) ([]bool, error) {
	set := make([]bool, len(t.minors))
	for _, r := range strings.Split(s, ",") {
		lo, hi, _ := strings.Cut(r, "-")
		from, ok := minorOf(lo)
		if !ok {
			return nil, fmt.Errorf("range %q", r)
		}
		to := t.minors[len(t.minors)-1]
		if hi != "" {
			if to, ok = minorOf(hi); !ok || to < from {
				return nil, fmt.Errorf("range %q", r)
			}
		}
		for i, m := range t.minors {
			if m >= from && m <= to {
				set[i] = true
			}
		}
	}
	return set, nil
}

// FormatRanges writes which of the releases know a name (one flag per
// release, in order) in the table's notation; "" when none does.
func FormatRanges(releases []string, set []bool) string {
	var parts []string
	for i := 0; i < len(set); i++ {
		if !set[i] {
			continue
		}
		j := i
		for j+1 < len(set) && set[j+1] {
			j++
		}
		r := minorName(releases[i]) + "-"
		if j < len(set)-1 {
			r += minorName(releases[j])
		}
		parts = append(parts, r)
		i = j
	}
	return strings.Join(parts, ",")
}

func minorName(v string) string {
	p := strings.SplitN(v, ".", 3)
	if len(p) < 2 {
		return v
	}
	return p[0] + "." + p[1]
}

// minorOf reads the minor number of 0.MINOR[.PATCH][-pre][@rev].
func minorOf(v string) (int, bool) {
	v, _, _ = strings.Cut(v, "@")
	p := strings.Split(v, ".")
	if len(p) < 2 || p[0] != "0" {
		return 0, false
	}
	m, err := strconv.Atoi(p[1])
	return m, err == nil
}

// index is the release a version is looked up as, or -1 when the table
// cannot say (older than every release listed, or not a version).
func (t *ReleaseTable) index(version string) int {
	m, ok := minorOf(version)
	if !ok || m < t.minors[0] {
		return -1
	}
	i, found := slices.BinarySearch(t.minors, m)
	if found {
		return i
	}
	if i == len(t.minors) {
		return i - 1 // newer than the newest listed
	}
	return i - 1 // a minor release between two listed: as the one before
}

// Knows says whether Cranelift version knows a name of kind (for an ISA
// flag, "ARCH FLAG"). A version the table cannot place knows everything,
// and so does any version for a name the table does not list (cliff's
// own names, which no release has, are checked elsewhere).
func (t *ReleaseTable) Knows(kind, name, version string) bool {
	set, ok := t.known[kind+" "+name]
	i := t.index(version)
	if !ok || i < 0 {
		return true
	}
	return set[i]
}

// Range is the releases that know a name, as the table writes it
// ("0.120-0.133"), or "" when none listed does.
func (t *ReleaseTable) Range(kind, name string) string {
	return FormatRanges(t.Releases, t.known[kind+" "+name])
}

// Names lists the names of kind the table holds, sorted.
func (t *ReleaseTable) Names(kind string) []string {
	var out []string
	for k := range t.known {
		if rest, ok := strings.CutPrefix(k, kind+" "); ok {
			out = append(out, rest)
		}
	}
	slices.Sort(out)
	return out
}

// Listed says whether the table has a column for version's minor
// release itself (not one it stands in for).
func (t *ReleaseTable) Listed(version string) bool {
	m, ok := minorOf(version)
	return ok && slices.Contains(t.minors, m)
}

// OpcodeRefusal says why Cranelift version cannot take a function: the
// first of its opcodes (in the function's order) that the version does
// not know, with the releases that do; "" when it knows them all.
func OpcodeRefusal(f *Function, version string) string {
	t := Releases()
	if t.index(version) < 0 {
		return ""
	}
	for _, b := range f.Layout {
		for _, inst := range f.Blocks[b].Insts {
			name := f.Insts[inst].Op.String()
			if !t.Knows(KindOpcode, name, version) {
				known := t.Range(KindOpcode, name)
				if known == "" {
					known = "none of " + minorName(t.Releases[0]) + "-" + minorName(t.Releases[len(t.Releases)-1])
				}
				return fmt.Sprintf("opcode %s: Cranelift %s does not know it (releases that do: %s)", name, version, known)
			}
		}
	}
	return ""
}
