package extract

import (
	"errors"
	"fmt"
	"io"

	"cliff/lib/ir"
	"cliff/lib/parser"
	"cliff/lib/verify"
)

// CheckOptions select what Check does beyond parsing.
type CheckOptions struct {
	Verify bool // run the verifier on every function
}

// CheckFile parses (and verifies) one source and returns the problems, each
// a complete message starting with "file:line".
func CheckFile(src Source, opts CheckOptions) []string {
	data, err := src.Read()
	if err != nil {
		return []string{fmt.Sprintf("%s: %v", src.Name(), err)}
	}
	file, err := parser.ParseFile(src.Name(), data)
	if err != nil {
		return []string{parseMessage(src.Name(), err)}
	}
	if !opts.Verify {
		return nil
	}
	var problems []string
	vopts := verify.OptionsFor(file)
	for _, f := range file.Funcs {
		for _, e := range verify.FunctionWith(f, vopts) {
			problems = append(problems, verifyMessage(src.Name(), f, e))
		}
	}
	return problems
}

// Check runs CheckFile over every source and writes one line per failing
// file to w: the first problem, with a count of the others. It returns the
// number of failing files.
func Check(w io.Writer, sources []Source, opts CheckOptions) (failed int, err error) {
	for _, src := range sources {
		problems := CheckFile(src, opts)
		if len(problems) == 0 {
			continue
		}
		failed++
		line := problems[0]
		if n := len(problems) - 1; n > 0 {
			line += fmt.Sprintf(" (and %d more)", n)
		}
		if _, err := fmt.Fprintln(w, line); err != nil {
			return failed, err
		}
	}
	return failed, nil
}

func parseMessage(name string, err error) string {
	var pe *parser.Error
	if errors.As(err, &pe) {
		return pe.Error()
	}
	return fmt.Sprintf("%s: %v", name, err)
}

func verifyMessage(name string, f *ir.Function, e verify.Error) string {
	pos := e.Pos
	if pos.Line == 0 && e.Inst != ir.NoInst {
		pos = f.Pos.InstPos(e.Inst)
	}
	if pos.Line == 0 && e.Entity != "" {
		pos = f.Pos.DeclPos(e.Entity)
	}
	if pos.Line == 0 && e.Block != ir.NoBlock {
		pos = f.Pos.BlockPos(e.Block)
	}
	if pos.Line == 0 {
		pos = f.Pos.Func
	}
	e.Pos = ir.Pos{} // the position goes in front, as file:line:col
	if pos.Col > 0 {
		return fmt.Sprintf("%s:%d:%d: %s", name, pos.Line, pos.Col, e.Error())
	}
	return fmt.Sprintf("%s:%d: %s", name, pos.Line, e.Error())
}
