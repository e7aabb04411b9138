//! cliff-driver: cliff's coprocess over the Cranelift crates.
//!
//! Reads one JSON request per line on stdin and writes one JSON answer per
//! line on stdout, in order (see PROTOCOL.md): verify, compile (a batch of
//! modules into one ELF object), interpret and optimize CLIF. Cranelift
//! panics are caught and answered as `crash`; the driver keeps serving until
//! stdin ends.

mod clif;
mod compat;
mod compile;
#[cfg(feature = "coverage")]
mod coverage;
mod features;
mod interpret;
mod machine;
mod names;
mod object;
mod ops;
mod panics;
mod protocol;
mod pulley;
mod target;

use serde_json::Value;
use std::io::{self, BufRead, BufWriter, Write};
use std::process::ExitCode;

/// Cranelift recurses on deep input; a large stack turns most would-be
/// stack overflows (which kill the process) into finished requests. Only
/// touched pages cost memory. (Interpreted calls do not recurse: see
/// machine.rs.)
const STACK_BYTES: usize = 1 << 30;
const FALLBACK_STACK_BYTES: usize = 64 << 20;

fn main() -> ExitCode {
    panics::install_hook();
    let spawn = |size| {
        std::thread::Builder::new()
            .name("serve".into())
            .stack_size(size)
            .spawn(serve_stdio)
    };
    let worker = match spawn(STACK_BYTES).or_else(|_| spawn(FALLBACK_STACK_BYTES)) {
        Ok(worker) => worker,
        Err(e) => {
            eprintln!("cliff-driver: cannot start the serving thread: {e}");
            return ExitCode::FAILURE;
        }
    };
    match worker.join() {
        Ok(Ok(())) => ExitCode::SUCCESS,
        Ok(Err(e)) => {
            eprintln!("cliff-driver: {e}");
            ExitCode::FAILURE
        }
        Err(_) => ExitCode::FAILURE,
    }
}

fn serve_stdio() -> io::Result<()> {
    serve(io::stdin().lock(), BufWriter::new(io::stdout().lock()))
}

/// Answers every line of `input` on `output`; returns at end of input.
fn serve(mut input: impl BufRead, mut output: impl Write) -> io::Result<()> {
    let mut line = Vec::new();
    let mut line_number = 0u64;
    #[cfg(feature = "coverage")]
    let coverage = coverage::Recorder::from_env();
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line)? == 0 {
            #[cfg(feature = "coverage")]
            if let Some(c) = &coverage {
                c.dump(true);
            }
            return Ok(());
        }
        line_number += 1;
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let answer = handle_line(&line, line_number);
        serde_json::to_writer(&mut output, &answer)?;
        output.write_all(b"\n")?;
        output.flush()?;
        #[cfg(feature = "coverage")]
        if let Some(c) = &coverage {
            c.dump(false);
        }
    }
}

/// The answer to one request line.
fn handle_line(line: &[u8], line_number: u64) -> Value {
    let request: Value = match serde_json::from_slice(line) {
        Ok(request @ Value::Object(_)) => request,
        Ok(_) => {
            let failure = protocol::Failure::Error(format!(
                "line {line_number}: request is not a JSON object"
            ));
            return protocol::answer(&Value::Null, Err(failure));
        }
        Err(e) => {
            let failure =
                protocol::Failure::Error(format!("line {line_number}: malformed JSON: {e}"));
            return protocol::answer(&Value::Null, Err(failure));
        }
    };
    let id = request.get("id").cloned().unwrap_or(Value::Null);
    // Ops catch Cranelift panics themselves; this is the net for the driver's
    // own bugs, so that one bad request never ends the session.
    let outcome =
        panics::catch(|| ops::dispatch(&request)).unwrap_or_else(|crash| Err(crash.into()));
    protocol::answer(&id, outcome)
}
