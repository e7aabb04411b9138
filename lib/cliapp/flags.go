package cliapp

import "github.com/urfave/cli/v2"

// The flags several tools share, made here so that each reads the same
// in every tool's --help and behaves the same. Each stores its value in
// the variable it is given (Destination): a tool reads its flags there,
// not by name, so that a misspelt name cannot read as the zero value.

// OutputFlag is -o/--output FILE, where a tool writes its records
// (what names them in the help: "cases", "records"): zstd-compressed
// when FILE ends in .zst, stdout for - (the default). lib/jsonl.Create
// writes it.
func OutputFlag(dest *string, what string) *cli.StringFlag {
	return &cli.StringFlag{Name: "output", Aliases: []string{"o"}, Value: "-", Destination: dest, Usage: "write " + what + " to `FILE` (zstd-compressed if it ends in .zst; - is stdout)"}
}

// DriverFlag is --driver PATH, the cliff-driver binary a tool talks to;
// use says what for when not every run needs it ("for --survival"). Its
// default is driver.Find's.
func DriverFlag(dest *string, use string) *cli.StringFlag {
	usage := "`PATH` of cliff-driver"
	if use != "" {
		usage += " " + use
	}
	usage += " (default: $CLIFF_DRIVER, else cliff-driver beside this tool, else on $PATH)"
	return &cli.StringFlag{Name: "driver", Destination: dest, Usage: usage}
}

// SummaryFlag is --summary, in every tool that has one: what to print to
// stderr at the end (usage). There is no --stats.
func SummaryFlag(dest *bool, usage string) *cli.BoolFlag {
	return &cli.BoolFlag{Name: "summary", Destination: dest, Usage: usage}
}

// CraneliftEnv names the default of --cranelift. It applies when neither
// --driver, --cranelift nor $CLIFF_DRIVER chooses the driver (a path is
// the more precise choice), and the tests honour it too:
// CLIFF_CRANELIFT=0.135.8 scripts/test.sh.
const CraneliftEnv = "CLIFF_CRANELIFT"

// CraneliftFlag is --cranelift SPEC[,SPEC...], the Cranelifts a tool
// tests (lib/cranelift's specs), built as needed; several make the
// version part of every configuration.
func CraneliftFlag(dest *cli.StringSlice) *cli.StringSliceFlag {
	return &cli.StringSliceFlag{Name: "cranelift", Destination: dest, Usage: "the Cranelift to test, `SPEC`: a release (0.137.1), latest, default, or a wasmtime checkout's path; several (comma-separated or repeated) run every configuration on each and name it in the results (default: $CLIFF_CRANELIFT, else the driver make built; see cliff-cranelift)"}
}
