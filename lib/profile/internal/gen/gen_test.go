package gen

import (
	"slices"
	"strings"
	"testing"

	"cliff/lib/ir"
)

// minimalFacts is a facts file for one target "t" that generates the
// given opcodes and declares every other opcode never generated.
func minimalFacts(ops string, rest string) string {
	var never []string
	for _, op := range ir.Opcodes() {
		if !slices.Contains(strings.Fields(ops), op.String()) {
			never = append(never, op.String())
		}
	}
	return "ops " + ops + "\nnever " + strings.Join(never, " ") + " # not in this test\n" +
		"arch t\npointer i64\ntypes i8 i32 i64 f32 f64 i32x4 f32x4\ncallconv fast system_v\n" + rest
}

func generate(t *testing.T, src string) (string, error) {
	t.Helper()
	f, err := ParseFacts("facts.txt", []byte(src))
	if err != nil {
		return "", err
	}
	files, err := Generate(f)
	if err != nil {
		return "", err
	}
	return string(files["t.txt"]), nil
}

func TestGenerate(t *testing.T) {
	tests := []struct {
		name, ops, rest string
		want, notWant   []string // whole lines
	}{
		{
			name: "table types among the target's",
			ops:  "iadd nop stack_addr",
			want: []string{"op iadd i8 i32 i64 i32x4", "op nop", "op stack_addr i64", "callconv fast system_v"},
		},
		{
			name:    "exclude by glob",
			ops:     "iadd",
			rest:    "exclude iadd *x*,i8  # test\n",
			want:    []string{"op iadd i32 i64"},
			notWant: []string{"op iadd i8 i32 i64 i32x4"},
		},
		{
			name: "free operand types, with a shape rule and a free pattern",
			ops:  "fcvt_from_sint",
			rest: "shape fcvt_from_sint same-lanes  # test\nexclude fcvt_from_sint f64:i8  # test\n",
			want: []string{"op fcvt_from_sint f32 with i8 i32 i64", "op fcvt_from_sint f64 with i32 i64", "op fcvt_from_sint f32x4 with i32x4"},
		},
		{
			name: "narrower operand",
			ops:  "uextend",
			want: []string{"op uextend i32 with i8", "op uextend i64 with i8 i32"},
		},
		{
			name: "restricted immediates",
			ops:  "fcmp",
			rest: "exclude-imm fcmp *x* ueq,one  # test\n",
			want: []string{"op fcmp f32 f64 f32x4", "imm fcmp f32x4 ord uno eq ne lt le gt ge ult ule ugt uge"},
		},
		{
			name: "settings and byte orders with their reasons",
			ops:  "nop",
			rest: "setting a=b  # why a\nbyteorder little  # why little\nabi i64 i8\n",
			want: []string{"setting a=b  # why a", "byteorder little  # why little", "abi i8 i64"},
		},
		{
			name: "operand types the target lacks",
			ops:  "uload8x8 swiden_low",
			want: nil, notWant: []string{"op uload8x8 i64", "op swiden_low i32x4"}, // i16x8 / i64x2 missing
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := generate(t, minimalFacts(tt.ops, tt.rest))
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(out, "\n")
			for _, w := range tt.want {
				if !slices.Contains(lines, w) {
					t.Errorf("missing line %q in\n%s", w, out)
				}
			}
			for _, w := range tt.notWant {
				if slices.Contains(lines, w) {
					t.Errorf("unexpected line %q", w)
				}
			}
		})
	}
}

func TestFactsErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		{minimalFacts("iadd", "exclude iadd i16  # test\n"), "facts.txt:7: exclusion matches nothing"},
		{minimalFacts("iadd", "exclude iadd i8\n"), "facts.txt:7: exclude needs a reason"},
		{minimalFacts("iadd", "exclude nosuch i8  # x\n"), "facts.txt:7: unknown opcode \"nosuch\""},
		{minimalFacts("iadd", "exclude @none i8  # x\n"), "facts.txt:7: unknown group @none"},
		{minimalFacts("iadd", "exclude iadd [  # x\n"), "facts.txt:7: bad pattern"},
		{minimalFacts("iadd", "shape iadd round  # x\n"), "facts.txt:7: unknown shape rule"},
		{minimalFacts("iadd", "wibble\n"), "facts.txt:7: unknown directive"},
		{minimalFacts("iadd", "callconv fastest\n"), "facts.txt:7: unknown calling convention"},
		{minimalFacts("iadd", "byteorder middle  # x\n"), "facts.txt:7: byte order \"middle\""},
		{"types i8\n", "facts.txt:1: types before any arch line"},
		{"ops iadd\n", "facts.txt: opcodes neither in ops nor in never"},
		{strings.Replace(minimalFacts("iadd", ""), "never ", "never iadd ", 1), "facts.txt: opcodes in both ops and never: iadd"},
		{strings.Replace(minimalFacts("iadd", ""), "pointer i64\n", "", 1), "facts.txt: arch t: no pointer type"},
	}
	for _, tt := range tests {
		_, err := generate(t, tt.src)
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("error = %v, want prefix %q", err, tt.want)
		}
	}
}
