package record

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/cespare/xxhash/v2"
)

// A ValidationError lists everything wrong with one record.
type ValidationError struct {
	Record   string   // what the record is, e.g. `case "3fa2..."`
	Problems []string // each "field path: what is wrong"
}

func (e *ValidationError) Error() string {
	return e.Record + ": " + strings.Join(e.Problems, "; ")
}

// problems collects a record's validation failures, go/ssa sanity style:
// all of them, each with the path of the field.
type problems struct {
	record string
	list   []string
}

func newProblems(kind, id string) *problems {
	if id == "" {
		return &problems{record: kind}
	}
	return &problems{record: kind + " " + strconv.Quote(id)}
}

func (p *problems) addf(field, format string, args ...any) {
	p.list = append(p.list, field+": "+fmt.Sprintf(format, args...))
}

// require reports a missing string field.
func (p *problems) require(field, value string) {
	if value == "" {
		p.addf(field, "missing")
	}
}

// header checks kind and version. A record embedded in another (a RunResult
// in a Case) may leave both out.
func (p *problems) header(kind string, version int, want string, embedded bool) {
	if embedded && kind == "" && version == 0 {
		return
	}
	if kind != want {
		p.addf("kind", "%q, want %q", kind, want)
	}
	if err := CheckVersion(version); err != nil {
		p.addf("v", "%v", err)
	}
}

// oneOf checks an enumerated field.
func oneOf[T ~string](p *problems, field string, value T, allowed ...T) {
	for _, a := range allowed {
		if value == a {
			return
		}
	}
	if value == "" {
		p.addf(field, "missing")
		return
	}
	p.addf(field, "unknown value %q", string(value))
}

// nested validates an embedded record and reports its problems under prefix.
func (p *problems) nested(prefix string, q *problems) {
	for _, s := range q.list {
		p.list = append(p.list, prefix+"."+s)
	}
}

func (p *problems) err() error {
	if len(p.list) == 0 {
		return nil
	}
	return &ValidationError{Record: p.record, Problems: p.list}
}

// Hash returns the hex form of the xxhash64 of data, as used for snippet IDs
// and output hashes: 16 lower-case hex digits.
func Hash(data []byte) string {
	return fmt.Sprintf("%016x", xxhash.Sum64(data))
}

// HashString is Hash of a string.
func HashString(s string) string {
	return fmt.Sprintf("%016x", xxhash.Sum64String(s))
}

// isHash reports whether s has the form Hash produces.
func isHash(s string) bool {
	if len(s) != 16 {
		return false
	}
	for _, c := range []byte(s) {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

func (p *problems) hash(field, value string) {
	switch {
	case value == "":
		p.addf(field, "missing")
	case !isHash(value):
		p.addf(field, "%q is not 16 lower-case hex digits", value)
	}
}
