package judge

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"cliff/lib/record"
)

// A step is one thing a joiner sees: a record of an input, or its end.
type step struct {
	input int
	rec   record.Record // nil: the input ends
}

func caseRec(id string, results ...record.RunResult) step {
	return step{rec: &record.Case{ID: id, CLIF: "clif of " + id, Results: results}}
}

func resultRec(id string, r record.RunResult) step {
	r.CaseID = id
	return step{rec: &r}
}

func in(input int, s step) step { s.input = input; return s }
func end(input int) step        { return step{input: input} }

func TestJoiner(t *testing.T) {
	x86, rv := ok(x86Speed, hashA), ok(riscv, hashA)
	tests := []struct {
		name   string
		inputs int
		hold   bool
		steps  []step
		// done lists the entries finished, in order, as "ID:results", or
		// "ID:orphan" for results without a case.
		done       []string
		maxPending int    // most entries held at once
		err        string // an error expected from the last step
	}{
		{
			name:   "same cases, same order: one case held per input",
			inputs: 2,
			steps: []step{
				in(0, caseRec("A", x86)), in(1, caseRec("A", rv)),
				in(0, caseRec("B", x86)), in(1, caseRec("B", rv)),
				in(0, caseRec("C", x86)), in(1, caseRec("C", rv)),
				end(0), end(1),
			},
			done:       []string{"A:2", "B:2", "C:2"},
			maxPending: 2,
		},
		{
			name:   "opposite orders: held until the other input reaches them",
			inputs: 2,
			steps: []step{
				in(0, caseRec("A", x86)), in(1, caseRec("C", rv)),
				in(0, caseRec("B", x86)), in(1, caseRec("B", rv)),
				in(0, caseRec("C", x86)), in(1, caseRec("A", rv)),
				end(0), end(1),
			},
			done:       []string{"B:2", "C:2", "A:2"},
			maxPending: 3,
		},
		{
			name:   "a case missing from one input waits for its end",
			inputs: 2,
			steps: []step{
				in(0, caseRec("A", x86)), in(1, caseRec("B", rv)),
				in(0, caseRec("B", x86)), end(1), end(0),
			},
			done:       []string{"A:1", "B:2"},
			maxPending: 2,
		},
		{
			name:   "lone results before and after their case, duplicates merged",
			inputs: 2,
			steps: []step{
				in(0, resultRec("A", x86)), in(1, resultRec("A", rv)),
				in(0, caseRec("A", x86)), in(1, resultRec("A", ok(interp, hashA))),
				end(0), end(1),
			},
			done:       []string{"A:3"},
			maxPending: 1,
		},
		{
			name:   "the same configuration with another outcome is kept",
			inputs: 2,
			steps: []step{
				in(0, caseRec("A", x86)), in(1, caseRec("A", ok(x86Speed, hashB))),
				end(0), end(1),
			},
			done:       []string{"A:2"},
			maxPending: 1,
		},
		{
			name:   "results whose case no input holds",
			inputs: 2,
			steps: []step{
				in(0, caseRec("A", x86)), in(1, resultRec("Z", rv)),
				end(0), end(1),
			},
			done:       []string{"A:1", "Z:orphan"},
			maxPending: 2,
		},
		{
			name:   "one stream: each run of adjacent records judged on its own",
			inputs: 1,
			steps: []step{
				in(0, caseRec("A", x86)), in(0, resultRec("A", rv)),
				in(0, caseRec("B", x86)), in(0, caseRec("A", x86)), end(0),
			},
			done:       []string{"A:2", "B:1", "A:1"},
			maxPending: 1,
		},
		{
			name:   "several inputs: a record for a case already judged",
			inputs: 2,
			steps: []step{
				in(0, caseRec("A", x86)), in(1, caseRec("A", rv)),
				in(0, caseRec("B", x86)), in(1, caseRec("B", rv)),
				in(0, resultRec("A", ok(interp, hashA))),
			},
			done: []string{"A:2"},
			err:  "in0: record 5: case A again, after its verdict was written",
		},
		{
			name:   "hold: nothing judged before the end",
			inputs: 2,
			hold:   true,
			steps: []step{
				in(0, caseRec("A", x86)), in(1, caseRec("A", rv)),
				in(0, caseRec("B", x86)), in(1, caseRec("B", rv)),
				in(0, resultRec("A", ok(interp, hashA))),
				end(0), end(1),
			},
			done:       []string{"A:3", "B:2"},
			maxPending: 2,
		},
		{
			name:   "the same ID with other CLIF",
			inputs: 2,
			steps: []step{
				in(0, caseRec("A", x86)),
				in(1, step{rec: &record.Case{ID: "A", CLIF: "other clif"}}),
			},
			err: "in1: record 2: case A has other CLIF, entry or inputs than at in0: record 1",
		},
		{
			name:   "a record of another kind",
			inputs: 1,
			steps:  []step{in(0, step{rec: &record.Verdict{CaseID: "A"}})},
			err:    `in0: record 1: a "verdict" record: cliff-diff reads "case" and "result" records`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var done []string
			j := newJoiner(tt.inputs, tt.hold, func(e *entry) error {
				if e.c == nil {
					done = append(done, e.id+":orphan")
				} else {
					done = append(done, fmt.Sprintf("%s:%d", e.id, len(e.results)))
				}
				return nil
			})
			var err error
			maxPending := 0
			for n, s := range tt.steps {
				if s.rec == nil {
					err = j.end(s.input)
				} else {
					err = j.add(s.input, position{fmt.Sprintf("in%d", s.input), n + 1}, s.rec)
				}
				maxPending = max(maxPending, len(j.pending))
				if err != nil {
					break
				}
			}
			if err == nil {
				err = j.flush()
			}
			switch {
			case tt.err == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
				t.Fatalf("error %v, want one containing %q", err, tt.err)
			}
			if !slices.Equal(done, tt.done) {
				t.Errorf("finished %v, want %v", done, tt.done)
			}
			if tt.err == "" && maxPending != tt.maxPending {
				t.Errorf("held at most %d cases, want %d", maxPending, tt.maxPending)
			}
		})
	}
}
