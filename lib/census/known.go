package census

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"cliff/lib/arch"
	"cliff/lib/cluster"
	"cliff/lib/ir"
	"cliff/lib/profile"
	"cliff/lib/profile/universe"
)

// Knowledge is what cliff already knows about the combinations: facts.txt
// (the profiles' exclusions), known.mask and the findings.
type Knowledge struct {
	universe *universe.Universe
	known    *cluster.Known
	mask     []profile.MaskEntry // whole-combination entries (no operand patterns)
	qemu     []profile.MaskEntry // entries of the paragraphs about QEMU's bugs
	census   []censusClaim       // the findings' "; Census:" lines
}

// A censusClaim is a finding's word that it explains the census rows of
// some combinations on an architecture: a line of its header
//
//	; Census: ARCH PATTERN...
//	; Census: ARCH(SET,SET) PATTERN...
//
// ARCH one of the four, a Pulley target (pulley32, ...) or *, optionally
// only with the named flag sets, each PATTERN a census key with path.Match
// wildcards ("bitcast.i*x*.i128", "fcmp.f128.*"). It is how a finding that has no
// diagnostic to quote, an interpreter bug above all (a wrong answer, or
// the interpreter alone refusing), or one that holds for some flag sets
// only, marks its rows known.
type censusClaim struct {
	finding, arch, pattern string
	sets                   []string // none: every set
}

func (cl censusClaim) covers(t Target, key string) bool {
	ok, _ := path.Match(cl.pattern, key)
	return ok && (cl.arch == "*" || cl.arch == t.Arch) && (len(cl.sets) == 0 || slices.Contains(cl.sets, t.Set))
}

// parseCensusClaims reads the "; Census:" lines of a finding's header.
func parseCensusClaims(f profile.FindingHeader) ([]censusClaim, error) {
	var out []censusClaim
	for n, line := range strings.Split(f.Header, "\n") {
		rest, ok := strings.CutPrefix(line, "; Census:")
		if !ok {
			continue
		}
		fields := strings.Fields(rest)
		var name, sets string
		if len(fields) > 0 {
			name, sets, _ = strings.Cut(strings.TrimSuffix(fields[0], ")"), "(")
		}
		if len(fields) < 2 || !claimArch(name) || strings.HasSuffix(fields[0], ")") && sets == "" {
			return nil, fmt.Errorf("findings/%s:%d: want \"; Census: ARCH[(SET,...)] PATTERN...\" with ARCH one of %s or *", f.Name, n+1, strings.Join(arch.BackendNames(), ", "))
		}
		for _, p := range fields[1:] {
			if _, err := path.Match(p, ""); err != nil {
				return nil, fmt.Errorf("findings/%s:%d: pattern %q: %w", f.Name, n+1, p, err)
			}
			cl := censusClaim{finding: f.Name, arch: name, pattern: p}
			if sets != "" {
				cl.sets = strings.Split(sets, ",")
			}
			out = append(out, cl)
		}
	}
	return out, nil
}

// claimArch reports whether a census claim may name an architecture:
// one of the four, a Pulley target (the census runs those too) or *.
func claimArch(name string) bool {
	return name == "*" || slices.Contains(profile.Arches, name) || arch.IsBytecode(name)
}

// LoadKnowledge returns the knowledge embedded in lib/profile.
func LoadKnowledge() (*Knowledge, error) {
	u, err := universe.Load()
	if err != nil {
		return nil, err
	}
	return NewKnowledge(u, profile.KnownMaskText(), profile.FindingHeaders())
}

// NewKnowledge builds Knowledge from a universe, a mask file's text and
// findings' headers.
func NewKnowledge(u *universe.Universe, maskText []byte, findings []profile.FindingHeader) (*Knowledge, error) {
	known, err := cluster.NewKnown(maskText, findings)
	if err != nil {
		return nil, err
	}
	k := &Knowledge{universe: u, known: known}
	for _, f := range findings {
		claims, err := parseCensusClaims(f)
		if err != nil {
			return nil, err
		}
		k.census = append(k.census, claims...)
	}
	// The paragraph that starts "Not Cranelift: QEMU 7.2 ..." lists the
	// emulator's bugs (others may mention QEMU as what ran the code).
	for _, para := range strings.Split(string(maskText), "\n\n") {
		entries, err := profile.ParseMask("known.mask", []byte(para))
		if err != nil {
			return nil, err
		}
		qemu := strings.Contains(para, "Not Cranelift")
		for _, e := range entries {
			if len(e.Operands) == 0 {
				k.mask = append(k.mask, e)
			}
			if qemu {
				k.qemu = append(k.qemu, e)
			}
		}
	}
	return k, nil
}

// entryMatches reports whether a whole-combination mask entry covers c on
// arch.
func entryMatches(e profile.MaskEntry, arch string, c universe.Combo) bool {
	if e.Op != c.Op || e.Arch != "*" && e.Arch != arch {
		return false
	}
	if !e.AnyType && e.Type != c.Ctrl {
		return false
	}
	return e.Free == ir.Invalid || e.Free == c.Free
}

// isQemu reports whether e is an entry of the QEMU paragraph.
func (k *Knowledge) isQemu(e profile.MaskEntry) bool {
	s := e.String()
	return slices.ContainsFunc(k.qemu, func(q profile.MaskEntry) bool { return q.String() == s })
}

// QemuKnown reports whether known.mask lists c on arch as QEMU's bug.
func (k *Knowledge) QemuKnown(arch string, c universe.Combo) bool {
	return slices.ContainsFunc(k.qemu, func(e profile.MaskEntry) bool { return entryMatches(e, arch, c) })
}

// Excluded returns the facts.txt lines that keep c out of arch's profile,
// spelled "facts.txt:N REASON".
func (k *Knowledge) Excluded(arch string, c universe.Combo) []string {
	var out []string
	for _, e := range k.universe.Excluded(arch, c) {
		out = append(out, universe.String(e))
	}
	return out
}

// Refs lists what knows finding f of c on target t: its facts.txt
// exclusions, its known.mask entries, the findings that claim it
// (censusClaim), the known.mask paragraphs and findings that quote its
// diagnostic (a panic's ISLE rule line or site, a missing lowering's
// opcode.type) for the architecture, and, for a clean refusal, facts.txt's
// word (a needs line) that the flag set lacks what the opcode needs. Empty: the finding
// is new.
func (k *Knowledge) Refs(t Target, c universe.Combo, f Finding) []string {
	arch := t.Arch
	refs := k.Excluded(arch, c)
	if why := flagSetLacks(t, c); why != "" && (f.Class == ClassUnlowered || f.Class == ClassError) {
		refs = append(refs, why)
	}
	for _, e := range k.mask {
		// A QEMU bug's entry knows the emulator's symptoms, not a wrong
		// answer of the same combination.
		if entryMatches(e, arch, c) && !(f.Class == ClassWrong && k.isQemu(e)) {
			refs = append(refs, "known.mask: "+e.String())
		}
	}
	key := universe.Key(c)
	for _, cl := range k.census {
		if cl.covers(t, key) {
			if ref := "findings/" + cl.finding; !slices.Contains(refs, ref) {
				refs = append(refs, ref)
			}
		}
	}
	if f.Class != ClassFine && f.Detail != "" {
		m := k.known.Match(cluster.Signature{Failing: arch + "/*", Blamed: []string{arch}, Diagnostic: f.Detail}, nil, nil)
		if m.Certain {
			for _, s := range m.Sources {
				if !slices.Contains(refs, s) {
					refs = append(refs, s)
				}
			}
		}
	}
	return refs
}

// flagSetLacks says what the target's profile knows its flag set lacks
// for c, as a reference, or "": an opcode whose only lowering needs a flag
// the set does not have (x86_pshufb without SSSE3).
func flagSetLacks(t Target, c universe.Combo) string {
	a, ok := arch.Lookup(t.Arch)
	if !ok {
		return ""
	}
	set, ok := a.FlagSet(t.Set)
	if !ok {
		return ""
	}
	p, err := profile.Load(profile.ProfileOf(t.Arch))
	if err != nil {
		return ""
	}
	if need := p.NeedsFlag(c.Op, set.Flags); need != "" {
		return fmt.Sprintf("facts.txt: %s lowers %s only with %s", t.Arch, c.Op, need)
	}
	return ""
}
