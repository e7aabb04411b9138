package cluster

import (
	"regexp"
	"slices"
	"strings"

	"cliff/lib/ir"
	"cliff/lib/parser"
	"cliff/lib/profile"
	"cliff/lib/record"
)

// Known is what cliff already knows about Cranelift's bugs: lib/profile's
// known.mask (entries, and the comments that quote each panic) and the
// headers of findings/*.clif. Match tells a cluster that is one of them
// from a new one.
//
// The rule, in order:
//
//  1. Located: a location whose instruction's opcode and type (and the
//     failing architecture) match a known.mask entry: known.
//     1b. Shape: a located cluster whose verdict and reduced file
//     have the shape a finding's header says recognises it ("Recognised
//     by: divergent float-return-area", shape.go), on an architecture
//     the finding is about: known. Finding 23 has no opcode to mask; by
//     its shape its rediscoveries read as known.
//  2. Diagnostic: the keys of the signature's K all appear in one known
//     document (a known.mask paragraph or a finding's header, comment
//     markers and line breaks removed) about a failing architecture (a
//     paragraph's entries' architectures; the one a finding's file name
//     names, else those its header names, x86_64 also as x64): known. The keys are, for an
//     ISLE "no rule matched" panic, "TERM at FILE.isle line N"; for a
//     panic site, its path below src/isa/ (or src/) with the line,
//     "x64/lower/isle.rs:1272"; for "should be implemented in ISLE",
//     the opcode.type. Every matching document is named: a generic site
//     (riscv64/lower/isle.rs:64, put_in_reg's unwrap) matches several,
//     and only cliff-locate can tell which.
//  3. Settings: a divergence whose every wrong configuration carries the
//     settings a finding's header says it needs ("Settings:
//     regalloc_algorithm=single_pass (needed)"), on an architecture the
//     finding is about: possibly known. A mask entry cannot name a
//     setting, so such a finding has none, and without this rule its
//     every rediscovery would read as new.
//  4. Candidates: without a location or keys (a divergence), a known.mask
//     entry for a failing architecture that an instruction of the
//     representative case matches: possibly known.
type Known struct {
	mask []profile.MaskEntry
	docs []knownDoc
}

type knownDoc struct {
	name   string
	text   string   // comment markers and line breaks removed, spaces collapsed
	arches []string // the architectures it is about
	// needs are the settings a finding's header says its failure needs
	// ("regalloc_algorithm=single_pass"), for rule 3.
	needs []string
	// recognitions are a finding's "Recognised by:" lines (rule 1b).
	recognitions []recognition
}

// A Match says whether and why a cluster is known.
type Match struct {
	// Certain is false for candidates (rule 3): the representative
	// contains a masked combination, which may or may not be the cause.
	Certain bool
	Sources []string // "known.mask: scalar_to_vector i8x16 x86_64", "findings/03-….clif"
}

// String is the match as Cluster.Known spells it: "" when nothing matched,
// else "known: SOURCES" or "possibly: SOURCES".
func (m Match) String() string {
	if len(m.Sources) == 0 {
		return ""
	}
	word := "possibly"
	if m.Certain {
		word = "known"
	}
	return word + ": " + strings.Join(m.Sources, "; ")
}

// LoadKnown returns the findings embedded in lib/profile.
func LoadKnown() (*Known, error) {
	return NewKnown(profile.KnownMaskText(), profile.FindingHeaders())
}

// NewKnown builds a Known from a mask file's text and findings' headers.
func NewKnown(maskText []byte, findings []profile.FindingHeader) (*Known, error) {
	mask, err := profile.ParseMask("known.mask", maskText)
	if err != nil {
		return nil, err
	}
	k := &Known{mask: mask}
	for _, para := range strings.Split(string(maskText), "\n\n") {
		entries, err := profile.ParseMask("known.mask", []byte(para))
		if err != nil || len(entries) == 0 {
			continue
		}
		d := knownDoc{name: "known.mask: " + entries[0].String(), text: flatten(para)}
		for _, e := range entries {
			if !slices.Contains(d.arches, e.Arch) {
				d.arches = append(d.arches, e.Arch)
			}
		}
		k.docs = append(k.docs, d)
	}
	for _, f := range findings {
		d := knownDoc{name: "findings/" + f.Name, text: flatten(f.Header)}
		// A finding's file name names its architecture; one that names
		// none (a mid-end finding) is about those its header names.
		d.arches = archesIn(f.Name)
		if len(d.arches) == 0 {
			d.arches = archesIn(d.text)
		}
		d.recognitions = recognitions(d.text)
		for _, m := range neededSetting.FindAllStringSubmatch(d.text, -1) {
			d.needs = append(d.needs, m[1])
		}
		k.docs = append(k.docs, d)
	}
	return k, nil
}

// flatten removes comment markers and line breaks from a commented text,
// so that a message quoted across lines reads as one.
func flatten(text string) string {
	var words []string
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimLeft(strings.TrimSpace(line), "#;")
		words = append(words, strings.Fields(line)...)
	}
	return " " + strings.Join(words, " ") + " "
}

// Match matches a cluster: its signature, its representative's verdict
// (may be nil) and its location (nil when not located).
func (k *Known) Match(sig Signature, rep *record.Verdict, loc *record.Location) Match {
	arches := sig.Arches()
	if loc != nil {
		// The mask entries cliff-locate wrote for the failure, as
		// known.mask spells them.
		for _, line := range loc.Mask {
			for _, e := range k.mask {
				if profile.FormatMaskEntry(e) == line {
					return Match{Certain: true, Sources: []string{"known.mask: " + line}}
				}
			}
		}
	}
	if loc != nil && loc.Inst.Text != "" {
		op, ty := locatedOp(loc.Inst.Text)
		for _, e := range k.mask {
			if e.Op.String() == op && (ty == "" || e.Type == ir.Invalid || e.Type.String() == ty) && archMatches(e.Arch, arches) {
				return Match{Certain: true, Sources: []string{"known.mask: " + e.String()}}
			}
		}
	}
	if sources := k.byShape(sig, loc, arches); len(sources) > 0 {
		return Match{Certain: true, Sources: sources}
	}
	if keys := diagnosticKeys(sig.Diagnostic); len(keys) > 0 {
		var sources []string
		for _, d := range k.docs {
			if allIn(d.text, keys) && overlaps(d.arches, arches) {
				sources = append(sources, d.name)
			}
		}
		return Match{Certain: len(sources) > 0, Sources: sources}
	}
	var sources []string
	if rep != nil && rep.Verdict == record.OutcomeDivergent {
		sources = k.bySettings(rep)
	}
	if rep != nil && rep.Case != nil {
		sources = append(sources, k.candidates(rep.Case, arches)...)
	}
	return Match{Sources: sources}
}

// neededSetting finds, in a finding's flattened header, each setting it
// says the failure needs: "Settings: regalloc_algorithm=single_pass
// (needed)".
var neededSetting = regexp.MustCompile(`([a-z_0-9]+=[a-z_0-9]+) \(needed\)`)

// bySettings names the findings whose needed settings every wrong
// configuration of the divergent verdict v carries, on an architecture
// the finding is about (rule 3).
func (k *Known) bySettings(v *record.Verdict) []string {
	answers := answerSides(v)
	exp := ExpectedSide(answers)
	if exp < 0 {
		return nil
	}
	var wrong []record.Config
	for i, s := range answers {
		if i != exp {
			wrong = append(wrong, s.Configs...)
		}
	}
	if len(wrong) == 0 {
		return nil
	}
	var out []string
	for _, d := range k.docs {
		if len(d.needs) == 0 {
			continue
		}
		all := true
		for _, c := range wrong {
			if !slices.Contains(d.arches, c.Arch) || !containsAll(c.Settings, d.needs) {
				all = false
				break
			}
		}
		if all {
			out = append(out, d.name)
		}
	}
	return out
}

func containsAll(have, want []string) bool {
	for _, w := range want {
		if !slices.Contains(have, w) {
			return false
		}
	}
	return true
}

var (
	keyIsle    = regexp.MustCompile(`no rule matched for term (\S+) @ (\S+\.isle):(\d+)`)
	keySite    = regexp.MustCompile(` @ (\S+\.rs):(\d+)$`)
	keyPending = regexp.MustCompile(`should be implemented in ISLE: ([a-z_0-9]+\.[a-z0-9]+)`)
	locatedRe  = regexp.MustCompile(`^(?:[^=]*=\s*)?([a-z_0-9]+)(?:\.([a-z0-9]+))?`)
)

// diagnosticKeys are the phrases of K that a known document must quote
// (rule 2).
func diagnosticKeys(k string) []string {
	if m := keyIsle.FindStringSubmatch(k); m != nil {
		return []string{" " + m[1] + " at " + m[2] + " line " + m[3]}
	}
	if m := keyPending.FindStringSubmatch(k); m != nil {
		return []string{m[1]}
	}
	if m := keySite.FindStringSubmatch(k); m != nil {
		p := m[1]
		if _, rest, ok := strings.Cut(p, "/src/isa/"); ok {
			p = rest
		} else if _, rest, ok := strings.Cut(p, "/src/"); ok {
			p = rest
		}
		return []string{p + ":" + m[2]}
	}
	return nil
}

func allIn(text string, keys []string) bool {
	for _, k := range keys {
		if !strings.Contains(text, k) {
			return false
		}
	}
	return true
}

func archMatches(entryArch string, arches []string) bool {
	return entryArch == "*" || arches == nil || slices.Contains(arches, entryArch)
}

// overlaps reports whether a document about docArches ("*" for all) is
// about one of arches (nil: all).
func overlaps(docArches, arches []string) bool {
	if arches == nil || slices.Contains(docArches, "*") {
		return true
	}
	for _, a := range arches {
		if slices.Contains(docArches, a) {
			return true
		}
	}
	return false
}

// archesIn are the architectures a text names (x86_64 also as x64), and
// the interpreter's configurations ("interp") when it names Cranelift's
// interpreter.
func archesIn(text string) []string {
	var out []string
	for _, a := range profile.Arches {
		if strings.Contains(text, a) || a == "x86_64" && strings.Contains(text, "x64") {
			out = append(out, a)
		}
	}
	if strings.Contains(text, "interpreter") {
		out = append(out, "interp")
	}
	return out
}

// locatedOp reads the opcode and explicit controlling type of a CLIF
// instruction line: "v5 = sdiv.i32 v4, v0" → sdiv, i32.
func locatedOp(text string) (op, ty string) {
	m := locatedRe.FindStringSubmatch(strings.TrimSpace(text))
	if m == nil {
		return "", ""
	}
	return m[1], m[2]
}

// candidates are the known.mask entries for a failing architecture that
// some instruction of the case matches (rule 3).
func (k *Known) candidates(c *record.Case, arches []string) []string {
	mod, err := parser.ParseModuleString(c.ID, c.CLIF)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range k.mask {
		if !archMatches(e.Arch, arches) {
			continue
		}
		name := "known.mask: " + e.String()
		if slices.Contains(out, name) {
			continue
		}
		if e.FoundIn(mod) {
			out = append(out, name)
		}
	}
	return out
}
