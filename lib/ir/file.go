package ir

import (
	"bytes"
	"slices"
)

// File is a whole .clif file: header lines, functions, and the run and print
// commands written in its comments. Test-case records carry only a Module;
// tools add the header per configuration.
type File struct {
	Name   string // file name for messages, "" for stdin
	Tests  []HeaderLine
	Header []HeaderLine // set and target lines, in order: sets are cumulative and apply to the targets after them
	Module
	Commands []RunCommand
}

// HeaderKind tells header lines apart.
type HeaderKind uint8

const (
	HeaderTest   HeaderKind = iota // test run
	HeaderSet                      // set opt_level=speed
	HeaderTarget                   // target x86_64 has_avx
)

// HeaderLine is one `test`, `set` or `target` line, split into words after
// the keyword: `target x86_64 has_avx` is {HeaderTarget, ["x86_64",
// "has_avx"]}, `set opt_level=speed` is {HeaderSet, ["opt_level=speed"]}.
type HeaderLine struct {
	Kind  HeaderKind
	Words []string
	Line  int
}

// RunKind distinguishes `; run:` from `; print:`.
type RunKind uint8

const (
	RunCheck RunKind = iota // ; run: %f(args) == want   (or !=; or bare `; run`)
	RunPrint                // ; print: %f(args)
)

// RunCommand is one `; run:` or `; print:` comment.
//
// A bare `; run` (no invocation) calls the function it follows with no
// arguments and passes when the result is non-zero: Func names that
// function, Args and Want are empty and Cmp is "".
type RunCommand struct {
	Kind RunKind
	Func string      // "%f"
	Args []DataValue // typed by the function's params
	Cmp  string      // "==", "!=" or "" (bare run, print)
	Want []DataValue // typed by the function's returns
	Line int
	Text string // the command as written, after "; "
}

// Holds reports whether results satisfy the command, compared bit for bit
// as Cranelift's run tests do (DataValue::bitwise_eq): NaN payloads count.
// A bare `; run` holds when its single integer result is non-zero.
func (c *RunCommand) Holds(results []DataValue) bool {
	if c.Cmp == "" {
		return len(results) == 1 && slices.ContainsFunc(results[0].Bytes, func(b byte) bool { return b != 0 })
	}
	equal := len(results) == len(c.Want)
	for i := 0; equal && i < len(results); i++ {
		equal = results[i].Type == c.Want[i].Type && bytes.Equal(results[i].Bytes, c.Want[i].Bytes)
	}
	if c.Cmp == "!=" {
		return !equal
	}
	return equal
}

// DataValue is a typed constant of a run command: Bytes holds the value
// little-endian, lane 0 first, len(Bytes) == Type.Bytes().
type DataValue struct {
	Type  Type
	Bytes []byte
}
