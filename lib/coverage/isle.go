package coverage

import (
	"fmt"
	"strconv"
	"strings"
)

// An sexpr is an ISLE s-expression: an atom, or a list of them.
type sexpr struct {
	atom   string
	list   []sexpr
	line   int // 1-based line of the atom or of the list's "("
	isList bool
}

// head is a list's first atom, or "".
func (e sexpr) head() string {
	if e.isList && len(e.list) > 0 && !e.list[0].isList {
		return e.list[0].atom
	}
	return ""
}

// atoms calls f with every atom of e, depth first.
func (e sexpr) atoms(f func(string)) {
	if !e.isList {
		f(e.atom)
		return
	}
	for _, x := range e.list {
		x.atoms(f)
	}
}

// parseISLE reads the top-level forms of an .isle file. Comments run from
// ';' to the end of the line; ISLE has no strings.
func parseISLE(src string) ([]sexpr, error) {
	var stack [][]sexpr
	var lines []int
	var top []sexpr
	line := 1
	push := func(e sexpr) {
		if len(stack) == 0 {
			top = append(top, e)
			return
		}
		stack[len(stack)-1] = append(stack[len(stack)-1], e)
	}
	for i := 0; i < len(src); {
		switch c := src[i]; {
		case c == '\n':
			line++
			i++
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case c == ';':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == '(':
			stack = append(stack, nil)
			lines = append(lines, line)
			i++
		case c == ')':
			if len(stack) == 0 {
				return nil, fmt.Errorf("line %d: unbalanced ')'", line)
			}
			l := sexpr{list: stack[len(stack)-1], line: lines[len(lines)-1], isList: true}
			stack, lines = stack[:len(stack)-1], lines[:len(lines)-1]
			push(l)
			i++
		default:
			j := i
			for j < len(src) && !strings.ContainsRune(" \t\r\n();", rune(src[j])) {
				j++
			}
			push(sexpr{atom: src[i:j], line: line})
			i = j
		}
	}
	if len(stack) > 0 {
		return nil, fmt.Errorf("line %d: '(' not closed", lines[len(lines)-1])
	}
	return top, nil
}

// An isleRule is a rule (or an extractor, which a rule's left-hand side
// uses like a term) as the weights need it.
type isleRule struct {
	Rule
	term string // the term it defines: the head of its left-hand side
	lhs  sexpr
	form sexpr // the whole form
	// extractor says it is an extractor: lhs is the pattern its term
	// stands for.
	extractor bool
}

// isleRules lists the rules and extractors of an .isle file named source.
func isleRules(source string, forms []sexpr) []isleRule {
	var out []isleRule
	for _, f := range forms {
		switch f.head() {
		case "rule":
			// (rule [NAME] [PRIO] LHS [if-let...] RHS)
			args := f.list[1:]
			for len(args) > 0 && !args[0].isList {
				args = args[1:] // the name and the priority
			}
			if len(args) == 0 {
				continue
			}
			out = append(out, isleRule{Rule: Rule{source, f.line}, term: args[0].head(), lhs: args[0], form: f})
		case "extractor":
			// (extractor (TERM ARGS...) PATTERN): the pattern is its body.
			if len(f.list) < 3 {
				continue
			}
			out = append(out, isleRule{Rule: Rule{source, f.line}, term: f.list[1].head(), lhs: f.list[2], form: f, extractor: true})
		}
	}
	return out
}

// multiLane returns the (lane bits, lanes) of a "(multi_lane B N)" list.
func multiLane(e sexpr) (bits, lanes int, ok bool) {
	if e.head() != "multi_lane" || len(e.list) != 3 {
		return 0, 0, false
	}
	b, err1 := strconv.Atoi(e.list[1].atom)
	n, err2 := strconv.Atoi(e.list[2].atom)
	return b, n, err1 == nil && err2 == nil
}
