package refine

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"cliff/lib/analysis"
	"cliff/lib/ir"
	"cliff/lib/ub"
)

// TestScaffoldInstructionsKeepTheirOperands checks, for every pass, that
// each scaffold instruction of the input is still in the function with
// its opcode, operands and block args; branches may only have gained args
// at the end.
func TestScaffoldInstructionsKeepTheirOperands(t *testing.T) {
	for _, m := range testModules(t, 20) {
		for _, set := range passSets {
			before := parse(t, m.clif)
			after := refined(t, m.clif, set...)
			for fi, f := range before.Funcs {
				g := after.Funcs[fi]
				placed := placedInsts(g)
				for i := range f.Insts {
					d := &f.Insts[i]
					if !ub.IsScaffold(d) {
						continue
					}
					e := &g.Insts[i]
					if !placed[i] || e.Op != d.Op || !slices.Equal(e.Args, d.Args) || !ub.IsScaffold(e) || !sameDestPrefix(d.Dests, e.Dests) {
						t.Errorf("%s after %v: %s: scaffold instruction %d changed:\nbefore: %s\nafter:  %s", m.name, set, f.Name, i, instText(f, ir.Inst(i)), instText(g, ir.Inst(i)))
					}
				}
			}
		}
	}
}

func placedInsts(f *ir.Function) map[int]bool {
	out := make(map[int]bool)
	for _, b := range f.Layout {
		for _, i := range f.Blocks[b].Insts {
			out[int(i)] = true
		}
	}
	return out
}

// sameDestPrefix reports whether after has the destinations of before,
// each with before's args first.
func sameDestPrefix(before, after []ir.BlockCall) bool {
	if len(before) != len(after) {
		return false
	}
	for k := range before {
		if before[k].Block != after[k].Block || len(after[k].Args) < len(before[k].Args) ||
			!slices.Equal(before[k].Args, after[k].Args[:len(before[k].Args)]) {
			return false
		}
	}
	return true
}

func instText(f *ir.Function, i ir.Inst) string {
	d := &f.Insts[i]
	return fmt.Sprintf("%s %v %v", d.Op, d.Args, d.Dests)
}

// TestOperandsRebindsWithinTheRules compares each function before and
// after operand selection: the same instructions with the same opcodes,
// changed operands only where lib/ub says they are free, to values of the
// same type that are not addresses (dominance: the verifier, which
// refined runs), no value newly dead, and a def-use chain depth that did
// not decrease. Across all modules, operands must have changed somewhere.
func TestOperandsRebindsWithinTheRules(t *testing.T) {
	changed := 0
	for _, m := range testModules(t, 20) {
		before := parse(t, m.clif)
		after := refined(t, m.clif, "operands")
		for fi, f := range before.Funcs {
			g := after.Funcs[fi]
			if len(g.Insts) != len(f.Insts) || len(g.Values) != len(f.Values) {
				t.Fatalf("%s: %s: operands added instructions or values", m.name, f.Name)
			}
			for i := range f.Insts {
				d, e := &f.Insts[i], &g.Insts[i]
				if d.Op != e.Op || len(d.Args) != len(e.Args) {
					t.Fatalf("%s: %s: instruction %d changed shape", m.name, f.Name, i)
				}
				check := func(what string, old, new ir.Value, free bool) {
					if old == new {
						return
					}
					changed++
					switch {
					case !free:
						t.Errorf("%s: %s: %s of %s rebound, but it is not free", m.name, f.Name, what, instText(f, ir.Inst(i)))
					case f.Values[f.Resolve(old)].Type != g.Values[new].Type:
						t.Errorf("%s: %s: %s of %s rebound to another type", m.name, f.Name, what, instText(f, ir.Inst(i)))
					case ub.IsAddress(g, new):
						t.Errorf("%s: %s: %s of %s rebound to an address", m.name, f.Name, what, instText(f, ir.Inst(i)))
					}
				}
				for k := range d.Args {
					check(fmt.Sprintf("operand %d", k), d.Args[k], e.Args[k], ub.FreeOperand(f, ir.Inst(i), k))
				}
				for k := range d.Dests {
					for j := range d.Dests[k].Args {
						check(fmt.Sprintf("block arg %d.%d", k, j), d.Dests[k].Args[j].Value, e.Dests[k].Args[j].Value, ub.FreeBlockArgs(f, ir.Inst(i)))
					}
				}
			}
			wasDead := deadValues(f)
			for v := range deadValues(g) {
				if !wasDead[v] {
					t.Errorf("%s: %s: operands left %s dead", m.name, f.Name, v)
				}
			}
			if b, a := analysis.Compute(f).DefUseDepth, analysis.Compute(g).DefUseDepth; a < b {
				t.Errorf("%s: %s: def-use chain depth fell from %d to %d", m.name, f.Name, b, a)
			}
		}
	}
	if changed == 0 {
		t.Error("operands rebound nothing in any module")
	}
}

// deadValues returns the values of reachable blocks that nothing uses.
func deadValues(f *ir.Function) map[ir.Value]bool {
	uses := useCounts(f, nil)
	cfg := analysis.NewCFG(f)
	out := make(map[ir.Value]bool)
	for _, b := range cfg.RPO() {
		for _, v := range f.Blocks[b].Params {
			if uses[v] == 0 {
				out[v] = true
			}
		}
		for _, i := range f.Blocks[b].Insts {
			for _, v := range f.Insts[i].Results {
				if uses[v] == 0 {
					out[v] = true
				}
			}
		}
	}
	return out
}

// TestMergeCarriesArmValuesPastTheJoin: in the diamond, the join gets new
// params, each arm passes its own values to them where it has one of the
// type, and over several seeds the dead value of each arm (v8 in block1,
// v9 in block2) is passed at least once, so it survives the join.
func TestMergeCarriesArmValuesPastTheJoin(t *testing.T) {
	clif := text(readModule(t, "diamond"))
	rescued := map[ir.Value]bool{}
	for seed := range uint64(20) {
		ps, _ := Select([]string{"merge"})
		mod := parse(t, clif)
		if _, err := Module(mod, seed, 0, Options{Passes: ps, VerifyEach: true}); err != nil {
			t.Fatal(err)
		}
		f := mod.Funcs[0]
		join := f.Blocks[3]
		if len(join.Params) < 2 {
			t.Fatalf("seed %d: the join has %d params, want new ones", seed, len(join.Params))
		}
		arm := map[ir.Block][]ir.Value{1: {5, 6, 7, 8}, 2: {9, 10, 11}}
		for _, pred := range []ir.Block{1, 2} {
			args := f.Insts[terminator(f, pred)].Dests[0].Args
			for k, a := range args[1:] {
				rescued[a.Value] = true
				typ := f.Values[join.Params[k+1]].Type
				hasType := slices.ContainsFunc(arm[pred], func(v ir.Value) bool { return f.Values[v].Type == typ })
				own := slices.Contains(arm[pred], a.Value)
				if hasType && !own {
					t.Errorf("seed %d: block%d passes %s for a %s param, not a value of its own arm %v", seed, pred, a.Value, typ, arm[pred])
				}
			}
		}
	}
	if !rescued[8] || !rescued[9] {
		t.Errorf("the arms' dead values v8 and v9 never reached the join (passed: %v)", rescued)
	}
}

// TestMergeAddsParamsToEveryKindOfJoin: the joins of an if-else, of a
// switch and of a loop header (whose back edge is a scaffold branch) all
// get params.
func TestMergeAddsParamsToEveryKindOfJoin(t *testing.T) {
	for _, tt := range []struct {
		module string
		join   ir.Block
		params int // before
	}{
		{"diamond", 3, 1},
		{"switch", 4, 1},
		{"loop", 1, 2},
	} {
		f := refined(t, text(readModule(t, tt.module)), "merge").Funcs[0]
		if got := len(f.Blocks[tt.join].Params); got <= tt.params {
			t.Errorf("%s: block%d has %d params after merge, %d before", tt.module, tt.join, got, tt.params)
		}
	}
}

// TestSinkLeavesNoDeadValue: after sink (alone and after the other
// passes), every value nothing uses is one of the documented exceptions:
// an address, a value of a type sink does not fold, or a value in a block
// that reaches no return or tail call.
func TestSinkLeavesNoDeadValue(t *testing.T) {
	for _, m := range testModules(t, 20) {
		for _, set := range [][]string{{"sink"}, {"decoy", "merge", "operands", "sink"}} {
			mod := refined(t, m.clif, set...)
			for _, f := range mod.Funcs {
				reaches := reachesSink(f)
				for v := range deadValues(f) {
					vd := &f.Values[v]
					block := vd.Block
					if vd.Kind == ir.DefResult {
						block = analysis.NewCFG(f).InstBlock(vd.Inst)
					}
					if ub.IsAddress(f, v) || !foldable(vd.Type) || !reaches[block] {
						continue
					}
					t.Errorf("%s after %v: %s: %s is dead\n%s", m.name, set, f.Name, v, text(mod))
				}
			}
		}
	}
}

// reachesSink returns the blocks from which a return or tail call with a
// free operand of a type sink folds into is reachable.
func reachesSink(f *ir.Function) map[ir.Block]bool {
	s := &sinker{f: f, cfg: analysis.NewCFG(f)}
	out := make(map[ir.Block]bool)
	var work []ir.Block
	for _, b := range s.cfg.RPO() {
		if s.findSlot(b) >= 0 {
			work = append(work, b)
		}
	}
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if !out[b] {
			out[b] = true
			work = append(work, s.cfg.Preds(b)...)
		}
	}
	return out
}

// TestSinkFoldsDeadValuesBeforeATailCallIntoItsArgument: in tail.clif,
// %main's dead values can only reach %step through the return_call.
func TestSinkFoldsDeadValuesBeforeATailCallIntoItsArgument(t *testing.T) {
	mod := refined(t, text(readModule(t, "tail")), "sink")
	f := mod.Funcs[0]
	call := &f.Insts[terminator(f, f.Layout[0])]
	if call.Op != ir.OpReturnCall || call.Args[0] == 2 {
		t.Errorf("the return_call's first argument is still v2: %s", text(mod))
	}
	if noret := mod.Funcs[2]; len(deadValues(noret)) == 0 {
		t.Errorf("%%noret has no sink, yet its dead values were used")
	}
}

// TestDecoyBranchesOpaquelyToACopy: after decoy, each function with code
// to copy has a scaffold brif on an OpaqueTrue value whose else block
// holds a copy (the opcodes of some input block's instruction run, calls
// with results left out) and jumps to the then block.
func TestDecoyBranchesOpaquelyToACopy(t *testing.T) {
	for _, m := range testModules(t, 20) {
		before := parse(t, m.clif)
		after := refined(t, m.clif, "decoy")
		for fi, f := range after.Funcs {
			orig := before.Funcs[fi]
			found := 0
			for _, b := range f.Layout {
				term := terminator(f, b)
				d := &f.Insts[term]
				if d.Op != ir.OpBrif || !ub.IsScaffold(d) || int(term) < len(orig.Insts) || !isOpaqueTrue(f, d.Args[0]) {
					continue
				}
				then, els := d.Dests[0].Block, d.Dests[1].Block
				body := f.Blocks[els].Insts
				last := &f.Insts[body[len(body)-1]]
				if last.Op != ir.OpJump || last.Dests[0].Block != then {
					t.Errorf("%s: %s: decoy block%d does not jump to block%d", m.name, f.Name, els, then)
				}
				if !copiesABlock(orig, f, body[:len(body)-1]) {
					t.Errorf("%s: %s: decoy block%d is no copy of an input block", m.name, f.Name, els)
				}
				found++
			}
			if found == 0 && hasCopyableBlock(orig) {
				t.Errorf("%s: %s: no decoy", m.name, f.Name)
			}
		}
	}
}

// isOpaqueTrue reports whether v is ub.OpaqueTrue's icmp of a band of a
// square of a bor.
func isOpaqueTrue(f *ir.Function, v ir.Value) bool {
	def := func(v ir.Value, op ir.Opcode) *ir.InstData {
		vd := &f.Values[v]
		if vd.Kind != ir.DefResult || f.Insts[vd.Inst].Op != op || !ub.IsScaffold(&f.Insts[vd.Inst]) {
			return nil
		}
		return &f.Insts[vd.Inst]
	}
	cmp := def(v, ir.OpIcmp)
	if cmp == nil {
		return false
	}
	band := def(cmp.Args[0], ir.OpBand)
	if band == nil {
		return false
	}
	sq := def(band.Args[0], ir.OpImul)
	return sq != nil && sq.Args[0] == sq.Args[1] && def(sq.Args[0], ir.OpBor) != nil
}

// copiesABlock reports whether the opcodes of copy are those of a run of
// instructions of some block of orig (calls with results left out).
func copiesABlock(orig, f *ir.Function, copy []ir.Inst) bool {
	var want []string
	for _, i := range copy {
		want = append(want, f.Insts[i].Op.String())
	}
	for _, b := range orig.Layout {
		var ops []string
		for _, i := range orig.Blocks[b].Insts {
			if d := &orig.Insts[i]; !(d.Op.IsCall() && len(d.Results) > 0) {
				ops = append(ops, d.Op.String())
			}
		}
		if strings.Contains(" "+strings.Join(ops, " ")+" ", " "+strings.Join(want, " ")+" ") {
			return true
		}
	}
	return false
}

// hasCopyableBlock reports whether some block of f has an instruction
// besides its terminator that is not a call with results: decoy may then
// find a copy (it may still fail when operands do not dominate).
func hasCopyableBlock(f *ir.Function) bool {
	for _, b := range f.Layout {
		insts := f.Blocks[b].Insts
		for _, i := range insts[:len(insts)-1] {
			if d := &f.Insts[i]; !(d.Op.IsCall() && len(d.Results) > 0) {
				return true
			}
		}
	}
	return false
}

// TestGolden compares the hand-written modules refined by each pass alone
// and by all of them with testdata/golden/PASS.clif (go test -update
// rewrites them).
func TestGolden(t *testing.T) {
	for _, set := range passSets {
		name := strings.Join(set, "+")
		if len(set) == len(functionPasses()) {
			name = "all"
		}
		var b strings.Builder
		for _, m := range handWritten {
			fmt.Fprintf(&b, "; ---- %s\n", m)
			b.WriteString(text(refined(t, text(readModule(t, m)), set...)))
		}
		path := filepath.Join("testdata", "golden", name+".clif")
		if *update {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run go test -update)", err)
		}
		if b.String() != string(want) {
			t.Errorf("%s differs from %s (go test -update rewrites it):\n%s", name, path, b.String())
		}
	}
}
