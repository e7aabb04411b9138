//! Finds out which Cranelift the driver is being built against and tells
//! the code (see src/compat.rs).
//!
//! The version is the cranelift-codegen that cargo actually resolved, read
//! from the Cargo.lock beside the manifest being built: cliff builds one
//! driver source against many releases, each in its own directory with its
//! own Cargo.toml and Cargo.lock (and a local checkout through a path
//! patch, whose lock entry has a version but no `source`). It becomes
//! `CLIFF_CRANELIFT_VERSION` for the `version` op, and each API difference
//! between releases becomes one cfg flag, named for what it means.

use std::env;
use std::fs;
use std::path::{Path, PathBuf};

/// One cfg per API difference: its name, what it means, and the first
/// release that no longer has it (the flag is set for every version below).
const CFGS: &[(&str, &str, (u64, u64))] = &[
    // MachBufferFinalized::relocs() gives FinalizedMachReloc with a
    // FinalizedRelocTarget (MachReloc and RelocTarget from 0.137).
    (
        "cranelift_finalized_relocs",
        "relocs are FinalizedMachReloc",
        (0, 137),
    ),
    // Pulley's calls and near addresses are relocated with X86CallPCRel4,
    // the value replacing the field (Reloc::PulleyPcRel, added to the
    // field, from 0.124).
    (
        "cranelift_pulley_x86_pcrel",
        "Pulley's pc-relative relocation is X86CallPCRel4",
        (0, 124),
    ),
    // pulley-interpreter's TrapKind has no DisabledOpcode (from 0.121,
    // pulley-interpreter 34) and no StackOverflow (from 0.122, 35).
    (
        "pulley_no_disabled_opcode",
        "TrapKind has no DisabledOpcode",
        (0, 121),
    ),
    (
        "pulley_no_stack_overflow",
        "TrapKind has no StackOverflow",
        (0, 122),
    ),
    // MachBufferFinalized has `alignment` (`min_alignment` from 0.137).
    (
        "cranelift_buffer_alignment",
        "the buffer's field is `alignment`",
        (0, 137),
    ),
];

fn main() {
    let manifest_dir =
        PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let lock = find_lock(&manifest_dir);
    println!("cargo::rerun-if-changed={}", lock.display());
    println!("cargo::rerun-if-changed=build.rs");
    let text =
        fs::read_to_string(&lock).unwrap_or_else(|e| panic!("reading {}: {e}", lock.display()));
    let version = codegen_version(&text).unwrap_or_else(|| {
        panic!(
            "{}: no [[package]] named cranelift-codegen with a version",
            lock.display()
        )
    });
    let minor = minor_of(&version).unwrap_or_else(|| {
        panic!("cranelift-codegen version {version:?} is not MAJOR.MINOR.PATCH")
    });
    println!("cargo::rustc-env=CLIFF_CRANELIFT_VERSION={version}");
    for (name, _meaning, before) in CFGS {
        println!("cargo::rustc-check-cfg=cfg({name})");
        if minor < *before {
            println!("cargo::rustc-cfg={name}");
        }
    }
}

/// The Cargo.lock cargo uses for this build: beside the manifest, or, in a
/// workspace, beside the workspace's manifest further up.
fn find_lock(manifest_dir: &Path) -> PathBuf {
    let beside = manifest_dir.join("Cargo.lock");
    if beside.exists() {
        return beside;
    }
    manifest_dir
        .ancestors()
        .skip(1)
        .map(|d| d.join("Cargo.lock"))
        .find(|p| p.exists())
        .unwrap_or(beside)
}

/// The `version` of the `[[package]]` named cranelift-codegen.
fn codegen_version(lock: &str) -> Option<String> {
    lock.split("[[package]]").find_map(|package| {
        let mut name = None;
        let mut version = None;
        for line in package.lines() {
            let line = line.trim();
            if let Some(v) = quoted_value(line, "name") {
                name = Some(v);
            } else if let Some(v) = quoted_value(line, "version") {
                version = Some(v);
            }
        }
        (name == Some("cranelift-codegen")).then_some(version?.to_string())
    })
}

/// `key = "value"` → `value`.
fn quoted_value<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let rest = line.strip_prefix(key)?.trim_start().strip_prefix('=')?;
    rest.trim().strip_prefix('"')?.strip_suffix('"')
}

/// `0.137.1` → `(0, 137)`; pre-release suffixes are ignored.
fn minor_of(version: &str) -> Option<(u64, u64)> {
    let mut parts = version.split('.');
    let major = parts.next()?.parse().ok()?;
    let minor = parts.next()?.parse().ok()?;
    Some((major, minor))
}
