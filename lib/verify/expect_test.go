package verify

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"cliff/lib/ir"
)

// Expected errors are written as Cranelift's verifier filetests write them:
// a `; error: TEXT` comment on the line the error is about, or on a line of
// its own below it. Cranelift's reader gives a comment to the entity
// before it (the function header, a preamble declaration, a block header or
// an instruction), so an own-line comment means the nearest code line above.

// expectation is one `; error:` comment: the line of the entity it is about
// and the message text.
type expectation struct {
	line int // 1-based
	text string
}

func (e expectation) String() string { return fmt.Sprintf("line %d: %s", e.line, e.text) }

// parseExpectations finds the `; error:` comments of src.
func parseExpectations(src string) []expectation {
	lines := strings.Split(src, "\n")
	var out []expectation
	lastCode := 0
	for k, line := range lines {
		code, comment, hasComment := strings.Cut(line, ";")
		if strings.TrimSpace(code) != "" {
			lastCode = k + 1
		}
		if !hasComment {
			continue
		}
		_, text, ok := strings.Cut(comment, "error:")
		if !ok {
			continue
		}
		out = append(out, expectation{line: lastCode, text: strings.TrimSpace(text)})
	}
	return out
}

// funcRanges gives each function of file the lines it spans: from its
// `function` line to the line before the next function.
func funcRanges(file *ir.File, nlines int) [][2]int {
	r := make([][2]int, len(file.Funcs))
	for k, f := range file.Funcs {
		r[k][0] = f.Pos.Func.Line
		r[k][1] = nlines
		if k > 0 {
			r[k-1][1] = f.Pos.Func.Line - 1
		}
	}
	return r
}

var declLine = regexp.MustCompile(`^\s*([a-z]+[0-9]+)\s*=`)

// errorLine is the source line an error is about: its position, or for a
// preamble entity the line declaring it within lines [lo, hi].
func errorLine(e Error, lines []string, lo, hi int) int {
	if e.Pos.Line > 0 {
		return e.Pos.Line
	}
	if e.Entity != "" {
		for n := lo; n <= hi && n <= len(lines); n++ {
			if m := declLine.FindStringSubmatch(lines[n-1]); m != nil && m[1] == e.Entity {
				return n
			}
		}
	}
	return 0
}

// matchResult pairs the expectations of one function with its errors.
type matchResult struct {
	missing    []expectation // expected, not reported
	wrongText  []string      // an error on the right line with other words
	unexpected []Error       // reported, not expected
}

func (m matchResult) ok() bool { return len(m.missing) == 0 && len(m.unexpected) == 0 }

func (m matchResult) String() string {
	var b strings.Builder
	for _, e := range m.missing {
		fmt.Fprintf(&b, "\n  missing   %s", e)
	}
	for _, s := range m.wrongText {
		fmt.Fprintf(&b, "\n  (nearest: %s)", s)
	}
	for _, e := range m.unexpected {
		fmt.Fprintf(&b, "\n  unexpected %v", e)
	}
	return b.String()
}

// match pairs expectations with errors: an error matches when it is about
// the expected line and its message contains the expected text.
func match(exps []expectation, errs Errors, lines []string, lo, hi int) matchResult {
	var m matchResult
	used := make([]bool, len(errs))
	errLines := make([]int, len(errs))
	for k, e := range errs {
		errLines[k] = errorLine(e, lines, lo, hi)
	}
	for _, x := range exps {
		found := false
		for k, e := range errs {
			if !used[k] && errLines[k] == x.line && strings.Contains(e.Msg, x.text) {
				used[k], found = true, true
				break
			}
		}
		if found {
			continue
		}
		m.missing = append(m.missing, x)
		for k, e := range errs {
			if errLines[k] == x.line {
				m.wrongText = append(m.wrongText, e.Msg)
			}
		}
	}
	for k, e := range errs {
		if !used[k] {
			m.unexpected = append(m.unexpected, e)
		}
	}
	sort.Slice(m.missing, func(i, j int) bool { return m.missing[i].line < m.missing[j].line })
	return m
}
