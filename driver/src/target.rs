//! Building a Cranelift ISA from a request's `target` and `flags`.
//!
//! `target` is what follows `target` in a CLIF file (`x86_64 has_avx`,
//! `x86_64 skylake`, `riscv64 has_v`), `flags` what follows `set`. The work
//! is cranelift-reader's `parse_sets_and_triple`; the driver only turns a
//! bare ISA name into a Linux ELF triple (cranelift-object needs a binary
//! format) and starts from `is_pic=false`.

use cranelift_codegen::isa::OwnedTargetIsa;
use cranelift_codegen::settings::{self, Value};
use cranelift_reader::{parse_sets_and_triple, OwnedFlagsOrIsa};

/// The ISAs cliff compiles for (the `version` op lists them). The four
/// Pulley targets are Cranelift's portable bytecode, run by cliff-pulley
/// (src/runner/): their `compile` writes a Pulley batch file (pulley.rs).
pub const TARGETS: [&str; 8] = [
    "x86_64",
    "aarch64",
    "riscv64",
    "s390x",
    "pulley32",
    "pulley32be",
    "pulley64",
    "pulley64be",
];

/// Whether `isa` compiles Pulley bytecode rather than machine code.
pub fn is_pulley(isa: &dyn cranelift_codegen::isa::TargetIsa) -> bool {
    isa.name().starts_with("pulley")
}

/// Builds the ISA for `target` with shared settings `flags`.
pub fn isa(target: &str, flags: &[String]) -> Result<OwnedTargetIsa, String> {
    if target.trim().is_empty() {
        return Err("empty target".to_string());
    }
    match flags_or_isa(Some(target), flags)? {
        OwnedFlagsOrIsa::Isa(isa) => Ok(isa),
        OwnedFlagsOrIsa::Flags(_) => unreachable!("a target always yields an ISA"),
    }
}

/// Builds the ISA for `target`, or only the shared settings when there is
/// no target.
pub fn flags_or_isa(target: Option<&str>, flags: &[String]) -> Result<OwnedFlagsOrIsa, String> {
    let mut all = Vec::with_capacity(flags.len() + 1);
    all.push("is_pic=false".to_string());
    all.extend(flags.iter().cloned());
    let triple = target.map(elf_triple).unwrap_or_default();
    parse_sets_and_triple(&all, &triple)
        .map_err(|e| format!("target {:?}: {e:#}", target.unwrap_or("")))
}

/// `x86_64 has_avx` → `x86_64-unknown-linux-gnu has_avx`; a word that is
/// already a triple is left alone.
fn elf_triple(target: &str) -> String {
    let target = target.trim();
    let (isa, rest) = target
        .split_once(char::is_whitespace)
        .unwrap_or((target, ""));
    if isa.contains('-') || isa.starts_with("pulley") {
        // Pulley has no operating system: target-lexicon knows
        // `pulley64` (and `pulley64be`, ...) alone, as CLIF files write it.
        target.to_string()
    } else {
        format!("{isa}-unknown-linux-gnu {rest}")
    }
}

/// Renders settings as `name=value` (`has_avx=true`, `opt_level=speed`).
pub fn render_settings(values: impl IntoIterator<Item = Value>) -> Vec<String> {
    values
        .into_iter()
        .map(|v| format!("{}={}", v.name, v.value_string()))
        .collect()
}

/// Every shared setting of `flags`, effective values.
pub fn shared_settings(flags: &settings::Flags) -> Vec<String> {
    render_settings(flags.iter())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compat::CRANELIFT_VERSION;

    #[test]
    fn isa_accepts_clif_target_lines() {
        let cases: [(&str, &[&str], &str); 6] = [
            ("x86_64", &[], "has_avx=false"),
            ("x86_64 has_avx has_bmi2", &[], "has_avx=true"),
            ("x86_64 skylake", &[], "has_avx2=true"),
            ("riscv64 has_v", &["opt_level=speed"], "has_v=true"),
            ("aarch64 has_lse", &[], "has_lse=true"),
            ("s390x has_vxrs_ext2", &[], "has_vxrs_ext2=true"),
        ];
        for (target, flags, want) in cases {
            let flags: Vec<String> = flags.iter().map(|s| s.to_string()).collect();
            let isa = isa(target, &flags).unwrap_or_else(|e| panic!("{target}: {e}"));
            let settings = render_settings(isa.isa_flags());
            assert!(settings.iter().any(|s| s == want), "{target}: {settings:?}");
            assert!(
                !isa.flags().is_pic(),
                "{target}: is_pic must default to false"
            );
        }
        // 0.123 renamed s390x's has_mie2 to has_mie3: each release knows
        // one of them, and the other is an unknown flag.
        let (known, unknown) = if minor_release() >= 123 {
            ("has_mie3", "has_mie2")
        } else {
            ("has_mie2", "has_mie3")
        };
        let settings = render_settings(isa(&format!("s390x {known}"), &[]).unwrap().isa_flags());
        assert!(
            settings.iter().any(|s| *s == format!("{known}=true")),
            "{settings:?}"
        );
        assert!(
            isa(&format!("s390x {unknown}"), &[]).is_err(),
            "{CRANELIFT_VERSION}: {unknown}"
        );
    }

    /// The minor release the driver was built against: `0.137.1` → 137.
    fn minor_release() -> u32 {
        CRANELIFT_VERSION
            .split('.')
            .nth(1)
            .and_then(|m| m.parse().ok())
            .unwrap_or_else(|| panic!("version {CRANELIFT_VERSION:?}"))
    }

    #[test]
    fn shared_flags_apply() {
        let isa = isa("x86_64", &["opt_level=speed_and_size".to_string()]).unwrap();
        assert!(shared_settings(isa.flags()).contains(&"opt_level=speed_and_size".to_string()));
        let pic = isa_with_pic();
        assert!(pic.flags().is_pic());
    }

    fn isa_with_pic() -> OwnedTargetIsa {
        isa("aarch64", &["is_pic=true".to_string()]).unwrap()
    }

    #[test]
    fn unknown_targets_and_flags_are_errors() {
        let cases: [(&str, &[&str]); 5] = [
            ("mips64", &[]),
            ("x86_64 has_warp_drive", &[]),
            ("x86_64", &["no_such_flag=1"]),
            ("x86_64", &["opt_level=fastest"]),
            ("", &[]),
        ];
        for (target, flags) in cases {
            let flags: Vec<String> = flags.iter().map(|s| s.to_string()).collect();
            assert!(isa(target, &flags).is_err(), "{target} {flags:?}");
        }
    }
}
