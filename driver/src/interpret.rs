//! The `interpret` op: one function of a module in cranelift-interpreter,
//! with the module's other functions callable.

use crate::clif::{parse_module, verify_module};
use crate::machine::{self, End, Limits};
use crate::panics;
use crate::protocol::{body, fields, null_as_empty, Body, Failure, WireValue};
use crate::target;
use cranelift_codegen::data_value::DataValue;
use cranelift_codegen::ir::{Function, LibCall};
use cranelift_interpreter::environment::FunctionStore;
use cranelift_interpreter::interpreter::{InterpreterError, InterpreterState, LibCallValues};
use cranelift_interpreter::step::{CraneliftTrap, StepError};
use cranelift_interpreter::value::ValueError;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::cell::Cell;
use std::time::{Duration, Instant};

pub const DEFAULT_FUEL: u64 = 10_000_000;
/// Nested frames an interpreted program may have: far more than any
/// filetest or generated case needs (generated call graphs are acyclic),
/// about what an 8 MiB native stack holds for small frames, and far fewer
/// than the memory allows.
pub const DEFAULT_MAX_DEPTH: usize = 100_000;
/// Bytes the live frames may hold (value slots and stack slots).
pub const DEFAULT_MAX_FRAME_BYTES: usize = 256 << 20;

#[derive(Deserialize)]
struct Request {
    clif: String,
    func: String,
    #[serde(default, deserialize_with = "null_as_empty")]
    args: Vec<WireValue>,
    #[serde(default)]
    fuel: Option<u64>,
    /// Wall-clock bound on the run, in milliseconds from its first
    /// instruction; none without it (fuel still bounds it).
    #[serde(default)]
    timeout_ms: Option<u64>,
    #[serde(default)]
    max_depth: Option<usize>,
    /// Target and shared settings to verify the module against (the
    /// verifier rejects e.g. get_pinned_reg without an ISA); without a
    /// target, the default flags and no ISA.
    #[serde(default)]
    target: Option<String>,
    #[serde(default, deserialize_with = "null_as_empty")]
    flags: Vec<String>,
}

/// The fields of an `ok` answer: exactly one of results, trap, timeout,
/// stack_overflow and unsupported; message says more about the last three.
#[derive(Serialize, Default)]
struct Outcome {
    #[serde(skip_serializing_if = "Option::is_none")]
    results: Option<Vec<WireValue>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    trap: Option<String>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    timeout: bool,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    stack_overflow: bool,
    /// What the interpreter cannot do ("not implemented: SequencePoint").
    #[serde(skip_serializing_if = "Option::is_none")]
    unsupported: Option<String>,
    /// Where the interpreter said so, for an unsupported panic.
    #[serde(skip_serializing_if = "Option::is_none")]
    location: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<String>,
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
    let limits = Limits {
        fuel: req.fuel.unwrap_or(DEFAULT_FUEL),
        deadline: req
            .timeout_ms
            .map(|ms| Instant::now() + Duration::from_millis(ms)),
        max_depth: req.max_depth.unwrap_or(DEFAULT_MAX_DEPTH),
        max_frame_bytes: DEFAULT_MAX_FRAME_BYTES,
    };
    let outcome = match panics::catch(|| run(&functions, func, &args, limits)) {
        Ok(outcome) => outcome?,
        Err(crash) if unsupported_panic(&crash.message) => Outcome {
            unsupported: Some(crash.message),
            location: Some(crash.location),
            ..Outcome::default()
        },
        Err(crash) => return Err(crash.into()),
    };
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

/// Runs `func` with every function of the module callable, and turns how
/// it ended into the answer; an interpreter error that is no gap of the
/// interpreter is the `Err`.
fn run(
    functions: &[Function],
    func: &Function,
    args: &[DataValue],
    limits: Limits,
) -> Result<Outcome, String> {
    let mut store = FunctionStore::default();
    for f in functions {
        store.add(f.name.to_string(), f);
    }
    let mut state = InterpreterState::default()
        .with_function_store(store)
        .with_libcall_handler(libcall);
    MISSING_LIBCALL.set(None);
    let end = machine::run(&mut state, func, args, limits);
    let limit = |message: String| Outcome {
        message: Some(message),
        ..Outcome::default()
    };
    match end {
        Ok(End::Returned(values)) => {
            let returns = &func.signature.returns;
            if values.len() != returns.len() {
                return Err(format!(
                    "returned {} values, signature has {}",
                    values.len(),
                    returns.len()
                ));
            }
            Ok(Outcome {
                results: Some(
                    values
                        .iter()
                        .zip(returns)
                        .map(|(v, r)| WireValue::encode(v, r.value_type))
                        .collect(),
                ),
                ..Outcome::default()
            })
        }
        Ok(End::Trap(trap)) => match MISSING_LIBCALL.take() {
            Some(libcall) => Ok(Outcome {
                unsupported: Some(format!(
                    "libcall {libcall} is not available in the interpreter"
                )),
                ..Outcome::default()
            }),
            None => Ok(Outcome {
                trap: Some(trap_name(&trap)),
                ..Outcome::default()
            }),
        },
        Ok(End::FuelExhausted(n)) => Ok(Outcome {
            timeout: true,
            ..limit(format!("fuel exhausted after {n} instructions"))
        }),
        Ok(End::DeadlinePassed(n)) => Ok(Outcome {
            timeout: true,
            ..limit(format!("deadline passed after {n} instructions"))
        }),
        Ok(End::StackOverflow(why)) => Ok(Outcome {
            stack_overflow: true,
            ..limit(why)
        }),
        Err(e) => match unsupported_error(&e, &state) {
            Some(what) => Ok(Outcome {
                unsupported: Some(what),
                ..Outcome::default()
            }),
            None => Err(format!("interpreter: {}", error_chain(&e))),
        },
    }
}

/// Whether a panic message is the interpreter saying it lacks something
/// (`unimplemented!`, `todo!`, its "exceptions not supported", a float
/// operation it has for f32 and f64 only) rather than a bug in it (an
/// index out of bounds, an unwrap of None, which stay crashes: a verified
/// function should never make it panic otherwise). Any crate counts: the
/// interpreter reaches `unimplemented!` in cranelift-codegen's `DataValue`
/// too.
fn unsupported_panic(message: &str) -> bool {
    message == "not implemented"
        || message.starts_with("not implemented: ")
        || message == "not yet implemented"
        || message.starts_with("not yet implemented: ")
        || message == "exceptions not supported"
        || half_or_quad_float(message)
}

/// Whether a panic is the interpreter unwrapping its own "no float
/// operation for this type" for f16 or f128 (`fcmp uno` of an f128:
/// `DataValueExt::uno` has only f32 and f64). Only those two types: an
/// InvalidType of another type is a value of the wrong type, the
/// interpreter's bug.
fn half_or_quad_float(message: &str) -> bool {
    const UNWRAP: &str = "called `Result::unwrap()` on an `Err` value: ";
    message.strip_prefix(UNWRAP).is_some_and(|err| {
        err == "InvalidType(Float, types::F16)" || err == "InvalidType(Float, types::F128)"
    })
}

/// Whether an interpreter error says that it cannot run this verified
/// function, rather than that it went wrong: a call to a function outside
/// the module (the interpreter has no way to reach one), a value or type
/// it has no operation for, an address it cannot call. Describes it if so.
fn unsupported_error(e: &InterpreterError, state: &InterpreterState) -> Option<String> {
    let what = match e {
        InterpreterError::StepError(StepError::UnknownFunction(fref)) => {
            let caller = state.frame_stack.last()?.function();
            let name = caller
                .dfg
                .ext_funcs
                .get(*fref)
                .map(|ext| ext.name.display(Some(&caller.params)).to_string())
                .unwrap_or_else(|| fref.to_string());
            return Some(format!(
                "{} calls {name}, which is not a function of the module",
                caller.name
            ));
        }
        InterpreterError::StepError(StepError::ValueError(v)) | InterpreterError::ValueError(v) => {
            match v {
                ValueError::InvalidType(..)
                | ValueError::InvalidValue(_)
                | ValueError::InvalidDataValueCast(_)
                | ValueError::InvalidInteger(_) => v.to_string(),
                ValueError::IntegerDivisionByZero | ValueError::IntegerOverflow => return None,
            }
        }
        // Memory errors that `step` does not turn into traps: calling an
        // address that is not an interpreted function.
        InterpreterError::StepError(StepError::MemoryError(m)) => m.to_string(),
        _ => return None,
    };
    Some(format!("interpreter: {what}"))
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
    match result {
        Some(v) => Ok([v].into_iter().collect()),
        None => {
            // The handler can only answer with a trap; `run` turns this
            // one into `unsupported`, since the program did not trap.
            MISSING_LIBCALL.set(Some(libcall));
            Err(CraneliftTrap::UnreachableCodeReached)
        }
    }
}

thread_local! {
    /// The libcall the handler could not compute in the current run.
    static MISSING_LIBCALL: Cell<Option<LibCall>> = const { Cell::new(None) };
}
