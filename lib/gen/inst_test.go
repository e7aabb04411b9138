package gen

import (
	"testing"

	"cliff/lib/ir"
)

// TestTableRulesKnown: every free rule and partial guard the opcode table
// names is one cliff-gen has (a rule it lacked would panic mid-case).
func TestTableRulesKnown(t *testing.T) {
	guards := map[string]bool{"nonzero": true, "nonzero_nooverflow": true, "in_range": true}
	for _, op := range ir.Opcodes() {
		info := op.Info()
		if r := info.FreeRule; r != "" && freeVarRules[r] == nil {
			t.Errorf("%s: the table's free rule %q is not in freeVarRules", op, r)
		}
		if g := info.Partial; g != "" && !guards[g] {
			t.Errorf("%s: the table's partial guard %q is not one guard and censusDomain have", op, g)
		}
		if info.Partial == "in_range" && info.SemKernel != "s" && info.SemKernel != "u" {
			t.Errorf("%s: in_range guard needs the sem kernel s or u for the signedness, has %q", op, info.SemKernel)
		}
	}
}
