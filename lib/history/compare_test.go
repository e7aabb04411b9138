package history

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"cliff/lib/record"
)

// night is a recorded run on day d of November 2026: its Cranelift and
// its clusters as "signature=count".
func night(d int, cranelift string, clusters ...string) *record.Run {
	started := time.Date(2026, 11, d, 2, 0, 0, 0, time.UTC)
	r := &record.Run{ID: fmt.Sprintf("%s-%d", started.Format("20060102T150405Z"), d), Seed: uint64(d),
		Started: started, Finished: started.Add(30 * time.Minute), Cranelift: cranelift,
		Profile: "compat", Depth: 5, Mask: "known.mask", BudgetMinutes: 60, Cases: 20000, CPUSeconds: 3600}
	for i, c := range clusters {
		at := strings.LastIndex(c, "=") // signatures may hold "=="
		sig, n := c[:at], c[at+1:]
		var count int
		if _, err := fmt.Sscan(n, &count); err != nil {
			panic(c)
		}
		r.Clusters = append(r.Clusters, record.RunCluster{Signature: sig, SignatureHash: record.HashString(sig),
			Verdict: record.OutcomeCompileCrash, Count: count, Representative: fmt.Sprintf("g%016x-%d", d, i)})
		r.Failures += count
	}
	r.Stamp()
	return r
}

// Each signature's status in the latest run, its sightings and the
// comparison's order (new, then showing and back by tonight's count,
// then gone, latest first).
func TestCompare(t *testing.T) {
	for _, tc := range []struct {
		name   string
		runs   []*record.Run
		want   []string // "signature status seen"
		newIn  []int    // per run, how many first seen
		goneIn []int    // per run, how many the run before saw and it did not
	}{
		{"empty", nil, nil, nil, nil},
		{"first run", []*record.Run{night(1, "0.137.1", "a=3", "b=1")},
			[]string{"a new [0]", "b new [0]"}, []int{2}, []int{0}},
		{"nothing new", []*record.Run{night(1, "0.137.1", "a=3"), night(2, "0.137.1", "a=5")},
			[]string{"a showing [0 1]"}, []int{1, 0}, []int{0, 0}},
		{"new, showing, back and gone", []*record.Run{
			night(1, "0.137.1", "a=1", "back=2", "gone=1"),
			night(2, "0.137.1", "a=1", "gone=4"),
			night(3, "0.137.1", "a=1", "back=1", "new=7"),
		}, []string{"new new [2]", "a showing [0 1 2]", "back back [0 2]", "gone gone [0 1]"}, []int{3, 0, 1}, []int{0, 1, 1}},
		{"gone ones, latest first", []*record.Run{
			night(1, "0.137.1", "early=1"),
			night(2, "0.137.1", "late=1"),
			night(3, "0.137.1"),
		}, []string{"late gone [1]", "early gone [0]"}, []int{1, 1, 0}, []int{0, 1, 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := Compare(tc.runs)
			var got []string
			for _, s := range c.Signatures {
				got = append(got, fmt.Sprintf("%s %s %v", s.Signature, s.Status, s.Seen))
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("signatures:\n got %q\nwant %q", got, tc.want)
			}
			for i := range tc.runs {
				if n := len(c.NewIn(i)); n != tc.newIn[i] {
					t.Errorf("NewIn(%d) = %d, want %d", i, n, tc.newIn[i])
				}
				if n := len(c.GoneIn(i)); n != tc.goneIn[i] {
					t.Errorf("GoneIn(%d) = %d, want %d", i, n, tc.goneIn[i])
				}
			}
		})
	}
}

// A signature that stopped showing: fixed upstream when every run since
// tested another Cranelift; the chance of missing it by luck from its
// rate on the version it was last seen on; settings changed since.
func TestAbsence(t *testing.T) {
	masked := night(5, "0.137.1")
	masked.Mask = ""
	for _, tc := range []struct {
		name string
		runs []*record.Run
		want Absence
	}{
		{"fixed by a release", []*record.Run{
			night(1, "0.137.1", "x=2"), night(2, "0.137.1", "x=1"), night(3, "0.138.0"), night(4, "0.138.0"),
		}, Absence{Runs: 2, Versions: []string{"0.138.0"}, LastVersion: "0.137.1", SeenOn: 2, RunsOn: 2, Upstream: true, Chance: 1.0 / 16}},
		{"rare on the same release", []*record.Run{
			night(1, "0.137.1", "x=1"), night(2, "0.137.1"), night(3, "0.137.1", "x=1"), night(4, "0.137.1"),
		}, Absence{Runs: 1, Versions: []string{"0.137.1"}, LastVersion: "0.137.1", SeenOn: 2, RunsOn: 3, Chance: 2.0 / 5}},
		{"a release and back again", []*record.Run{
			night(1, "0.137.1", "x=1"), night(2, "0.138.0"), night(3, "0.137.1"),
		}, Absence{Runs: 2, Versions: []string{"0.138.0", "0.137.1"}, LastVersion: "0.137.1", SeenOn: 1, RunsOn: 1, Chance: 1.0 / 9}},
		{"the mask changed", []*record.Run{night(4, "0.137.1", "x=1"), masked},
			Absence{Runs: 1, Versions: []string{"0.137.1"}, LastVersion: "0.137.1", SeenOn: 1, RunsOn: 1, Chance: 1.0 / 3, Settings: []string{"mask known.mask → none"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := Compare(tc.runs)
			got := c.Absence(c.Signatures[0])
			if math.Abs(got.Chance-tc.want.Chance) > 1e-9 {
				t.Errorf("chance %g, want %g", got.Chance, tc.want.Chance)
			}
			got.Chance = tc.want.Chance
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Absence:\n got %+v\nwant %+v", got, tc.want)
			}
		})
	}
	c := Compare([]*record.Run{night(1, "0.137.1", "x=1")})
	if got := c.Absence(c.Signatures[0]); !reflect.DeepEqual(got, Absence{}) {
		t.Errorf("a signature the latest run saw: %+v, want none", got)
	}
}

func TestVersions(t *testing.T) {
	c := Compare([]*record.Run{night(1, "0.136.0", "x=1"), night(2, "0.137.1", "x=1"), night(3, "0.137.1", "x=1"), night(4, "0.138.0")})
	if got := c.Versions(c.Signatures[0]); !reflect.DeepEqual(got, []string{"0.136.0", "0.137.1"}) {
		t.Errorf("Versions = %q", got)
	}
	if got := c.Signatures[0].Members(); got != 3 {
		t.Errorf("Members = %d, want 3", got)
	}
}
