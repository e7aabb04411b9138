package driver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"cliff/lib/internal/signals"
)

// DefaultTimeout bounds a request when the caller's context has no
// deadline of its own.
const DefaultTimeout = 2 * time.Minute

// A Client sends requests to one cliff-driver process, starting it on first
// use and again after it died. It is not safe for concurrent use: give each
// worker its own.
type Client struct {
	path   string
	proc   *process
	nextID int64
	// Starts counts the processes started, for reports and tests.
	Starts int
}

// New returns a client for the driver binary at path. No process starts
// until the first request.
func New(path string) *Client { return &Client{path: path} }

// Find locates the driver binary: $CLIFF_DRIVER, then cliff-driver beside
// the running executable (where `make` puts both), then $PATH.
func Find() (string, error) {
	if p := os.Getenv("CLIFF_DRIVER"); p != "" {
		return p, nil
	}
	if exe, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(exe), "cliff-driver")
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	p, err := exec.LookPath("cliff-driver")
	if err != nil {
		return "", errors.New("cliff-driver not found: set CLIFF_DRIVER, pass --driver, or build it with `make driver` (see README)")
	}
	return p, nil
}

// Resolve is the driver a tool uses: path, its --driver, when given, else
// Find's.
func Resolve(path string) (string, error) {
	if path != "" {
		return path, nil
	}
	return Find()
}

// A DiedError says that the driver process ended (or was killed) before it
// answered a request. The request's fate is unknown.
type DiedError struct {
	How    string // "killed by SIGABRT", "exit status 101", "timed out after 2m0s"
	Signal string // "SIGABRT", or "" when it exited or timed out
	Stderr string // the end of what the driver wrote to stderr
}

func (e *DiedError) Error() string {
	msg := "cliff-driver died: " + e.How
	if e.Stderr != "" {
		msg += ": " + e.Stderr
	}
	return msg
}

// Close ends the driver process, if one is running.
func (c *Client) Close() error {
	if c.proc == nil {
		return nil
	}
	err := c.proc.close()
	c.proc = nil
	return err
}

// Version asks the driver which Cranelift it runs.
func (c *Client) Version(ctx context.Context) (*VersionAnswer, error) {
	var a VersionAnswer
	return &a, c.call(ctx, "version", struct{}{}, &a)
}

// Features asks what the driver's Cranelift knows: its opcodes, shared
// settings and ISA flags (PROTOCOL.md, op features).
func (c *Client) Features(ctx context.Context) (*FeaturesAnswer, error) {
	var a FeaturesAnswer
	return &a, c.call(ctx, "features", struct{}{}, &a)
}

// Verify runs Cranelift's verifier on a module; a verifier complaint is a
// *Failure.
func (c *Client) Verify(ctx context.Context, clif, target string, flags []string) error {
	req := struct {
		CLIF   string   `json:"clif"`
		Target string   `json:"target,omitempty"`
		Flags  []string `json:"flags,omitempty"`
	}{clif, target, flags}
	return c.call(ctx, "verify", req, &struct{}{})
}

// Compile compiles a batch of modules into one object.
func (c *Client) Compile(ctx context.Context, req *CompileRequest) (*CompileAnswer, error) {
	var a CompileAnswer
	if err := c.call(ctx, "compile", req, &a); err != nil {
		return nil, err
	}
	if len(a.Modules) != len(req.Modules) {
		return nil, fmt.Errorf("cliff-driver answered for %d modules, asked %d", len(a.Modules), len(req.Modules))
	}
	return &a, nil
}

// Interpret runs a function in Cranelift's interpreter.
func (c *Client) Interpret(ctx context.Context, req *InterpretRequest) (*InterpretAnswer, error) {
	var a InterpretAnswer
	return &a, c.call(ctx, "interpret", req, &a)
}

// Optimize runs the mid-end on a module.
func (c *Client) Optimize(ctx context.Context, req *OptimizeRequest) (*OptimizeAnswer, error) {
	var a OptimizeAnswer
	return &a, c.call(ctx, "optimize", req, &a)
}

// ParseTest reads a whole test file with Cranelift's own reader, as its
// filetest runner does (the file, then each function's run commands); a
// file the reader rejects is a *Failure.
func (c *Client) ParseTest(ctx context.Context, clif string) (*ParseTestAnswer, error) {
	var a ParseTestAnswer
	req := struct {
		CLIF string `json:"clif"`
	}{clif}
	return &a, c.call(ctx, "parse_test", req, &a)
}

// call sends one request and decodes its answer into ans. An error answer
// is a *Failure; a dead or late driver is a *DiedError (and the process is
// gone, so the next call starts a new one).
func (c *Client) call(ctx context.Context, op string, req, ans any) error {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, DefaultTimeout)
		defer cancel()
	}
	if c.proc == nil {
		p, err := start(c.path)
		if err != nil {
			return err
		}
		c.proc = p
		c.Starts++
	}
	c.nextID++
	line, err := requestLine(c.nextID, op, req)
	if err != nil {
		return err
	}
	answer, err := c.proc.roundTrip(ctx, line)
	if err != nil {
		c.proc = nil // roundTrip has killed and reaped it
		return err
	}
	var h header
	if err := json.Unmarshal(answer, &h); err != nil {
		c.Close()
		return fmt.Errorf("cliff-driver: unreadable answer to %s: %w", op, err)
	}
	if h.ID != c.nextID {
		c.Close()
		return fmt.Errorf("cliff-driver: answer for request %d, expected %d", h.ID, c.nextID)
	}
	switch h.Status {
	case StatusOK:
		if err := json.Unmarshal(answer, ans); err != nil {
			return fmt.Errorf("cliff-driver: %s answer: %w", op, err)
		}
		return nil
	case StatusError, StatusCrash:
		return &Failure{Status: h.Status, Message: h.Message, Location: h.Location}
	}
	return fmt.Errorf("cliff-driver: %s answer has status %q", op, h.Status)
}

// requestLine builds `{"id":N,"op":"...",<req fields>}` followed by a
// newline.
func requestLine(id int64, op string, req any) ([]byte, error) {
	body, err := json.Marshal(req)
	if err != nil {
		return nil, fmt.Errorf("cliff-driver %s request: %w", op, err)
	}
	if len(body) < 2 || body[0] != '{' {
		return nil, fmt.Errorf("cliff-driver %s request is not a JSON object", op)
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, `{"id":%d,"op":%q`, id, op)
	if len(body) > 2 {
		b.WriteByte(',')
	}
	b.Write(body[1:])
	b.WriteByte('\n')
	return b.Bytes(), nil
}

// process is one running driver.
type process struct {
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	answers chan answerLine
	stderr  *tail
	exited  chan struct{} // closed once Wait returned
	waitErr error
}

type answerLine struct {
	line []byte
	err  error
}

func start(path string) (*process, error) {
	cmd := exec.Command(path)
	// Its own process group, so that killing it also kills anything it
	// started; and a bound on waiting for its output after it is gone, so
	// that a stray child holding stderr open cannot hang Wait.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.WaitDelay = 2 * time.Second
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	p := &process{cmd: cmd, stdin: stdin, answers: make(chan answerLine, 1), stderr: &tail{max: 4096}, exited: make(chan struct{})}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting cliff-driver: %w", err)
	}
	// One reader goroutine per process: answers arrive in order, one per
	// request, and a blocked read must not block a caller past its
	// deadline.
	go func() {
		r := bufio.NewReaderSize(stdout, 1<<16)
		for {
			line, err := r.ReadBytes('\n')
			if err != nil {
				p.answers <- answerLine{err: err}
				close(p.answers)
				return
			}
			p.answers <- answerLine{line: line}
		}
	}()
	go func() {
		p.waitErr = cmd.Wait()
		close(p.exited)
	}()
	return p, nil
}

func (p *process) roundTrip(ctx context.Context, line []byte) ([]byte, error) {
	if _, err := p.stdin.Write(line); err != nil {
		return nil, p.died(ctx, "")
	}
	select {
	case a, ok := <-p.answers:
		if !ok || a.err != nil {
			return nil, p.died(ctx, "")
		}
		return a.line, nil
	case <-ctx.Done():
		how := "timed out"
		if dl, ok := ctx.Deadline(); ok {
			how = fmt.Sprintf("timed out (deadline %s)", dl.Format(time.TimeOnly))
		}
		return nil, p.died(ctx, how)
	}
}

// died kills the process if needed, reaps it and describes its end.
func (p *process) died(ctx context.Context, how string) error {
	if how != "" {
		p.kill()
	}
	select {
	case <-p.exited:
	case <-time.After(5 * time.Second):
		p.kill()
		<-p.exited
	}
	e := &DiedError{How: how, Stderr: p.stderr.String()}
	if how == "" {
		e.How = "exited"
		var ee *exec.ExitError
		if errors.As(p.waitErr, &ee) {
			if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
				e.Signal = signals.Name(int(ws.Signal()))
				e.How = "killed by " + e.Signal
			} else {
				e.How = ee.String()
			}
		}
	}
	return e
}

func (p *process) kill() {
	if p.cmd.Process != nil {
		syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
		p.cmd.Process.Kill()
	}
}

func (p *process) close() error {
	p.stdin.Close()
	select {
	case <-p.exited:
	case <-time.After(5 * time.Second):
		p.kill()
		<-p.exited
	}
	return nil
}

// tail keeps the last max bytes written to it: a driver's stderr for error
// messages, without letting a chatty driver grow memory.
type tail struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if len(t.buf) > t.max {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-t.max:]...)
	}
	return len(b), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(bytes.TrimSpace(t.buf))
}
