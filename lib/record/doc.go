// Package record defines the records that cliff's tools exchange as JSON
// lines, in one place, so that the wire format is one reviewed thing.
// The stages:
//
//	cliff-extract  → Snippet   (corpus of CLIF fragments)
//	cliff-gen      → Case      (a CLIF module with inputs), reading Snippets
//	cliff-refine   → Case      (rewritten CLIF and metrics)
//	cliff-run      → Case with RunResults appended (or lone RunResults)
//	cliff-diff     → Verdict
//	cliff-cluster  → Cluster
//	cliff-locate   → Location
//	cliff-cluster --history → Run (one night of scripts/nightly.sh)
//
// Every record carries "kind" and "v" (the schema version, SchemaVersion)
// first, so a tool can dispatch on a line with Peek without decoding it all.
// A reader rejects records of a newer schema version instead of silently
// misreading them: bump SchemaVersion whenever a field changes meaning or a
// required field is added, and regenerate the golden files
// (go test ./lib/record -update) so the change is reviewed as a diff.
//
// A tool reading one kind decodes each line into that type (jsonl.Reader's
// Next) and calls Validate, which also rejects a newer schema version; a tool
// reading mixed kinds takes the raw line (jsonl.Reader's NextRaw) and calls
// Decode, or dispatches on Peek.
//
// Records are plain data; field names are snake_case on the wire, optional
// fields are omitted when empty. Stamp sets a record's kind and version;
// Validate checks the required fields and reports every problem it finds.
package record
