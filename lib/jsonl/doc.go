// Package jsonl reads and writes the JSON-lines streams that every cliff tool
// exchanges: one JSON record per line, on stdin/stdout or in files, plain or
// zstd-compressed.
//
// Streams hold millions of records and a single line can be several MiB (a
// whole CLIF module), so the Reader has no line-length limit (unlike
// bufio.Scanner's 64 KiB default, which broke gron on long lines) and
// decompresses zstd as a stream, never holding the whole input.
//
// Compression is decided by content on input (the zstd magic number in the
// first bytes, whatever the file is called) and by name on output (a path
// ending in ".zst" is written compressed).
//
// Named outputs (Create) never lose what they held: the inputs are checked
// first (an output that is also an input is refused), and the records go
// to a temporary file renamed over the output when the Writer is closed,
// so a failed or killed run leaves it as it was (see output.go). Resume
// reopens the output of a run that may have been killed, keeps its
// complete records and appends to it: the journal of cliff-run --resume
// (see resume.go).
//
// A Writer is not safe for concurrent use. Concurrent producers hand their
// records to the one goroutine that writes them (cliff-run's engine: its
// finished chunks, drained in input order by lib/engine's runner.write), so
// lines never interleave — the same design as httpx.
package jsonl
