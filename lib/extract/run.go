package extract

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/cespare/xxhash/v2"

	"cliff/lib/analysis"
	"cliff/lib/ir"
	"cliff/lib/jsonl"
	"cliff/lib/parser"
	"cliff/lib/printer"
	"cliff/lib/record"
	"cliff/lib/verify"
)

// Options configure an extraction.
type Options struct {
	Sources   []Source
	Output    string // path, "-" for stdout; ".zst" compresses
	Functions bool   // also emit one record per function
	Verify    bool   // skip functions that do not verify
	Stats     bool   // print counts per opcode and per type to Log at the end
	Log       io.Writer
}

// Summary counts what an extraction read and wrote.
type Summary struct {
	Files, FailedFiles  int
	Functions, Rejected int // functions read; functions skipped by --verify
	Blocks, Snippets    int // block bodies seen; unique snippets written
	FunctionRecords     int
	Duplicates          int // snippets folded into an earlier one
	OpcodeCount         map[string]int
	TypeCount           map[string]int
}

// Run extracts the corpus of every source into the output, one record at a
// time: a record is written as soon as it is made, so a failure later (a bad
// file, a full disk) never loses what was already written. Snippets are
// deduplicated over the whole run by their ID; the first occurrence is kept.
// The sources are checked before the output is opened (jsonl.Create: none
// may be the output). When ctx is cancelled, Run stops before the next
// file and returns the cause, with the records before written.
func Run(ctx context.Context, opts Options) (_ *Summary, err error) {
	if opts.Log == nil {
		opts.Log = io.Discard
	}
	var inputs []string
	for _, src := range opts.Sources {
		inputs = append(inputs, src.Path)
	}
	w, err := jsonl.Create(opts.Output, inputs...)
	if err != nil {
		return nil, err
	}
	defer func() {
		if cerr := w.CloseAfter(err); err == nil {
			err = cerr
		}
	}()
	x := &extractor{opts: opts, w: w, seen: map[string]bool{}}
	x.sum.OpcodeCount = map[string]int{}
	x.sum.TypeCount = map[string]int{}
	for _, src := range opts.Sources {
		if ctx.Err() != nil {
			return &x.sum, context.Cause(ctx)
		}
		if err := x.source(src); err != nil {
			return &x.sum, err
		}
	}
	if opts.Stats {
		x.sum.WriteStats(opts.Log)
	}
	return &x.sum, nil
}

type extractor struct {
	opts Options
	w    *jsonl.Writer
	seen map[string]bool
	sum  Summary
}

// source extracts one file. Problems with the file are reported to the log
// and counted; only output errors are returned.
func (x *extractor) source(src Source) error {
	x.sum.Files++
	data, err := src.Read()
	if err != nil {
		x.sum.FailedFiles++
		fmt.Fprintf(x.opts.Log, "%s: %v\n", src.Name(), err)
		return nil
	}
	file, err := parser.ParseFile(src.Name(), data)
	if err != nil {
		x.sum.FailedFiles++
		fmt.Fprintln(x.opts.Log, parseMessage(src.Name(), err))
		return nil
	}
	vopts := verify.OptionsFor(file)
	for _, f := range file.Funcs {
		x.sum.Functions++
		if x.opts.Verify {
			if errs := verify.FunctionWith(f, vopts); len(errs) > 0 {
				x.sum.Rejected++
				fmt.Fprintf(x.opts.Log, "%s (function skipped)\n", verifyMessage(src.Name(), f, errs[0]))
				continue
			}
		}
		if err := x.function(src.Name(), f, runArgs(file.Commands, f.Name)); err != nil {
			return err
		}
	}
	return nil
}

func (x *extractor) function(file string, f *ir.Function, runs []record.InputVector) error {
	if x.opts.Functions {
		text := printer.FunctionString(f)
		s := record.Snippet{
			ID:       fmt.Sprintf("%016x", xxhash.Sum64String(text)),
			Source:   record.Source{File: file, Function: f.Name, Line: f.Pos.Func.Line},
			Level:    record.LevelFunction,
			Count:    1,
			Function: text,
			Runs:     runs,
		}
		s.Stamp()
		if err := x.emit(&s); err != nil {
			return err
		}
	}
	outside := usedOutsideBody(f)
	lines := printer.Options{NoConstComments: true}.NewLines(f)
	for _, b := range f.Layout {
		s, ok := blockSnippet(file, f, b, outside, lines)
		if !ok {
			continue
		}
		x.sum.Blocks++
		if err := x.emit(&s); err != nil {
			return err
		}
	}
	return nil
}

// runArgs are the arguments of the run lines that call the function
// named name, in the case records' form: inputs a crossover case takes
// from its parents (lib/gen).
func runArgs(cmds []ir.RunCommand, name string) []record.InputVector {
	var out []record.InputVector
	for _, c := range cmds {
		if c.Kind != ir.RunCheck || c.Func != name || len(c.Args) == 0 {
			continue
		}
		vec := make(record.InputVector, len(c.Args))
		for k, a := range c.Args {
			vec[k] = record.Value{Type: a.Type.String(), Value: printer.DataValue(a)}
		}
		out = append(out, vec)
	}
	return out
}

// emit writes a snippet unless one with the same ID was written before.
func (x *extractor) emit(s *record.Snippet) error {
	key := s.Level + s.ID
	if x.seen[key] {
		x.sum.Duplicates++
		return nil
	}
	x.seen[key] = true
	if s.Level == record.LevelFunction {
		x.sum.FunctionRecords++
	}
	if s.Level == record.LevelBlock {
		x.sum.Snippets++
		for _, in := range s.Insts {
			x.sum.OpcodeCount[in.Opcode]++
			t := in.CtrlType
			if t == "" && len(in.ResultTypes) > 0 {
				t = in.ResultTypes[0]
			}
			if t == "" {
				t = "-"
			}
			x.sum.TypeCount[t]++
		}
	}
	return x.w.Write(s)
}

// usedOutsideBody marks the values that are used by a terminator (as an
// operand or a branch arg) or by an instruction of another block than the
// one defining them.
func usedOutsideBody(f *ir.Function) []bool {
	out := make([]bool, len(f.Values))
	c := analysis.NewCFG(f)
	analysis.ForEachUse(f, c, func(v ir.Value, u analysis.Use) {
		d := &f.Values[v]
		def := d.Block
		if d.Kind == ir.DefResult {
			def = c.InstBlock(d.Inst)
		}
		if u.InBlockCall || f.Insts[u.Inst].Op.IsTerminator() || def != c.InstBlock(u.Inst) {
			out[v] = true
		}
	})
	return out
}

// WriteStats prints the summary and the counts per opcode and per type,
// most frequent first.
func (s Summary) WriteStats(w io.Writer) {
	fmt.Fprintf(w, "files: %d read, %d failed\n", s.Files, s.FailedFiles)
	fmt.Fprintf(w, "functions: %d read, %d skipped by the verifier\n", s.Functions, s.Rejected)
	fmt.Fprintf(w, "snippets: %d blocks, %d unique, %d duplicates folded, %d function records\n",
		s.Blocks, s.Snippets, s.Duplicates, s.FunctionRecords)
	writeCounts(w, "opcode", s.OpcodeCount)
	writeCounts(w, "type", s.TypeCount)
}

func writeCounts(w io.Writer, what string, counts map[string]int) {
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if counts[keys[i]] != counts[keys[j]] {
			return counts[keys[i]] > counts[keys[j]]
		}
		return keys[i] < keys[j]
	})
	var b strings.Builder
	fmt.Fprintf(&b, "%ss (%d):", what, len(keys))
	for _, k := range keys {
		fmt.Fprintf(&b, " %s=%d", k, counts[k])
	}
	fmt.Fprintln(w, b.String())
}
