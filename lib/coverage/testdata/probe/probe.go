// Command probe is a program for TestOpenBinaryLineTable to read the
// symbols and line table of.
package main

import "os"

//go:noinline
func probe(x int) int {
	s := 0
	for i := 0; i < x; i++ { // probe: a line of the probe's body
		s += scale(i, x) // probe: an inlined call
	}
	return s
}

func main() { os.Exit(probe(len(os.Args)) - 4) }
