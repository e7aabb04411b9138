package ir

import (
	"strings"
	"testing"
)

const table = `# test
release 0.120.2
release 0.125.4
release 0.130.2
release 0.137.1
opcode band_not 0.120-0.125
opcode iadd 0.120-
opcode fancy 0.130-
opcode comeback 0.120-0.120,0.137-
isa_flag x86_64 has_apx 0.137-
setting enable_foo 0.125-0.130
`

func TestReleaseTable(t *testing.T) {
	tab, err := ParseReleaseTable(table)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		kind, name, version string
		want                bool
	}{
		{KindOpcode, "band_not", "0.120.2", true},
		{KindOpcode, "band_not", "0.125.0", true},
		{KindOpcode, "band_not", "0.127.4", true}, // between listed releases: as the one before
		{KindOpcode, "band_not", "0.130.2", false},
		{KindOpcode, "band_not", "0.139.0@0123456789ab", false}, // newer than listed: as the newest
		{KindOpcode, "fancy", "0.125.4", false},
		{KindOpcode, "fancy", "0.137.1", true},
		{KindOpcode, "comeback", "0.125.4", false},
		{KindOpcode, "comeback", "0.137.0", true},
		{KindOpcode, "iadd", "0.119.1", true},     // older than the table: it cannot say
		{KindOpcode, "unlisted", "0.130.2", true}, // not a release's name: not the table's to refuse
		{KindISAFlag, "x86_64 has_apx", "0.136.5", false},
		{KindSetting, "enable_foo", "0.137.1", false},
	}
	for _, tt := range tests {
		if got := tab.Knows(tt.kind, tt.name, tt.version); got != tt.want {
			t.Errorf("Knows(%s %s, %s) = %v, want %v", tt.kind, tt.name, tt.version, got, tt.want)
		}
	}
	if got := tab.Range(KindOpcode, "comeback"); got != "0.120-0.120,0.137-" {
		t.Errorf("Range(comeback) = %q", got)
	}
	if !tab.Listed("0.130.9") || tab.Listed("0.131.0") {
		t.Errorf("Listed: a release's minor is listed, another's is not")
	}
	for _, bad := range []string{
		"release 0.130.2\nrelease 0.125.4\n",                  // out of order
		"release 0.120.2\nopcode x 0.120-\nopcode x 0.120-\n", // twice
		"release 0.120.2\nopcode x 0.125-0.121\n",             // backwards
		"release 0.120.2\nopcode x\n",                         // no range
		"opcode x 0.120-\n",                                   // no release
	} {
		if _, err := ParseReleaseTable(bad); err == nil {
			t.Errorf("ParseReleaseTable accepted %q", bad)
		}
	}
}

// TestEmbeddedReleaseTable reads lib/ir/releases.txt and checks that each
// opcode of cliff's table is listed (a release table made from the
// releases themselves that lacks one of cliff's opcodes says cliff
// generates what no release parses).
func TestEmbeddedReleaseTable(t *testing.T) {
	tab := Releases()
	if len(tab.Releases) == 0 {
		t.Fatal("no release")
	}
	for _, op := range Opcodes() {
		if tab.Range(KindOpcode, op.String()) == "" {
			t.Errorf("opcode %s: no release listed knows it", op)
		}
	}
	f := &Function{}
	if OpcodeRefusal(f, "0.120.2") != "" || !strings.Contains(FormatRanges([]string{"0.120.2", "0.121.2"}, []bool{false, true}), "0.121-") {
		t.Errorf("refusal of an empty function, or FormatRanges")
	}
}
