package metrics

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cliff/lib/ir"
	"cliff/lib/record"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func survival(v float64) *float64 { return &v }

// goldenCases are 12 cases of varied shape; the last two have no survival.
func goldenCases() []record.Metrics {
	var out []record.Metrics
	for i := range 12 {
		m := record.Metrics{
			Functions:   1 + i%3,
			Blocks:      4 + i*i,
			Insts:       20 + 25*i,
			Cyclomatic:  i * 3,
			DomDepth:    1 + i/2,
			DefUseDepth: 2 + i%5,
			Opcodes:     map[string]int{"iconst": 2 + i, "iadd": 1, "return": 1},
		}
		if i%2 == 0 {
			m.Opcodes["brif"] = 1
			m.Opcodes["jump"] = 2
		}
		if i == 7 {
			m.Opcodes["x86_pshufb"] = 1 // outside the profile below
		}
		if i < 10 {
			m.Survival = survival(0.05 + float64(i)*0.095)
		}
		out = append(out, m)
	}
	return out
}

var goldenProfile = []ir.Opcode{ir.OpIconst, ir.OpIadd, ir.OpIsub, ir.OpImul, ir.OpBrif, ir.OpJump, ir.OpReturn, ir.OpIadd}

func TestSummaryPrintGolden(t *testing.T) {
	tests := []struct {
		name    string
		cases   []record.Metrics
		profile []ir.Opcode
	}{
		{"summary", goldenCases(), goldenProfile},
		{"no_profile", goldenCases()[10:], nil},
		{"empty", nil, goldenProfile},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s Summary
			for _, m := range tt.cases {
				s.Add(m)
			}
			var buf bytes.Buffer
			if err := s.Print(&buf, tt.profile); err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", tt.name+".golden")
			if *update {
				if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if got := buf.String(); got != string(want) {
				t.Errorf("Print differs from %s (run with -update if intended):\n%s", golden, got)
			}
		})
	}
}

func TestSummaryFigures(t *testing.T) {
	var s Summary
	for _, m := range goldenCases() {
		s.Add(m)
	}
	tests := []struct {
		figure string
		want   Stats
	}{
		// 1 2 3 1 2 3 ...: four of each.
		{"functions", Stats{N: 12, Min: 1, Median: 2, Mean: 2, P90: 3, Max: 3}},
		// 20, 45, ..., 295: the median is between 145 and 170.
		{"insts", Stats{N: 12, Min: 20, Median: 157.5, Mean: 157.5, P90: 267.5, Max: 295}},
		// The even cases have 5 (brif and jump), the odd ones 3 but case
		// 7 with 4: 3 3 3 3 3 4 | 5 5 5 5 5 5.
		{"distinct_opcodes", Stats{N: 12, Min: 3, Median: 4.5, Mean: 4 + 1.0/12, P90: 5, Max: 5}},
		// Only the first ten cases: 0.05, 0.145, ..., 0.905.
		{"survival", Stats{N: 10, Min: 0.05, Median: 0.4775, Mean: 0.4775, P90: 0.8195, Max: 0.905}},
	}
	for _, tt := range tests {
		got, ok := s.Figure(tt.figure)
		if !ok || !closeStats(got, tt.want) {
			t.Errorf("Figure(%q):\n got %+v, %v\nwant %+v", tt.figure, got, ok, tt.want)
		}
	}
	if _, ok := s.Figure("survivl"); ok {
		t.Error("Figure of an unknown name succeeded")
	}
	if s.Cases() != 12 {
		t.Errorf("Cases() = %d, want 12", s.Cases())
	}
}

// TestSummaryMemoryIsBounded adds many cases with few distinct values: the
// summary keeps one count per value, not one entry per case.
func TestSummaryMemoryIsBounded(t *testing.T) {
	var s Summary
	for i := range 100_000 {
		s.Add(record.Metrics{Insts: 100 + i%7, Survival: survival(float64(i%3) / 2), Opcodes: map[string]int{"iadd": 1}})
	}
	for i, f := range figures {
		if n := len(s.figures[i].counts); n > 7 {
			t.Errorf("%s keeps %d values for 7 distinct ones", f.name, n)
		}
	}
	if st, _ := s.Figure("insts"); st.N != 100_000 || st.Median != 103 {
		t.Errorf("insts over 100,000 cases: %+v", st)
	}
}

func TestSummaryPrintNamesMissingOpcodes(t *testing.T) {
	var s Summary
	s.Add(record.Metrics{Opcodes: map[string]int{"iadd": 3, "return": 1}})
	var buf bytes.Buffer
	if err := s.Print(&buf, []ir.Opcode{ir.OpIadd, ir.OpReturn, ir.OpSdiv, ir.OpRotr}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{"2 of the profile's 4 (50.0% diversity)", "profile opcodes never seen (2):\n  rotr sdiv\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("Print does not say %q:\n%s", want, out)
		}
	}
}
