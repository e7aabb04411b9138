// Package driver holds cliff-driver's Rust source (this directory), so
// that every cliff tool can build the driver for any Cranelift
// (lib/cranelift) wherever it is installed, from exactly the source it
// was built with.
package driver

import "embed"

// Source is the driver's crate: its manifest, lock, build script,
// sources and tests. What else lies here (the docs, this file) is left
// out, so that it does not change the build key.
//
//go:embed Cargo.toml Cargo.lock build.rs src tests
var Source embed.FS
