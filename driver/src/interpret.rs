//! The `interpret` op: one function of a module in cranelift-interpreter,
//! with the module's other functions callable.

use crate::clif::{parse_module, verify_module};
use crate::panics;
use crate::target;
use crate::protocol::{body, fields, null_as_empty, Body, Failure, WireValue};
use cranelift_codegen::data_value::DataValue;
use cranelift_codegen::ir::{Function, LibCall};
use cranelift_interpreter::environment::FunctionStore;
use cranelift_interpreter::interpreter::{
    Interpreter, InterpreterError, InterpreterState, LibCallValues,
};
use cranelift_interpreter::step::{ControlFlow, CraneliftTrap};
use serde::{Deserialize, Serialize};
use serde_json::Value;

pub const DEFAULT_FUEL: u64 = 10_000_000;

#[derive(Deserialize)]
struct Request {
    clif: String,
    func: String,
    #[serde(default, deserialize_with = "null_as_empty")]
    args: Vec<WireValue>,
    #[serde(default)]
    fuel: Option<u64>,
    /// Target and shared settings to verify the module against (the
    /// verifier rejects e.g. get_pinned_reg without an ISA); without a
    /// target, the default flags and no ISA.
    #[serde(default)]
    target: Option<String>,
    #[serde(default, deserialize_with = "null_as_empty")]
    flags: Vec<String>,
}

#[derive(Serialize)]
#[serde(rename_all = "snake_case")]
enum Outcome {
    Results(Vec<WireValue>),
    Trap(String),
    Timeout(bool),
}

pub fn interpret(request: &Value) -> Result<Body, Failure> {
    let req: Request = fields(request)?;
    let functions = parse_module(&req.clif)?;
    let fisa = target::flags_or_isa(req.target.as_deref(), &req.flags)?;
    verify_module(&functions, fisa.as_fisa())?;
    let Some(func) = functions.iter().find(|f| f.name.to_string() == req.func) else {
        return Err(Failure::Error(format!(
            "no function {} in the module",
            req.func
        )));
    };
    let args = decode_args(func, &req.args)?;
    let outcome =
        panics::catch(|| run(&functions, func, &args, req.fuel.unwrap_or(DEFAULT_FUEL)))??;
    Ok(body(&outcome))
}

/// Decodes the arguments and checks them against the signature.
fn decode_args(func: &Function, args: &[WireValue]) -> Result<Vec<DataValue>, String> {
    let params = &func.signature.params;
    if args.len() != params.len() {
        return Err(format!(
            "{} takes {} arguments, got {}",
            func.name,
            params.len(),
            args.len()
        ));
    }
    args.iter()
        .zip(params)
        .enumerate()
        .map(|(i, (arg, param))| {
            if arg.ty != param.value_type.to_string() {
                return Err(format!(
                    "argument {i}: type {} but {} wants {}",
                    arg.ty, func.name, param.value_type
                ));
            }
            arg.decode().map_err(|e| format!("argument {i}: {e}"))
        })
        .collect()
}

fn run(
    functions: &[Function],
    func: &Function,
    args: &[DataValue],
    fuel: u64,
) -> Result<Outcome, String> {
    let mut store = FunctionStore::default();
    for f in functions {
        store.add(f.name.to_string(), f);
    }
    let state = InterpreterState::default()
        .with_function_store(store)
        .with_libcall_handler(libcall);
    let mut interpreter = Interpreter::new(state).with_fuel(Some(fuel));
    match interpreter.call_by_name(&func.name.to_string(), args) {
        Ok(ControlFlow::Return(values)) => {
            let returns = &func.signature.returns;
            if values.len() != returns.len() {
                return Err(format!(
                    "returned {} values, signature has {}",
                    values.len(),
                    returns.len()
                ));
            }
            Ok(Outcome::Results(
                values
                    .iter()
                    .zip(returns)
                    .map(|(v, r)| WireValue::encode(v, r.value_type))
                    .collect(),
            ))
        }
        Ok(ControlFlow::Trap(trap)) => Ok(Outcome::Trap(trap_name(&trap))),
        Ok(other) => Err(format!("interpreter ended with {other:?}")),
        Err(InterpreterError::FuelExhausted) => Ok(Outcome::Timeout(true)),
        Err(e) => Err(format!("interpreter: {}", error_chain(&e))),
    }
}

/// The trap as CLIF names it (`int_divz`, `user1`); the interpreter's own
/// traps get names of the same style.
fn trap_name(trap: &CraneliftTrap) -> String {
    match trap {
        CraneliftTrap::User(code) => code.to_string(),
        CraneliftTrap::BadSignature => "bad_sig".to_string(),
        CraneliftTrap::UnreachableCodeReached => "unreachable".to_string(),
        CraneliftTrap::HeapMisaligned => "heap_misaligned".to_string(),
        CraneliftTrap::Debug => "debug".to_string(),
    }
}

/// `Display` of the error and all its sources (the interpreter's top-level
/// messages alone say little: "failed to interpret instruction").
fn error_chain(e: &dyn std::error::Error) -> String {
    let mut parts = vec![e.to_string()];
    let mut source = e.source();
    while let Some(s) = source {
        parts.push(s.to_string());
        source = s.source();
    }
    parts.join(": ")
}

/// The float libcalls a legalised function may call, computed on the host.
fn libcall(libcall: LibCall, args: LibCallValues) -> Result<LibCallValues, CraneliftTrap> {
    use DataValue::{F32, F64};
    let f32_of = |v: &DataValue| match v {
        F32(x) => Some(f32::from_bits(x.bits())),
        _ => None,
    };
    let f64_of = |v: &DataValue| match v {
        F64(x) => Some(f64::from_bits(x.bits())),
        _ => None,
    };
    let unary32 = |op: fn(f32) -> f32| args.first().and_then(f32_of).map(|x| F32(op(x).into()));
    let unary64 = |op: fn(f64) -> f64| args.first().and_then(f64_of).map(|x| F64(op(x).into()));
    let result = match libcall {
        LibCall::CeilF32 => unary32(f32::ceil),
        LibCall::CeilF64 => unary64(f64::ceil),
        LibCall::FloorF32 => unary32(f32::floor),
        LibCall::FloorF64 => unary64(f64::floor),
        LibCall::TruncF32 => unary32(f32::trunc),
        LibCall::TruncF64 => unary64(f64::trunc),
        LibCall::NearestF32 => unary32(f32::round_ties_even),
        LibCall::NearestF64 => unary64(f64::round_ties_even),
        LibCall::FmaF32 => match args
            .iter()
            .map(f32_of)
            .collect::<Option<Vec<_>>>()
            .as_deref()
        {
            Some(&[a, b, c]) => Some(F32(a.mul_add(b, c).into())),
            _ => None,
        },
        LibCall::FmaF64 => match args
            .iter()
            .map(f64_of)
            .collect::<Option<Vec<_>>>()
            .as_deref()
        {
            Some(&[a, b, c]) => Some(F64(a.mul_add(b, c).into())),
            _ => None,
        },
        _ => None,
    };
    result
        .map(|v| [v].into_iter().collect())
        .ok_or(CraneliftTrap::UnreachableCodeReached)
}
