//! The `features` op: what this Cranelift release knows, taken from the
//! release itself, so that cliff can tell per version which opcodes and
//! settings exist (its opcode table's per-version columns).
//!
//! Everything is sorted by name, so that two builds of one release answer
//! the same bytes and two releases can be compared line by line.

use crate::protocol::Body;
use crate::target::TARGETS;
use cranelift_codegen::ir::Opcode;
use cranelift_codegen::isa;
use cranelift_codegen::settings::{self, Setting, SettingKind};
use serde::Serialize;
use serde_json::{Map, Value};

/// One setting: its name, kind (`bool`, `enum`, `num`, `preset`) and, for
/// an enum, its values.
#[derive(Serialize)]
struct SettingAnswer {
    name: &'static str,
    kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    values: Option<Vec<&'static str>>,
}

pub fn features() -> Result<Body, String> {
    let mut opcodes: Vec<String> = Opcode::all().iter().map(|op| op.to_string()).collect();
    opcodes.sort();
    let mut isa_flags = Map::new();
    for name in TARGETS {
        let builder = isa::lookup_by_name(name).map_err(|e| format!("ISA {name}: {e}"))?;
        isa_flags.insert(name.to_string(), to_value(settings_of(builder.iter())));
    }
    let mut out = Map::new();
    out.insert("cranelift".into(), crate::compat::CRANELIFT_VERSION.into());
    out.insert("opcodes".into(), opcodes.into());
    out.insert(
        "shared_settings".into(),
        to_value(settings_of(settings::builder().iter())),
    );
    // A JSON object keeps insertion order (preserve_order): sort the ISAs too.
    let mut sorted: Vec<(String, Value)> = isa_flags.into_iter().collect();
    sorted.sort_by(|a, b| a.0.cmp(&b.0));
    out.insert(
        "isa_flags".into(),
        Value::Object(sorted.into_iter().collect()),
    );
    Ok(out)
}

/// The settings sorted by name, enum values sorted too.
fn settings_of(settings: impl Iterator<Item = Setting>) -> Vec<SettingAnswer> {
    let mut out: Vec<SettingAnswer> = settings
        .map(|s| SettingAnswer {
            name: s.name,
            kind: match s.kind {
                SettingKind::Bool => "bool",
                SettingKind::Enum => "enum",
                SettingKind::Num => "num",
                SettingKind::Preset => "preset",
            },
            values: s.values.map(|v| {
                let mut v = v.to_vec();
                v.sort_unstable();
                v
            }),
        })
        .collect();
    out.sort_by(|a, b| a.name.cmp(b.name));
    out
}

fn to_value(settings: Vec<SettingAnswer>) -> Value {
    serde_json::to_value(settings).expect("settings serialise")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features_lists_sorted_opcodes_and_settings() {
        let body = features().unwrap();
        let opcodes: Vec<&str> = body["opcodes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        assert!(
            opcodes.windows(2).all(|w| w[0] < w[1]),
            "sorted, no duplicates"
        );
        for op in ["iadd", "load", "call", "return", "select_spectre_guard"] {
            assert!(opcodes.contains(&op), "{op}");
        }
        let shared = body["shared_settings"].as_array().unwrap();
        let opt = shared.iter().find(|s| s["name"] == "opt_level").unwrap();
        assert_eq!(opt["kind"], "enum");
        assert_eq!(
            opt["values"],
            serde_json::json!(["none", "speed", "speed_and_size"])
        );
        let isas: Vec<&String> = body["isa_flags"].as_object().unwrap().keys().collect();
        assert_eq!(isas, ["aarch64", "riscv64", "s390x", "x86_64"]);
        let x86 = body["isa_flags"]["x86_64"].as_array().unwrap();
        let kind = |name: &str| {
            x86.iter()
                .find(|s| s["name"] == name)
                .map(|s| s["kind"].clone())
        };
        assert_eq!(kind("has_avx"), Some("bool".into()));
        assert_eq!(kind("skylake"), Some("preset".into()));
    }
}
