//! The ops of PROTOCOL.md and the dispatch from `op` to handler.

use crate::clif::{inst_count, parse_module, verify_module};
use crate::compile::{compile_module, CompiledModule, FunctionOutcome, ModuleFailure};
use crate::object::{build_object, Entry};
use crate::panics;
use crate::protocol::{body, failure_fields, fields, null_as_empty, Body, Failure};
use crate::target;
use cranelift_codegen::control::ControlPlane;
use cranelift_codegen::Context;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::time::Instant;

/// Runs the op named in `request`.
pub fn dispatch(request: &Value) -> Result<Body, Failure> {
    let op = request.get("op").and_then(Value::as_str).unwrap_or("");
    match op {
        "version" => Ok(version()),
        "features" => Ok(crate::features::features()?),
        "verify" => verify(request),
        "compile" => compile(request),
        "interpret" => crate::interpret::interpret(request),
        "optimize" => optimize(request),
        "parse_test" => parse_test(request),
        "" => Err(Failure::Error("bad request: no \"op\"".to_string())),
        other => Err(Failure::Error(format!("bad request: unknown op {other:?}"))),
    }
}

fn version() -> Body {
    let mut out = Map::new();
    out.insert("cranelift".into(), crate::compat::CRANELIFT_VERSION.into());
    out.insert("targets".into(), target::TARGETS.to_vec().into());
    out
}

#[derive(Deserialize)]
struct VerifyRequest {
    clif: String,
    #[serde(default)]
    target: Option<String>,
    #[serde(default, deserialize_with = "null_as_empty")]
    flags: Vec<String>,
}

fn verify(request: &Value) -> Result<Body, Failure> {
    let req: VerifyRequest = fields(request)?;
    let fisa = target::flags_or_isa(req.target.as_deref(), &req.flags)?;
    panics::catch(|| {
        let functions = parse_module(&req.clif)?;
        verify_module(&functions, fisa.as_fisa())
    })??;
    Ok(Map::new())
}

#[derive(Deserialize)]
struct OptimizeRequest {
    clif: String,
    target: String,
    #[serde(default, deserialize_with = "null_as_empty")]
    flags: Vec<String>,
}

#[derive(Serialize)]
struct OptimizedFunction {
    name: String,
    insts_before: usize,
    insts_after: usize,
    clif: String,
}

fn optimize(request: &Value) -> Result<Body, Failure> {
    let req: OptimizeRequest = fields(request)?;
    let isa = target::isa(&req.target, &req.flags)?;
    let functions = panics::catch(|| parse_module(&req.clif))??;
    let mut out = Vec::with_capacity(functions.len());
    for func in functions {
        let name = func.name.to_string();
        let insts_before = inst_count(&func);
        let optimized = panics::catch(|| {
            let mut ctx = Context::for_function(func);
            ctx.optimize(&*isa, &mut ControlPlane::default())
                .map_err(|e| format!("function {name}: {e}"))?;
            Ok::<_, String>(ctx.func)
        })??;
        out.push(OptimizedFunction {
            name,
            insts_before,
            insts_after: inst_count(&optimized),
            clif: optimized.display().to_string(),
        });
    }
    let mut answer = Map::new();
    answer.insert(
        "functions".into(),
        serde_json::to_value(out).expect("serialisable"),
    );
    Ok(answer)
}

#[derive(Deserialize)]
struct CompileRequest {
    target: String,
    #[serde(default, deserialize_with = "null_as_empty")]
    flags: Vec<String>,
    output: String,
    #[serde(default, deserialize_with = "null_as_empty")]
    modules: Vec<String>,
    #[serde(default, deserialize_with = "null_as_empty")]
    entries: Vec<Entry>,
}

#[derive(Serialize)]
struct CompileAnswer {
    object_ms: f64,
    isa_flags: Vec<String>,
    shared_flags: Vec<String>,
    modules: Vec<Value>,
}

#[derive(Serialize)]
struct FunctionAnswer<'a> {
    name: &'a str,
    status: &'static str,
    symbol: &'a str,
    size: usize,
    /// Identifies the machine code (bytes and relocations): two compiles
    /// with the same hash produced the same code, which is how cliff-run
    /// runs code compiled for ISA flags QEMU lacks when the flags did not
    /// change the code.
    code_hash: String,
    traps: Vec<TrapAnswer<'a>>,
}

#[derive(Serialize)]
struct TrapAnswer<'a> {
    offset: u32,
    code: &'a str,
}

/// FNV-1a (64-bit) over the code bytes and the relocations' debug text:
/// not cryptographic, only to tell whether two compiles differ.
fn code_hash(code: &crate::compile::MachineCode) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |bytes: &[u8]| {
        for b in bytes {
            h ^= u64::from(*b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    };
    eat(&code.bytes);
    for r in &code.relocs {
        eat(format!("{r:?}").as_bytes());
    }
    format!("{h:016x}")
}

fn compile(request: &Value) -> Result<Body, Failure> {
    let req: CompileRequest = fields(request)?;
    if req.modules.is_empty() {
        return Err(Failure::Error("bad request: no modules".to_string()));
    }
    if let Some(e) = req.entries.iter().find(|e| e.module >= req.modules.len()) {
        return Err(Failure::Error(format!(
            "bad request: entry names module {} of {}",
            e.module,
            req.modules.len()
        )));
    }
    let isa = target::isa(&req.target, &req.flags)?;

    let mut results: Vec<(Result<CompiledModule, ModuleFailure>, f64)> =
        Vec::with_capacity(req.modules.len());
    for (k, text) in req.modules.iter().enumerate() {
        let start = Instant::now();
        let result = compile_module(k, text, &*isa);
        results.push((result, millis(start)));
    }

    let start = Instant::now();
    let compiled: Vec<Option<&CompiledModule>> =
        results.iter().map(|(r, _)| r.as_ref().ok()).collect();
    let (bytes, left_out) = if target::is_pulley(&*isa) {
        crate::pulley::build_batch(&isa, &compiled, &req.entries)?
    } else {
        build_object(&isa, &compiled, &req.entries)?
    };
    std::fs::write(&req.output, bytes).map_err(|e| format!("write {}: {e}", req.output))?;
    let object_ms = millis(start);

    let modules = results
        .into_iter()
        .zip(left_out)
        .map(|((result, ms), left_out)| module_answer(result, ms, left_out))
        .collect();
    Ok(body(&CompileAnswer {
        object_ms,
        isa_flags: target::render_settings(isa.isa_flags()),
        shared_flags: target::shared_settings(isa.flags()),
        modules,
    }))
}

fn module_answer(
    result: Result<CompiledModule, ModuleFailure>,
    ms: f64,
    left_out: Option<Failure>,
) -> Value {
    let mut out = Map::new();
    match (result, left_out) {
        (Ok(module), None) => {
            match module.first_failure() {
                None => {
                    out.insert("status".into(), "ok".into());
                }
                Some(first) => {
                    let failure = first.failure.clone().expect("a failed function");
                    failure_fields(&mut out, failure);
                    out.insert("function".into(), first.name.clone().into());
                }
            }
            out.insert("compile_ms".into(), ms.into());
            let functions: Vec<Value> = module
                .outcomes
                .iter()
                .map(|o| function_answer(&module, o))
                .collect();
            out.insert("functions".into(), functions.into());
        }
        (Ok(_), Some(failure)) => {
            failure_fields(&mut out, failure);
            out.insert("compile_ms".into(), ms.into());
            out.insert("phase".into(), "object".into());
        }
        (Err(ModuleFailure { function, failure }), _) => {
            failure_fields(&mut out, failure);
            out.insert("compile_ms".into(), ms.into());
            if let Some(function) = function {
                out.insert("function".into(), function.into());
            }
        }
    }
    Value::Object(out)
}

/// One function of a compiled module: its code in the object, or why it
/// has none (its own failure, or `needs`: the failed function it refers
/// to, whose failure it carries).
fn function_answer(module: &CompiledModule, outcome: &FunctionOutcome) -> Value {
    if let Some(position) = outcome.placed {
        let f = &module.functions[position];
        return serde_json::to_value(FunctionAnswer {
            name: &f.name,
            status: "ok",
            symbol: &f.symbol,
            size: f.code.bytes.len(),
            code_hash: code_hash(&f.code),
            traps: f
                .code
                .traps
                .iter()
                .map(|(offset, code)| TrapAnswer {
                    offset: *offset,
                    code,
                })
                .collect(),
        })
        .expect("serialisable");
    }
    let mut out = Map::new();
    out.insert("name".into(), outcome.name.clone().into());
    if let Some(failure) = outcome.failure.clone() {
        failure_fields(&mut out, failure);
    }
    if let Some(needs) = &outcome.needs {
        out.insert("needs".into(), needs.clone().into());
    }
    Value::Object(out)
}

fn millis(start: Instant) -> f64 {
    // Three decimals: microsecond resolution is plenty, and short numbers
    // keep the answer lines readable.
    (start.elapsed().as_secs_f64() * 1e6).round() / 1e3
}

#[derive(Deserialize)]
struct ParseTestRequest {
    clif: String,
}

/// Reads a test file as Cranelift's filetest runner does: the file, then
/// each function's comments as run commands.
fn parse_test(request: &Value) -> Result<Body, Failure> {
    let req: ParseTestRequest = fields(request)?;
    let (functions, commands) = panics::catch(|| -> Result<(usize, usize), Failure> {
        let test =
            cranelift_reader::parse_test(&req.clif, cranelift_reader::ParseOptions::default())
                .map_err(|e| Failure::Error(format!("parse error: line {e}")))?;
        let mut commands = 0;
        for (func, details) in &test.functions {
            for comment in &details.comments {
                let parsed = cranelift_reader::parse_run_command(comment.text, &func.signature)
                    .map_err(|e| Failure::Error(format!("run command {:?}: {e}", comment.text)))?;
                if parsed.is_some() {
                    commands += 1;
                }
            }
        }
        Ok((test.functions.len(), commands))
    })??;
    let mut out = Map::new();
    out.insert("functions".into(), functions.into());
    out.insert("run_commands".into(), commands.into());
    Ok(out)
}
