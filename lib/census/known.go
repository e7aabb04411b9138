package census

import (
	"slices"
	"strings"

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

// Refs lists what knows finding f of c on arch: its facts.txt
// exclusions, its known.mask entries, and the known.mask paragraphs and
// findings that quote its diagnostic (a panic's ISLE rule line or site, a
// missing lowering's opcode.type) for arch. Empty: the finding is new.
func (k *Knowledge) Refs(arch string, c universe.Combo, f Finding) []string {
	refs := k.Excluded(arch, c)
	for _, e := range k.mask {
		// A QEMU bug's entry knows the emulator's symptoms, not a wrong
		// answer of the same combination.
		if entryMatches(e, arch, c) && !(f.Class == ClassWrong && k.isQemu(e)) {
			refs = append(refs, "known.mask: "+e.String())
		}
	}
	if f.Class != ClassFine && f.Detail != "" {
		m := k.known.Match(cluster.Signature{Failing: arch + "/*", Diagnostic: f.Detail}, nil, nil)
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
