package cluster

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"cliff/lib/jsonl"
	"cliff/lib/record"
)

// Two root causes behind riscv64's put_in_reg unwrap (findings 10 and 11)
// share one signature. Given the locations a campaign loop made for them,
// cliff-cluster splits the cluster by culprit: members with the first
// culprit's shape, members with the second's, and a remainder that has
// neither and is not explained by either location.
func TestRunSplitsByCulprit(t *testing.T) {
	const ssg = `function %f0(i64, i64, i64, i64) -> i32 {
block0(v0: i64, v1: i64, v2: i64, v3: i64):
    v4 = icmp eq v0, v1
    v5 = uextend.i128 v4
    v6 = iconst.i32 1
    v7 = iconst.i32 2
    v8 = select_spectre_guard v5, v6, v7
    return v8
}
`
	const band = `function %f0(i64, i128) -> i64 {
block0(v0: i64, v1: i128):
    v2 = sshr v0, v1
    v3 = band v2, v0
    return v3
}
`
	const neither = `function %f0(i64) -> i64 {
block0(v0: i64):
    v1 = iadd v0, v0
    return v1
}
`
	verdict := func(id, clif string) *record.Verdict {
		v := failure(id, record.StatusCompileCrash, unwrapRiscv, "riscv64/none", "riscv64/speed", "riscv64/speed_and_size")
		v.Case.CLIF = clif
		return v
	}
	vs := []*record.Verdict{
		verdict("ssg-located", ssg), verdict("band-1", band), verdict("ssg-2", ssg),
		verdict("other-1", neither), verdict("band-2", band),
	}
	plain := SignatureOf(vs[0]).Hash()
	locs := []*record.Location{
		{CaseID: "ssg-located", Function: "%f0", Cluster: plain, Mask: []string{"select_spectre_guard * riscv64 c=uextend.i128(icmp)"}},
		// Located in an earlier round: not among these verdicts.
		{CaseID: "band-earlier", Function: "%f0", Cluster: plain, Mask: []string{"band i64 riscv64 x=sshr"}},
	}
	dir := t.TempDir()
	write := func(name string, recs []record.Record) string {
		path := filepath.Join(dir, name)
		w, err := jsonl.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			r.Stamp()
			if err := w.Write(r); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		return path
	}
	var vrecs, lrecs []record.Record
	for _, v := range vs {
		vrecs = append(vrecs, v)
	}
	for _, l := range locs {
		lrecs = append(lrecs, l)
	}
	res, err := Run(context.Background(), Options{Inputs: []string{write("v.jsonl", vrecs)}, Locations: write("l.jsonl", lrecs)})
	if err != nil {
		t.Fatal(err)
	}
	type got struct {
		culprit  string
		members  []string
		location string
	}
	var all []got
	for _, rec := range res.Records {
		g := got{culprit: rec.Culprit, members: slices.Sorted(slices.Values(rec.Members))}
		if l := res.LocationOf(rec); l != nil {
			g.location = l.CaseID
		}
		if rec.Culprit != "" && rec.Signature != SignatureOf(vs[0]).String()+" @ "+rec.Culprit {
			t.Errorf("signature %q does not end with its culprit %q", rec.Signature, rec.Culprit)
		}
		if err := rec.Validate(); err != nil {
			t.Error(err)
		}
		all = append(all, g)
	}
	want := []got{
		{"select_spectre_guard * riscv64 c=uextend.i128(icmp)", []string{"ssg-2", "ssg-located"}, "ssg-located"},
		{"band i64 riscv64 x=sshr", []string{"band-1", "band-2"}, "band-earlier"},
		{"", []string{"other-1"}, ""},
	}
	if len(all) != len(want) {
		t.Fatalf("%d clusters %+v, want %d", len(all), all, len(want))
	}
	for i := range want {
		if all[i].culprit != want[i].culprit || !slices.Equal(all[i].members, want[i].members) || all[i].location != want[i].location {
			t.Errorf("cluster %d = %+v, want %+v", i, all[i], want[i])
		}
	}
}

// Without locations, or with one that names no culprit, nothing is split
// and the location explains the whole cluster.
func TestRunWithoutCulpritKeepsOneCluster(t *testing.T) {
	vs := []*record.Verdict{
		failure("a", record.StatusCompileCrash, unwrapRiscv, "riscv64/none"),
		failure("b", record.StatusCompileCrash, unwrapRiscv, "riscv64/none"),
	}
	c := NewClusterer()
	res := &Result{Clusterer: c, Locations: map[string]*record.Location{}}
	res.addLocations([]*record.Location{{CaseID: "elsewhere", Function: "%f0", Cluster: SignatureOf(vs[0]).Hash()}})
	for _, v := range vs {
		if err := c.Add(v); err != nil {
			t.Fatal(err)
		}
	}
	groups := c.Groups()
	if len(groups) != 1 || groups[0].Count != 2 || groups[0].Signature.Culprit != "" {
		t.Fatalf("groups %+v, want one of 2 without a culprit", groups)
	}
	if l := res.LocationOf(groups[0].Record()); l == nil || l.CaseID != "elsewhere" {
		t.Errorf("LocationOf = %+v, want the location without a culprit", l)
	}
}

// A location names the cluster it was made for by the plain signature, so
// that a split cluster's location still splits the whole signature next
// time.
func TestPlainHash(t *testing.T) {
	sig := SignatureOf(failure("a", record.StatusCompileCrash, unwrapRiscv, "riscv64/none"))
	split := sig
	split.Culprit = "band i64 riscv64 x=sshr"
	for _, s := range []Signature{sig, split} {
		rec := (&Group{Signature: s, Representative: &record.Verdict{CaseID: "a"}}).Record()
		if got := PlainHash(rec); got != sig.Hash() {
			t.Errorf("PlainHash(%q) = %s, want %s", rec.Signature, got, sig.Hash())
		}
	}
}
