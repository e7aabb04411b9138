package record

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"reflect"
	"strings"
	"sync"
	"testing"
)

// caseLines are case records that exercise where the clif member sits and
// what it holds; fast says whether the scanner must take the line itself
// (cliff's own lines must not fall back to the slow path unnoticed).
var caseLines = []struct {
	name string
	line string
	fast bool
}{
	{"as cliff writes", `{"kind":"case","v":1,"id":"a","seed":"7","clif":"function %f() {\nblock0:\n    return\n}\n","inputs":[[{"type":"i32","value":"1"}]],"metrics":{"functions":1,"opcodes":{"return":1}}}`, true},
	{"clif first", `{"clif":"x\ty","kind":"case","v":1,"id":"a"}`, true},
	{"clif last", `{"kind":"case","v":1,"id":"a","clif":"\"quoted\" \\ back\/slash"}`, true},
	{"clif alone", `{"clif":"x"}`, true},
	{"spaces", ` { "kind" : "case" , "clif" : "a\nb" , "id" : "x" } `, true},
	{"nested strings that look like members", `{"features":{"clif":true},"settings":["\"clif\":\"no\"","}"],"clif":"yes","id":"q"}`, true},
	{"empty clif", `{"kind":"case","clif":"","id":"a"}`, true},
	{"utf-8", `{"clif":"; héllo ✓","id":"a"}`, true},
	{"unicode escape", `{"clif":"a\u0041\u00e9","id":"a"}`, false},
	{"surrogate pair", `{"clif":"\ud83d\ude00","id":"a"}`, false},
	{"invalid utf-8", "{\"clif\":\"a\xffb\",\"id\":\"a\"}", false},
	{"repeated clif", `{"clif":"one","clif":"two"}`, false},
	{"no clif", `{"kind":"case","id":"a"}`, true},
	{"input values spelt otherwise", `{"inputs":[[{ "type" : "i8" , "value" : "1" },{"value":"2","type":"i16"},{"type":"i32"},{},{"type":"i64","value":"3"}],[{"type":"i8","value":"4"}],[]]}`, true},
	{"inputs as written", `{"inputs":[[{"type":"i8","value":"1"},{"type":"i8x16","value":"[1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16]"}],[],[{"type":"","value":""},{"type":"f32","value":"-0x1.8p1"}]]}`, true},
	{"no inputs", `{"inputs":[]}`, true},
	{"one empty input vector", `{"inputs":[[]]}`, true},
	{"input value not ASCII", `{"inputs":[[{"type":"i8","value":"é"}]]}`, true},
	{"input value with a space", `{"inputs":[[{"type":"i8","value":"1"}],[{"type":"i8", "value":"2"}]]}`, true},
	{"input vector null", `{"inputs":[[{"type":"i8","value":"1"}],null]}`, false},
	{"input value null", `{"inputs":[[{"type":"i8","value":null}]]}`, false},
	{"input value with a trailing comma", `{"inputs":[[{"type":"i8","value":"1"},]]}`, false},
	{"input vector with a trailing comma", `{"inputs":[[{"type":"i8","value":"1"}],]}`, false},
	{"input vectors without a comma", `{"inputs":[[][]]}`, false},
	{"inputs cut short", `{"inputs":[[{"type":"i8","value":"1"}]`, false},
	{"input value with a control character", "{\"inputs\":[[{\"type\":\"i8\",\"value\":\"1\t\"}]]}", false},
	{"input value with escapes", `{"inputs":[[{"type":"i8","value":"\"1\"\n"}]]}`, true},
	{"input value with a unicode escape", `{"inputs":[[{"type":"i\u0038","value":"1"}]]}`, false},
	{"input value with a repeated key", `{"inputs":[[{"type":"i8","value":"1","type":"i16"}]]}`, false},
	{"input value cut short", `{"inputs":[[{"type":"i8","value":"1"`, false},
	{"repeated feature", `{"features":{"a":true,"b":true,"a":false},"metrics":{"opcodes":{"iadd":1,"iadd":2}}}`, true},
	{"every member", `{"kind":"case","v":1,"id":"g1-2","seed":"18446744073709551615","options":{"mode":"enumerate","index":3,"profile":"compat","depth":5,"funcs":4,"mutation":0.5,"inputs":8,"corpus":"c.zst","corpus_hash":"ab","mask":"m","weights":"w.txt","weights_hash":"cd","crossover":"f.zst","crossover_hash":"ef","portable":true,"crash_only":false},"features":{"f16":true,"ops:arith":false},"parents":[{"file":"a.clif","function":"%f","line":2},{"file":"b.clif","function":"%g"}],"clif":"x","entry":"%main","settings":["a=b"],"refined":["decoy","sink"],"inputs":[[{"type":"i8","value":"-1"},{"type":"f32","value":"NaN"}],[]],"metrics":{"functions":1,"blocks":-2,"insts":3,"cyclomatic":4,"dom_depth":5,"def_use_depth":6,"opcodes":{"iadd":2},"survival":0.25},"results":[{"target":"x86_64","opt":"none","outcome":"ok"}]}`, true},
	{"parents", `{"parents":[{"file":"a\\b.clif","function":"%f","block":"block3","line":-2},{"line":0,"file":""},{}],"clif":"x"}`, true},
	{"parents empty", `{"parents":[],"clif":"x"}`, true},
	{"parents null", `{"parents":null,"clif":"x"}`, false},
	{"parent null", `{"parents":[null],"clif":"x"}`, false},
	{"parent with an unknown key", `{"parents":[{"file":"a","lines":2}]}`, false},
	{"parent with a repeated key", `{"parents":[{"file":"a","file":"b"}]}`, false},
	{"parent line a float", `{"parents":[{"file":"a","line":2.0}]}`, false},
	{"parent line a string", `{"parents":[{"file":"a","line":"2"}]}`, false},
	{"parent not an object", `{"parents":["a"]}`, false},
	{"parents not an array", `{"parents":{"file":"a"}}`, false},
	{"empty containers", `{"features":{},"settings":[],"refined":[],"inputs":[],"metrics":{"opcodes":{}},"options":{}}`, true},
	{"numbers in JSON's forms", `{"v":-0,"options":{"mutation":1e-7,"index":0},"metrics":{"survival":-0.0E+1}}`, true},
	{"integers at the edges", `{"v":-999999999999999999,"options":{"index":999999999999999999,"depth":-9223372036854775808,"funcs":9223372036854775807},"metrics":{"opcodes":{"a":1000000000000000000,"b":-1000000000000000000,"c":0,"d":-0}}}`, true},
	{"maps as written", `{"features":{"a":true,"b":false,"":true},"metrics":{"opcodes":{"a":999999999999999999,"b":-999999999999999999,"c":0,"d":-0,"e":7}}}`, true},
	{"maps with spaces", `{"features":{"a":true, "b":false},"metrics":{"opcodes":{ "a" : 1 }}}`, true},
	{"opcode count a fraction", `{"metrics":{"opcodes":{"a":1.5}}}`, false},
	{"opcode count with an exponent", `{"metrics":{"opcodes":{"a":1e3}}}`, false},
	{"opcode count with a leading zero", `{"metrics":{"opcodes":{"a":01}}}`, false},
	{"opcode count a sign alone", `{"metrics":{"opcodes":{"a":-}}}`, false},
	{"opcode count null", `{"metrics":{"opcodes":{"a":null}}}`, false},
	{"feature null", `{"features":{"a":null}}`, false},
	{"feature key with an escape", `{"features":{"a\nb":true}}`, false},
	{"feature key not ASCII", `{"features":{"é":true}}`, false},
	{"feature with a trailing comma", `{"features":{"a":true,}}`, false},
	{"features cut short", `{"features":{"a":true`, false},
	{"largest index", `{"options":{"index":18446744073709551615}}`, true},
	{"index out of range", `{"options":{"index":18446744073709551616}}`, false},
	{"int out of range", `{"metrics":{"blocks":9223372036854775808}}`, false},
	{"negative int out of range", `{"metrics":{"opcodes":{"a":-9223372036854775809}}}`, false},
	{"negative zero index", `{"options":{"index":-0}}`, false},
	{"int with an exponent", `{"v":1e2}`, false},
	{"key in another case", `{"Kind":"case","clif":"x"}`, false},
	{"unknown key", `{"kind":"case","clif":"x","colour":"red"}`, false},
	{"null", `{"kind":"case","clif":"x","entry":null}`, false},
	{"repeated object", `{"metrics":{"insts":1},"metrics":{"blocks":2}}`, false},
	{"repeated key inside", `{"options":{"depth":1,"depth":2}}`, false},
	{"escaped key", `{"ki\u006ed":"case"}`, false},
	{"float for an int", `{"v":1.0}`, false},
	{"leading zero", `{"v":01}`, false},
	{"seed with a leading zero", `{"seed":"07"}`, false},
	{"seed with a space", `{"seed":" 7"}`, false},
	{"seed out of range", `{"seed":"18446744073709551616"}`, false},
	{"negative index", `{"options":{"index":-1}}`, false},
	{"float out of range", `{"options":{"mutation":1e999}}`, false},
	{"bare dot", `{"options":{"mutation":1.}}`, false},
	{"bool as string", `{"options":{"portable":"true"}}`, false},
	{"truncated literal", `{"options":{"portable":tru}}`, false},
	{"input value not an object", `{"inputs":[[1]]}`, false},
	{"results of the wrong shape", `{"results":{"target":"x"}}`, false},
	{"control character", "{\"clif\":\"a\nb\"}", false},
	{"bad escape", `{"clif":"a\qb"}`, false},
	{"unterminated", `{"clif":"abc`, false},
	{"not an object", `["clif","x"]`, false},
	{"member after the value without a comma", `{"clif":"0""":{}}`, false},
	{"trailing comma", `{"clif":"x",}`, false},
	{"trailing garbage", `{"clif":"x"} x`, false},
	{"bad value elsewhere", `{"clif":"x","seed":7}`, false},
	{"wrong type", `{"clif":7}`, false},
}

// TestUnmarshalCaseMatchesEncodingJSON: the fast decoder gives what
// json.Unmarshal gives, value or error, and takes cliff's lines itself.
func TestUnmarshalCaseMatchesEncodingJSON(t *testing.T) {
	for _, tc := range caseLines {
		t.Run(tc.name, func(t *testing.T) {
			checkSameAsEncodingJSON(t, []byte(tc.line))
			if _, ok := decodeCaseFast([]byte(tc.line)); ok != tc.fast {
				t.Errorf("fast path taken = %v, want %v", ok, tc.fast)
			}
		})
	}
}

// TestUnmarshalCaseGolden decodes the golden case record both ways.
func TestUnmarshalCaseGolden(t *testing.T) {
	line, err := os.ReadFile("testdata/case.json")
	if err != nil {
		t.Fatal(err)
	}
	checkSameAsEncodingJSON(t, line)
	if _, ok := decodeCaseFast(line); !ok {
		t.Error("the golden case record takes the slow path")
	}
}

// TestCaseJSONRecords reads the case records of testdata/cases.jsonl and of
// the files named in $CLIFF_CASE_RECORDS (separated by commas: say, the
// output of cliff-gen and of cliff-refine on many cases): each takes the
// fast path, decodes as encoding/json decodes it and is written back byte
// for byte.
func TestCaseJSONRecords(t *testing.T) {
	files := []string{"testdata/cases.jsonl"}
	if more := os.Getenv("CLIFF_CASE_RECORDS"); more != "" {
		files = append(files, strings.Split(more, ",")...)
	}
	for _, file := range files {
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		scanner := bufio.NewScanner(f)
		scanner.Buffer(nil, 64<<20)
		for n := 1; scanner.Scan(); n++ {
			line := scanner.Bytes()
			c, ok := decodeCaseFast(line)
			if !ok {
				t.Fatalf("%s:%d: slow path", file, n)
			}
			checkSameAsEncodingJSON(t, line)
			if got, err := c.AppendJSON(nil); err != nil || !bytes.Equal(got, line) {
				t.Fatalf("%s:%d: written back as\n%s\n(error %v)", file, n, got, err)
			}
		}
		if err := scanner.Err(); err != nil {
			t.Fatal(err)
		}
	}
}

func checkSameAsEncodingJSON(t *testing.T, line []byte) {
	t.Helper()
	var want, got Case
	wantErr := json.Unmarshal(line, &want)
	gotErr := unmarshalCase(line, &got)
	switch {
	case (wantErr == nil) != (gotErr == nil):
		t.Fatalf("error %v, encoding/json says %v", gotErr, wantErr)
	case wantErr != nil && gotErr.Error() != wantErr.Error():
		t.Errorf("error %q, encoding/json says %q", gotErr, wantErr)
	case wantErr == nil && !reflect.DeepEqual(got, want):
		t.Errorf("decoded\n%+v\nencoding/json decodes\n%+v", got, want)
	}
}

func FuzzUnmarshalCase(f *testing.F) {
	for _, tc := range caseLines {
		f.Add([]byte(tc.line))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		checkSameAsEncodingJSON(t, line)
	})
}

// TestAppendJSONMatchesEncodingJSON: Case.AppendJSON writes what
// encoding/json writes, byte for byte, for every case line of the table
// that decodes and for values at the edges of its spelling rules.
func TestAppendJSONMatchesEncodingJSON(t *testing.T) {
	survival := func(f float64) *float64 { return &f }
	cases := []Case{
		{},
		{Kind: KindCase, Version: 1, ID: "x", CLIF: "a\x00b\x1f\"\\\b\f\n\r\t<>&\u2028\u2029\x7f \xff\xc3 é ✓"},
		{Options: GenOptions{Mutation: 1e-7}, Metrics: Metrics{Opcodes: map[string]int{}}},
		{Options: GenOptions{Mutation: 1e21, CrashOnly: true}, Metrics: Metrics{Survival: survival(-0.0)}},
		{Options: GenOptions{Mutation: 123456.789e-12, Mask: "m"}, Metrics: Metrics{Survival: survival(5e-324)}},
		{Inputs: []InputVector{nil, {}, {{Type: "i8", Value: "-1"}}}, Features: map[string]bool{}},
		{Options: GenOptions{Mutation: math.NaN()}},
		{Metrics: Metrics{Survival: survival(math.Inf(1))}},
		{Results: []RunResult{{Hash: "ab<>"}}},
		{Parents: []Source{{File: "a\n\"b\"<é>\xff", Function: "%f\u2028", Block: "block1", Line: -1}, {}, {File: "x", Line: 7}}},
		{Parents: []Source{}},
	}
	for _, tc := range caseLines {
		var c Case
		if json.Unmarshal([]byte(tc.line), &c) == nil {
			cases = append(cases, c)
		}
	}
	line, err := os.ReadFile("testdata/case.json")
	if err != nil {
		t.Fatal(err)
	}
	var golden Case
	if err := json.Unmarshal(line, &golden); err != nil {
		t.Fatal(err)
	}
	cases = append(cases, golden)
	for i := range cases {
		checkAppendSameAsEncodingJSON(t, &cases[i])
	}
}

func checkAppendSameAsEncodingJSON(t *testing.T, c *Case) {
	t.Helper()
	want, wantErr := appendWithEncodingJSON(nil, c)
	got, gotErr := c.AppendJSON([]byte("prefix"))
	switch {
	case (wantErr == nil) != (gotErr == nil):
		t.Fatalf("error %v, encoding/json says %v", gotErr, wantErr)
	case wantErr != nil && gotErr.Error() != wantErr.Error():
		t.Errorf("error %q, encoding/json says %q", gotErr, wantErr)
	case wantErr == nil && !bytes.Equal(got, append([]byte("prefix"), want...)):
		t.Errorf("appended\n%s\nencoding/json writes\n%s", got, want)
	}
}

// FuzzAppendJSON encodes the cases that fuzzed lines decode to.
func FuzzAppendJSON(f *testing.F) {
	for _, tc := range caseLines {
		f.Add([]byte(tc.line))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		var c Case
		if json.Unmarshal(line, &c) == nil {
			checkAppendSameAsEncodingJSON(t, &c)
		}
	})
}

// stringsAround are texts that put every kind of byte a JSON string
// escapes, and runes of every length, at the edges of the words and the
// buffers that the scanner and the writer copy strings through.
func stringsAround() []string {
	specials := []string{"\n", "\"", "\\", "\t", "\x01", "\x1f", "\x7f", "<", "é", "✓", "😀", "\u2028", "\xff", "\xe2\x9c"}
	var texts []string
	for _, pattern := range []string{"\n", "x\n", "abcdefg\n", "✓", "a\"b\\", "\x00"} {
		texts = append(texts, strings.Repeat(pattern, 2100/len(pattern)))
	}
	for _, n := range []int{0, 1, 2, 7, 8, 9, 15, 16, 17, 1015, 1016, 1017, 1023, 1024, 1025, 1032, 2047, 2048, 2049} {
		plain := strings.Repeat("x", n)
		texts = append(texts, plain)
		for _, at := range []int{0, 1, 7, 8, n / 2, n - 9, n - 8, n - 2, n - 1, n} {
			if at < 0 || at > n {
				continue
			}
			for _, special := range specials {
				texts = append(texts, plain[:at]+special+plain[at:])
			}
		}
	}
	return texts
}

// TestCaseJSONLongStrings decodes and encodes strings with every special
// byte at the edges of words and buffers, as encoding/json does.
func TestCaseJSONLongStrings(t *testing.T) {
	for _, text := range stringsAround() {
		quoted, err := appendWithEncodingJSON(nil, text)
		if err != nil {
			t.Fatal(err)
		}
		line := []byte(`{"id":"x","clif":` + string(quoted) + `,"inputs":[[{"type":"i8","value":` + string(quoted) + `}]]}`)
		checkSameAsEncodingJSON(t, line)
		if _, ok := decodeCaseFast(line); !ok && !bytes.Contains(quoted, []byte(`\u`)) {
			t.Errorf("%q: slow path", text)
		}
		checkAppendSameAsEncodingJSON(t, &Case{ID: "x", CLIF: text, Inputs: []InputVector{{{Type: "i8", Value: text}}}})
	}
}

// TestCaseJSONManyKeys decodes and encodes maps with more members than the
// decoder gathers on the stack.
func TestCaseJSONManyKeys(t *testing.T) {
	c := Case{ID: "x", Features: map[string]bool{}, Metrics: Metrics{Opcodes: map[string]int{}}}
	for i := range 200 {
		c.Features[fmt.Sprintf("f%d", i)] = i%3 == 0
		c.Metrics.Opcodes[fmt.Sprintf("op%d", i)] = i
	}
	checkAppendSameAsEncodingJSON(t, &c)
	line, err := c.AppendJSON(nil)
	if err != nil {
		t.Fatal(err)
	}
	checkSameAsEncodingJSON(t, line)
	if _, ok := decodeCaseFast(line); !ok {
		t.Error("slow path")
	}
}

// TestCaseJSONManyInputs decodes more input vectors and values than the
// decoder gathers on the stack, and checks that the vectors, which share
// one array, do not share room to append to.
func TestCaseJSONManyInputs(t *testing.T) {
	c := Case{ID: "x"}
	for i := range 20 {
		vec := InputVector{}
		for j := range 12 {
			vec = append(vec, Value{Type: fmt.Sprintf("i%d", j), Value: fmt.Sprintf("%d", i*j)})
		}
		c.Inputs = append(c.Inputs, vec)
	}
	line, err := c.AppendJSON(nil)
	if err != nil {
		t.Fatal(err)
	}
	checkSameAsEncodingJSON(t, line)
	got, ok := decodeCaseFast(line)
	if !ok {
		t.Fatal("slow path")
	}
	_ = append(got.Inputs[0], Value{Type: "i8", Value: "appended"})
	if !reflect.DeepEqual(got.Inputs, c.Inputs) {
		t.Errorf("appending to a vector changed the others")
	}
}

// TestAppendJSONKeyOrder writes maps, one key more each time, whose keys
// share long prefixes, differ only in length or zero bytes, or are not
// ASCII (the writer ranks opcode names it has met).
func TestAppendJSONKeyOrder(t *testing.T) {
	keys := []string{"", "\x00", "a", "a\x00", "a\x00\x00", "b", "abcdefg", "abcdefgh", "abcdefgh\x00", "abcdefghi",
		"abcdefgg", "abcdefgi", "abcdefghij", "abcdefghia", "\x7f", "\xff", "é", "✓", "iadd", "iadd_cout",
		"iadd_overflow_trap", "iadd_carry", "iadd_imm", "icmp", "icmp_imm", "uadd_overflow", "uadd_overflow_trap"}
	c := Case{Features: map[string]bool{}, Metrics: Metrics{Opcodes: map[string]int{}}}
	for i, k := range keys {
		c.Features[k] = i%2 == 0
		c.Metrics.Opcodes[k] = i
		checkAppendSameAsEncodingJSON(t, &c)
	}
}

// TestAppendJSONManyOpcodeNames writes opcode counts with more names in
// all than the writer learns ranks for.
func TestAppendJSONManyOpcodeNames(t *testing.T) {
	for i := range 2 * maxRankedKeys / 50 {
		c := Case{Metrics: Metrics{Opcodes: map[string]int{"iadd": i}}}
		for j := range 50 {
			c.Metrics.Opcodes[fmt.Sprintf("op%d_%d", i, j)] = j
		}
		checkAppendSameAsEncodingJSON(t, &c)
	}
}

// TestAppendJSONFeatureSets writes features whose keys change from case
// to case in every way (the writer remembers the last keys, sorted).
func TestAppendJSONFeatureSets(t *testing.T) {
	for _, keys := range [][]string{
		{"a", "b", "c"}, {"c", "b", "a"}, {"a", "b", "d"}, {"a", "b"}, {"a", "b", "c", "d"}, {},
		{"b"}, {"a"}, {"a", "b", "c"}, {"d", "c", "b", "a"}, {"d", "c", "b", "e"},
	} {
		c := Case{Features: map[string]bool{}}
		for i, k := range keys {
			c.Features[k] = i%2 == 0
		}
		checkAppendSameAsEncodingJSON(t, &c)
	}
}

// TestAppendJSONConcurrently writes cases with different features and
// opcodes from several goroutines at once (go test -race checks the
// remembered keys and ranks).
func TestAppendJSONConcurrently(t *testing.T) {
	cases := make([]Case, 4)
	want := make([][]byte, len(cases))
	for i := range cases {
		cases[i].Features = map[string]bool{"shared": true}
		cases[i].Metrics.Opcodes = map[string]int{"shared": i}
		for j := range i + 1 {
			cases[i].Features[fmt.Sprintf("f%d", j*i)] = j%2 == 0
			cases[i].Metrics.Opcodes[fmt.Sprintf("concurrent%d", j*i)] = j
		}
		var err error
		if want[i], err = appendWithEncodingJSON(nil, &cases[i]); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	for i := range cases {
		wg.Go(func() {
			for range 200 {
				if got, _ := cases[i].AppendJSON(nil); !bytes.Equal(got, want[i]) {
					t.Errorf("appended\n%s\nencoding/json writes\n%s", got, want[i])
					return
				}
			}
		})
	}
	wg.Wait()
}
