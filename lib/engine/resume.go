package engine

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/cespare/xxhash/v2"

	"cliff/lib/record"
)

// Resuming (--resume -o FILE). FILE is then a journal: each chunk of
// records is appended and flushed as soon as it is finished, so a killed
// run keeps every chunk it wrote, and the same command run again skips
// the cases FILE already holds and appends the others. As chunks are
// written in input order, an interrupted FILE holds a prefix of the
// input's cases, and the resumed FILE is the uninterrupted run's output,
// record for record (timings aside).
//
// A case is recognised by its ID and a hash of what it runs (CLIF, entry,
// settings, inputs): an ID alone may come back with other code. A record
// counts as done when it has a result for every configuration this run
// asks for (compared without the executor, which says where the code ran);
// a record with fewer (the earlier run asked for fewer architectures, or a
// configuration was skipped there) is run again and its old record
// dropped, so the new one ends up where the rerun writes it, after the
// records kept.

// caseKey identifies a case across runs.
func caseKey(c *record.Case) string {
	code, _ := json.Marshal(struct {
		CLIF     string               `json:"clif"`
		Entry    string               `json:"entry"`
		Settings []string             `json:"settings"`
		Inputs   []record.InputVector `json:"inputs"`
	}{c.CLIF, c.Entry, c.Settings, c.Inputs})
	return c.ID + "#" + strconv.FormatUint(xxhash.Sum64(code), 16)
}

// A resumeState is what a resumed output holds: one entry per complete
// record, in file order, and per case the records that the input's cases
// may still claim.
type resumeState struct {
	configs  func(needs []string) []record.Config // the configurations a case runs under
	keys     []string
	complete []bool
	last     map[string]int  // each case's last record
	done     map[string]int  // complete records of each case not yet claimed by an input case
	partial  map[string]bool // cases with a record that lacks configurations
	skipped  int             // input cases found done
	rerun    int             // input cases whose record lacked configurations
}

func newResumeState(configs func(needs []string) []record.Config) *resumeState {
	return &resumeState{configs: configs, last: map[string]int{}, done: map[string]int{}, partial: map[string]bool{}}
}

// scan reads record i of the output (jsonl.ScanFunc).
func (s *resumeState) scan(i int, line []byte) error {
	r, err := record.Decode(line)
	if err != nil {
		return err
	}
	c, ok := r.(*record.Case)
	if !ok {
		return fmt.Errorf("a %q record: cliff-run writes case records", r.RecordKind())
	}
	key := caseKey(c)
	complete := s.covers(c)
	s.keys = append(s.keys, key)
	s.complete = append(s.complete, complete)
	s.last[key] = i
	if complete {
		s.done[key]++
	} else {
		s.partial[key] = true
	}
	return nil
}

// drop leaves out a record that lacks configurations when a later record
// of its case (the rerun's) follows it (jsonl.DropFunc).
func (s *resumeState) drop(i int) bool {
	return !s.complete[i] && s.last[s.keys[i]] != i
}

// covers says whether c has a result for every configuration this run
// asks of it.
func (s *resumeState) covers(c *record.Case) bool {
	have := map[string]bool{}
	for _, r := range c.Results {
		have[configKey(r.Config)] = true
	}
	for _, cfg := range s.configs(c.Settings) {
		if !have[configKey(cfg)] {
			return false
		}
	}
	return true
}

// configKey names a configuration without the executor of compiled code:
// the same configuration runs natively or under QEMU as the host allows.
func configKey(c record.Config) string {
	if c.Executor != record.ExecInterp && c.Executor != record.ExecRef {
		c.Executor = "compiled"
	}
	return c.String()
}

// claim says whether an input case is already done in the output, and
// counts it; each complete record answers for one input case, so a case
// that the input holds twice is run twice, as without --resume.
func (s *resumeState) claim(c *record.Case) bool {
	key := caseKey(c)
	if s.done[key] > 0 {
		s.done[key]--
		s.skipped++
		return true
	}
	if s.partial[key] {
		s.rerun++
	}
	return false
}
