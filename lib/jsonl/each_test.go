package jsonl

import (
	"context"
	"errors"
	"strings"
	"testing"
)

func TestEach(t *testing.T) {
	in := "{\"n\":1}\n{\"n\":2}\n{\"n\":3}\n"
	var seen []string
	write := errors.New("write failed")
	for _, c := range []struct {
		fail func(line string) error
		want string
	}{
		{func(string) error { return nil }, ""},
		{func(l string) error {
			if strings.Contains(l, "2") {
				return errors.New("bad")
			}
			return nil
		}, "in: record 2: bad"},
		{func(l string) error {
			if strings.Contains(l, "3") {
				return ForRecord("c3", errors.New("bad"))
			}
			return nil
		}, "in: record 3 (c3): bad"},
		{func(string) error { return AsIs(write) }, "write failed"},
	} {
		seen = seen[:0]
		err := Each(context.Background(), NewReader("in", strings.NewReader(in)), func(line []byte) error {
			seen = append(seen, string(line))
			return c.fail(string(line))
		})
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != c.want {
			t.Errorf("Each: %q, want %q", got, c.want)
		}
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(write)
	if err := Each(ctx, NewReader("in", strings.NewReader(in)), func([]byte) error { return nil }); err != write {
		t.Errorf("Each after cancel: %v, want the cause", err)
	}
}
