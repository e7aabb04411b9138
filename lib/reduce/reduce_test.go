package reduce_test

import (
	"context"
	"errors"
	"testing"

	"cliff/lib/ir"
	"cliff/lib/iredit"
	"cliff/lib/record"
	"cliff/lib/reduce"
	"cliff/lib/reduce/reducetest"
)

// configs are the configurations at stake in the tests: a failing x86_64
// one with ISA flags and settings the failures do not need, and a
// reference.
func configs() []record.Config {
	return []record.Config{
		{Arch: "x86_64", OptLevel: "speed", Flags: []string{"has_sse41", "has_avx"}, Settings: []string{"enable_nan_canonicalization=true"}, Executor: record.ExecNative},
		{Arch: "aarch64", OptLevel: "speed", Executor: record.ExecQemu},
	}
}

// bugShape is one modelled bug: the culprit, the oracle's shape, and a
// seed whose stream has a case with the culprit.
type bugShape struct {
	name    string
	culprit reducetest.Culprit
	shape   func(reducetest.Culprit) reducetest.Shape
	seed    uint64
	// maxInsts bounds the instructions of the reduced failing function
	// (the one with the culprit).
	maxInsts int
}

var shapes = []bugShape{
	{"crash", reducetest.Culprit{Op: ir.OpScalarToVector, Type: ir.I8X16},
		func(c reducetest.Culprit) reducetest.Shape { return reducetest.Crash(c, "") }, 1, 3},
	// The model's signature names the differing output types (f32 and
	// i32 for this case): their conversions stay.
	{"miscompile", reducetest.Culprit{Op: ir.OpImul, Type: ir.I32}, reducetest.Miscompile, 2, 5},
	// The divisor's guard (11 scaffold instructions) stays: without it the
	// case would divide by zero.
	{"trap-kind", reducetest.Culprit{Op: ir.OpSrem, Type: ir.I16}, reducetest.TrapKind, 3, 17},
}

func TestReduce(t *testing.T) {
	for _, tc := range shapes {
		t.Run(tc.name, func(t *testing.T) {
			cand, err := reducetest.Generated(tc.seed, 5, 200, configs(), tc.shape(tc.culprit))
			if err != nil {
				t.Fatal(err)
			}
			oracle := &reducetest.Checked{Shape: tc.shape(tc.culprit)}
			want := tc.shape(tc.culprit)(cand)
			tester := reduce.NewTester(oracle, want)
			res, err := reduce.Reduce(context.Background(), tester, cand, reduce.Options{Input: record.InputIndex(2)})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %d -> %d instructions, %d rounds, oracle %+v, passes %v", tc.name, res.Before, res.After, res.Rounds, tester.Stats, res.Accepted)
			t.Logf("reduced:\n%s", res.Case.CLIF)
			for _, p := range oracle.Problems {
				t.Errorf("candidate sent to the oracle: %s", p)
			}
			if got := tc.shape(tc.culprit)(res.Case); got != want {
				t.Errorf("reduced case shows %q, want %q", got, want)
			}
			if !res.Fixed {
				t.Errorf("no fixed point after %d rounds", res.Rounds)
			}
			f := reducetest.FuncWith(res.Case.Module, tc.culprit)
			if f == nil {
				t.Fatalf("the culprit %s is gone", tc.culprit)
			}
			if n := iredit.Insts(f); n > tc.maxInsts {
				t.Errorf("failing function reduced to %d instructions, want at most %d", n, tc.maxInsts)
			}
			if len(res.Case.Inputs) != 1 {
				t.Errorf("%d input vectors left, want 1", len(res.Case.Inputs))
			}
			for _, cfg := range res.Case.Configs {
				if len(cfg.Flags)+len(cfg.Settings) > 0 {
					t.Errorf("config %s keeps flags or settings the failure does not need", cfg)
				}
			}
			// A fixed point: one more reduction changes nothing.
			again, err := reduce.Reduce(context.Background(), reduce.NewTester(oracle, want), res.Case, reduce.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if again.Case.CLIF != res.Case.CLIF || len(again.Accepted) != 0 {
				t.Errorf("a second reduction changed the result (%v):\n%s", again.Accepted, again.Case.CLIF)
			}
		})
	}
}

// TestNoEndlessLoop: a loop whose body holds the culprit must not be
// reduced to a loop without exit, which a real run would spin in until its
// timeout (the reduction of a real crash did, before Variant checked).
func TestNoEndlessLoop(t *testing.T) {
	c := &record.Case{ID: "loop", CLIF: `function %f(i32, i8) -> i8x16 {
block0(v0: i32, v1: i8):
@c1ff v2 = iconst.i32 3
@c1ff v3 = band v0, v2
@c1ff v4 = iconst.i32 0
@c1ff jump block1(v4)

block1(v5: i32):
@c1ff v6 = icmp ult v5, v3
@c1ff brif v6, block2, block3

block2:
    v7 = scalar_to_vector.i8x16 v1
@c1ff v8 = iconst.i32 1
@c1ff v9 = iadd v5, v8
@c1ff jump block1(v9)

block3:
    v10 = splat.i8x16 v1
    return v10
}
`}
	cand, err := reduce.NewCandidate(c, configs())
	if err != nil {
		t.Fatal(err)
	}
	shape := reducetest.Crash(reducetest.Culprit{Op: ir.OpScalarToVector, Type: ir.I8X16}, "")
	var endless int
	oracle := &reducetest.Checked{Shape: func(c *reduce.Candidate) string {
		for _, f := range c.Module.Funcs {
			if !iredit.Terminates(f) {
				endless++
			}
		}
		return shape(c)
	}}
	res, err := reduce.Reduce(context.Background(), reduce.NewTester(oracle, shape(cand)), cand, reduce.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if endless > 0 {
		t.Errorf("%d candidates with an endless loop went to the oracle", endless)
	}
	t.Logf("reduced:\n%s", res.Case.CLIF)
}

// TestBatch: batched oracle calls (one round-trip for several candidates)
// reach a fixed point as small as one at a time, in fewer round-trips.
func TestBatch(t *testing.T) {
	tc := shapes[0]
	shape := tc.shape(tc.culprit)
	cand, err := reducetest.Generated(tc.seed, 5, 200, configs(), shape)
	if err != nil {
		t.Fatal(err)
	}
	var sizes, batches [2]int
	for k, batch := range []int{1, 8} {
		oracle := &reducetest.Checked{Shape: shape}
		tester := reduce.NewTester(oracle, shape(cand))
		tester.Batch = batch
		res, err := reduce.Reduce(context.Background(), tester, cand, reduce.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range oracle.Problems {
			t.Errorf("batch %d: candidate sent to the oracle: %s", batch, p)
		}
		if !res.Fixed {
			t.Errorf("batch %d: no fixed point", batch)
		}
		sizes[k], batches[k] = iredit.Insts(reducetest.FuncWith(res.Case.Module, tc.culprit)), tester.Stats.Batches
		t.Logf("batch %d: %d instructions, %+v", batch, sizes[k], tester.Stats)
	}
	if sizes[1] > sizes[0] {
		t.Errorf("batched reduction ends larger: %d instructions, one at a time %d", sizes[1], sizes[0])
	}
	if batches[1] >= batches[0] {
		t.Errorf("batched reduction made %d oracle calls, one at a time %d", batches[1], batches[0])
	}
}

// TestReduceKeepsProgressOnError: when the oracle fails mid-way (a time
// budget running out), Reduce returns what it had reduced so far, which
// still shows the signature, with the error.
func TestReduceKeepsProgressOnError(t *testing.T) {
	culprit := reducetest.Culprit{Op: ir.OpScalarToVector, Type: ir.I8X16}
	shape := reducetest.Crash(culprit, "")
	cand, err := reducetest.Generated(1, 5, 200, configs(), shape)
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	stop := errors.New("the budget ran out")
	oracle := reduce.OracleFunc(func(_ context.Context, c *reduce.Candidate) (string, error) {
		if calls++; calls > 20 {
			return "", stop
		}
		return shape(c), nil
	})
	tester := reduce.NewTester(oracle, shape(cand))
	res, err := reduce.Reduce(context.Background(), tester, cand, reduce.Options{})
	if !errors.Is(err, stop) {
		t.Fatalf("err %v, want the oracle's", err)
	}
	if res == nil || res.Case == nil {
		t.Fatal("no result with the error")
	}
	if res.After >= res.Before || shape(res.Case) != shape(cand) {
		t.Errorf("result so far: %d -> %d instructions, signature %q (want smaller, %q)", res.Before, res.After, shape(res.Case), shape(cand))
	}
}

// TestNoReturnedAddress: an address differs between targets by nature, so
// a variant that returns one is never made: a real riscv64 divergence was
// once "reduced" to `return func_addr`, which diverges everywhere and
// says nothing about Cranelift.
func TestNoReturnedAddress(t *testing.T) {
	c := &record.Case{ID: "addr", CLIF: `function %main(i64) -> i64 {
    sig0 = (i64) -> i64
    fn0 = %f1 sig0

block0(v0: i64):
    v1 = func_addr.i64 fn0
    v2 = call_indirect sig0, v1(v0)
    v3 = iadd v2, v0
    return v3
}

function %f1(i64) -> i64 {
block0(v0: i64):
    v1 = imul v0, v0
    return v1
}
`}
	cand, err := reduce.NewCandidate(c, configs())
	if err != nil {
		t.Fatal(err)
	}
	tester := reduce.NewTester(&reducetest.Checked{Shape: func(*reduce.Candidate) string { return "divergent x86_64/*: i64 value" }}, "divergent x86_64/*: i64 value")
	ret := func(r ir.Value) reduce.Edit {
		return func(v *reduce.Candidate) bool { return iredit.ReturnOnly(v.Module, "%main", r) }
	}
	if v := tester.Variant(cand, ret(1)); v != nil {
		t.Errorf("a variant returning func_addr was made:\n%s", v.CLIF)
	}
	// The guard is about addresses only: returning the call's result is
	// a variant like any other.
	if v := tester.Variant(cand, ret(2)); v == nil {
		t.Errorf("returning the call's result was refused")
	}
}
