//! The loop that drives cranelift-interpreter: its `step` runs one
//! instruction, this module does what `Interpreter::call` and `block` do
//! around it, with three differences that make every run end in bounded
//! time and memory, on the serving thread, without killing the driver:
//!
//! - Calls go on an explicit stack of return points instead of Rust
//!   recursion (cranelift-interpreter recurses once per interpreted call,
//!   so deep recursion in the program overflowed the driver's stack and
//!   aborted it, taking a whole batch down).
//! - The interpreted stack is bounded: a call deeper than `max_depth`
//!   frames, or one that would take the frames' values and stack slots
//!   past `max_frame_bytes`, stops the run as a stack overflow.
//! - Besides fuel (instructions), a wall-clock deadline is checked every
//!   `CLOCK_EVERY` instructions: fuel alone is no time bound (one
//!   instruction can cost a few nanoseconds or a few microseconds).
//!
//! Everything else is the interpreter's own: `step`, `InterpreterState`
//! and its frames and memory, so the semantics are those of
//! `Interpreter::call_by_name` (Cranelift's filetests' `test interpret`
//! check that).

use cranelift_codegen::data_value::DataValue;
use cranelift_codegen::ir::{Function, Inst};
use cranelift_interpreter::instruction::DfgInstructionContext;
use cranelift_interpreter::interpreter::{InterpreterError, InterpreterState};
use cranelift_interpreter::state::State;
use cranelift_interpreter::step::{step, ControlFlow, CraneliftTrap};
use std::time::Instant;

/// How often (in instructions) the clock is read: rare enough to cost
/// nothing next to `step` (hundreds of nanoseconds an instruction), often
/// enough that a deadline is overrun by well under a millisecond.
const CLOCK_EVERY: u64 = 1024;

/// The bounds of one run.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Instructions that may execute.
    pub fuel: u64,
    /// When the run must stop, if ever.
    pub deadline: Option<Instant>,
    /// Frames that may be live at once (the entry function's included).
    pub max_depth: usize,
    /// Bytes the live frames may hold: each frame's value slots and its
    /// stack slots.
    pub max_frame_bytes: usize,
}

/// How a run ended, when it did not fail.
#[derive(Debug)]
pub enum End {
    Returned(Vec<DataValue>),
    Trap(CraneliftTrap),
    /// The fuel ran out after this many instructions.
    FuelExhausted(u64),
    /// The deadline passed after this many instructions.
    DeadlinePassed(u64),
    /// A call would have passed a stack limit; says which.
    StackOverflow(String),
}

/// Where a caller resumes: the call instruction, whose results the
/// callee's return values become.
struct ReturnPoint<'a> {
    function: &'a Function,
    call: Inst,
}

/// Runs `entry` with `args` in `state` (whose function store must hold
/// every function it may call).
pub fn run<'a>(
    state: &mut InterpreterState<'a>,
    entry: &'a Function,
    args: &[DataValue],
    limits: Limits,
) -> Result<End, InterpreterError> {
    let mut executed: u64 = 0;
    let mut returns: Vec<ReturnPoint<'a>> = Vec::new();
    let mut frame_bytes = frame_cost(entry);
    if frame_bytes > limits.max_frame_bytes {
        return Ok(End::StackOverflow(bytes_message(limits)));
    }
    let mut function = entry;
    let mut next = enter(state, entry, args.to_vec());
    loop {
        let Some(inst) = next else {
            // A block without a terminator: the verifier rejects that.
            return Err(InterpreterError::Unreachable);
        };
        if executed == limits.fuel {
            return Ok(End::FuelExhausted(executed));
        }
        if executed.is_multiple_of(CLOCK_EVERY)
            && limits.deadline.is_some_and(|d| Instant::now() >= d)
        {
            return Ok(End::DeadlinePassed(executed));
        }
        executed += 1;
        let layout = &function.layout;
        match step(state, DfgInstructionContext::new(inst, &function.dfg))? {
            ControlFlow::Assign(values) => {
                state
                    .current_frame_mut()
                    .set_all(function.dfg.inst_results(inst), values.into_vec());
                next = layout.next_inst(inst);
            }
            ControlFlow::Continue => next = layout.next_inst(inst),
            ControlFlow::ContinueAt(block, values) => {
                state
                    .current_frame_mut()
                    .set_all(function.dfg.block_params(block), values.into_vec());
                next = layout.first_inst(block);
            }
            ControlFlow::Call(callee, values) => {
                if returns.len() + 1 >= limits.max_depth {
                    return Ok(End::StackOverflow(format!(
                        "more than {} frames deep (the interpreter's depth limit)",
                        limits.max_depth
                    )));
                }
                frame_bytes += frame_cost(callee);
                if frame_bytes > limits.max_frame_bytes {
                    return Ok(End::StackOverflow(bytes_message(limits)));
                }
                returns.push(ReturnPoint {
                    function,
                    call: inst,
                });
                function = callee;
                next = enter(state, callee, values.into_vec());
            }
            ControlFlow::ReturnCall(callee, values) => {
                // A tail call replaces the frame: the depth stays.
                state.pop_frame();
                frame_bytes = frame_bytes - frame_cost(function) + frame_cost(callee);
                if frame_bytes > limits.max_frame_bytes {
                    return Ok(End::StackOverflow(bytes_message(limits)));
                }
                function = callee;
                next = enter(state, callee, values.into_vec());
            }
            ControlFlow::Return(values) => {
                state.pop_frame();
                frame_bytes -= frame_cost(function);
                let Some(back) = returns.pop() else {
                    return Ok(End::Returned(values.into_vec()));
                };
                function = back.function;
                state
                    .current_frame_mut()
                    .set_all(function.dfg.inst_results(back.call), values.into_vec());
                next = function.layout.next_inst(back.call);
            }
            ControlFlow::Trap(trap) => return Ok(End::Trap(trap)),
        }
    }
}

/// Pushes a frame for `function` with its entry block's parameters set;
/// returns its first instruction.
fn enter<'a>(
    state: &mut InterpreterState<'a>,
    function: &'a Function,
    args: Vec<DataValue>,
) -> Option<Inst> {
    let first = function
        .layout
        .entry_block()
        .expect("a verified function has an entry block");
    state.push_frame(function);
    state
        .current_frame_mut()
        .set_all(function.dfg.block_params(first), args);
    function.layout.first_inst(first)
}

/// The bytes a frame of `function` holds: a slot per SSA value (what
/// `Frame::new` allocates) and its stack slots (what `push_frame` adds to
/// the interpreter's stack).
fn frame_cost(function: &Function) -> usize {
    function.dfg.num_values() * std::mem::size_of::<Option<DataValue>>()
        + function.fixed_stack_size() as usize
}

fn bytes_message(limits: Limits) -> String {
    format!(
        "the frames would hold more than {} MiB (the interpreter's stack limit)",
        limits.max_frame_bytes >> 20
    )
}
