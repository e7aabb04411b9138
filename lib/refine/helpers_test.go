package refine

import (
	"context"
	"encoding/hex"
	"flag"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cliff/lib/canon"
	"cliff/lib/driver"
	"cliff/lib/ir"
	"cliff/lib/parser"
	"cliff/lib/printer"
	"cliff/lib/verify"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// handWritten are the modules in testdata, by name.
var handWritten = []string{"diamond", "loop", "switch", "calls", "tail"}

func readModule(t testing.TB, name string) *ir.Module {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", name+".clif"))
	if err != nil {
		t.Fatal(err)
	}
	mod, err := parser.ParseModule(name, src)
	if err != nil {
		t.Fatal(err)
	}
	if errs := verify.Module(mod); len(errs) > 0 {
		t.Fatalf("%s does not verify:\n%v", name, errs)
	}
	return mod
}

// testModule is one module the tests refine.
type testModule struct {
	name string
	clif string
}

// testModules returns the hand-written modules and n random ones.
func testModules(t testing.TB, n int) []testModule {
	var out []testModule
	for _, name := range handWritten {
		out = append(out, testModule{name, text(readModule(t, name))})
	}
	for seed := range uint64(n) {
		mod := randomModule(seed, 1+int(seed%4))
		if errs := verify.Module(mod); len(errs) > 0 {
			t.Fatalf("random module %d does not verify:\n%v\n%s", seed, errs, text(mod))
		}
		out = append(out, testModule{"random" + string(rune('a'+seed%26)) + strings.Repeat("'", int(seed/26)), text(mod)})
	}
	return out
}

func text(mod *ir.Module) string {
	var b strings.Builder
	printer.Module(&b, mod)
	return b.String()
}

func parse(t testing.TB, clif string) *ir.Module {
	t.Helper()
	mod, err := parser.ParseModule("clif", []byte(clif))
	if err != nil {
		t.Fatalf("%v\n%s", err, clif)
	}
	return mod
}

// refined applies passes to a copy of clif (seed 7, index 3) and returns
// the module, failing the test when a pass breaks it.
func refined(t testing.TB, clif string, passes ...string) *ir.Module {
	t.Helper()
	ps, err := Select(passes)
	if err != nil {
		t.Fatal(err)
	}
	mod := parse(t, clif)
	if _, err := Module(mod, 7, 3, Options{Passes: ps, VerifyEach: true}); err != nil {
		t.Fatalf("%v\ninput:\n%s", err, clif)
	}
	return mod
}

// inputs returns n argument vectors for sig: edge values and random bits.
func inputs(sig ir.Signature, n int, seed uint64) [][]driver.Value {
	r := rand.New(rand.NewPCG(seed, 1))
	out := make([][]driver.Value, n)
	for i := range out {
		for _, p := range sig.Params {
			bytes := make([]byte, p.Type.Bytes())
			switch r.IntN(5) {
			case 0: // zero
			case 1:
				for k := range bytes {
					bytes[k] = 0xff
				}
			default:
				for k := range bytes {
					bytes[k] = byte(r.Uint32())
				}
			}
			out[i] = append(out[i], driver.Value{Type: p.Type.String(), Hex: hex.EncodeToString(bytes)})
		}
	}
	return out
}

// run interprets the module's first function on each input vector and
// returns one line per vector: the results, or what went wrong.
func run(t testing.TB, d *driver.Client, mod *ir.Module, vectors [][]driver.Value) []string {
	t.Helper()
	clif := text(mod)
	var out []string
	for _, args := range vectors {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		ans, err := d.Interpret(ctx, &driver.InterpretRequest{CLIF: clif, Func: mod.Funcs[0].Name, Args: args})
		cancel()
		if err != nil {
			t.Fatalf("interpret: %v\n%s", err, clif)
		}
		var line []string
		for _, v := range ans.Results {
			line = append(line, v.Type+" "+canonicalHex(v))
		}
		switch {
		case ans.Trap != "":
			line = append(line, "trap "+ans.Trap)
		case ans.Timeout:
			line = append(line, "timeout")
		}
		out = append(out, strings.Join(line, ", "))
	}
	return out
}

// canonicalHex is a value's bytes with every NaN lane made canonical:
// NaN payloads are not part of what a case computes.
func canonicalHex(v driver.Value) string {
	dv, err := v.DataValue()
	if err != nil {
		return v.Hex
	}
	return hex.EncodeToString(canon.Value(dv).Bytes)
}
