package harness

import (
	"cliff/lib/arch"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckToolchain checks every architecture's tools the way set-up
// does: they are installed by scripts/setup.sh, so a failure here is a
// broken machine, reported with the missing package.
func TestCheckToolchain(t *testing.T) {
	for _, arch := range Arches() {
		t.Run(arch, func(t *testing.T) {
			t.Parallel()
			if err := CheckToolchain(context.Background(), arch); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestCheckToolchainNamesTheMissingPiece breaks the tools on purpose, with
// a PATH of stand-ins, and checks the one-line explanations.
func TestCheckToolchainNamesTheMissingPiece(t *testing.T) {
	target := arch.AArch64
	if Native(target) {
		target = arch.X86_64
	}
	realCompiler, err := exec.LookPath(Compiler(target))
	if err != nil {
		t.Fatal(err)
	}
	realEmulator, err := exec.LookPath(EmulatorName(target))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		tools map[string]string // stand-in name → shell script body
		want  string
	}{
		{"no compiler", map[string]string{EmulatorName(target): `exec ` + realEmulator + ` "$@"`},
			target + ": C compiler " + Compiler(target) + ": not installed (install the Debian package gcc-" + strings.ReplaceAll(target, "_", "-") + "-linux-gnu)"},
		{"no emulator", map[string]string{Compiler(target): `exec ` + realCompiler + ` "$@"`},
			target + ": emulator " + EmulatorName(target) + ": not installed (install the Debian package qemu-user-static)"},
		// A compiler without its C library: what Debian's cross compilers
		// are when installed without their recommended packages.
		{"no C headers", map[string]string{
			Compiler(target):     `exec ` + realCompiler + ` -nostdinc -isystem "$(` + realCompiler + ` -print-file-name=include)" "$@"`,
			EmulatorName(target): `exec ` + realEmulator + ` "$@"`},
			"No such file or directory (install the Debian package " + libcPackage(target) + ")"},
		// The linker's words when libc6-dev-*-cross is missing.
		{"no static C library", map[string]string{
			Compiler(target):     `case " $* " in *" -static "*) echo "/usr/bin/ld: cannot find -lm: No such file or directory" >&2; exit 1;; esac; exec ` + realCompiler + ` "$@"`,
			EmulatorName(target): `exec ` + realEmulator + ` "$@"`},
			": build the harness program with " + Compiler(target) + ": /usr/bin/ld: cannot find -lm: No such file or directory (install the Debian package " + libcPackage(target) + ")"},
		{"an emulator that fails", map[string]string{
			Compiler(target):     `exec ` + realCompiler + ` "$@"`,
			EmulatorName(target): `echo "qemu: broken" >&2; exit 1`},
			target + ": run a static executable qemu -cpu : "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bin := t.TempDir()
			for name, body := range tt.tools {
				if err := os.WriteFile(filepath.Join(bin, name), []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			// Only the stand-ins: the scripts name their shell and their
			// tools by absolute path.
			t.Setenv("PATH", bin)
			t.Setenv("XDG_CACHE_HOME", t.TempDir())
			cachedPrograms.Clear()
			defer cachedPrograms.Clear()
			linkers.Clear()
			defer linkers.Clear()
			err := CheckToolchain(context.Background(), target)
			var tc *ToolchainError
			if !errors.As(err, &tc) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("CheckToolchain = %v, want a ToolchainError containing %q", err, tt.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("the explanation is more than one line: %q", err)
			}
		})
	}
}

// TestCheckToolchainCached checks that a passed check is remembered: the
// second call only asks the compiler for its version, and a changed
// compiler is checked again.
func TestCheckToolchainCached(t *testing.T) {
	arch := HostArch()
	real, err := exec.LookPath(Compiler(arch))
	if err != nil {
		t.Fatal(err)
	}
	bin, logFile := t.TempDir(), filepath.Join(t.TempDir(), "calls")
	wrapper := func(banner string) {
		script := "#!/bin/sh\necho \"$*\" >> " + logFile + "\ncase \"$1\" in --version) echo " + banner + ";; *) exec " + real + " \"$@\";; esac\n"
		if err := os.WriteFile(filepath.Join(bin, Compiler(arch)), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	calls := func() []string {
		data, _ := os.ReadFile(logFile)
		os.Remove(logFile)
		return strings.Fields(strings.ReplaceAll(string(data), " ", "_"))
	}
	wrapper("gcc-1")
	t.Setenv("PATH", bin+":"+os.Getenv("PATH"))
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	cachedPrograms.Clear()
	defer cachedPrograms.Clear()
	for i, want := range []string{"checked", "remembered"} {
		if err := CheckToolchainCached(context.Background(), arch); err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
		got := calls()
		if want == "remembered" && (len(got) != 1 || got[0] != "--version") {
			t.Errorf("second call ran the compiler %q, want only --version", got)
		}
		if want == "checked" && len(got) < 3 {
			t.Errorf("first call ran the compiler %q, want a compile and a link too", got)
		}
	}
	wrapper("gcc-2") // an upgraded compiler
	if err := CheckToolchainCached(context.Background(), arch); err != nil {
		t.Fatal(err)
	}
	// The check compiles its batch again (the harness program is this
	// process's already, and the link runs the linker itself).
	if got := calls(); !strings.Contains(strings.Join(got, " "), "batch.o") {
		t.Errorf("after an upgrade the compiler ran %q, want the check again", got)
	}
}
