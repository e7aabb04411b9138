package engineflags

import (
	"runtime"
	"testing"
	"time"

	"github.com/urfave/cli/v2"

	"cliff/lib/engine"
)

// TestFlags: the flags parse into the Flags value they were made from,
// with engine's defaults, and Options carries them to the engine.
func TestFlags(t *testing.T) {
	tests := []struct {
		args []string
		want engine.Options
		drv  string
		crl  []string
	}{
		{nil, engine.Options{Jobs: runtime.NumCPU(), Timeout: engine.DefaultTimeout, CompileTimeout: engine.DefaultCompileTimeout, Fuel: engine.DefaultFuel}, "", nil},
		{[]string{"-j", "3", "--timeout", "2s", "--compile-timeout", "1m30s", "--fuel", "7", "--driver", "/d"},
			engine.Options{Jobs: 3, Timeout: 2 * time.Second, CompileTimeout: 90 * time.Second, Fuel: 7}, "/d", nil},
		{[]string{"--jobs", "1", "--cranelift", "0.135.8,latest"},
			engine.Options{Jobs: 1, Timeout: engine.DefaultTimeout, CompileTimeout: engine.DefaultCompileTimeout, Fuel: engine.DefaultFuel}, "", []string{"0.135.8", "latest"}},
	}
	for _, tt := range tests {
		f := New()
		app := &cli.App{Name: "cliff-test", Flags: f.List(), Action: func(*cli.Context) error { return nil }}
		if err := app.Run(append([]string{"cliff-test"}, tt.args...)); err != nil {
			t.Fatalf("%v: %v", tt.args, err)
		}
		got := f.Options()
		if got.Jobs != tt.want.Jobs || got.Timeout != tt.want.Timeout || got.CompileTimeout != tt.want.CompileTimeout || got.Fuel != tt.want.Fuel {
			t.Errorf("%v: options %+v, want %+v", tt.args, got, tt.want)
		}
		if f.Driver != tt.drv || len(f.Cranelift.Value()) != len(tt.crl) {
			t.Errorf("%v: driver %q, cranelift %q; want %q, %q", tt.args, f.Driver, f.Cranelift.Value(), tt.drv, tt.crl)
		}
	}
}
