//! Rewriting a module's function references so that cranelift-module can
//! emit them.
//!
//! The parser gives `%name` references as `ExternalName::TestCase`, which
//! cranelift-module cannot relocate. Before compiling, every function
//! reference and `symbol` global value is rewritten to a module-local
//! `ExternalName::User`:
//!
//! - namespace 0, index i: the module's own function number i;
//! - namespace 1, index j: import number j of the module (a name no function
//!   of the module defines).
//!
//! After the module compiled, `object.rs` maps these local numbers to the
//! object's `FuncId`s and `DataId`s.

use crate::clif::symbol_fragment;
use cranelift_codegen::ir::{ExternalName, Function, GlobalValueData, UserExternalName};
use std::collections::HashMap;

pub const LOCAL_FUNCTION: u32 = 0;
pub const IMPORT: u32 = 1;

/// A symbol a module uses but does not define.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Import {
    /// The symbol name: the reference without `%` (`%memcpy` → `memcpy`,
    /// `u1:5` → `u1_5`).
    pub symbol: String,
    /// Referenced by a `symbol tls` global value.
    pub tls: bool,
}

/// The names of one module, shared by the rewriting of all its functions.
pub struct ModuleNames {
    /// Display name (`%f`, `u0:3`) → index of the function in the module.
    functions: HashMap<String, u32>,
    /// Imports in order of first use; `(symbol, tls)` → index.
    imports: Vec<Import>,
    import_index: HashMap<(String, bool), u32>,
}

impl ModuleNames {
    pub fn new(functions: &[Function]) -> Self {
        let functions = functions
            .iter()
            .enumerate()
            .map(|(i, f)| (f.name.to_string(), i as u32))
            .collect();
        ModuleNames {
            functions,
            imports: Vec::new(),
            import_index: HashMap::new(),
        }
    }

    pub fn imports(&self) -> &[Import] {
        &self.imports
    }

    /// Rewrites every function reference and symbol global value of `func`.
    ///
    /// `colocate_own` marks the references to functions of the module
    /// `colocated`: for Pulley, whose non-colocated direct call is a call
    /// of a host function (`call_indirect_host`, served only by an
    /// embedder), so that a call of the module's own function, the
    /// trampoline's call of its entry first of all, stays a bytecode call.
    pub fn rewrite(&mut self, func: &mut Function, colocate_own: bool) {
        let refs: Vec<_> = func.dfg.ext_funcs.keys().collect();
        for fref in refs {
            if let Some(name) = self.local_name(func, &func.dfg.ext_funcs[fref].name, false) {
                if colocate_own && name.namespace == LOCAL_FUNCTION {
                    func.dfg.ext_funcs[fref].colocated = true;
                }
                let user = func.declare_imported_user_function(name);
                func.dfg.ext_funcs[fref].name = ExternalName::User(user);
            }
        }
        let gvs: Vec<_> = func.global_values.keys().collect();
        for gv in gvs {
            let GlobalValueData::Symbol { name, tls, .. } = &func.global_values[gv] else {
                continue;
            };
            if let Some(local) = self.local_name(func, name, *tls) {
                let user = func.declare_imported_user_function(local);
                if let GlobalValueData::Symbol { name, .. } = &mut func.global_values[gv] {
                    *name = ExternalName::User(user);
                }
            }
        }
    }

    /// The local name for a user or test-case name; libcalls and known
    /// symbols stay as they are (`None`).
    fn local_name(
        &mut self,
        func: &Function,
        name: &ExternalName,
        tls: bool,
    ) -> Option<UserExternalName> {
        if !matches!(name, ExternalName::User(_) | ExternalName::TestCase(_)) {
            return None;
        }
        let display = name.display(Some(&func.params)).to_string();
        if !tls {
            if let Some(&index) = self.functions.get(&display) {
                return Some(UserExternalName::new(LOCAL_FUNCTION, index));
            }
        }
        let symbol = symbol_fragment(&display);
        let next = self.imports.len() as u32;
        let index = *self
            .import_index
            .entry((symbol.clone(), tls))
            .or_insert(next);
        if index == next {
            self.imports.push(Import { symbol, tls });
        }
        Some(UserExternalName::new(IMPORT, index))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clif::parse_module;

    const MODULE: &str = "
function %callee(i64) -> i64 {
block0(v0: i64):
    return v0
}

function %caller(i64) -> i64 {
    gv0 = symbol %callee
    gv1 = symbol tls %tlsvar
    fn0 = %callee(i64) -> i64
    fn1 = %memcpy(i64, i64, i64) -> i64
    fn2 = u7:9(i64) -> i64
block0(v0: i64):
    v1 = call fn0(v0)
    v2 = call fn1(v0, v0, v0)
    v3 = call fn2(v2)
    v4 = symbol_value.i64 gv0
    return v1
}
";

    fn names_of(f: &Function) -> Vec<String> {
        f.dfg
            .ext_funcs
            .values()
            .map(|e| e.name.display(Some(&f.params)).to_string())
            .collect()
    }

    #[test]
    fn rewrite_links_own_functions_and_imports_the_rest() {
        let mut functions = parse_module(MODULE).unwrap();
        let mut names = ModuleNames::new(&functions);
        names.rewrite(&mut functions[1], false);
        assert_eq!(names_of(&functions[1]), ["u0:0", "u1:0", "u1:1"]);
        assert_eq!(
            names.imports(),
            [
                Import {
                    symbol: "memcpy".into(),
                    tls: false
                },
                Import {
                    symbol: "u7_9".into(),
                    tls: false
                },
                Import {
                    symbol: "tlsvar".into(),
                    tls: true
                },
            ]
        );
        let gv_names: Vec<String> = functions[1]
            .global_values
            .values()
            .map(|gv| {
                gv.symbol_name()
                    .display(Some(&functions[1].params))
                    .to_string()
            })
            .collect();
        assert_eq!(gv_names, ["u0:0", "u1:2"]);
    }
}
