package record

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
)

// SchemaVersion is the version of the record formats defined here, written
// as "v" in every record.
const SchemaVersion = 1

// The record kinds, written as "kind".
const (
	KindSnippet  = "snippet"
	KindCase     = "case"
	KindResult   = "result"
	KindVerdict  = "verdict"
	KindCluster  = "cluster"
	KindLocation = "location"
	KindRun      = "run"
)

// A Record is one of the record types of this package (as a pointer).
type Record interface {
	// RecordKind returns the kind the type is written as (KindCase, ...).
	RecordKind() string
	// Stamp sets the record's kind and version to RecordKind() and
	// SchemaVersion, as a writer does before writing it.
	Stamp()
	// Validate reports every missing or inconsistent field, joined.
	Validate() error
}

// An Envelope is the part common to every record: enough to dispatch.
type Envelope struct {
	Kind    string `json:"kind"`
	Version int    `json:"v"`
}

// Peek returns the kind and schema version of a JSON record without decoding
// the rest of it. Records written by cliff start with them and are read
// without scanning the line (which may be megabytes of CLIF); any other
// member order costs a full parse. Peek does not check the version (see
// CheckVersion) nor, on the fast path, that the rest of the line is valid
// JSON: decoding will.
func Peek(line []byte) (kind string, version int, err error) {
	if kind, version, ok := peekFast(line); ok {
		return kind, version, nil
	}
	var env Envelope
	if err := json.Unmarshal(line, &env); err != nil {
		return "", 0, err
	}
	if env.Kind == "" {
		return "", 0, errors.New(`record has no "kind"`)
	}
	return env.Kind, env.Version, nil
}

// peekFast reads a line that starts exactly as cliff writes it:
// {"kind":"case","v":1, or {"kind":"case","v":1}.
func peekFast(line []byte) (kind string, version int, ok bool) {
	rest, found := bytes.CutPrefix(line, []byte(`{"kind":"`))
	if !found {
		return "", 0, false
	}
	end := bytes.IndexByte(rest, '"')
	if end <= 0 || bytes.IndexByte(rest[:end], '\\') >= 0 {
		return "", 0, false
	}
	kind = string(rest[:end])
	rest, found = bytes.CutPrefix(rest[end+1:], []byte(`,"v":`))
	if !found {
		return "", 0, false
	}
	digits := 0
	for digits < len(rest) && digits < 9 && '0' <= rest[digits] && rest[digits] <= '9' {
		digits++
	}
	if digits == 0 || digits == len(rest) || (rest[digits] != ',' && rest[digits] != '}') {
		return "", 0, false
	}
	version, err := strconv.Atoi(string(rest[:digits]))
	if err != nil {
		return "", 0, false
	}
	return kind, version, true
}

// CheckVersion accepts the schema versions this build can read.
func CheckVersion(version int) error {
	switch {
	case version > SchemaVersion:
		return fmt.Errorf("schema version %d is newer than this cliff understands (%d): rebuild cliff from a newer source", version, SchemaVersion)
	case version < 1:
		return fmt.Errorf(`missing or invalid schema version "v": %d`, version)
	}
	return nil
}

// New returns an empty record of the given kind, or nil for an unknown kind.
func New(kind string) Record {
	switch kind {
	case KindSnippet:
		return new(Snippet)
	case KindCase:
		return new(Case)
	case KindResult:
		return new(RunResult)
	case KindVerdict:
		return new(Verdict)
	case KindCluster:
		return new(Cluster)
	case KindLocation:
		return new(Location)
	case KindRun:
		return new(Run)
	}
	return nil
}

// Decode decodes and validates a record of any kind: the type switch for
// tools that read mixed streams.
func Decode(line []byte) (Record, error) {
	kind, version, err := Peek(line)
	if err != nil {
		return nil, err
	}
	return decodePeeked(line, kind, version)
}

// decodePeeked is Decode once Peek has read the line's kind and version.
func decodePeeked(line []byte, kind string, version int) (Record, error) {
	if err := CheckVersion(version); err != nil {
		return nil, fmt.Errorf("%s record: %w", kind, err)
	}
	r := New(kind)
	if r == nil {
		return nil, fmt.Errorf("unknown record kind %q", kind)
	}
	var err error
	if c, ok := r.(*Case); ok {
		err = unmarshalCase(line, c)
	} else {
		err = json.Unmarshal(line, r)
	}
	if err != nil {
		return nil, fmt.Errorf("%s record: %w", kind, err)
	}
	if err := r.Validate(); err != nil {
		return nil, err
	}
	return r, nil
}

// DecodeKind decodes a record that must be of one of kinds; another kind
// is refused, before its body is decoded, as `a "KIND" record: refusal`
// (refusal says what the reader takes: `cliff-census reads "verdict"
// records (cliff-diff's output)`).
func DecodeKind(line []byte, refusal string, kinds ...string) (Record, error) {
	kind, version, err := Peek(line)
	if err != nil {
		return nil, err
	}
	if !slices.Contains(kinds, kind) {
		return nil, fmt.Errorf("a %q record: %s", kind, refusal)
	}
	return decodePeeked(line, kind, version)
}
