// Package locaterun is cliff-locate's engine: for each failing case it
// reads (a cluster's representative, a verdict or a .clif file) it
// reproduces the failure on the configurations at stake, localises it
// (lib/locate), reduces it (lib/reduce), always against the same cluster
// signature with the engine and the judge as the oracle, and writes the
// location record, the reduced filetest and the mask entry.
package locaterun
