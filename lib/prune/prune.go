package prune

import (
	"bytes"
	"fmt"
	"io"
	"slices"

	"cliff/lib/ir"
	"cliff/lib/refinterp"
	"cliff/lib/ub"
)

// Counts are what pruning did to a run of cases, guards by kind.
type Counts struct {
	Cases    int // cases pruning ran on
	Unjudged int // of which the reference could not answer for every input: left as they were
	Changed  int // of which lost at least one guard
	Seen     [numKinds]int
	Ran      [numKinds]int // of the seen, those that ran on some input
	Pruned   [numKinds]int // dropped and kept dropped (those that never ran included)
	Restored [numKinds]int // dropped, then put back after the re-check
}

// Add adds o to c.
func (c *Counts) Add(o Counts) {
	c.Cases += o.Cases
	c.Unjudged += o.Unjudged
	c.Changed += o.Changed
	for k := range numKinds {
		c.Seen[k] += o.Seen[k]
		c.Ran[k] += o.Ran[k]
		c.Pruned[k] += o.Pruned[k]
		c.Restored[k] += o.Restored[k]
	}
}

// Total sums a per-kind count.
func Total(n [numKinds]int) int {
	t := 0
	for _, x := range n {
		t += x
	}
	return t
}

// Print writes the counts as cliff-refine's summary shows them: one line
// for the cases, one per kind.
func (c *Counts) Print(w io.Writer) error {
	_, err := fmt.Fprintf(w, "prune: %d cases (%d unjudged by the reference, %d changed); guards seen %d, ran %d, pruned %d (%s; %s of those that ran), restored %d\n",
		c.Cases, c.Unjudged, c.Changed, Total(c.Seen), Total(c.Ran), Total(c.Pruned), percent(Total(c.Pruned), Total(c.Seen)),
		percent(Total(c.Pruned)-(Total(c.Seen)-Total(c.Ran)), Total(c.Ran)), Total(c.Restored))
	for _, k := range Kinds {
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(w, "prune:   %-8s seen %d, ran %d, pruned %d (%s; %s of those that ran), restored %d\n",
			k, c.Seen[k], c.Ran[k], c.Pruned[k], percent(c.Pruned[k], c.Seen[k]), percent(c.Pruned[k]-(c.Seen[k]-c.Ran[k]), c.Ran[k]), c.Restored[k])
	}
	return err
}

func percent(n, of int) string {
	if of == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(n)/float64(of))
}

// Module drops the guards of mod that never fire when entry runs on each
// of inputs on the reference under lim, and removes their dead
// instructions (see the package doc). mod is changed in place only when
// the pruned module answers every input as the guarded one did. The
// error is a misuse (no such entry), never the case's behaviour.
func Module(mod *ir.Module, entry string, inputs [][]ir.DataValue, lim refinterp.Limits) (Counts, error) {
	cnt := Counts{Cases: 1}
	if mod.Func(entry) == nil {
		return cnt, fmt.Errorf("prune: no function %s in the module", entry)
	}
	found := make([][]site, len(mod.Funcs))
	uses := make([][]int, len(mod.Funcs))
	total := 0
	for i, f := range mod.Funcs {
		found[i], uses[i] = sites(f)
		total += len(found[i])
		for _, s := range found[i] {
			for _, g := range s.chain {
				cnt.Seen[g.kind]++
			}
		}
	}
	if total == 0 {
		return cnt, nil
	}
	seen, ranOn, want, ok := observe(mod, entry, inputs, lim, found)
	if !ok {
		cnt.Unjudged++
		return cnt, nil
	}
	for i := range mod.Funcs {
		for _, s := range found[i] {
			for _, g := range s.chain {
				if seen[i][g.sel]&ran != 0 {
					cnt.Ran[g.kind]++
				}
			}
		}
	}
	var undo []change
	for i, f := range mod.Funcs {
		for _, s := range found[i] {
			d := &f.Insts[s.inst]
			v := d.Args[s.arg]
			n := 0 // guards pruned, from the consumer outward
			for _, g := range s.chain {
				if seen[i][g.sel]&fired != 0 {
					break
				}
				v = g.raw
				n++
				cnt.Pruned[g.kind]++
				seen[i][g.sel] |= pruned
			}
			if !provenSame(s.chain[:n]) {
				for _, g := range s.chain[:n] {
					seen[i][g.sel] |= recheck
				}
			}
			if v != d.Args[s.arg] {
				undo = append(undo, change{fn: i, inst: s.inst, arg: s.arg, old: d.Args[s.arg], loc: d.SrcLoc})
				uses[i][f.Resolve(d.Args[s.arg])]--
				uses[i][f.Resolve(v)]++
				d.Args[s.arg] = v
				d.SrcLoc = ub.PrunedLoc
			}
		}
	}
	if len(undo) == 0 {
		return cnt, nil
	}
	// A guard's select dominates its consumer (SSA): on an input where no
	// pruned select ran, no pruned operation ran, and the re-check would
	// run the very instructions the observation did. Nor would it where
	// the pruned selects that ran are all shown to pass their consumers
	// the value they now read (sameOperand). The others run again.
	var again []int
	for k, sels := range ranOn {
		if slices.ContainsFunc(sels, func(r selectRef) bool { return seen[r.fn][r.inst]&recheck != 0 }) {
			again = append(again, k)
		}
	}
	if len(again) > 0 && !sameAnswers(mod, entry, inputs, lim, want, again) {
		for k := len(undo) - 1; k >= 0; k-- { // last first: a consumer may have two pruned operands
			c := undo[k]
			d := &mod.Funcs[c.fn].Insts[c.inst]
			d.Args[c.arg], d.SrcLoc = c.old, c.loc
		}
		cnt.Restored, cnt.Pruned = cnt.Pruned, [numKinds]int{}
		return cnt, nil
	}
	for i, f := range mod.Funcs {
		removeDead(f, found[i], uses[i], seen[i])
	}
	cnt.Changed++
	return cnt, nil
}

// A change is one operand a pruning rewrote, to put back.
type change struct {
	fn, arg int
	inst    ir.Inst
	old     ir.Value
	loc     ir.SourceLoc
}

// What a run showed of a guard's select.
const (
	watching = 1 << iota // a guard's select, watched
	ran                  // it ran on some input
	fired                // it chose its substitute on some input
	pruned               // its guard was dropped
	recheck              // pruned, and the inputs it ran on are run again
)

// sameOperand reports whether a consumer whose guards chain (outermost
// first, all of them dropped) never fired reads, on every execution,
// the very value through the raw operand that it read through the
// outermost select: then the pruned case runs the instructions the
// guarded one ran, on the same values, and re-checking it would only
// repeat the observation. Each select runs before the consumer in its
// block, so its latest choice is of this pass through the block; it
// chose its raw operand (it never fired), which no instruction between
// them redefines. Without that (a raw defined between them, which
// valid SSA rules out, or a select in another block, where it holds by
// dominance but is not shown here) the inputs it ran on are re-checked.
func sameOperand(chain []guard) bool {
	for _, g := range chain {
		if !g.local {
			return false
		}
	}
	return true
}

// A selectRef is a guard's select: a function of the module by index, and
// its instruction.
type selectRef struct {
	fn   int
	inst ir.Inst
}

// observe runs entry on every input with the guards' selects watched and
// returns, per function and instruction, what the run showed (ran,
// fired), by input the selects that ran on it, and the answers. ok is
// false when the reference does not return on some input.
func observe(mod *ir.Module, entry string, inputs [][]ir.DataValue, lim refinterp.Limits, found [][]site) (shown [][]uint8, ranOn [][]selectRef, answers [][]ir.DataValue, ok bool) {
	in := refinterp.New(mod, lim)
	shown = make([][]uint8, len(mod.Funcs))
	ranOn = make([][]selectRef, len(inputs))
	input := 0 // the input running
	for i, f := range mod.Funcs {
		if len(found[i]) == 0 {
			continue
		}
		seen := make([]uint8, len(f.Insts))
		firesOnZero := make([]bool, len(f.Insts))
		lastInput := make([]int, len(f.Insts)) // 1 + the last input it ran on
		var watch []ir.Inst
		for _, s := range found[i] {
			for _, g := range s.chain {
				if seen[g.sel] == 0 {
					watch = append(watch, g.sel)
				}
				seen[g.sel], firesOnZero[g.sel] = watching, g.firesOnZero
			}
		}
		err := in.Watch(f, watch, func(_ *ir.Function, inst ir.Inst, ops []ir.DataValue) bool {
			seen[inst] |= ran
			if lastInput[inst] != input+1 {
				lastInput[inst] = input + 1
				ranOn[input] = append(ranOn[input], selectRef{i, inst})
			}
			if isZero(ops[0].Bytes) == firesOnZero[inst] {
				seen[inst] |= fired
				return false // fired once is enough
			}
			return true
		})
		if err != nil {
			return nil, nil, nil, false
		}
		shown[i] = seen
	}
	for input = range inputs {
		out, ok := run(in, entry, inputs[input:input+1])
		if !ok {
			return nil, nil, nil, false
		}
		answers = append(answers, out[0])
	}
	return shown, ranOn, answers, true
}

// sameAnswers runs mod afresh on the inputs numbered again and reports
// whether each returns want's answer.
func sameAnswers(mod *ir.Module, entry string, inputs [][]ir.DataValue, lim refinterp.Limits, want [][]ir.DataValue, again []int) bool {
	subset := make([][]ir.DataValue, len(again))
	for j, k := range again {
		subset[j] = inputs[k]
	}
	got, ok := rerun(refinterp.New(mod, lim), entry, subset)
	if !ok || len(got) != len(again) {
		return false
	}
	for j, k := range again {
		if len(got[j]) != len(want[k]) {
			return false
		}
		for x := range want[k] {
			if got[j][x].Type != want[k][x].Type || !bytes.Equal(got[j][x].Bytes, want[k][x].Bytes) {
				return false
			}
		}
	}
	return true
}

// provenSame is sameOperand; tests make it prove nothing, to check it
// against the re-check.
var provenSame = sameOperand

// rerun is run for the re-check; tests make it fail.
var rerun = run

// run calls entry on every input and returns the results; ok is false
// when one does not return (a trap, undefined behaviour, a limit, an
// opcode the reference lacks, a panic of the reference).
func run(in *refinterp.Interp, entry string, inputs [][]ir.DataValue) (answers [][]ir.DataValue, ok bool) {
	defer func() {
		if p := recover(); p != nil {
			answers, ok = nil, false
		}
	}()
	for _, args := range inputs {
		o, err := in.Call(entry, args)
		if err != nil || o.Trapped() {
			return nil, false
		}
		answers = append(answers, o.Results)
	}
	return answers, true
}

func isZero(b []byte) bool {
	for _, x := range b {
		if x != 0 {
			return false
		}
	}
	return true
}

// removeDead removes the guards' instructions left without uses, and the
// scaffold instructions that fed only them. Only scaffold instructions
// without effects go: never a loop counter's branch or a store. uses
// counts the uses of each value of f as it now is (sites' counts, less
// the pruned operands); shown marks the pruned selects (Module's seen),
// the only guards that can have lost their uses.
func removeDead(f *ir.Function, found []site, uses []int, shown []uint8) {
	dead := make([]bool, len(f.Insts))
	any := false
	var work []ir.Inst
	for _, s := range found {
		for _, g := range s.chain {
			if shown[g.sel]&pruned != 0 {
				work = append(work, g.sel)
			}
		}
	}
	for len(work) > 0 {
		inst := work[len(work)-1]
		work = work[:len(work)-1]
		d := &f.Insts[inst]
		if dead[inst] || !ub.IsScaffold(d) || d.Op.Info().Flags != 0 {
			continue
		}
		unused := true
		for _, r := range d.Results {
			unused = unused && uses[r] == 0
		}
		if !unused {
			continue
		}
		dead[inst], any = true, true
		for _, a := range d.Args {
			a = f.Resolve(a)
			uses[a]--
			if uses[a] == 0 && f.Values[a].Kind == ir.DefResult {
				work = append(work, f.Values[a].Inst)
			}
		}
	}
	if !any {
		return
	}
	for _, b := range f.Layout {
		insts := f.Blocks[b].Insts
		if !slices.ContainsFunc(insts, func(inst ir.Inst) bool { return dead[inst] }) {
			continue
		}
		kept := make([]ir.Inst, 0, len(insts))
		for _, inst := range insts {
			if !dead[inst] {
				kept = append(kept, inst)
			}
		}
		f.Blocks[b].Insts = kept
	}
}
