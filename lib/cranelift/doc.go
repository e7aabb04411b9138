// Package cranelift says which Cranelift cliff tests and builds
// cliff-driver for it.
//
// A Spec names one: a release on crates.io (0.137.1), "latest" (the
// newest release an installed toolchain builds, the registry asked at
// most once a day), a wasmtime checkout's path (its cranelift/ crates
// replace crates.io's through [patch.crates-io]), or the default, the
// driver `make` builds from driver/Cargo.lock.
//
// A Builder builds the driver's one source (embedded in every tool, see
// package cliff/driver) for a Spec into the cache: drivers/<key>/ holds
// the crate with its manifest pinned to the release, cargo's lock, the
// binary, build.log and build.json. The key is the release (or the
// checkout's path hash, commit and dirty-tree hash) and the hash of the
// driver's source, so nothing is rebuilt while they are unchanged and a
// changed driver is rebuilt everywhere. API differences between releases
// live in the driver (driver/build.rs sets cfg flags from the resolved
// version, driver/src/compat.rs uses them). The toolchain comes from the
// release's rust-version: stable when it is new enough, else another
// installed one that is (nightly). A release that cannot be built is a
// BuildError with one line of reason, kept in the cache so that a
// matrix over releases does not try it twice.
package cranelift
