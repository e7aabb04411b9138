package engine

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"cliff/lib/record"
)

// TestParseISAFlags: --isa-flags as the command line library splits it
// (at commas): one variant per ARCH=, flag-set names expanded, settings
// after "+" kept with their variant, and what cannot be read refused.
func TestParseISAFlags(t *testing.T) {
	riscvDefault := []string{"has_v", "has_zba", "has_zbb", "has_zbc", "has_zbs"}
	tests := []struct {
		name string
		args []string
		want map[string][]Variant
		err  string
	}{
		{"none", nil, map[string][]Variant{}, ""},
		{"flags, split at commas", []string{"riscv64=has_zba", "has_zbb"}, map[string][]Variant{"riscv64": {{Flags: []string{"has_zba", "has_zbb"}}}}, ""},
		{"no flags", []string{"aarch64="}, map[string][]Variant{"aarch64": {{Flags: []string{}}}}, ""},
		{"an arch twice: two variants", []string{"riscv64=default", "riscv64=base"}, map[string][]Variant{"riscv64": {{Flags: riscvDefault}, {Flags: []string{}}}}, ""},
		{"a set name and a flag", []string{"s390x=arch13", "has_mie3=false"}, map[string][]Variant{"s390x": {{Flags: []string{"has_mie3", "has_vxrs_ext2", "has_mie3=false"}}}}, ""},
		{"settings after +", []string{"riscv64=v+regalloc_algorithm=single_pass", "enable_alias_analysis=false", "x86_64=sse2"},
			map[string][]Variant{
				"riscv64": {{Flags: []string{"has_v"}, Settings: []string{"regalloc_algorithm=single_pass", "enable_alias_analysis=false"}}},
				"x86_64":  {{Flags: []string{}}},
			}, ""},
		{"flags, then settings in the next item", []string{"aarch64=has_lse", "has_pauth+sign_return_address=true"},
			map[string][]Variant{"aarch64": {{Flags: []string{"has_lse", "has_pauth"}, Settings: []string{"sign_return_address=true"}}}}, ""},
		{"no arch", []string{"has_v"}, nil, `--isa-flags "has_v": want ARCH=`},
		{"unknown arch", []string{"x86=has_avx"}, nil, `--isa-flags "x86=has_avx": want ARCH=`},
		{"a setting without a value", []string{"riscv64=v+single_pass"}, nil, `setting "single_pass": want name=value`},
	}
	for _, tt := range tests {
		got, err := ParseISAFlags(tt.args)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s: error %v, want %q", tt.name, err, tt.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: got %+v, %v\nwant %+v", tt.name, got, err, tt.want)
		}
	}
}

// TestParseArches checks --arch: the reference by name, and "all" being
// Cranelift's configurations without it.
func TestParseArches(t *testing.T) {
	tests := []struct {
		in      []string
		want    []string
		wantErr bool
	}{
		{in: []string{"ref"}, want: []string{"ref"}},
		{in: []string{"x86_64,ref", "ref"}, want: []string{"ref", "x86_64"}},
		{in: []string{"all"}, want: []string{"aarch64", "interp", "riscv64", "s390x", "x86_64"}},
		{in: []string{"all,ref"}, want: []string{"aarch64", "interp", "ref", "riscv64", "s390x", "x86_64"}},
		{in: []string{"reference"}, wantErr: true},
	}
	for _, tt := range tests {
		got, err := ParseArches(tt.in)
		if (err != nil) != tt.wantErr || !slices.Equal(got, tt.want) {
			t.Errorf("ParseArches(%q) = %q, %v; want %q (error: %v)", tt.in, got, err, tt.want, tt.wantErr)
		}
	}
}

// TestConfigsReference checks the reference's one configuration: opt level
// none, executor ref, whatever --opt asks of the compiled ones.
func TestConfigsReference(t *testing.T) {
	configs, err := Configs(ConfigSpec{Arches: []string{"ref", "x86_64"}, Opts: []string{"speed"}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range configs {
		got = append(got, c.Arch+"/"+c.OptLevel+"/"+c.Executor)
	}
	if want := []string{"ref/none/ref", "x86_64/speed/native"}; !slices.Equal(got, want) {
		t.Errorf("configurations %q, want %q", got, want)
	}
	for _, c := range configs {
		if err := (&record.RunResult{Config: c, Status: record.StatusUnsupported}).Validate(); err != nil {
			t.Errorf("%s: %v", c, err)
		}
	}
}
