package coverage

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// PCFile is one file written by the instrumented driver (a process's .cov
// file of the blocks that ran, or all.pcs of every instrumented block).
type PCFile struct {
	// Anchor is the run-time address of __sanitizer_cov_pcs_init in the
	// process that wrote the file.
	Anchor uint64
	// Exe is the writer's executable as "SIZE MTIME_NS": PCs mean something
	// only with the build that wrote them.
	Exe string
	PCs []uint64 // run-time addresses of blocks
}

const pcFileHeader = "cliff-sancov 1"

// ReadPCFile reads a .cov or all.pcs file (driver/src/coverage.rs writes
// them).
func ReadPCFile(path string) (*PCFile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var pf PCFile
	sc := bufio.NewScanner(f)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		switch {
		case line == 1:
			if text != pcFileHeader {
				return nil, fmt.Errorf("%s:1: want %q, have %q", path, pcFileHeader, text)
			}
		case line == 2:
			hex, ok := strings.CutPrefix(text, "anchor ")
			if !ok {
				return nil, fmt.Errorf("%s:2: want an anchor line, have %q", path, text)
			}
			if pf.Anchor, err = strconv.ParseUint(hex, 16, 64); err != nil || pf.Anchor == 0 {
				return nil, fmt.Errorf("%s:2: bad anchor %q", path, hex)
			}
		case line == 3:
			exe, ok := strings.CutPrefix(text, "exe ")
			if !ok || exe == "" {
				return nil, fmt.Errorf("%s:3: want an exe line, have %q", path, text)
			}
			pf.Exe = exe
		default:
			pc, err := strconv.ParseUint(text, 16, 64)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: bad PC %q", path, line, text)
			}
			pf.PCs = append(pf.PCs, pc)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if line < 3 {
		return nil, fmt.Errorf("%s: truncated: no anchor or exe line", path)
	}
	return &pf, nil
}

// AddTo adds the file's PCs to set as link-time addresses of the binary
// whose anchor symbol is at anchor: each process may be loaded elsewhere.
func (f *PCFile) AddTo(set map[uint64]bool, anchor uint64) {
	for _, pc := range f.PCs {
		set[pc-f.Anchor+anchor] = true
	}
}

// ExeIdentity is how a driver names its executable in its PC files (size
// and modification time): one PC file from another build of the driver
// would map to the wrong code, silently.
func ExeIdentity(path string) (string, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%d %d", fi.Size(), fi.ModTime().UnixNano()), nil
}

// checkExe refuses a PC file written by another build than want.
func (f *PCFile) checkExe(path, want string) error {
	if f.Exe != want {
		return fmt.Errorf("%s: written by another build of the driver (exe %s, this one %s): run the input again with this driver", path, f.Exe, want)
	}
	return nil
}
