// Command opgen turns lib/ir/opcodes.txt, the declarative opcode table, into
// lib/ir/opcodes_gen.go: the Opcode and Format constants, the tables behind
// Opcode.Info and Format.Info, and the name index. Run it through
// `go generate ./lib/ir`; a test in lib/ir fails when the checked-in output
// is stale. The work is done by package gen, which that test also uses.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"

	"cliff/lib/ir/internal/opgen/gen"
)

func main() {
	in := flag.String("in", "opcodes.txt", "opcode table")
	out := flag.String("out", "opcodes_gen.go", "generated Go file")
	flag.Parse()
	if err := run(*in, *out); err != nil {
		fmt.Fprintln(os.Stderr, "opgen:", err)
		os.Exit(1)
	}
}

func run(in, out string) error {
	src, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	code, err := gen.Generate(in, src)
	if err != nil {
		return err
	}
	// Leave the file (and its modification time) alone when nothing changed.
	if old, err := os.ReadFile(out); err == nil && bytes.Equal(old, code) {
		return nil
	}
	return os.WriteFile(out, code, 0o644)
}
