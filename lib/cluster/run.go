package cluster

import (
	"context"
	"fmt"
	"slices"

	"cliff/lib/jsonl"
	"cliff/lib/record"
)

// Options are what cliff-cluster asks for.
type Options struct {
	Inputs     []string // verdict files, "-" for stdin; none means stdin
	Output     string   // cluster records; "-" stdout, ".zst" compressed; "" writes none
	Locations  string   // location records (cliff-locate), optional
	MaxMembers int
	Known      *Known // nil: nothing is known
}

// A Result is what a run clustered: the clusterer (its groups and
// statistics), the records written, in the order written, and the
// locations read, by case ID.
type Result struct {
	Clusterer *Clusterer
	Records   []*record.Cluster
	Locations map[string]*record.Location
}

// NewClusters counts the clusters that are not known findings.
func (r *Result) NewClusters() int {
	n := 0
	for _, c := range r.Records {
		if !IsKnown(c) {
			n++
		}
	}
	return n
}

// IsKnown reports whether a cluster record is a known finding (Known
// matched it for certain).
func IsKnown(c *record.Cluster) bool { return len(c.Known) >= 6 && c.Known[:6] == "known:" }

// Run clusters the verdicts of the inputs and writes one cluster record
// per signature, largest first. Reading stops at the first record that
// cannot be read or is not a valid verdict; the clusters of the verdicts
// read before it are still written, and the error (naming FILE: record N)
// is returned. Cancelling ctx (SIGINT or SIGTERM) stops the reading: what
// was clustered before is written.
func Run(ctx context.Context, opts Options) (res *Result, err error) {
	if len(opts.Inputs) == 0 {
		opts.Inputs = []string{"-"}
	}
	res = &Result{Clusterer: NewClusterer(), Locations: map[string]*record.Location{}}
	res.Clusterer.MaxMembers = opts.MaxMembers
	readers, closer, err := jsonl.OpenEach(opts.Inputs)
	if err != nil {
		return res, err
	}
	defer closer.Close()
	if opts.Locations != "" {
		locs, err := readLocations(opts.Locations)
		if err != nil {
			return res, err
		}
		res.addLocations(locs)
	}
	var w *jsonl.Writer
	if opts.Output != "" {
		inputs := append([]string{}, opts.Inputs...)
		if opts.Locations != "" {
			inputs = append(inputs, opts.Locations)
		}
		if w, err = jsonl.Create(opts.Output, inputs...); err != nil {
			return res, err
		}
		defer func() {
			if cerr := w.CloseAfter(err); err == nil {
				err = cerr
			}
		}()
	}
	readErr := read(ctx, readers, res.Clusterer)
	for _, g := range res.Clusterer.Groups() {
		rec := g.Record()
		if g.Location != nil {
			res.Locations[clusterKey(rec.SignatureHash)] = g.Location
		}
		if opts.Known != nil {
			rec.Known = opts.Known.Match(g.Signature, g.Representative, res.LocationOf(rec)).String()
		}
		res.Records = append(res.Records, rec)
		if w != nil {
			if err := w.Write(rec); err != nil {
				return res, fmt.Errorf("writing cluster %s: %w", rec.SignatureHash, err)
			}
		}
	}
	return res, readErr
}

func read(ctx context.Context, readers []*jsonl.Reader, c *Clusterer) error {
	for _, r := range readers {
		err := jsonl.Each(ctx, r, func(line []byte) error {
			rec, err := record.DecodeKind(line, `cliff-cluster reads "verdict" records (cliff-diff's output)`, record.KindVerdict)
			if err != nil {
				return err
			}
			return c.Add(rec.(*record.Verdict))
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// readLocations reads cliff-locate's location records, in file order.
func readLocations(path string) ([]*record.Location, error) {
	r, closer, err := jsonl.Open(path)
	if err != nil {
		return nil, err
	}
	defer closer.Close()
	var locs []*record.Location
	err = jsonl.Each(nil, r, func(line []byte) error {
		rec, err := record.DecodeKind(line, `--locations reads "location" records (cliff-locate's output)`, record.KindLocation)
		if err != nil {
			return err
		}
		locs = append(locs, rec.(*record.Location))
		return nil
	})
	if err != nil {
		return nil, err
	}
	return locs, nil
}

// addLocations files the locations by case and gives the clusterer their
// culprits. A location with a culprit explains the members that contain
// its shape (their cluster is split off under it); one without explains
// its whole cluster, found by the cluster's signature hash.
func (r *Result) addLocations(locs []*record.Location) {
	unreadable := r.Clusterer.Culprits(locs)
	for _, l := range locs {
		r.Locations[l.CaseID] = l
		if l.Cluster != "" && (len(l.Mask) == 0 || slices.Contains(unreadable, l)) {
			r.Locations[clusterKey(l.Cluster)] = l
		}
	}
}

// clusterKey is where Result.Locations keeps a location by the signature
// hash of the cluster it was made for.
func clusterKey(hash string) string { return "cluster " + hash }

// LocationOf is the location of a cluster: of its representative, else
// the one whose culprit its members share, else the one cliff-locate made
// without a culprit for a cluster of the same signature (the
// representative of an earlier run of cliff-cluster, say an earlier round
// of a campaign loop), else nil.
func (r *Result) LocationOf(c *record.Cluster) *record.Location {
	if l := r.Locations[c.Representative]; l != nil {
		return l
	}
	return r.Locations[clusterKey(c.SignatureHash)]
}
