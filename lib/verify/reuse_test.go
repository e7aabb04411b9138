package verify

import (
	"fmt"
	"math/rand"
	"reflect"
	"strings"
	"testing"

	"cliff/lib/ir"
)

// TestReuseMatchesFresh verifies the filetests' functions, and corrupted
// copies of them, with one verifier in turn (as the pool hands verifiers
// out) and each with a new one: the errors must be the same, whatever the
// verifier saw before.
func TestReuseMatchesFresh(t *testing.T) {
	tests, _ := loadFiletests(t, "", func(rel string) bool { return !strings.HasPrefix(rel, "parser/") })
	rng := rand.New(rand.NewSource(2))
	reused := new(verifier)
	n, bad := 0, 0
	for _, ft := range tests {
		opts := OptionsFor(ft.file)
		for _, f := range ft.file.Funcs {
			g := cloneFunc(f)
			for range 1 + rng.Intn(3) {
				corrupt(g, rng)
			}
			for _, h := range []*ir.Function{f, g} {
				fresh := new(verifier).verify(h, opts)
				again := reused.verify(h, opts)
				if !reflect.DeepEqual(fresh, again) {
					t.Fatalf("%s: %s: a reused verifier says\n%v\na new one\n%v", ft.rel, f.Name, again, fresh)
				}
				n++
				if fresh != nil {
					bad++
				}
			}
		}
	}
	t.Logf("%d functions (%d with errors) verified alike", n, bad)
}

// TestUsesInForEachUseOrder: checkUses visits the uses of an instruction
// that ir.InstData.ForEachUse lists, in its order. Every use of every
// instruction of the filetests is made an undefined value of its own, and
// the errors about them must name them in ForEachUse's order. (One
// function in eight is enough, and those with exception handlers, which
// are few: every use being an error, the test is slow.)
func TestUsesInForEachUseOrder(t *testing.T) {
	tests, _ := loadFiletests(t, "", func(rel string) bool { return !strings.HasPrefix(rel, "parser/") })
	insts, blockArgs, handlers := 0, 0, 0
	for n, f := range allFuncs(tests) {
		if n%8 != 0 && !hasHandlers(f) {
			continue
		}
		g := cloneFunc(f)
		first := ir.Value(len(g.Values) + 1000) // undefined values from here on
		next := first
		fresh := func() ir.Value { next++; return next - 1 }
		for i := range g.Insts {
			d := &g.Insts[i]
			for k := range d.Args {
				d.Args[k] = fresh()
			}
			for j := range d.Dests {
				renameArgs(d.Dests[j].Args, fresh)
			}
			for j := range d.Handlers {
				h := &d.Handlers[j]
				h.Dest.Args = append([]ir.BlockArg(nil), h.Dest.Args...)
				if h.Kind == ir.HandlerContext {
					h.Context = fresh()
				}
				renameArgs(h.Dest.Args, fresh)
			}
		}
		reported := make(map[ir.Inst][]string)
		for _, e := range FunctionWith(g, Options{PointerType: ir.I64}) {
			if name, ok := strings.CutPrefix(e.Msg, "invalid value reference "); ok {
				reported[e.Inst] = append(reported[e.Inst], name)
			}
		}
		for i, names := range reported {
			var want []string
			g.Insts[i].ForEachUse(func(v ir.Value) {
				if v >= first {
					want = append(want, v.String())
				}
			})
			if fmt.Sprint(names) != fmt.Sprint(want) {
				t.Fatalf("%s: %s: errors name %v, ForEachUse lists %v", f.Name, ir.Inst(i), names, want)
			}
			insts++
			if len(want) > len(g.Insts[i].Args) {
				blockArgs++
			}
			if len(g.Insts[i].Handlers) > 0 {
				handlers++
			}
		}
	}
	if blockArgs == 0 || handlers == 0 {
		t.Fatalf("no instruction passes block args or has exception handlers: the test tests too little")
	}
	t.Logf("%d instructions (%d passing block args, %d with handlers) checked", insts, blockArgs, handlers)
}

func allFuncs(tests []filetest) []*ir.Function {
	var fs []*ir.Function
	for _, ft := range tests {
		fs = append(fs, ft.file.Funcs...)
	}
	return fs
}

func hasHandlers(f *ir.Function) bool {
	for i := range f.Insts {
		if len(f.Insts[i].Handlers) > 0 {
			return true
		}
	}
	return false
}

// renameArgs gives each value arg a fresh value.
func renameArgs(args []ir.BlockArg, fresh func() ir.Value) {
	for k := range args {
		if args[k].Kind == ir.ArgValue {
			args[k].Value = fresh()
		}
	}
}
