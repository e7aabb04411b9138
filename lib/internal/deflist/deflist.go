// Package deflist formats a list of terms and what they mean, the shape
// of a tool's --help lists (verdicts, classes), so that the help and the
// README print the same table the same way.
package deflist

import "strings"

// A Def is one term and its meaning, a sentence without a final stop.
type Def struct {
	Term, Means string
}

// Width is the width Format wraps its lines at.
const Width = 76

// Format lists defs one a term, indented by two spaces: the meaning starts
// in a column after the longest term of at most 14 letters and is wrapped
// at Width; a longer term stands on a line of its own.
func Format(defs []Def) string {
	longest := 0
	for _, d := range defs {
		if n := len(d.Term); n <= 14 && n > longest {
			longest = n
		}
	}
	col := 2 + longest + 2
	if longest == 14 {
		col--
	}
	pad := strings.Repeat(" ", col)
	var b strings.Builder
	for _, d := range defs {
		line := "  " + d.Term
		if len(line) >= col {
			b.WriteString(line + "\n")
			line = pad
		} else {
			line += pad[len(line):]
		}
		fresh := true
		for _, w := range strings.Fields(d.Means) {
			if !fresh && len(line)+1+len(w) > Width {
				b.WriteString(line + "\n")
				line, fresh = pad, true
			}
			if !fresh {
				line += " "
			}
			line += w
			fresh = false
		}
		b.WriteString(line + "\n")
	}
	return b.String()
}

// Wrap wraps text at width, a line of words at a time.
func Wrap(text string, width int) string {
	var b strings.Builder
	line := ""
	for _, w := range strings.Fields(text) {
		if line != "" && len(line)+1+len(w) > width {
			b.WriteString(line + "\n")
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	if line != "" {
		b.WriteString(line + "\n")
	}
	return b.String()
}

// Join joins words as prose does: "a", "a and b", "a, b and c".
func Join(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}
