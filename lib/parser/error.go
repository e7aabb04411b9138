package parser

import "fmt"

// Error is a parse error at a position. Line and Col are 1-based; Col counts
// characters (runes) from the start of the line.
type Error struct {
	File      string
	Line, Col int
	Msg       string
}

// Error formats the error as "file:line:col: message" ("line:col: message"
// when the file has no name).
func (e *Error) Error() string {
	if e.File == "" {
		return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
}
