//! Reading and checking CLIF modules (one or more functions).

use cranelift_codegen::ir::Function;
use cranelift_codegen::settings::FlagsOrIsa;
use cranelift_codegen::verify_function;
use std::collections::HashSet;

/// Parses a module: at least one function, no two with the same name.
pub fn parse_module(text: &str) -> Result<Vec<Function>, String> {
    let functions =
        cranelift_reader::parse_functions(text).map_err(|e| format!("parse error: line {e}"))?;
    if functions.is_empty() {
        return Err("parse error: the module has no functions".to_string());
    }
    let mut seen = HashSet::new();
    for f in &functions {
        if !seen.insert(f.name.to_string()) {
            return Err(format!("function {} is defined twice", f.name));
        }
    }
    Ok(functions)
}

/// Runs the verifier on every function; all messages, one per line.
pub fn verify_module(functions: &[Function], fisa: FlagsOrIsa) -> Result<(), String> {
    let mut messages = Vec::new();
    for f in functions {
        if let Err(errors) = verify_function(f, fisa) {
            for e in &errors.0 {
                messages.push(format!("function {}: {e}", f.name));
            }
        }
    }
    if messages.is_empty() {
        Ok(())
    } else {
        Err(messages.join("\n"))
    }
}

/// Instructions in the function's layout.
pub fn inst_count(f: &Function) -> usize {
    f.layout
        .blocks()
        .map(|b| f.layout.block_insts(b).count())
        .sum()
}

/// A function name as a symbol fragment: `%f` → `f`, `u0:3` → `u0_3`;
/// characters other than `[A-Za-z0-9_]` become `_`.
pub fn symbol_fragment(display_name: &str) -> String {
    display_name
        .strip_prefix('%')
        .unwrap_or(display_name)
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use cranelift_codegen::settings;

    #[test]
    fn symbol_fragment_sanitises() {
        let cases = [
            ("%f", "f"),
            ("u0:3", "u0_3"),
            ("%cliff_tramp0", "cliff_tramp0"),
            ("%a.b", "a_b"),
        ];
        for (name, want) in cases {
            assert_eq!(symbol_fragment(name), want);
        }
    }

    #[test]
    fn parse_module_rejects_duplicates_and_empty_text() {
        let f = "function %f() {\nblock0:\n    return\n}\n";
        assert_eq!(parse_module(f).unwrap().len(), 1);
        assert!(parse_module(&format!("{f}{f}"))
            .unwrap_err()
            .contains("defined twice"));
        assert!(parse_module("").is_err());
        assert!(parse_module("function %f(")
            .unwrap_err()
            .starts_with("parse error"));
    }

    #[test]
    fn verify_module_names_function_and_instruction() {
        let text = "function %g(i32) -> i64 {\nblock0(v0: i32):\n    return v0\n}\n";
        let functions = parse_module(text).unwrap();
        let flags = settings::Flags::new(settings::builder());
        let err = verify_module(&functions, (&flags).into()).unwrap_err();
        assert!(err.starts_with("function %g: "), "{err}");
        assert!(err.contains("inst"), "{err}");
    }

    #[test]
    fn inst_count_counts_layout() {
        let text =
            "function %f(i32) -> i32 {\nblock0(v0: i32):\n    v1 = iadd v0, v0\n    return v1\n}\n";
        assert_eq!(inst_count(&parse_module(text).unwrap()[0]), 2);
    }
}
