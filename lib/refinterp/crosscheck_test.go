//go:build crosscheck

package refinterp

import (
	"cliff/lib/driver/drivertest"
	"context"
	"encoding/hex"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"cliff/lib/driver"
	"cliff/lib/gen"
	"cliff/lib/ir"
	"cliff/lib/parser"
	"cliff/lib/profile"
	"cliff/lib/record"
)

// TestCrosscheck runs generated compat cases on lib/refinterp and on
// Cranelift's interpreter through the driver (drivertest's), counts
// where they differ and times both. Opt-in, as it needs the driver:
//
//	CROSSCHECK_CASES=N CROSSCHECK_PROFILE=x86_64 go test -tags crosscheck ./lib/refinterp -run Crosscheck -v
//
// (defaults: 300 cases of the compat profile, seed 1, as gen.Sample).
func TestCrosscheck(t *testing.T) {
	n := 300
	if s := os.Getenv("CROSSCHECK_CASES"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	c := drivertest.Client(t)
	prof := "compat"
	if s := os.Getenv("CROSSCHECK_PROFILE"); s != "" {
		prof = s
	}
	p2, err := profile.Load(prof)
	if err != nil {
		t.Fatal(err)
	}
	g, err := gen.New(gen.DefaultOptions(p2, 1, gen.DefaultDepth))
	if err != nil {
		t.Fatal(err)
	}
	cases := make([]*record.Case, n)
	mods := make([]*ir.Module, n)
	for i := range cases {
		if cases[i], mods[i], err = g.Case(uint64(i)); err != nil {
			t.Fatal(err)
		}
	}
	var ours, theirs time.Duration
	diffs := map[string]int{}
	runs, unsupported, nanBits := 0, 0, 0
	for i, cs := range cases {
		entry := entryOf(cs, mods[i])
		for j, vec := range cs.Inputs {
			args, err := caseArgs(mods[i].Func(entry), vec)
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			o, err := New(mods[i], DefaultLimits).Call(entry, args)
			ours += time.Since(start)
			got := outcomeKind(o, err)
			if err == nil && !o.Trapped() {
				got = o.String()
			}
			req := &driver.InterpretRequest{CLIF: cs.CLIF, Func: entry}
			for _, a := range args {
				req.Args = append(req.Args, driver.ValueOf(a))
			}
			start = time.Now()
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			a, derr := c.Interpret(ctx, req)
			cancel()
			theirs += time.Since(start)
			want := ""
			switch {
			case derr != nil:
				want = "driver error"
				t.Logf("case %d (%s) input %d: driver: %v", i, cs.ID, j, derr)
				unsupported++
				continue
			case a.Trap != "":
				want = "trap " + a.Trap
			case a.Unsupported != "":
				want = "unsupported"
			case a.Timeout || a.StackOverflow:
				want = "limit"
			default:
				for k, v := range a.Results {
					if k > 0 {
						want += ", "
					}
					b, _ := hex.DecodeString(v.Hex)
					want += v.Type + " 0x"
					for x := len(b) - 1; x >= 0; x-- {
						want += fmt.Sprintf("%02x", b[x])
					}
				}
			}
			runs++
			if want == "unsupported" {
				unsupported++
				continue
			}
			if got != want && err == nil && !o.Trapped() && nanOnly(o.Results, a.Results) {
				nanBits++
				continue
			}
			if got != want {
				key := fmt.Sprintf("case %d (%s) input %d", i, cs.ID, j)
				diffs[key+": ref "+got+" | cranelift "+want]++
			}
		}
	}
	var keys []string
	for k := range diffs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		t.Log(k)
	}
	t.Logf("%d cases, %d runs, %d unsupported by (or crashing) Cranelift's interpreter, %d differ in NaN bits only, %d otherwise; lib/refinterp %.0f cases/s, Cranelift's interpreter via the driver %.0f cases/s",
		len(cases), runs, unsupported, nanBits, len(keys), float64(len(cases))/ours.Seconds(), float64(len(cases))/theirs.Seconds())
}

// nanOnly reports whether ours and theirs differ only where both lanes
// are NaNs (whose bits Cranelift leaves nondeterministic).
func nanOnly(ours []ir.DataValue, theirs []driver.Value) bool {
	if len(ours) != len(theirs) {
		return false
	}
	for i, v := range ours {
		b, err := hex.DecodeString(theirs[i].Hex)
		if err != nil || v.Type.String() != theirs[i].Type || len(b) != len(v.Bytes) {
			return false
		}
		if !v.Type.IsFloat() {
			if string(b) != string(v.Bytes) {
				return false
			}
			continue
		}
		w := uint(v.Type.LaneBits())
		x, y := FromBytes(v.Bytes), FromBytes(b)
		for k := 0; k < v.Type.Lanes(); k++ {
			lx, ly := lane(x, k, w), lane(y, k, w)
			if lx != ly && !(isNaN(lx, w) && isNaN(ly, w)) {
				return false
			}
		}
	}
	return true
}

func isNaN(x u128, w uint) bool {
	if w == 128 {
		return x.Hi&0x7fff_0000_0000_0000 == 0x7fff_0000_0000_0000 && (x.Lo != 0 || x.Hi&0xffff_ffff_ffff != 0)
	}
	return math.IsNaN(decodeFloat(x, w))
}

// TestCrosscheckRuntests runs every `; run:` line of the runtests on
// lib/refinterp and on Cranelift's interpreter and lists the lines where the
// two give different outcomes (NaN-bit-only differences counted apart).
func TestCrosscheckRuntests(t *testing.T) {
	c := drivertest.Client(t)
	files, _ := filepath.Glob(runtestsDir + "/*.clif")
	sort.Strings(files)
	counts := map[string]int{}
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(path, src)
		if err != nil {
			continue
		}
		lines := strings.SplitAfter(string(src), "\n")
		for _, h := range append(append([]ir.HeaderLine(nil), f.Tests...), f.Header...) {
			lines[h.Line-1] = "; " + lines[h.Line-1]
		}
		text := strings.Join(lines, "")
		in := New(&f.Module, DefaultLimits)
		for _, cmd := range f.Commands {
			if cmd.Kind != ir.RunCheck {
				continue
			}
			o, err := in.Call(cmd.Func, cmd.Args)
			got := outcomeKind(o, err)
			if err == nil && !o.Trapped() {
				got = o.String()
			}
			req := &driver.InterpretRequest{CLIF: text, Func: cmd.Func}
			for _, a := range cmd.Args {
				req.Args = append(req.Args, driver.ValueOf(a))
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			a, derr := c.Interpret(ctx, req)
			cancel()
			want := ""
			switch {
			case derr != nil:
				want = "driver error: " + derr.Error()
			case a.Trap != "":
				want = "trap " + a.Trap
			case a.Unsupported != "":
				want = "unsupported"
			case a.Timeout || a.StackOverflow:
				want = "limit"
			default:
				want = wireText(a.Results)
			}
			switch {
			case got == want:
				counts["same"]++
			case strings.HasPrefix(got, "unsupported") && want == "unsupported":
				counts["both unsupported"]++
			case want == "unsupported" || strings.HasPrefix(want, "driver error"):
				counts["Cranelift's interpreter cannot"]++
			case strings.HasPrefix(got, "unsupported"):
				counts["lib/refinterp cannot"]++
			case err == nil && !o.Trapped() && a.Trap == "" && nanOnly(o.Results, a.Results):
				counts["NaN bits only"]++
			default:
				counts["differ"]++
				t.Logf("%s:%d: %s\n    ref %s\n    cranelift %s", filepath.Base(path), cmd.Line, cmd.Text, got, want)
			}
		}
	}
	t.Logf("%v", counts)
}

func wireText(vals []driver.Value) string {
	s := ""
	for k, v := range vals {
		if k > 0 {
			s += ", "
		}
		b, _ := hex.DecodeString(v.Hex)
		s += v.Type + " 0x"
		for x := len(b) - 1; x >= 0; x-- {
			s += fmt.Sprintf("%02x", b[x])
		}
	}
	return s
}
