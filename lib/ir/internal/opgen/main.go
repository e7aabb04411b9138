// Command opgen turns lib/ir/opcodes.txt, the declarative opcode table, into
// lib/ir/opcodes_gen.go: the Opcode and Format constants, the tables behind
// Opcode.Info and Format.Info, and the name index. Run it through
// `go generate ./lib/ir`; a test in lib/ir fails when the checked-in output
// is stale.
//
// It does not import lib/ir, so a broken generated file never stops the
// generator from building.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
)

func main() {
	in := flag.String("in", "opcodes.txt", "opcode table")
	out := flag.String("out", "opcodes_gen.go", "generated Go file")
	flag.Parse()
	src, err := os.ReadFile(*in)
	if err != nil {
		fmt.Fprintln(os.Stderr, "opgen:", err)
		os.Exit(1)
	}
	code, err := Generate(*in, src)
	if err != nil {
		fmt.Fprintln(os.Stderr, "opgen:", err)
		os.Exit(1)
	}
	if old, err := os.ReadFile(*out); err == nil && bytes.Equal(old, code) {
		return
	}
	if err := os.WriteFile(*out, code, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "opgen:", err)
		os.Exit(1)
	}
}
