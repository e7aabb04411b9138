package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"cliff/lib/jsonl"
)

// TestSignalFinishesOutput stops an endless cliff-gen (-n 0) with SIGINT
// or SIGTERM once some of its output reached the disk: it must exit with
// 128+signal and leave its output renamed into place, the zstd frame
// finished, every record decodable, no temporary file left (issue 13,
// item 10).
func TestSignalFinishesOutput(t *testing.T) {
	for _, tc := range []struct {
		sig  syscall.Signal
		exit int
	}{
		{syscall.SIGINT, 130},
		{syscall.SIGTERM, 143},
	} {
		t.Run(fmt.Sprint(tc.sig), func(t *testing.T) {
			dir := t.TempDir()
			cmd := exec.Command("cliff-gen", "-n", "0", "--seed", "1", "-o", "out.jsonl.zst")
			cmd.Dir = dir
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			defer func() {
				if cmd.ProcessState == nil {
					cmd.Process.Kill()
					<-done
				}
			}()
			// Wait (polling; the backstop only keeps a broken cliff-gen
			// from hanging the test) until compressed output reaches the
			// disk (the temporary file, or the output itself should it be
			// written directly), so the run is well under way.
			tmp := filepath.Join(dir, fmt.Sprintf(".out.jsonl.zst.cliff-tmp-%d", cmd.Process.Pid))
			written := func() bool {
				for _, path := range []string{tmp, filepath.Join(dir, "out.jsonl.zst")} {
					if st, err := os.Stat(path); err == nil && st.Size() > 0 {
						return true
					}
				}
				return false
			}
			backstop := time.After(5 * time.Minute)
			for !written() {
				select {
				case err := <-done:
					t.Fatalf("cliff-gen -n 0 ended: %v\n%s", err, stderr.String())
				case <-backstop:
					t.Fatal("cliff-gen wrote nothing in 5 minutes")
				case <-time.After(20 * time.Millisecond):
				}
			}
			if err := cmd.Process.Signal(tc.sig); err != nil {
				t.Fatal(err)
			}
			err := <-done
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != tc.exit {
				t.Errorf("cliff-gen: %v, want exit status %d", err, tc.exit)
			}
			if want := fmt.Sprintf("cliff-gen: interrupted by SIG%s\n", map[syscall.Signal]string{syscall.SIGINT: "INT", syscall.SIGTERM: "TERM"}[tc.sig]); stderr.String() != want {
				t.Errorf("stderr %q, want %q", stderr.String(), want)
			}
			in, closer, err := jsonl.Open(filepath.Join(dir, "out.jsonl.zst"))
			if err != nil {
				t.Fatal(err)
			}
			defer closer.Close()
			n := 0
			for {
				_, err := in.NextRaw()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatalf("output after %d records: %v", n, err)
				}
				n++
			}
			if n == 0 {
				t.Error("the output holds no case")
			}
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				if strings.Contains(e.Name(), "cliff-tmp") {
					t.Errorf("left %s", e.Name())
				}
			}
		})
	}
}
