package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"cliff/lib/driver/drivertest"
	"cliff/lib/harness"
	"cliff/lib/jsonl"
	"cliff/lib/record"
	"cliff/lib/scripttest"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"cliff-run":      main,
		"killing-driver": killingDriver,
		"hanging-driver": hangingDriver,
	})
}

// TestScripts runs the end-to-end scripts in testdata/script against the
// real driver, the cross toolchains and qemu. FILETESTS points at
// Cranelift's filetests beside the clone, SEMANTICS at lib/refinterp's
// semantics files.
func TestScripts(t *testing.T) {
	drv := drivertest.Require(t)
	filetests, _ := filepath.Abs("../../../shared/cranelift-filetests")
	semantics, _ := filepath.Abs("../../lib/refinterp/testdata/sem")
	scripttest.Run(t, testscript.Params{
		Setup: func(env *testscript.Env) error {
			env.Setenv("CLIFF_DRIVER", drv)
			env.Setenv("FILETESTS", filetests)
			env.Setenv("SEMANTICS", semantics)
			// CLIFF_HOST_FEATURES=x86-64-v2 scripts/test.sh runs every
			// script as on a CPU without AVX2.
			env.Setenv(harness.HostFeaturesEnv, os.Getenv(harness.HostFeaturesEnv))
			if cache, err := os.UserCacheDir(); err == nil {
				// Share the harness object cache with the user's, so the
				// scripts do not rebuild it for every test.
				env.Setenv("XDG_CACHE_HOME", cache)
			}
			return nil
		},
		Condition: func(cond string) (bool, error) {
			if cond == "filetests" {
				_, err := os.Stat(filetests)
				return err == nil, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"results":  cmdResults,
			"samehash": cmdSameHash,
			"messages": cmdMessages,
		},
	})
}

// readCases reads every case record of a file in the script's directory.
func readCases(ts *testscript.TestScript, name string) []record.Case {
	in, closer, err := jsonl.Open(ts.MkAbs(name))
	ts.Check(err)
	defer closer.Close()
	var out []record.Case
	for {
		var c record.Case
		err := in.Next(&c)
		if err == io.EOF {
			return out
		}
		ts.Check(err)
		ts.Check(c.Validate())
		out = append(out, c)
	}
}

// cmdResults prints one line per result of every case in a file:
// "ID CONFIG STATUS [trap=CODE] [signal=SIG] [outputs=N]", so scripts can
// match outcomes with stdout.
func cmdResults(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: results FILE")
	}
	for _, c := range readCases(ts, args[0]) {
		for _, r := range c.Results {
			line := fmt.Sprintf("%s %s %s", c.ID, r.Config, r.Status)
			if r.Trap != "" {
				line += " trap=" + r.Trap
			}
			if r.Signal != "" {
				line += " signal=" + r.Signal
			}
			line += " outputs=" + strconv.Itoa(len(r.Outputs))
			fmt.Fprintln(ts.Stdout(), line)
		}
	}
}

// cmdMessages prints one line per result of every case in a file:
// "ID CONFIG STATUS[: MESSAGE]", for scripts that match what a result says.
func cmdMessages(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: messages FILE")
	}
	for _, c := range readCases(ts, args[0]) {
		for _, r := range c.Results {
			line := fmt.Sprintf("%s %s %s", c.ID, r.Config, r.Status)
			if r.Message != "" {
				line += ": " + r.Message
			}
			fmt.Fprintln(ts.Stdout(), line)
		}
	}
}

// cmdSameHash checks that every case of a file has N results, all ok, all
// with one hash and the same outputs.
func cmdSameHash(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: samehash FILE N")
	}
	n, err := strconv.Atoi(args[1])
	ts.Check(err)
	cases := readCases(ts, args[0])
	if len(cases) == 0 {
		ts.Fatalf("%s has no cases", args[0])
	}
	for _, c := range cases {
		if len(c.Results) != n {
			ts.Fatalf("case %s has %d results, want %d", c.ID, len(c.Results), n)
		}
		first := c.Results[0]
		for _, r := range c.Results {
			if r.Status != record.StatusOK {
				ts.Fatalf("case %s: %s: %s %s", c.ID, r.Config, r.Status, r.Message)
			}
			if r.Hash != first.Hash || !slices.Equal(r.Outputs, first.Outputs) {
				ts.Fatalf("case %s: %s gives %s %q, %s gives %s %q", c.ID, first.Config, first.Hash, first.Outputs, r.Config, r.Hash, r.Outputs)
			}
		}
	}
}

// killingDriver stands in for cliff-driver in the fault tests: it runs the
// real driver (CLIFF_DRIVER) and passes requests and answers through, but
// when a request contains KILL-THE-DRIVER it kills the driver and itself
// with SIGKILL, as a Cranelift abort or the OOM killer would; and it
// answers a request containing GARBLE-THE-ANSWER itself, with an answer
// that breaks the protocol (no module outcomes), as a bug of cliff's own
// would.
func killingDriver() {
	real := exec.Command(os.Getenv("CLIFF_DRIVER"))
	real.Stderr = os.Stderr
	in, err := real.StdinPipe()
	if err != nil {
		panic(err)
	}
	out, err := real.StdoutPipe()
	if err != nil {
		panic(err)
	}
	if err := real.Start(); err != nil {
		panic(err)
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		io.Copy(os.Stdout, out)
	}()
	r := bufio.NewReaderSize(os.Stdin, 1<<20)
	for {
		line, err := r.ReadString('\n')
		if strings.Contains(line, "KILL-THE-DRIVER") {
			real.Process.Kill()
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
		}
		if strings.Contains(line, "GARBLE-THE-ANSWER") {
			var req struct{ ID int }
			json.Unmarshal([]byte(line), &req)
			fmt.Printf("{\"id\":%d,\"status\":\"ok\",\"modules\":[]}\n", req.ID)
			continue
		}
		if line != "" {
			io.WriteString(in, line)
		}
		if err != nil {
			break
		}
	}
	in.Close()
	wg.Wait()
	real.Wait()
	os.Exit(0)
}

// hangingDriver stands in for cliff-driver like killingDriver, but when a
// request contains HANG-THE-DRIVER it stops answering, as a driver stuck
// in a loop would, until the client kills it.
func hangingDriver() {
	real := exec.Command(os.Getenv("CLIFF_DRIVER"))
	real.Stderr = os.Stderr
	real.Stdout = os.Stdout
	in, err := real.StdinPipe()
	if err != nil {
		panic(err)
	}
	if err := real.Start(); err != nil {
		panic(err)
	}
	r := bufio.NewReaderSize(os.Stdin, 1<<20)
	for {
		line, err := r.ReadString('\n')
		if strings.Contains(line, "HANG-THE-DRIVER") {
			select {} // killed with its process group
		}
		if line != "" {
			io.WriteString(in, line)
		}
		if err != nil {
			break
		}
	}
	in.Close()
	real.Wait()
	os.Exit(0)
}
