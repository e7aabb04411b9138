package cluster

import (
	"regexp"
	"strings"
)

// maxDiagnostic bounds a normalised message: enough for any panic's
// distinguishing part, short enough for one line of a table.
const maxDiagnostic = 240

var (
	// cliff-run's prefixes: the function that failed first, and the
	// callers that needed it.
	needsPrefix    = regexp.MustCompile(`^%\S+ needs %\S+, which failed: `)
	functionPrefix = regexp.MustCompile(`^function (?:%\S+|u\d+:\d+): `)
	// The panic site the driver appends: " (at FILE:LINE:COL)".
	panicSite = regexp.MustCompile(`^\(at (\S+?):(\d+)(?::\d+)?\)$`)
	// An ISLE "no rule matched" panic names the .isle rule line itself;
	// the generated isle_*.rs line it was raised at says nothing more.
	isleRule = regexp.MustCompile(`(no rule matched for term \S+) at (\S+\.isle) line (\d+)(?:; should it be partial\?)?`)
	// "should be implemented in ISLE: inst = `v9 = umax.i128 v4, v2`,
	// type = `Some(types::I128)`": the opcode and type are the bug.
	islePending = regexp.MustCompile("inst = `(?:[^`=]*= )?([a-z_0-9]+)(\\.[a-z0-9]+)?[^`]*`(?:, type = `(?:Some\\()?(?:types::)?([A-Za-z0-9]+)\\)?`)?")
	// A source position inside a message (QEMU's assertions): kept, with
	// its line, while other numbers go.
	sourcePos = regexp.MustCompile(`^[\w./-]+\.(?:rs|c|h|cc|isle):\d+(?::\d+)?`)
	typeSet   = regexp.MustCompile(`TypeSet ?\{[^}]*\}`)
)

// entityPrefixes are the CLIF entity names whose numbers are erased
// (v12 → vN).
var entityPrefixes = []string{"v", "block", "inst", "ss", "dss", "gv", "sig", "fn", "jt", "const", "heap", "table"}

// NormalizeMessage is a compiler or harness message made comparable across
// cases: cliff-run's "%f needs %g, which failed:" and "function %f:"
// prefixes dropped, paths reduced to crate/file (registry, checkout and
// build directories, crate versions and build hashes erased), value,
// block and other entity numbers, function names and hex and decimal
// numbers erased, type-set dumps erased, whitespace collapsed; then the
// panic site, as " @ FILE:LINE" (for an ISLE "no rule matched" panic, the
// .isle rule line its message names). "should be implemented in ISLE:
// inst = `v9 = umax.i128 v4, v2`" keeps the opcode and type: "umax.i128".
//
// It runs once per failing verdict, so it avoids regular expressions
// over the whole message where a scan does: paths are rewritten word by
// word, numbers by one pass over the words.
func NormalizeMessage(msg string) string {
	msg = strings.Join(strings.Fields(msg), " ")
	for {
		rest := msg
		if strings.HasPrefix(rest, "%") {
			rest = needsPrefix.ReplaceAllString(rest, "")
		}
		if strings.HasPrefix(rest, "function ") {
			rest = functionPrefix.ReplaceAllString(rest, "")
		}
		if rest == msg {
			break
		}
		msg = rest
	}
	site := ""
	if i := strings.LastIndex(msg, " (at "); i >= 0 {
		if m := panicSite.FindStringSubmatch(msg[i+1:]); m != nil {
			site = normalizePath(m[1]) + ":" + m[2]
			msg = msg[:i]
		}
	}
	if strings.Contains(msg, "no rule matched") {
		if m := isleRule.FindStringSubmatchIndex(msg); m != nil {
			site = msg[m[4]:m[5]] + ":" + msg[m[6]:m[7]]
			msg = msg[:m[0]] + msg[m[2]:m[3]] + msg[m[1]:]
		}
	}
	if strings.Contains(msg, "inst = `") {
		msg = islePending.ReplaceAllStringFunc(msg, func(s string) string {
			m := islePending.FindStringSubmatch(s)
			op, ty := m[1], m[2]
			if ty == "" && m[3] != "" {
				ty = "." + strings.ToLower(m[3])
			}
			return op + ty
		})
	}
	if strings.Contains(msg, "TypeSet") {
		msg = typeSet.ReplaceAllString(msg, "TypeSet{…}")
	}
	words := strings.Split(msg, " ")
	for i, w := range words {
		if strings.Contains(w, "/") {
			w = normalizePath(w)
		}
		words[i] = eraseNumbers(w)
	}
	msg = strings.TrimSpace(strings.Join(words, " "))
	if site != "" {
		msg += " @ " + site
	}
	return truncate(msg, maxDiagnostic)
}

// eraseNumbers erases the numbers of one word of a message: every maximal
// run of ASCII letters, digits and _ (a \b-delimited word) that is a
// decimal number becomes N, a duration N and its unit, a hex number 0xN, an entity (v12, block3) its
// prefix and N, and a function name (%f2, %main) %F. A source position
// (file.rs:12) is kept whole.
func eraseNumbers(w string) string {
	var b strings.Builder
	mayHavePos := strings.Contains(w, ":")
	for i := 0; i < len(w); {
		if mayHavePos && (i == 0 || !isWordByte(w[i-1])) {
			if m := sourcePos.FindString(w[i:]); m != "" {
				b.WriteString(m)
				i += len(m)
				continue
			}
		}
		c := w[i]
		if c == '%' && i+1 < len(w) && (isLetter(w[i+1]) || w[i+1] == '_') {
			j := i + 1
			for j < len(w) && (isWordByte(w[j]) || w[j] == '.') {
				j++
			}
			b.WriteString("%F")
			i = j
			continue
		}
		if !isWordByte(c) {
			b.WriteByte(c)
			i++
			continue
		}
		j := i
		for j < len(w) && isWordByte(w[j]) {
			j++
		}
		b.WriteString(eraseWord(w[i:j]))
		i = j
	}
	return b.String()
}

func eraseWord(word string) string {
	if allDigits(word) {
		return "N"
	}
	if len(word) > 2 && word[0] == '0' && word[1] == 'x' && allHex(word[2:]) {
		return "0xN"
	}
	// cliff's symbols name the batch's module: cliff_m73_main.
	if strings.HasPrefix(word, "cliff_m") {
		parts := strings.Split(word, "_")
		if len(parts) > 2 && len(parts[1]) > 1 && allDigits(parts[1][1:]) {
			parts[1] = "mN"
			return strings.Join(parts, "_")
		}
	}
	// A duration (10s, 250ms): a limit of the run, not of the bug.
	if i := strings.IndexFunc(word, func(r rune) bool { return r < '0' || r > '9' }); i > 0 {
		switch unit := word[i:]; unit {
		case "ns", "us", "ms", "s", "m", "h":
			return "N" + unit
		}
	}
	for _, p := range entityPrefixes {
		if rest, ok := strings.CutPrefix(word, p); ok && allDigits(rest) {
			return p + "N"
		}
	}
	return word
}

func isWordByte(c byte) bool { return isLetter(c) || '0' <= c && c <= '9' || c == '_' }
func isLetter(c byte) bool   { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

func allHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' || c == '_') {
			return false
		}
	}
	return s != ""
}

// normalizePath reduces a path (within one word) to crate/file: the
// registry or checkout prefix and the crate version go
// (…/cranelift-codegen-0.135.8/src/x.rs → cranelift-codegen/src/x.rs),
// and so do cargo's build directory and hash
// (…/build/cranelift-codegen-b2b2e536ee39b9c2/out/isle_x64.rs →
// cranelift-codegen/out/isle_x64.rs). Leading quotes and brackets stay.
func normalizePath(w string) string {
	lead := strings.IndexFunc(w, func(r rune) bool { return !strings.ContainsRune("(`'\"", r) })
	if lead < 0 {
		return w
	}
	segs := strings.Split(w[lead:], "/")
	for i := len(segs) - 2; i >= 0; i-- { // the last segment is the file
		name, ok := crateDir(segs[i], i > 0 && segs[i-1] == "build")
		if ok {
			return w[:lead] + name + "/" + strings.Join(segs[i+1:], "/")
		}
	}
	return w
}

// crateDir reads a directory named after a crate: NAME-1.2.3 (a registry
// or vendored crate, with an optional -pre suffix) or, in cargo's build
// directory, NAME-HASH (8 or more hex digits).
func crateDir(seg string, inBuild bool) (string, bool) {
	for i := len(seg) - 1; i > 0; i-- {
		if seg[i] != '-' {
			continue
		}
		name, rest := seg[:i], seg[i+1:]
		if !isCrateName(name) {
			continue
		}
		if inBuild && len(rest) >= 8 && allHex(rest) && !strings.Contains(rest, "_") {
			return name, true
		}
		if isVersion(rest) {
			return name, true
		}
	}
	return "", false
}

func isCrateName(s string) bool {
	if s == "" || !('a' <= s[0] && s[0] <= 'z') {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// isVersion reports whether s is MAJOR.MINOR.PATCH with an optional
// -suffix.
func isVersion(s string) bool {
	core, _, _ := strings.Cut(s, "-")
	parts := strings.Split(core, ".")
	if len(parts) != 3 {
		return false
	}
	for _, p := range parts {
		if !allDigits(p) {
			return false
		}
	}
	return true
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8Start(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

func utf8Start(b byte) bool { return b&0xc0 != 0x80 }
