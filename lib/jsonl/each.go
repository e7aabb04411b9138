package jsonl

import (
	"context"
	"errors"
	"io"
)

// A Source is what Each reads: a Reader or a MultiReader.
type Source interface {
	NextRaw() ([]byte, error)
	Name() string
	Record() int
}

// Each reads src's records to the end, handing each line to fn. An error
// of fn comes back as a *RecordError naming the input and the record
// ("cases.jsonl: record 17: ..."); fn may return one made by ForRecord to
// add the record's ID, or one wrapped by AsIs (an output's error, not the
// record's) to have it returned unchanged. A stream error (already named) or the cause of
// ctx's cancellation, checked before each record, stops it as it is; ctx
// may be nil.
func Each(ctx context.Context, src Source, fn func(line []byte) error) error {
	for {
		if ctx != nil && ctx.Err() != nil {
			return context.Cause(ctx)
		}
		line, err := src.NextRaw()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if err := fn(line); err != nil {
			if a, ok := err.(asIs); ok {
				return a.err
			}
			var re *RecordError
			if errors.As(err, &re) && re.Name == "" {
				re.Name, re.Record = src.Name(), src.Record()
				return re
			}
			return &RecordError{Name: src.Name(), Record: src.Record(), Err: err}
		}
	}
}

// ForRecord is err about the record with the given ID, for Each to name
// as "NAME: record N (ID): err".
func ForRecord(id string, err error) error { return &RecordError{ID: id, Err: err} }

// AsIs is err for Each to return unchanged, without naming the record;
// nil stays nil.
func AsIs(err error) error {
	if err == nil {
		return nil
	}
	return asIs{err}
}

type asIs struct{ err error }

func (a asIs) Error() string { return a.err.Error() }
func (a asIs) Unwrap() error { return a.err }
