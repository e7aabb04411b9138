// Package readme keeps the README's generated parts current: its test
// renders each part from the code it describes (cliff-diff's verdicts,
// the census classes, the clustered verdicts, the layout of lib/ from each
// package's doc) and fails when the README differs; go test
// ./lib/internal/readme -update rewrites them.
package readme
