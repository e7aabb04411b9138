package locaterun

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"cliff/lib/engine"
	"cliff/lib/extract"
	"cliff/lib/jsonl"
	"cliff/lib/judge"
	"cliff/lib/record"
	"cliff/lib/scratch"
)

// A target is one failure to locate: a failing verdict with its case, and
// where it came from (for messages and the location's notes).
type target struct {
	from    string // "FILE: record N" or "FILE:%fn"
	verdict *record.Verdict
	cluster *record.Cluster // when the input was a cluster record
}

// readTargets calls fn for each failure of each input, in input order:
// the representative of each cluster record, each failing verdict (others
// are counted in skipped), and each failing function of a .clif file,
// which is run first on its targets (and the interpreter when it says
// `test interpret`) at every opt level to find out how it fails. Records
// of another kind are an error naming their file and record.
func readTargets(ctx context.Context, eng *engine.Engine, inputs []string, fn func(target) error) (skipped map[record.Outcome]int, err error) {
	skipped = map[record.Outcome]int{}
	for _, in := range inputs {
		if strings.HasSuffix(in, ".clif") {
			if err := clifTargets(ctx, eng, in, skipped, fn); err != nil {
				return skipped, err
			}
			continue
		}
		if err := recordTargets(in, skipped, fn); err != nil {
			return skipped, err
		}
	}
	return skipped, nil
}

func recordTargets(path string, skipped map[record.Outcome]int, fn func(target) error) error {
	var r *jsonl.Reader
	if path == "-" {
		r = jsonl.NewReader("stdin", os.Stdin)
	} else {
		var closer io.Closer
		var err error
		if r, closer, err = jsonl.Open(path); err != nil {
			return err
		}
		defer closer.Close()
	}
	return jsonl.Each(nil, r, func(line []byte) error {
		rec, err := record.DecodeKind(line, "cliff-locate reads cluster or verdict records, or .clif files", record.KindCluster, record.KindVerdict)
		if err != nil {
			return err
		}
		t := target{from: fmt.Sprintf("%s: record %d", r.Name(), r.Record())}
		switch rec := rec.(type) {
		case *record.Cluster:
			if rec.RepresentativeVerdict == nil || rec.RepresentativeVerdict.Case == nil {
				return fmt.Errorf("cluster %q carries no representative verdict with its case (written by an older cliff-cluster?)", rec.Signature)
			}
			t.verdict, t.cluster = rec.RepresentativeVerdict, rec
		case *record.Verdict:
			if !judge.IsCraneliftFailure(rec.Verdict) {
				skipped[rec.Verdict]++
				return nil
			}
			if rec.Case == nil {
				return fmt.Errorf("verdict on case %q carries no case (cliff-diff includes it in every failing verdict)", rec.CaseID)
			}
			t.verdict = rec
		}
		return jsonl.AsIs(fn(t))
	})
}

// clifTargets runs a .clif file the way cliff-run does and judges each
// function's results: the failing ones are targets.
func clifTargets(ctx context.Context, eng *engine.Engine, path string, skipped map[record.Outcome]int, fn func(target) error) error {
	dir, release, err := scratch.Dir("cliff-locate-clif")
	if err != nil {
		return err
	}
	defer release()
	out := filepath.Join(dir, "cases.jsonl")
	rep, err := eng.Stream(ctx, engine.StreamOptions{Sources: []extract.Source{{Path: path}}, Output: out})
	if err == nil && rep != nil {
		err = rep.Err()
	}
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	r, closer, err := jsonl.Open(out)
	if err != nil {
		return err
	}
	defer closer.Close()
	found := 0
	for {
		c := new(record.Case)
		if err := r.Next(c); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return err
		}
		v := judge.Case(c)
		if !judge.IsCraneliftFailure(v.Verdict) {
			skipped[v.Verdict]++
			continue
		}
		found++
		if err := fn(target{from: c.ID, verdict: &v}); err != nil {
			return err
		}
	}
	if found == 0 {
		return fmt.Errorf("%s: no function fails on its targets: nothing to locate", path)
	}
	return nil
}
