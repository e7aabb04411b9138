//! Turning Cranelift panics into `crash` answers.
//!
//! A panic hook records the message and location of the last panic on this
//! thread; `catch` runs a closure under `catch_unwind` and hands back that
//! record. The hook prints nothing for a panic inside `catch` (the answer
//! reports it) and one line on stderr for any other (the driver is about to
//! die; the client shows the end of stderr).

use std::cell::{Cell, RefCell};
use std::panic::{self, AssertUnwindSafe};

/// What a caught panic said and where.
#[derive(Debug, Clone)]
pub struct Crash {
    pub message: String,
    /// `file:line:col`, with the cargo registry prefix removed
    /// (`cranelift-codegen-0.135.8/src/isa/x64/lower.rs:12:5`).
    pub location: String,
}

thread_local! {
    static LAST_PANIC: RefCell<Option<Crash>> = const { RefCell::new(None) };
    static CATCHING: Cell<u32> = const { Cell::new(0) };
}

/// Installs the recording hook. Call once, before serving requests.
pub fn install_hook() {
    panic::set_hook(Box::new(|info| {
        let message = match info.payload_as_str() {
            Some(s) => s.to_string(),
            None => "panic with a non-string payload".to_string(),
        };
        let location = info
            .location()
            .map(|l| format!("{}:{}:{}", short_path(l.file()), l.line(), l.column()))
            .unwrap_or_default();
        if CATCHING.get() == 0 {
            eprintln!("cliff-driver: panic at {location}: {message}");
        }
        LAST_PANIC.with(|p| *p.borrow_mut() = Some(Crash { message, location }));
    }));
}

/// Runs `f`; a panic inside it becomes `Err(Crash)`.
///
/// The closure is asserted unwind-safe: callers only pass state that is
/// thrown away (or rebuilt) after a panic.
pub fn catch<T>(f: impl FnOnce() -> T) -> Result<T, Crash> {
    LAST_PANIC.with(|p| *p.borrow_mut() = None);
    CATCHING.set(CATCHING.get() + 1);
    let result = panic::catch_unwind(AssertUnwindSafe(f));
    CATCHING.set(CATCHING.get() - 1);
    result.map_err(|_| {
        LAST_PANIC
            .with(|p| p.borrow_mut().take())
            .unwrap_or_else(|| Crash {
                message: "panic (no message recorded)".to_string(),
                location: String::new(),
            })
    })
}

/// Removes everything up to the crate directory of a cargo registry path, so
/// that locations are the same on every machine.
fn short_path(file: &str) -> &str {
    const REGISTRY: &str = "/registry/src/";
    match file.find(REGISTRY) {
        // Skip the index directory (`index.crates.io-<hash>/`) too.
        Some(i) => {
            let rest = &file[i + REGISTRY.len()..];
            rest.find('/').map_or(rest, |j| &rest[j + 1..])
        }
        None => file,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_path_strips_registry_prefix() {
        let cases = [
            (
                "/root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/cranelift-codegen-0.135.8/src/isa/x64/lower.rs",
                "cranelift-codegen-0.135.8/src/isa/x64/lower.rs",
            ),
            ("src/main.rs", "src/main.rs"),
        ];
        for (input, want) in cases {
            assert_eq!(short_path(input), want);
        }
    }

    #[test]
    fn catch_reports_message_and_location() {
        install_hook();
        let crash = catch(|| panic!("boom {}", 42)).unwrap_err();
        assert_eq!(crash.message, "boom 42");
        assert!(
            crash.location.starts_with("src/panics.rs:"),
            "{}",
            crash.location
        );
        assert_eq!(catch(|| 7).unwrap(), 7);
    }
}
