package census

import (
	"bytes"
	"strings"
	"testing"

	"cliff/lib/record"
)

// TestConstantForms: a constant form's verdict counts in the constant
// section, not in its parameter form's tally; its row carries the
// parameter form's class on the same target, in either order of the
// verdicts; a fine constant form of an excluded combination is no
// candidate to re-enable.
func TestConstantForms(t *testing.T) {
	const (
		x86None  = `{"arch":"x86_64","opt_level":"none","executor":"native"}`
		x86Speed = `{"arch":"x86_64","opt_level":"speed","executor":"native"}`
		interp   = `{"arch":"interp","opt_level":"none","executor":"interp"}`
	)
	consistent := func(id string) string {
		return `{"kind":"verdict","v":1,"case_id":"` + id + `","verdict":"consistent","sides":[{"configs":[` + interp + `,` + x86None + `,` + x86Speed + `],"status":"ok","hash":"00000000000000aa"}]}`
	}
	// The fold at speed answers otherwise than opt level none and the
	// interpreter.
	foldWrong := `{"kind":"verdict","v":1,"case_id":"census-const:fadd.f32","verdict":"divergent",` +
		`"sides":[{"configs":[` + interp + `,` + x86None + `],"status":"ok","hash":"00000000000000aa"},{"configs":[` + x86Speed + `],"status":"ok","hash":"00000000000000bb"}],` +
		`"case":{"kind":"case","v":1,"id":"census-const:fadd.f32","clif":"function %main(i32) -> f32 system_v {\nblock0(v0: i32):\n    v1 = f32const 0.0\n    return v1\n}\n","results":[` +
		`{"config":` + interp + `,"status":"ok","hash":"00000000000000aa"},{"config":` + x86None + `,"status":"ok","hash":"00000000000000aa"},{"config":` + x86Speed + `,"status":"ok","hash":"00000000000000bb"}]}}`
	for _, order := range [][]string{
		{consistent("census-fadd.f32"), foldWrong, consistent("census-const:iadd.i32")},
		{foldWrong, consistent("census-const:iadd.i32"), consistent("census-fadd.f32")},
	} {
		res := &Result{Tallies: map[Target]*Tally{}, ConstTallies: map[Target]*Tally{}, paramClass: map[targetKey]Class{}}
		k, err := LoadKnowledge()
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range order {
			if err := res.add([]byte(line), k); err != nil {
				t.Fatal(err)
			}
		}
		res.fillParamClasses()
		x86 := TargetOf(record.Config{Arch: "x86_64"})
		if p, c := res.Tallies[x86], res.ConstTallies[x86]; p == nil || c == nil || p.Judged != 1 || c.Judged != 2 || c.ByClass[ClassWrong] != 1 || p.ByClass[ClassWrong] != 0 {
			t.Fatalf("tallies: parameter forms %+v, constant forms %+v", p, c)
		}
		if len(res.Rows) != 1 {
			t.Fatalf("rows %+v, want the constant form of fadd.f32 alone", res.Rows)
		}
		r := res.Rows[0]
		if !r.Constants || r.Key != "fadd.f32" || r.Class != ClassWrong || r.ParamClass != ClassFine || strings.Join(r.Opts, ",") != "speed" {
			t.Fatalf("row %+v", r)
		}
		var md bytes.Buffer
		if err := Report(&md, res); err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"\n# Constant operands\n", "\n## " + TargetOf(record.Config{Arch: "x86_64"}).String() + " (constant operands)\n", "| `fadd.f32` | speed | ", " | fine | **new** |"} {
			if !strings.Contains(md.String(), want) {
				t.Errorf("census.md lacks %q:\n%s", want, md.String())
			}
		}
	}
}
