package judge

import (
	"cmp"
	"fmt"
	"maps"
	"reflect"
	"slices"

	"github.com/cespare/xxhash/v2"

	"cliff/lib/record"
)

// A joiner gathers the records of each case from every input (its case
// record, and the results in it and in lone result records) and hands the
// case on as soon as no input can add to it.
//
// The inputs are read in turn, one record from each, and within one input the
// records of a case are expected to be adjacent, as cliff-run writes them. A
// case is complete when every input has moved past it (its next record names
// another case) or has ended. When the inputs hold the same cases in about
// the same order, as cliff-run's outputs for the same cases on several
// machines do, only the cases between the inputs' reading positions are
// held. A case missing from an input waits for that input to end, and is
// then judged with the results it has. With hold set, nothing is complete
// before every input has ended: for inputs whose records of a case are
// scattered, at the cost of holding every case.
//
// With several inputs, a record naming a case already judged is an error
// (judging it again would give a second, partial verdict); the joiner
// remembers the judged cases by the xxhash of their ID, 8 bytes and a map
// slot each. A single stream is judged as it comes and remembers nothing:
// each run of adjacent records of a case is judged on its own.
type joiner struct {
	ended   []bool
	current []string // per input, the case its latest record names
	pending map[string]*entry
	judged  map[uint64]bool // nil with one input
	hold    bool
	next    int                // sequence number of the next entry
	finish  func(*entry) error // called once per entry, in a deterministic order
}

// An entry is a case being joined.
type entry struct {
	id      string
	seq     int          // order of first appearance, for a deterministic output
	c       *record.Case // nil until a case record arrives
	caseAt  position
	firstAt position // the first record naming the case
	// results are the case's results from every input, duplicate runs
	// merged; the case's own Results field is left empty until judged.
	results []record.RunResult
	left    []bool // per input: moved past the case
}

// A position is a record in an input, for messages.
type position struct {
	name   string
	record int
}

func (p position) String() string { return fmt.Sprintf("%s: record %d", p.name, p.record) }

func newJoiner(inputs int, hold bool, finish func(*entry) error) *joiner {
	j := &joiner{
		ended:   make([]bool, inputs),
		current: make([]string, inputs),
		pending: map[string]*entry{},
		hold:    hold,
		finish:  finish,
	}
	if inputs > 1 {
		j.judged = map[uint64]bool{}
	}
	return j
}

// add takes the next record of an input: a *record.Case or a lone
// *record.RunResult.
func (j *joiner) add(input int, at position, rec record.Record) error {
	var id string
	switch r := rec.(type) {
	case *record.Case:
		id = r.ID
	case *record.RunResult:
		id = r.CaseID
	default:
		return fmt.Errorf("%s: a %q record: cliff-diff reads %q and %q records", at, rec.RecordKind(), record.KindCase, record.KindResult)
	}
	if prev := j.current[input]; prev != id {
		j.current[input] = id
		if prev != "" {
			if err := j.leave(input, prev); err != nil {
				return err
			}
		}
	}
	e := j.pending[id]
	if e == nil {
		if j.judged != nil && j.judged[xxhash.Sum64String(id)] {
			return fmt.Errorf("%s: case %s again, after its verdict was written: the records of a case must be adjacent in each input (or use --hold)", at, id)
		}
		e = &entry{id: id, seq: j.next, firstAt: at, left: make([]bool, len(j.ended))}
		j.next++
		j.pending[id] = e
	}
	e.left[input] = false
	switch r := rec.(type) {
	case *record.Case:
		return e.addCase(r, at)
	case *record.RunResult:
		// Stored as embedded in the case: no kind, version or case ID.
		r.Kind, r.Version, r.CaseID = "", 0, ""
		e.addResult(*r)
	}
	return nil
}

// addCase takes a case record: the first one is kept, later ones (the same
// case run elsewhere) give their results.
func (e *entry) addCase(c *record.Case, at position) error {
	results := c.Results
	c.Results = nil
	if e.c == nil {
		e.c, e.caseAt = c, at
	} else if c.CLIF != e.c.CLIF || c.Entry != e.c.Entry || !reflect.DeepEqual(c.Inputs, e.c.Inputs) {
		// Same ID, different program or inputs (say, one file ran the case
		// before cliff-refine and one after): comparing their results would
		// report a divergence that Cranelift never made.
		return fmt.Errorf("%s: case %s has other CLIF, entry or inputs than at %s: results of different programs cannot be compared", at, e.id, e.caseAt)
	}
	for _, r := range results {
		e.addResult(r)
	}
	return nil
}

// addResult adds a result unless it is a run already known (the same
// configuration with the same outcome, as when two inputs carry a case's
// earlier results): merged as they come, repeats cost no memory.
func (e *entry) addResult(r record.RunResult) {
	e.results = appendRun(e.results, r)
}

// leave records that an input has moved past a case.
func (j *joiner) leave(input int, id string) error {
	e := j.pending[id]
	if e == nil {
		return nil
	}
	e.left[input] = true
	if !j.complete(e) {
		return nil
	}
	return j.done(e)
}

func (j *joiner) complete(e *entry) bool {
	if j.hold {
		return false
	}
	for i, left := range e.left {
		if !left && !j.ended[i] {
			return false
		}
	}
	return true
}

// end records that an input has ended, and finishes the cases that were
// waiting only for it.
func (j *joiner) end(input int) error {
	j.ended[input] = true
	j.current[input] = ""
	var ready []*entry
	for _, e := range j.pending {
		if j.complete(e) {
			ready = append(ready, e)
		}
	}
	return j.doneAll(ready)
}

// flush finishes every case still held, complete or not: at the end of the
// inputs, or when reading stopped at an error.
func (j *joiner) flush() error {
	return j.doneAll(slices.Collect(maps.Values(j.pending)))
}

// doneAll finishes entries in order of first appearance, whatever the map
// order.
func (j *joiner) doneAll(entries []*entry) error {
	slices.SortFunc(entries, func(a, b *entry) int { return cmp.Compare(a.seq, b.seq) })
	for _, e := range entries {
		if err := j.done(e); err != nil {
			return err
		}
	}
	return nil
}

func (j *joiner) done(e *entry) error {
	delete(j.pending, e.id)
	if j.judged != nil {
		j.judged[xxhash.Sum64String(e.id)] = true
	}
	return j.finish(e)
}
