package harness

import (
	"reflect"
	"testing"

	"cliff/lib/record"
)

func TestBlameEmulator(t *testing.T) {
	const assertion = "qemu-riscv64-static: ../../target/riscv/translate.c:213: decode_save_opc: Assertion `ctx->insn_start != NULL' failed."
	crashes := func() []Outcome {
		return []Outcome{
			{Status: record.StatusCrash, Signal: "SIGABRT", Message: "killed by SIGABRT"},
			{Status: record.StatusOK, Results: []byte{1}},
			{Status: record.StatusCrash, Signal: "SIGSEGV", Message: "SIGSEGV at f+0x10"},
			{Status: record.StatusTrap, Signal: "SIGILL", Trap: "user1"},
		}
	}
	blamed := crashes()
	blamed[0] = Outcome{Status: record.StatusHarnessError, Message: "the emulator aborted, not the code: " + assertion}
	tcg := "qemu-s390x-static: ../../tcg/tcg.c:3243: tcg fatal error"
	blamedTCG := crashes()
	blamedTCG[0] = Outcome{Status: record.StatusHarnessError, Message: "the emulator aborted, not the code: " + tcg}
	tests := []struct {
		name, stderr string
		want         []Outcome
	}{
		{"assertion", "some noise\n" + assertion + "\n" + assertion, blamed},
		{"tcg fatal error", tcg, blamedTCG},
		{"quiet emulator", "", crashes()},
		{"the code's own words", "Assertion `x' failed.\nabort", crashes()},
		{"an assertion not at a line start", "note: qemu-riscv64-static: x.c:1: f: Assertion `y' failed.", crashes()},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := crashes()
			blameEmulator(got, tc.stderr)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got\n%+v\nwant\n%+v", got, tc.want)
			}
		})
	}
}
