//! The `compile` op, first half: each module on its own, from text to
//! machine code held in memory. Nothing touches the object until every
//! function of a module compiled (see `object.rs`).

use crate::clif::{parse_module, symbol_fragment};
use crate::compat::{self, Reloc};
use crate::names::{Import, ModuleNames, LOCAL_FUNCTION};
use crate::panics;
use crate::protocol::Failure;
use cranelift_codegen::control::ControlPlane;
use cranelift_codegen::ir::Function;
use cranelift_codegen::isa::TargetIsa;
use cranelift_codegen::{CodegenError, Context};

/// One function's machine code, before it is placed in the object.
pub struct CompiledFunction {
    /// Display name in the module (`%f`, `u0:3`).
    pub name: String,
    /// Global symbol in the object (`cliff_m<k>_<name>`).
    pub symbol: String,
    /// The function after name rewriting: relocations refer to its
    /// `user_named_funcs`.
    pub func: Function,
    pub code: MachineCode,
}

/// What the backend produced for one function.
pub struct MachineCode {
    pub alignment: u64,
    /// Code and constant pool.
    pub bytes: Vec<u8>,
    pub relocs: Vec<Reloc>,
    /// `(offset from the function's start, trap code as in CLIF)`.
    pub traps: Vec<(u32, String)>,
}

/// A compiled module: the functions that go into the object, and why the
/// others do not. A function that fails does not fail the others: each
/// failure is its own function's, and a function that compiled is left
/// out only when its code refers (through calls, `func_addr` or `symbol`
/// values, directly or through other functions) to one that failed.
pub struct CompiledModule {
    /// The functions to place in the object, in module order.
    pub functions: Vec<CompiledFunction>,
    pub imports: Vec<Import>,
    /// Every function of the module, in module order.
    pub outcomes: Vec<FunctionOutcome>,
}

/// What became of one function of a module.
pub struct FunctionOutcome {
    /// Display name in the module.
    pub name: String,
    /// Its position in `CompiledModule::functions`, when placed.
    pub placed: Option<usize>,
    /// Why it is not placed: its own failure, or that of `needs`.
    pub failure: Option<Failure>,
    /// The function that failed, when this one compiled but refers to it.
    pub needs: Option<String>,
}

impl CompiledModule {
    /// The first function that failed on its own, if any.
    pub fn first_failure(&self) -> Option<&FunctionOutcome> {
        self.outcomes
            .iter()
            .find(|o| o.failure.is_some() && o.needs.is_none())
    }
}

/// A module that failed as a whole (it does not parse), or in a function
/// when `function` says so.
pub struct ModuleFailure {
    pub function: Option<String>,
    pub failure: Failure,
}

/// One function's name and how its compilation went.
type NamedResult = (String, Result<(Function, MachineCode), Failure>);

/// Parses, verifies (as part of compilation) and compiles module `index`.
/// Each function is compiled under `catch_unwind`, every one of them even
/// after a failure, so that each failure names its own function.
pub fn compile_module(
    index: usize,
    text: &str,
    isa: &dyn TargetIsa,
) -> Result<CompiledModule, ModuleFailure> {
    let colocate_own = crate::target::is_pulley(isa);
    let unnamed = |failure: Failure| ModuleFailure {
        function: None,
        failure,
    };
    let mut functions = panics::catch(|| parse_module(text))
        .map_err(|c| unnamed(c.into()))?
        .map_err(|e| unnamed(e.into()))?;
    let mut names = ModuleNames::new(&functions);
    let mut results: Vec<NamedResult> = Vec::with_capacity(functions.len());
    for func in functions.drain(..) {
        let name = func.name.to_string();
        let result = match panics::catch(|| {
            let mut func = func;
            names.rewrite(&mut func, colocate_own);
            compile_function(func, isa)
        }) {
            Ok(Ok(compiled)) => Ok(compiled),
            Ok(Err(message)) => Err(Failure::Error(message)),
            Err(crash) => Err(Failure::Crash(crash)),
        };
        results.push((name, result));
    }
    let blocked = blocked_by(&results);
    let all_names: Vec<String> = results.iter().map(|(name, _)| name.clone()).collect();
    let failures: Vec<Option<Failure>> = results
        .iter()
        .map(|(_, r)| r.as_ref().err().cloned())
        .collect();
    let mut compiled = Vec::with_capacity(results.len());
    let mut outcomes = Vec::with_capacity(results.len());
    for ((name, result), blocker) in results.into_iter().zip(blocked) {
        let mut outcome = FunctionOutcome {
            name: name.clone(),
            placed: None,
            failure: None,
            needs: None,
        };
        match (result, blocker) {
            (Err(failure), _) => outcome.failure = Some(failure),
            (Ok(_), Some(root)) => {
                outcome.failure = failures[root].clone();
                outcome.needs = Some(all_names[root].clone());
            }
            (Ok((func, code)), None) => {
                outcome.placed = Some(compiled.len());
                compiled.push(CompiledFunction {
                    symbol: format!("cliff_m{index}_{}", symbol_fragment(&name)),
                    name,
                    func,
                    code,
                });
            }
        }
        outcomes.push(outcome);
    }
    Ok(CompiledModule {
        functions: compiled,
        imports: names.imports().to_vec(),
        outcomes,
    })
}
/// For each function that compiled, the first function that failed among
/// those its code refers to, directly or through other functions of the
/// module; `None` when there is none, and for the failed ones.
fn blocked_by(results: &[NamedResult]) -> Vec<Option<usize>> {
    let targets: Vec<Vec<usize>> = results
        .iter()
        .map(|(_, r)| match r {
            Ok((func, code)) => local_targets(func, code),
            Err(_) => Vec::new(),
        })
        .collect();
    // A failed function is its own root; the roots spread to the functions
    // that refer to them until nothing changes.
    let mut root: Vec<Option<usize>> = results
        .iter()
        .enumerate()
        .map(|(i, (_, r))| r.is_err().then_some(i))
        .collect();
    loop {
        let mut changed = false;
        for i in 0..results.len() {
            if root[i].is_none() {
                if let Some(r) = targets[i].iter().find_map(|&t| root[t]) {
                    root[i] = Some(r);
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    root.into_iter()
        .enumerate()
        .map(|(i, r)| r.filter(|&r| r != i))
        .collect()
}

/// The functions of its own module that a function's code refers to: the
/// relocations to module-local names (what `object.rs` links), so a
/// reference the optimiser removed does not count.
fn local_targets(func: &Function, code: &MachineCode) -> Vec<usize> {
    code.relocs
        .iter()
        .filter_map(|r| {
            let name = &func.params.user_named_funcs()[compat::reloc_user_name(r)?];
            (name.namespace == LOCAL_FUNCTION).then_some(name.index as usize)
        })
        .collect()
}

/// Compiles one (already rewritten) function; hands it back with its code.
fn compile_function(
    func: Function,
    isa: &dyn TargetIsa,
) -> Result<(Function, MachineCode), String> {
    let mut ctx = Context::for_function(func);
    let name = ctx.func.name.to_string();
    let compiled = match ctx.compile(isa, &mut ControlPlane::default()) {
        Ok(compiled) => compiled,
        Err(e) => {
            return Err(match &e.inner {
                CodegenError::Verifier(errors) => errors
                    .0
                    .iter()
                    .map(|err| format!("function {name}: {err}"))
                    .collect::<Vec<_>>()
                    .join("\n"),
                other => format!("function {name}: {other}"),
            })
        }
    };
    let buffer = &compiled.buffer;
    let code = MachineCode {
        alignment: u64::from(compat::code_alignment(compiled)),
        bytes: buffer.data().to_vec(),
        relocs: buffer.relocs().to_vec(),
        traps: buffer
            .traps()
            .iter()
            .map(|t| (t.offset, t.code.to_string()))
            .collect(),
    };
    Ok((std::mem::replace(&mut ctx.func, Function::new()), code))
}
