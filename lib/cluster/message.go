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
	panicSite = regexp.MustCompile(`\s*\(at (\S+?):(\d+)(?::\d+)?\)$`)
	// An ISLE "no rule matched" panic names the .isle rule line itself;
	// the generated isle_*.rs line it was raised at says nothing more.
	isleRule = regexp.MustCompile(`(no rule matched for term \S+) at (\S+\.isle) line (\d+)(?:; should it be partial\?)?`)
	// "should be implemented in ISLE: inst = `v9 = umax.i128 v4, v2`,
	// type = `Some(types::I128)`": the opcode and type are the bug.
	islePending = regexp.MustCompile("inst = `(?:[^`=]*= )?([a-z_0-9]+)(\\.[a-z0-9]+)?[^`]*`(?:, type = `(?:Some\\()?(?:types::)?([A-Za-z0-9]+)\\)?`)?")
	// Paths: registry and checkout prefixes, crate versions and cargo's
	// build-directory hashes.
	cratePath = regexp.MustCompile(`(?:[^\s()'"` + "`" + `]*/)?([a-z][a-z0-9_]*(?:-[a-z][a-z0-9_]*)*)-\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?/`)
	buildPath = regexp.MustCompile(`(?:[^\s()'"` + "`" + `]*/)?build/([a-z][a-z0-9_]*(?:-[a-z][a-z0-9_]*)*)-[0-9a-f]{8,}/`)
	// A source position inside a message (QEMU's assertions): kept, with
	// its line, while other numbers go.
	sourcePos = regexp.MustCompile(`[\w./-]+\.(?:rs|c|h|cc|isle):\d+(?::\d+)?`)
	// Entity numbers, then any other number.
	entity   = regexp.MustCompile(`\b(v|block|inst|ss|dss|gv|sig|fn|jt|const|heap|table)\d+\b`)
	funcName = regexp.MustCompile(`%[A-Za-z_][\w.]*`)
	hexNum   = regexp.MustCompile(`\b0x[0-9a-fA-F_]+\b`)
	decNum   = regexp.MustCompile(`\b\d+\b`)
	typeSet  = regexp.MustCompile(`TypeSet ?\{[^}]*\}`)
	spaces   = regexp.MustCompile(`\s+`)
)

// NormalizeMessage is a compiler or harness message made comparable across
// cases: cliff-run's "%f needs %g, which failed:" and "function %f:"
// prefixes dropped, paths reduced to crate/file (registry, checkout and
// build directories, crate versions and build hashes erased), value,
// block and other entity numbers, function names and hex and decimal
// numbers erased, type-set dumps erased, whitespace collapsed; then the
// panic site, as " @ FILE:LINE" (for an ISLE "no rule matched" panic, the
// .isle rule line its message names). "should be implemented in ISLE:
// inst = `v9 = umax.i128 v4, v2`" keeps the opcode and type: "umax.i128".
func NormalizeMessage(msg string) string {
	msg = strings.TrimSpace(spaces.ReplaceAllString(msg, " "))
	for {
		rest := needsPrefix.ReplaceAllString(msg, "")
		rest = functionPrefix.ReplaceAllString(rest, "")
		if rest == msg {
			break
		}
		msg = rest
	}
	site := ""
	if m := panicSite.FindStringSubmatchIndex(msg); m != nil {
		site = normalizePath(msg[m[2]:m[3]]) + ":" + msg[m[4]:m[5]]
		msg = msg[:m[0]]
	}
	if m := isleRule.FindStringSubmatchIndex(msg); m != nil {
		site = msg[m[4]:m[5]] + ":" + msg[m[6]:m[7]]
		msg = msg[:m[0]] + msg[m[2]:m[3]] + msg[m[1]:]
	}
	msg = islePending.ReplaceAllStringFunc(msg, func(s string) string {
		m := islePending.FindStringSubmatch(s)
		op, ty := m[1], m[2]
		if ty == "" && m[3] != "" {
			ty = "." + strings.ToLower(m[3])
		}
		return op + ty
	})
	msg = buildPath.ReplaceAllString(msg, "$1/")
	msg = cratePath.ReplaceAllString(msg, "$1/")
	// Keep source positions whole while numbers are erased.
	var kept []string
	msg = sourcePos.ReplaceAllStringFunc(msg, func(s string) string {
		kept = append(kept, s)
		return "\x00"
	})
	msg = typeSet.ReplaceAllString(msg, "TypeSet{…}")
	msg = entity.ReplaceAllString(msg, "${1}N")
	msg = funcName.ReplaceAllString(msg, "%F")
	msg = hexNum.ReplaceAllString(msg, "0xN")
	msg = decNum.ReplaceAllString(msg, "N")
	for _, s := range kept {
		msg = strings.Replace(msg, "\x00", s, 1)
	}
	msg = strings.TrimSpace(msg)
	if site != "" {
		msg += " @ " + site
	}
	return truncate(msg, maxDiagnostic)
}

// normalizePath reduces a panic site's path to crate/file: the registry
// or checkout prefix, crate version and build hash go.
func normalizePath(p string) string {
	p = buildPath.ReplaceAllString(p, "$1/")
	return cratePath.ReplaceAllString(p, "$1/")
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
