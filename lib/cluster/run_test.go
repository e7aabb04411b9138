package cluster

import (
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"cliff/lib/jsonl"
	"cliff/lib/record"
)

// Run reads plain and compressed verdict files in turn and writes one
// record per cluster, largest first, with the known findings marked.
func TestRun(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, vs []*record.Verdict) string {
		path := filepath.Join(dir, name)
		w, err := jsonl.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range vs {
			if err := w.Write(v); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		return path
	}
	vs := campaign()
	plain := write("a.jsonl", vs[:4])
	zst := write("b.jsonl.zst", vs[4:])
	out := filepath.Join(dir, "clusters.jsonl")
	known, err := LoadKnown()
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), Options{Inputs: []string{plain, zst}, Output: out, Known: known})
	if err != nil {
		t.Fatal(err)
	}
	r, closer, err := jsonl.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer closer.Close()
	var got []string
	for {
		var c record.Cluster
		if err := r.Next(&c); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		if err := c.Validate(); err != nil {
			t.Fatal(err)
		}
		got = append(got, string(c.Verdict)+" "+c.Representative+" "+strings.Fields(c.Known + " -")[0])
	}
	want := []string{"compile_crash stv-small-flat known:", "compile_crash and-1 known:", "compile_crash or-1 known:"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("clusters:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if res.NewClusters() != 0 || res.Clusterer.Stats.Verdicts != len(vs) {
		t.Errorf("%d new clusters, %d verdicts", res.NewClusters(), res.Clusterer.Stats.Verdicts)
	}
}
