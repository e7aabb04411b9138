package harness

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"cliff/lib/record"
)

// TestCraneliftObjects links objects that cliff-driver (Cranelift 0.135,
// opt_level=speed) compiled from testdata/cranelift/sdiv.clif, and checks
// results and trap codes with the trap sites the driver reported
// (sdiv.json). This pins the targets' real conventions, such as s390x
// recording a trap at the last byte of the instruction. To regenerate,
// send cliff-driver one compile request per arch with output
// testdata/cranelift/sdiv-<arch>.o and copy isa_flags and the traps.
func TestCraneliftObjects(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "cranelift", "sdiv.json"))
	if err != nil {
		t.Fatal(err)
	}
	var compiled map[string]struct {
		ISAFlags []string `json:"isa_flags"`
		Traps    []struct {
			Symbol string `json:"symbol"`
			Offset uint64 `json:"offset"`
			Code   string `json:"code"`
		} `json:"traps"`
	}
	if err := json.Unmarshal(data, &compiled); err != nil {
		t.Fatal(err)
	}
	// sdiv traps on a zero divisor and on INT_MIN / -1.
	jobs := []Job{
		{0, u32s(7, 2), 4},
		{0, u32s(1, 0), 4},
		{0, u32s(0x80000000, 0xffffffff), 4},
		{0, u32s(0xfffffff9, 2), 4},
	}
	wants := []want{
		{status: record.StatusOK, results: u32s(3)},
		{status: record.StatusTrap, trap: "int_divz"},
		{status: record.StatusTrap, trap: "int_ovf"},
		{status: record.StatusOK, results: u32s(0xfffffffd)},
	}
	for _, arch := range Arches() {
		t.Run(arch, func(t *testing.T) {
			t.Parallel()
			requireArch(t, arch)
			c, ok := compiled[arch]
			if !ok {
				t.Fatalf("sdiv.json has no %s", arch)
			}
			var sites []TrapSite
			for _, tr := range c.Traps {
				sites = append(sites, TrapSite{tr.Symbol, tr.Offset, tr.Code})
			}
			cpu, err := QemuCPU(probed(t, arch), c.ISAFlags)
			if err != nil {
				t.Fatal(err)
			}
			obj := filepath.Join("testdata", "cranelift", "sdiv-"+arch+".o")
			exe, err := Link(context.Background(), arch, obj, filepath.Join(t.TempDir(), "sdiv"))
			if err != nil {
				t.Fatal(err)
			}
			outcomes, err := exe.Run(context.Background(), Placement{Emulated: true, CPU: cpu}, jobs, time.Second, sites)
			if err != nil {
				t.Fatal(err)
			}
			for i, w := range wants {
				w.signal = outcomes[i].Signal // which signal a trap raises differs per arch
				checkOutcome(t, fmt.Sprintf("job %d (args %x)", i, jobs[i].Args), outcomes[i], w)
			}
		})
	}
}
