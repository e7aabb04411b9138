//! The `compile` op, first half: each module on its own, from text to
//! machine code held in memory. Nothing touches the object until every
//! function of a module compiled (see `object.rs`).

use crate::clif::{parse_module, symbol_fragment};
use crate::names::{Import, ModuleNames};
use crate::panics;
use crate::protocol::Failure;
use cranelift_codegen::control::ControlPlane;
use cranelift_codegen::ir::Function;
use cranelift_codegen::isa::TargetIsa;
use cranelift_codegen::{CodegenError, Context, FinalizedMachReloc};

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
    pub relocs: Vec<FinalizedMachReloc>,
    /// `(offset from the function's start, trap code as in CLIF)`.
    pub traps: Vec<(u32, String)>,
}

/// A module whose functions all compiled.
pub struct CompiledModule {
    pub functions: Vec<CompiledFunction>,
    pub imports: Vec<Import>,
}

/// A module failure, with the function it happened in when known.
pub struct ModuleFailure {
    pub function: Option<String>,
    pub failure: Failure,
}

/// Parses, verifies (as part of compilation) and compiles module `index`.
/// Each function is compiled under `catch_unwind`; the first failure ends the
/// module.
pub fn compile_module(
    index: usize,
    text: &str,
    isa: &dyn TargetIsa,
) -> Result<CompiledModule, ModuleFailure> {
    let unnamed = |failure: Failure| ModuleFailure {
        function: None,
        failure,
    };
    let mut functions = panics::catch(|| parse_module(text))
        .map_err(|c| unnamed(c.into()))?
        .map_err(|e| unnamed(e.into()))?;
    let mut names = ModuleNames::new(&functions);
    let mut compiled = Vec::with_capacity(functions.len());
    for func in functions.drain(..) {
        let name = func.name.to_string();
        let result = panics::catch(|| {
            let mut func = func;
            names.rewrite(&mut func);
            compile_function(func, isa)
        });
        let named = |failure: Failure| ModuleFailure {
            function: Some(name.clone()),
            failure,
        };
        let (func, code) = result
            .map_err(|c| named(c.into()))?
            .map_err(|e| named(e.into()))?;
        compiled.push(CompiledFunction {
            symbol: format!("cliff_m{index}_{}", symbol_fragment(&name)),
            name,
            func,
            code,
        });
    }
    Ok(CompiledModule {
        functions: compiled,
        imports: names.imports().to_vec(),
    })
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
        alignment: u64::from(buffer.alignment),
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
