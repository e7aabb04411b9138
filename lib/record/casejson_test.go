package record

import (
	"encoding/json"
	"os"
	"reflect"
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
	{"no clif", `{"kind":"case","id":"a"}`, false},
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
