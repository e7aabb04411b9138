package parents

import (
	"encoding/json"
	"errors"
	"io"
	"os"
	"reflect"
	"strings"
	"testing"

	"cliff/lib/jsonl"
	"cliff/lib/record"
)

// TestDecodeSnippet checks the hand decoder against encoding/json: on
// records of the form cliff-extract writes it decodes them itself
// (fast), on the rest it leaves them to encoding/json; either way the
// record, or the failure, is encoding/json's.
func TestDecodeSnippet(t *testing.T) {
	const fn = `"function":"function %f(i32) -> i32 {\nblock0(v0: i32):\n    return v0\n}\n"`
	for _, tc := range []struct {
		name string
		line string
		fast bool
	}{
		{"function", `{"kind":"snippet","v":1,"id":"5c40820c637af2f7","source":{"file":"a/b.clif","function":"%f","line":31},"level":"function","count":1,` + fn + `}`, true},
		{"runs", `{"kind":"snippet","v":1,"id":"x","source":{"file":"f","function":"%f","line":5},"level":"function","count":2,` + fn + `,"runs":[[{"type":"i64","value":"0"}],[{"type":"i32","value":"-0x1.8p1"},{"type":"i8x16","value":"[1 2 3]"}]]}`, true},
		{"empty runs", `{"kind":"snippet","v":1,"level":"function","runs":[[],[]]}`, true},
		{"no runs", `{"kind":"snippet","runs":[]}`, true},
		{"empty", `{}`, true},
		{"space", " {\t\"kind\" :\r\n\"snippet\" , \"v\" : -12 , \"source\" : { } } \n", true},
		{"escapes", `{"function":"a\"b\\c\/d\be\ff\ng\rh\ti"}`, true},
		{"escape first", `{"id":"\n"}`, true},
		{"block", `{"source":{"file":"f","block":"block3","line":0}}`, true},
		{"twice", `{"source":{"file":"f"},"source":{"line":3},"kind":"a","kind":"b"}`, true},
		{"runs twice", `{"runs":[[{"type":"i8","value":"1"}],[]],"runs":[[]]}`, true},
		{"15 digits", `{"count":999999999999999}`, true},
		{"unicode escape", `{"function":"\u00e9"}`, false},
		{"surrogates", `{"function":"\ud83d\ude00"}`, false},
		{"not ASCII", `{"function":"é"}`, false},
		{"bad UTF-8", "{\"function\":\"\xff\"}", false},
		{"other case", `{"Kind":"snippet"}`, false},
		{"escaped key", `{"k\u0069nd":"snippet"}`, false},
		{"escape in key", `{"kind\n":"snippet"}`, false},
		{"key not ASCII", `{"kïnd":"snippet"}`, false},
		{"unknown key", `{"kind":"snippet","extra":1}`, false},
		{"null", `{"kind":null}`, false},
		{"null runs", `{"runs":null}`, false},
		{"insts", `{"kind":"snippet","level":"block","insts":[{"opcode":"iadd"}]}`, false},
		{"params", `{"params":["i32"]}`, false},
		{"fraction", `{"v":1.0}`, false},
		{"exponent", `{"v":1e2}`, false},
		{"16 digits", `{"count":1234567890123456}`, false},
		{"huge", `{"count":123456789012345678901234567890}`, false},
		{"leading zero", `{"v":01}`, false},
		{"minus alone", `{"v":-}`, false},
		{"string for number", `{"v":"1"}`, false},
		{"number for string", `{"kind":1}`, false},
		{"control character", "{\"function\":\"a\tb\"}", false},
		{"bad escape", `{"function":"\x"}`, false},
		{"unterminated", `{"function":"abc`, false},
		{"unterminated escape", `{"function":"a\`, false},
		{"trailing comma", `{"kind":"a",}`, false},
		{"missing colon", `{"kind" "a"}`, false},
		{"trailing data", `{"kind":"a"} x`, false},
		{"two objects", `{}{}`, false},
		{"array", `[]`, false},
		{"blank", ``, false},
		{"unclosed", `{"kind":"a"`, false},
		{"run not an object", `{"runs":[[1]]}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var fast record.Snippet
			var d decoder
			if got := d.snippet([]byte(tc.line), &fast); got != tc.fast {
				t.Errorf("decoded by hand: %v, want %v", got, tc.fast)
			}
			checkSnippet(t, []byte(tc.line))
		})
	}
}

// checkSnippet checks that unmarshalSnippet decodes line as encoding/json
// does, and reports whether the hand decoder took it.
func checkSnippet(t *testing.T, line []byte) bool {
	t.Helper()
	var got, want record.Snippet
	var d decoder
	gotErr, wantErr := d.unmarshal(line, &got), json.Unmarshal(line, &want)
	if (gotErr == nil) != (wantErr == nil) || gotErr != nil && gotErr.Error() != wantErr.Error() {
		t.Fatalf("%s: error %v, encoding/json says %v", line, gotErr, wantErr)
	}
	if wantErr == nil && !reflect.DeepEqual(got, want) {
		t.Fatalf("%s:\ndecoded     %#v\nencoding/json %#v", line, got, want)
	}
	var fast record.Snippet
	return d.snippet(line, &fast)
}

// TestDecodeSnippetCorpus checks every record of the test corpora, and of
// the corpus cliff-extract writes to out/ when there is one (the test
// corpora have no run lines), as TestDecodeSnippet does: the function
// records must all be decoded by hand.
func TestDecodeSnippetCorpus(t *testing.T) {
	for _, path := range []string{"../gen/testdata/functions.jsonl.zst", "../gen/testdata/corpus.jsonl.zst", "../../out/functions.jsonl.zst"} {
		t.Run(path, func(t *testing.T) {
			if _, err := os.Stat(path); err != nil && strings.HasPrefix(path, "../../out/") {
				t.Skipf("no corpus at %s", path)
			}
			rd, closer, err := jsonl.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer closer.Close()
			functions, runs := 0, 0
			for {
				line, err := rd.NextRaw()
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				fast := checkSnippet(t, line)
				if strings.Contains(string(line), `"level":"function"`) {
					functions++
					if !fast {
						t.Errorf("a function record is left to encoding/json: %.200s", line)
					}
					if strings.Contains(string(line), `"runs":`) {
						runs++
					}
				}
			}
			t.Logf("%d function records, %d with run lines", functions, runs)
		})
	}
}

// BenchmarkDecodeSnippet decodes the function records of the test corpus
// (746, 0.4 MB), by hand as Load does and with encoding/json as it did.
func BenchmarkDecodeSnippet(b *testing.B) {
	rd, closer, err := jsonl.Open("../gen/testdata/functions.jsonl.zst")
	if err != nil {
		b.Fatal(err)
	}
	defer closer.Close()
	var lines [][]byte
	for {
		line, err := rd.NextRaw()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			b.Fatal(err)
		}
		if strings.Contains(string(line), `"level":"function"`) {
			lines = append(lines, append([]byte(nil), line...))
		}
	}
	for _, bench := range []struct {
		name   string
		decode func([]byte, *record.Snippet) error
	}{
		{"hand", new(decoder).unmarshal},
		{"encoding-json", func(line []byte, s *record.Snippet) error { return json.Unmarshal(line, s) }},
	} {
		b.Run(bench.name, func(b *testing.B) {
			for b.Loop() {
				for _, line := range lines {
					var s record.Snippet
					if err := bench.decode(line, &s); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
