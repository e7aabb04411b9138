package parser

import (
	"fmt"
	"strings"
	"testing"

	"cliff/lib/ir"
)

// tokString renders a token of src compactly for comparisons: kind:text,
// with the number or type where the kind has one.
func renderTok(src string, t token) string {
	name := tokNames[t.kind]
	switch {
	case t.kind == tokType:
		return name + ":" + t.typ.String()
	case t.kind >= tokValue:
		return fmt.Sprintf("%s:%d", name, t.num)
	case t.kind == tokEOF:
		return name
	}
	return name + ":" + src[t.off:t.end]
}

var tokNames = map[tokKind]string{
	tokEOF: "eof", tokInvalid: "invalid", tokUnterminated: "unterminated", tokComment: "comment",
	tokLPar: "(", tokRPar: ")", tokLBrace: "{", tokRBrace: "}", tokLBracket: "[", tokRBracket: "]",
	tokLAngle: "<", tokRAngle: ">", tokMinus: "minus", tokPlus: "plus", tokStar: "star",
	tokComma: ",", tokDot: ".", tokColon: "colon", tokEqual: "=", tokBang: "!", tokAt: "at",
	tokArrow: "arrow", tokFloat: "float", tokInteger: "int", tokType: "type", tokIdent: "ident",
	tokName: "name", tokString: "string", tokHexSeq: "hex", tokSrcLoc: "srcloc", tokCold: "cold",
	tokValue: "value", tokBlock: "block", tokStackSlot: "ss", tokDynSlot: "dss", tokDynType: "dt",
	tokGlobalValue: "gv", tokMemoryType: "mt", tokConstant: "const", tokFuncRef: "fn",
	tokSigRef: "sig", tokUserRef: "u", tokUserName: "userextname", tokExTable: "extable",
	tokTag: "tag", tokRegion: "region", tokRet: "ret", tokExn: "exn",
}

func lexAll(src string) []token {
	l := newLexer(src)
	var out []token
	for {
		var t token
		l.scan(&t)
		out = append(out, t)
		if t.kind == tokEOF {
			return out
		}
	}
}

func TestLexer(t *testing.T) {
	tests := []struct {
		src  string
		want string // space-separated tokString of each token before EOF
	}{
		{"v1 = iadd v2, v3", "value:1 =:= ident:iadd value:2 ,:, value:3"},
		{"block0(v0: i32):", "block:0 (:( value:0 colon:: type:i32 ):) colon::"},
		{"block7 cold:", "block:7 cold:cold colon::"},
		{"i8x16 f64x2 i64 f128 i8x1 i32x3 i8x512 i32x4xN",
			"type:i8x16 type:f64x2 type:i64 type:f128 type:i8 ident:i32x3 ident:i8x512 ident:i32x4xN"},
		{"ss3 dss4 dt5 gv6 mt0 const2 fn2 sig9 u1 userextname3 extable1 tag2 region0 ret1 exn0",
			"ss:3 dss:4 dt:5 gv:6 mt:0 const:2 fn:2 sig:9 u:1 userextname:3 extable:1 tag:2 region:0 ret:1 exn:0"},
		// Leading zeros and overlong numbers make plain identifiers.
		{"v01 v0 block4294967295 v2147483647 v2147483646", "ident:v01 value:0 ident:block4294967295 ident:v2147483647 value:2147483646"},
		{"user1 heap_oob notrap", "ident:user1 ident:heap_oob ident:notrap"},
		{"42 -7 +8 0xff_00 -0x10", "int:42 int:-7 int:+8 int:0xff_00 int:-0x10"},
		{"0.0 -0.0 0x1.5p3 0x1.0p-3 -0x0.4p-34", "float:0.0 float:-0.0 float:0x1.5p3 float:0x1.0p-3 float:-0x0.4p-34"},
		{"Inf -Inf NaN +NaN -NaN NaN:0x42 +sNaN:0x1 -sNaN:0x1", "float:Inf float:-Inf float:NaN float:+NaN float:-NaN float:NaN:0x42 float:+sNaN:0x1 float:-sNaN:0x1"},
		// A bare sNaN is a word, as in Cranelift.
		{"sNaN:0x1", "ident:sNaN colon:: int:0x1"},
		{"ss0+8 v2-4 gv1-16", "ss:0 int:+8 value:2 int:-4 gv:1 int:-16"},
		{"- + -> * ! @ @00c7 #89af", "minus:- plus:+ arrow:-> star:* !:! at:@ srcloc:00c7 hex:89af"},
		{"%name %0 %a_b9 u0:1", "name:%name name:%0 name:%a_b9 u:0 colon:: int:1"},
		{`"heap" "multi
line"`, "string:heap string:multi\nline"},
		{"[1 2] <0, 1> {}", "[:[ int:1 int:2 ]:] <:< int:0 ,:, int:1 >:> {:{ }:}"},
		{"v1 ; comment v2\nv3", "value:1 comment:; comment v2 value:3"},
		{"x $ y", "ident:x invalid:$ ident:y"},
		{"_x", "invalid:_ ident:x"},
		{`"open`, "unterminated:\"open"},
	}
	for _, tc := range tests {
		toks := lexAll(tc.src)
		var got []string
		for _, tok := range toks[:len(toks)-1] {
			got = append(got, renderTok(tc.src, tok))
		}
		if g := strings.Join(got, " "); g != tc.want {
			t.Errorf("lex %q:\n got %s\nwant %s", tc.src, g, tc.want)
		}
	}
}

func TestLexerPositions(t *testing.T) {
	src := "function %f() {\n\tblock0:\n  ; é comment\n  v1 = iconst.i32 -1 ; é\n}"
	want := []struct {
		text      string
		line, col int
	}{
		{"function", 1, 1}, {"%f", 1, 10}, {"(", 1, 12}, {")", 1, 13}, {"{", 1, 15},
		{"block0", 2, 2}, {":", 2, 8},
		{"; é comment", 3, 3},
		{"v1", 4, 3}, {"=", 4, 6}, {"iconst", 4, 8}, {".", 4, 14}, {"i32", 4, 15}, {"-1", 4, 19}, {"; é", 4, 22},
		{"}", 5, 1},
	}
	toks := lexAll(src)
	if len(toks) != len(want)+1 {
		t.Fatalf("got %d tokens, want %d", len(toks), len(want)+1)
	}
	for i, w := range want {
		tok := toks[i]
		if text := src[tok.off:tok.end]; text != w.text || tok.pos() != (ir.Pos{Line: w.line, Col: w.col}) {
			t.Errorf("token %d: got %q at %d:%d, want %q at %d:%d", i, text, tok.line, tok.col, w.text, w.line, w.col)
		}
	}
	// Columns count characters: the token after a multi-byte character.
	src = "; é\né v1"
	toks = lexAll(src)
	if tok := toks[2]; tok.kind != tokValue || tok.line != 2 || tok.col != 3 {
		t.Errorf("v1 after é: got %s at %d:%d, want value at 2:3", renderTok(src, tok), tok.line, tok.col)
	}
}

func TestIsEntityNumber(t *testing.T) {
	tests := []struct {
		in string
		n  uint32
		ok bool
	}{
		{"", 0, false}, {"1", 1, true}, {"01", 0, false}, {"0", 0, true}, {"4294967295", 4294967295, true},
		{"4294967296", 0, false}, {"00000000001", 0, false}, {"9999999999", 0, false},
		// 2^64+1: its value wraps to 1.
		{"18446744073709551617", 0, false},
	}
	for _, tc := range tests {
		var n uint64
		for _, c := range []byte(tc.in) {
			n = n*10 + uint64(c-'0')
		}
		first := byte(0)
		if tc.in != "" {
			first = tc.in[0]
		}
		if ok := isEntityNumber(len(tc.in), first, n); ok != tc.ok || ok && uint32(n) != tc.n {
			t.Errorf("isEntityNumber(%q, %d) = %v; want %d, %v", tc.in, n, ok, tc.n, tc.ok)
		}
	}
}

func TestWordTypes(t *testing.T) {
	for _, ty := range []ir.Type{ir.I8, ir.I128, ir.F16, ir.F128, ir.I8X16, ir.F64X2, ir.Vector(ir.I8, 256), ir.Vector(ir.F32, 2)} {
		toks := lexAll(ty.String())
		if toks[0].kind != tokType || toks[0].typ != ty {
			t.Errorf("%s lexes as %s", ty, renderTok(ty.String(), toks[0]))
		}
	}
}

// wordFastPathSeeds are words near values and scalar types, for scan's
// fast paths for them.
var wordFastPathSeeds = []string{
	"v", "v0", "v1", "v01", "v00", "v10", "v2147483646", "v2147483647", "v4294967295", "v4294967296",
	"v99999999999", "v18446744073709551617", "v1x", "v1_", "v1x4", "vx1", "v_1", "v1.", "v1,", "v1:",
	"v1 ", "v1\n", "v1é", "v12(", "v12-3", "v12+3", "v1;", "v9999999999", "v0000000001",
	"i8", "i16", "i32", "i64", "i128", "f16", "f32", "f64", "f128", "i", "f", "i1", "i08", "i032", "f8",
	"i32x4", "f64x2", "i32x", "i32_", "i32.", "i32,", "i64 ", "f32\n", "i256", "f0", "fn0", "iconst", "i8x16",
	"i99999999999", "i4294967296", "f64é",
}

// TestWordFastPaths checks scan's fast paths for values and scalar types
// against word, which reads every other word: both must read the same
// token.
func TestWordFastPaths(t *testing.T) {
	for _, w := range wordFastPathSeeds {
		checkWordFastPaths(t, w)
		checkWordFastPaths(t, w+" v2")
	}
}

// FuzzWordFastPaths is TestWordFastPaths on any word that starts with v,
// i or f (as first says: 0, 1 or 2).
func FuzzWordFastPaths(f *testing.F) {
	for _, w := range wordFastPathSeeds {
		f.Add(strings.IndexByte("vif", w[0]), w[1:])
	}
	f.Fuzz(func(t *testing.T, first int, rest string) {
		if first >= 0 && first < 3 {
			checkWordFastPaths(t, "vif"[first:first+1]+rest)
		}
	})
}

func checkWordFastPaths(t *testing.T, src string) {
	fast := newLexer(src)
	var got token
	fast.scan(&got)
	slow := newLexer(src)
	want := token{line: 1, col: 1}
	slow.word(&want)
	if got != want || fast.pos != slow.pos {
		t.Errorf("%q: scan read %s up to %d, word %s up to %d", src, renderTok(src, got), fast.pos, renderTok(src, want), slow.pos)
	}
}
