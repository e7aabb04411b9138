package printer

import (
	"os"
	"strings"
	"testing"

	"cliff/lib/parser"
)

// craneliftPrinted extracts the functions Cranelift printed into a
// filetest's expectations: comment blocks from `; function` to `; }`, with
// the comment prefix removed.
func craneliftPrinted(src string) []string {
	var out []string
	var cur []string
	in := false
	for _, line := range strings.Split(src, "\n") {
		if !in && strings.HasPrefix(line, "; function ") {
			in, cur = true, nil
		}
		if !in {
			continue
		}
		if !strings.HasPrefix(line, ";") {
			in = false // not a complete function
			continue
		}
		text := strings.TrimPrefix(strings.TrimPrefix(line, ";"), " ")
		cur = append(cur, text)
		if text == "}" {
			out = append(out, strings.Join(cur, "\n")+"\n")
			in = false
		}
	}
	return out
}

// TestPrintsLikeCranelift parses every function that Cranelift itself
// printed into the filetests' expectations (`test optimize precise-output`,
// `test inline precise-output`) and prints it again: the text must come
// out byte for byte the same. (The deliberate differences the package
// documentation lists do not occur in these files.)
func TestPrintsLikeCranelift(t *testing.T) {
	var total, exact int
	for _, path := range clifFiles(t) {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		// Plain `test optimize` files hold hand-written expectations;
		// only precise-output ones hold what Cranelift printed.
		if first, _, _ := strings.Cut(string(src), "\n"); !strings.Contains(first, "precise-output") {
			continue
		}
		for _, want := range craneliftPrinted(string(src)) {
			m, err := parser.ParseModule(path, []byte(want))
			if err != nil || len(m.Funcs) != 1 {
				// Cranelift prints some things its own reader rejects
				// (`types::I32x4xN`); those cannot be compared.
				if !strings.Contains(want, "types::") {
					t.Errorf("%s: Cranelift's output does not parse: %v\n%s", path, err, want)
				}
				continue
			}
			total++
			got := FunctionString(m.Funcs[0])
			if got == want {
				exact++
				continue
			}
			t.Errorf("%s: printed differently from Cranelift:\n%s\n--- cliff\n%s--- cranelift\n%s", path, firstDiff(got, want), got, want)
		}
	}
	t.Logf("%d Cranelift-printed functions: %d printed identically", total, exact)
	// 505 functions in the filetests of Cranelift 0.135, among them the
	// ones with source locations, stack-slot debug tags and stack maps.
	if total < 505 {
		t.Errorf("found %d Cranelift-printed functions, want at least 505", total)
	}
}
