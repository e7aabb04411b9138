package census

import (
	"bufio"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
)

// reportClasses are the classes the report counts, in its columns' order.
var reportClasses = []Class{ClassFine, ClassUnlowered, ClassPanic, ClassWrong, ClassQemu, ClassInvalid, ClassError, ClassHarness, ClassInterp}

// Report writes census.md: the counts per target (a backend and a flag
// set) and class, known vs new, the targets with new rows first; then per
// target every failing combination, new ones first within each class,
// with its opt levels, diagnostic and what knows it; Cranelift's
// verifier's rejections (cliff's verifier discrepancies); and the fine
// combinations a profile excludes (candidates to re-enable). When the
// census has constant forms (cliff-gen --enumerate --constants), a section
// of their own follows, the same again with each row's parameter form's
// class beside it.
func Report(out io.Writer, res *Result) error {
	w := bufio.NewWriter(out)
	fmt.Fprintf(w, "# Lowering census\n\n")
	fmt.Fprintf(w, "Every opcode x controlling type x free type x condition code of each target's universe that cliff's verifier accepts (`cliff-gen --enumerate --all`), compiled at every opt level and run on edge-value inputs against the interpreter (`scripts/census.sh`). A cell is `N (new M)`: combinations of that class, and how many of them nothing (facts.txt, known.mask, findings/) knows.\n\n")
	reportForm(w, res, false)
	if len(res.ConstTallies) > 0 {
		fmt.Fprintf(w, "\n# Constant operands\n\n")
		fmt.Fprintf(w, "The same combinations in constant form (`cliff-gen --enumerate --constants`, `scripts/census.sh --constants`): every operand a constant, one block per edge-value tuple of the parameter form's inputs, so that the mid-end folds the instruction at speed and speed_and_size while opt level none and the interpreter compute it. Memory accesses have no constant form. The column `parameter form` is the same combination's class on the same target with its operands as params: a constant form that fails where its parameter form is fine points at the mid-end's folding.\n\n")
		reportForm(w, res, true)
	}
	return w.Flush()
}

// reportForm writes the table and the rows of one form: the parameter
// forms, or the constant forms.
func reportForm(w *bufio.Writer, res *Result, constants bool) {
	tallies, suffix := res.Tallies, ""
	if constants {
		tallies, suffix = res.ConstTallies, " (constant operands)"
	}
	fmt.Fprintf(w, "| target (flag set) | combinations |")
	for _, c := range reportClasses {
		fmt.Fprintf(w, " %s |", c)
	}
	fmt.Fprintf(w, "\n|---|---|%s\n", strings.Repeat("---|", len(reportClasses)))
	for _, target := range tableOrder(tallies) {
		t := tallies[target]
		fmt.Fprintf(w, "| %s | %d |", target, t.Judged)
		for _, c := range reportClasses {
			fmt.Fprintf(w, " %s |", cell(t, c))
		}
		fmt.Fprintln(w)
	}
	for _, target := range targetsOf(tallies) {
		fmt.Fprintf(w, "\n## %s%s\n", target, suffix)
		for _, c := range Classes() {
			if c == ClassFine {
				continue
			}
			rows := res.rowsOf(target, c, constants)
			if len(rows) == 0 {
				continue
			}
			fmt.Fprintf(w, "\n### %s: %d (%d new)\n\n", c, len(rows), countNew(rows))
			if constants {
				fmt.Fprintf(w, "| combination | opt levels | diagnostic | parameter form | known from |\n|---|---|---|---|---|\n")
			} else {
				fmt.Fprintf(w, "| combination | opt levels | diagnostic | known from |\n|---|---|---|---|\n")
			}
			slices.SortStableFunc(rows, func(a, b Row) int {
				if a.New != b.New {
					if a.New {
						return -1
					}
					return 1
				}
				return 0
			})
			for _, r := range rows {
				known := strings.Join(r.Refs, "; ")
				if r.New {
					known = "**new**"
				}
				if constants {
					param := string(r.ParamClass)
					if param == "" {
						param = "not run"
					}
					fmt.Fprintf(w, "| `%s` | %s | %s | %s | %s |\n", r.Key, strings.Join(r.Opts, ", "), cellText(r.Detail), param, cellText(known))
					continue
				}
				fmt.Fprintf(w, "| `%s` | %s | %s | %s |\n", r.Key, strings.Join(r.Opts, ", "), cellText(r.Detail), cellText(known))
			}
		}
		if rows := res.rowsOf(target, ClassFine, constants); len(rows) > 0 {
			fmt.Fprintf(w, "\n### Candidates to re-enable: %d\n\nFine at every opt level here, but the profile excludes them (the profiles are left as they are; these are for a person to check against upstream):\n\n| combination | excluded by |\n|---|---|\n", len(rows))
			for _, r := range rows {
				fmt.Fprintf(w, "| `%s` | %s |\n", r.Key, cellText(strings.Join(r.Refs, "; ")))
			}
		}
	}
}

// Targets lists the targets whose parameter forms ran: by architecture,
// then by flag set in lib/arch's table order.
func (res *Result) Targets() []Target { return targetsOf(res.Tallies) }

// ConstTargets lists the targets whose constant forms ran, in the same
// order.
func (res *Result) ConstTargets() []Target { return targetsOf(res.ConstTallies) }

func targetsOf(tallies map[Target]*Tally) []Target {
	return slices.SortedFunc(maps.Keys(tallies), compareTargets)
}

// tableOrder is the targets of tallies with the ones that have new rows
// first, so that the summary table opens with what needs a look.
func tableOrder(tallies map[Target]*Tally) []Target {
	out := targetsOf(tallies)
	slices.SortStableFunc(out, func(a, b Target) int {
		return min(newRows(tallies[b]), 1) - min(newRows(tallies[a]), 1)
	})
	return out
}

func newRows(t *Tally) int {
	n := 0
	for _, c := range t.New {
		n += c
	}
	return n
}

func cell(t *Tally, c Class) string {
	if t.New[c] == 0 || c == ClassFine {
		return fmt.Sprint(t.ByClass[c])
	}
	return fmt.Sprintf("%d (new %d)", t.ByClass[c], t.New[c])
}

func (res *Result) rowsOf(target Target, c Class, constants bool) []Row {
	var out []Row
	for _, r := range res.Rows {
		if r.target() == target && r.Class == c && r.Constants == constants {
			out = append(out, r)
		}
	}
	return out
}

func countNew(rows []Row) int {
	n := 0
	for _, r := range rows {
		if r.New {
			n++
		}
	}
	return n
}

// cellText makes s safe in a table cell, and short.
func cellText(s string) string {
	s = strings.ReplaceAll(s, "|", "\\|")
	s = strings.ReplaceAll(s, "\n", " ")
	if len(s) > 300 {
		s = s[:297] + "..."
	}
	return s
}
