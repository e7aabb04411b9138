package deflist

import "testing"

func TestFormat(t *testing.T) {
	got := Format([]Def{
		{"crash", "the compiled code died on a signal"},
		{"stack_overflow", "no configuration answered: a run hit the interpreter's stack limit (and nothing else went wrong)"},
		{"reference_divergent", "every configuration agrees"},
	})
	want := `  crash          the compiled code died on a signal
  stack_overflow no configuration answered: a run hit the interpreter's
                 stack limit (and nothing else went wrong)
  reference_divergent
                 every configuration agrees
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
