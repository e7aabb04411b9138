package parents

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"cliff/lib/ir"
)

// corpus is a cliff-extract --functions output in small: a function with
// a diamond and run lines, one that does not parse, one that does not
// verify (a use its definition does not dominate), one that verifies only
// with an ISA (get_frame_pointer), and a block snippet, passed over.
const corpus = `{"kind":"snippet","v":1,"id":"1111111111111111","source":{"file":"a.clif","function":"%diamond","line":3},"level":"function","count":1,"function":"function %diamond(i32) -> i32 {\nblock0(v0: i32):\n    brif v0, block1, block2\nblock1:\n    v1 = iconst.i32 1\n    jump block3(v1)\nblock2:\n    jump block3(v0)\nblock3(v2: i32):\n    return v2\n}\n","runs":[[{"type":"i32","value":"5"}]]}
{"kind":"snippet","v":1,"id":"2222222222222222","source":{"file":"a.clif","function":"%bad"},"level":"function","count":1,"function":"function %bad( {\n"}
{"kind":"snippet","v":1,"id":"3333333333333333","source":{"file":"a.clif","function":"%undominated"},"level":"function","count":1,"function":"function %undominated(i32) -> i32 {\nblock0(v0: i32):\n    brif v0, block1, block2\nblock1:\n    v1 = iconst.i32 1\n    jump block2\nblock2:\n    return v1\n}\n"}
{"kind":"snippet","v":1,"id":"4444444444444444","source":{"file":"a.clif","function":"%fp"},"level":"function","count":1,"function":"function %fp() -> i64 {\nblock0:\n    v0 = get_frame_pointer.i64\n    return v0\n}\n"}
{"kind":"snippet","v":1,"id":"5555555555555555","source":{"file":"a.clif","function":"%f","block":"block0"},"level":"block","params":["i32"],"insts":[{"opcode":"iadd","ctrl_type":"i32","args":["in0","in0"],"arg_types":["i32","i32"],"result_types":["i32"]}],"count":1}
`

func TestLoad(t *testing.T) {
	path := filepath.Join(t.TempDir(), "functions.jsonl")
	if err := os.WriteFile(path, []byte(corpus), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if c.Read != 4 || c.Refused[NoParse] != 1 || c.Refused[NoVerify] != 1 || len(c.Funcs) != 2 {
		t.Fatalf("read %d, refused %v, kept %d; want 4 read, one of each refused, 2 kept", c.Read, c.Refused, len(c.Funcs))
	}
	d := c.Funcs[0]
	if d.Source.Function != "%diamond" || len(d.Runs) != 1 || d.Runs[0][0].Value != "5" {
		t.Errorf("first function %s with runs %v", d.Source.Function, d.Runs)
	}
	for _, tc := range []struct {
		what      string
		got, want []ir.Block
	}{
		{"RPO", d.RPO[:1], []ir.Block{0}},
		{"children of block0", d.DomChildren[0], []ir.Block{2, 1, 3}}, // in RPO order
		{"children of block1", d.DomChildren[1], nil},
	} {
		if !slices.Equal(tc.got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.what, tc.got, tc.want)
		}
	}
	if len(d.RPO) != 4 || d.RPO[3] != 3 {
		t.Errorf("RPO %v: want the four blocks, block3 last", d.RPO)
	}
	if c.Funcs[1].Source.Function != "%fp" {
		t.Errorf("second function %s, want %%fp (verifies with an ISA)", c.Funcs[1].Source.Function)
	}
}
