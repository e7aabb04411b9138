package refinterp

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"

	"cliff/lib/ir"
)

// Conformance: running the `; run:` commands of a filetest on the
// interpreter, as Cranelift's runtests do on its backends.

// LineStatus is the result of one run command.
type LineStatus string

const (
	LinePass        LineStatus = "pass"
	LineFail        LineStatus = "fail"        // other results than the command expects
	LineUnsupported LineStatus = "unsupported" // the interpreter cannot run it (Reason says why)
	LineError       LineStatus = "error"       // a limit ran out or the program's behaviour is undefined
)

// LineResult is what one run command gave.
type LineResult struct {
	Line   int
	Text   string
	Status LineStatus
	// Got is the results or the trap, for a failure; Reason the error, for
	// an unsupported line or an error.
	Got    string
	Reason string
}

// CheckFile runs every `; run:` command of f (print commands are skipped)
// on one interpreter of f's module.
func CheckFile(f *ir.File, limits Limits) []LineResult {
	var out []LineResult
	for _, cmd := range f.Commands {
		if cmd.Kind != ir.RunCheck {
			continue
		}
		out = append(out, checkCommand(&f.Module, &cmd, limits))
	}
	return out
}

func checkCommand(m *ir.Module, cmd *ir.RunCommand, limits Limits) LineResult {
	r := LineResult{Line: cmd.Line, Text: cmd.Text}
	in := New(m, limits)
	o, err := in.Call(cmd.Func, cmd.Args)
	switch {
	case errors.Is(err, ErrUnsupported):
		r.Status, r.Reason = LineUnsupported, err.Error()
		return r
	case err != nil:
		r.Status, r.Reason = LineError, err.Error()
		return r
	}
	if !o.Trapped() && cmd.Holds(o.Results) { // a trap never satisfies a command
		r.Status = LinePass
		return r
	}
	r.Status, r.Got = LineFail, o.String()
	return r
}

// String spells the outcome: the results as `TYPE 0xHEX` (big-endian
// digits), or `trap CODE`.
func (o Outcome) String() string {
	if o.Trapped() {
		return "trap " + o.Trap.String()
	}
	var b bytes.Buffer
	for i, v := range o.Results {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s 0x", v.Type)
		for j := len(v.Bytes) - 1; j >= 0; j-- {
			fmt.Fprintf(&b, "%02x", v.Bytes[j])
		}
	}
	return b.String()
}

// Tally counts run commands by status, and the unsupported ones and
// errors by reason.
type Tally struct {
	Lines   map[LineStatus]int
	Reasons map[string]int // "unsupported: ..." or "error: ...", function names left out
}

// Add counts one result.
func (t *Tally) Add(r LineResult) {
	if t.Lines == nil {
		t.Lines, t.Reasons = map[LineStatus]int{}, map[string]int{}
	}
	t.Lines[r.Status]++
	switch r.Status {
	case LineUnsupported:
		t.Reasons[reasonKey(r.Reason)]++
	case LineError:
		t.Reasons["error: "+reasonKey(r.Reason)]++
	}
}

var (
	funcNameRE = regexp.MustCompile(`%[A-Za-z0-9_.:-]+`)
	valueRE    = regexp.MustCompile(`\bv[0-9]+\b`)
)

// reasonKey drops what differs between lines of one reason: function
// names and value numbers.
func reasonKey(s string) string {
	return valueRE.ReplaceAllString(funcNameRE.ReplaceAllString(s, "%f"), "vN")
}
