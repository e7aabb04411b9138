//! A child of cliff-pulley: runs a run of jobs in pulley-interpreter's
//! `Vm` and reports each, then exits. Nothing here returns to main.

use crate::{
    slot, write_out, JobFile, EXIT_CONFINE, EXIT_RECORDED, FLAG_CONFINE, MAX_BUFFER,
    STATUS_FAULT, STATUS_HOST, STATUS_PANIC, STATUS_SYSCALL, STATUS_TIMEOUT, STATUS_TRAP,
};
use pulley_interpreter::interp::{DoneReason, TrapKind, Vm, XRegVal};
use std::ptr::NonNull;
use std::sync::atomic::Ordering;

/// The interpreter's stack: as the filetest runner's default (1 MiB) is
/// for wasm's small frames, cliff's generated cases get more; overflowing
/// it is Pulley's own stack-overflow trap.
const STACK_BYTES: usize = 8 << 20;
const ALT_STACK_BYTES: usize = 64 << 10;

/// Trap kinds as the child records them and the parent names them
/// (lib/harness/pulley.go maps the names to CLIF trap codes).
const TRAP_NAMES: [&str; 7] = [
    "-",
    "divide_by_zero",
    "integer_overflow",
    "bad_conversion_to_integer",
    "memory_out_of_bounds",
    "disabled_opcode",
    "stack_overflow",
];

pub fn trap_name(code: u64) -> &'static str {
    TRAP_NAMES.get(code as usize).copied().unwrap_or("-")
}

/// The index in TRAP_NAMES of a trap kind. The kinds differ between
/// releases: DisabledOpcode from 0.121, StackOverflow from 0.122.
fn trap_code(kind: Option<TrapKind>) -> u64 {
    match kind {
        None => 0,
        Some(TrapKind::DivideByZero) => 1,
        Some(TrapKind::IntegerOverflow) => 2,
        Some(TrapKind::BadConversionToInteger) => 3,
        Some(TrapKind::MemoryOutOfBounds) => 4,
        #[cfg(not(pulley_no_disabled_opcode))]
        Some(TrapKind::DisabledOpcode) => 5,
        #[cfg(not(pulley_no_stack_overflow))]
        Some(TrapKind::StackOverflow) => 6,
    }
}

/// `Vm::with_stack` returns the Vm before 0.131 (pulley-interpreter 44),
/// a Result after: both become an Option.
trait IntoVm {
    fn into_vm(self) -> Option<Vm>;
}
impl IntoVm for Vm {
    fn into_vm(self) -> Option<Vm> {
        Some(self)
    }
}
impl<E> IntoVm for Result<Vm, E> {
    fn into_vm(self) -> Option<Vm> {
        self.ok()
    }
}

/// Records a failure of the current job in the slot and exits.
fn record_and_exit(status: u32, code: u64, pc: u64, addr: u64) -> ! {
    let s = slot();
    s.status = status;
    s.code = code;
    s.pc = pc;
    s.addr = addr;
    unsafe { libc::_exit(EXIT_RECORDED) }
}

extern "C" fn on_signal(signo: libc::c_int, info: *mut libc::siginfo_t, _ctx: *mut libc::c_void) {
    // SAFETY: the kernel passes a valid siginfo to an SA_SIGINFO handler.
    let info = unsafe { &*info };
    match signo {
        libc::SIGPROF => record_and_exit(STATUS_TIMEOUT, 0, 0, 0),
        libc::SIGSYS => {
            // siginfo's SIGSYS fields: _call_addr at 16, _syscall at 24.
            let raw = info as *const libc::siginfo_t as *const u8;
            let (call_addr, nr) = unsafe {
                (
                    (raw.add(16) as *const u64).read_unaligned(),
                    (raw.add(24) as *const i32).read_unaligned(),
                )
            };
            record_and_exit(STATUS_SYSCALL, nr as u64, call_addr, 0)
        }
        _ => {
            let addr = unsafe { info.si_addr() } as u64;
            record_and_exit(STATUS_FAULT, signo as u64, 0, addr)
        }
    }
}

/// Catches the signals a job can raise, on an alternate stack.
fn install_handlers() {
    unsafe {
        let stack = std::alloc::alloc(std::alloc::Layout::from_size_align_unchecked(
            ALT_STACK_BYTES,
            16,
        ));
        let ss = libc::stack_t {
            ss_sp: stack.cast(),
            ss_flags: 0,
            ss_size: ALT_STACK_BYTES,
        };
        libc::sigaltstack(&ss, std::ptr::null_mut());
        for sig in [
            libc::SIGSEGV,
            libc::SIGBUS,
            libc::SIGILL,
            libc::SIGFPE,
            libc::SIGTRAP,
            libc::SIGSYS,
            libc::SIGPROF,
        ] {
            let mut sa: libc::sigaction = std::mem::zeroed();
            sa.sa_sigaction = on_signal as *const () as usize;
            sa.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
            libc::sigemptyset(&mut sa.sa_mask);
            libc::sigaction(sig, &sa, std::ptr::null_mut());
        }
    }
}

/// A panic of the interpreter is the job's crash: its message and site
/// go to the slot, and the child exits (its state is not to be trusted).
fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        let message = info.payload_as_str().unwrap_or("panic with a non-string payload");
        let text = match info.location() {
            Some(l) => format!("{message} (at {}:{}:{})", short_path(l.file()), l.line(), l.column()),
            None => message.to_string(),
        };
        let s = slot();
        let n = text.len().min(s.message.len());
        s.message[..n].copy_from_slice(&text.as_bytes()[..n]);
        s.message_len = n as u32;
        record_and_exit(STATUS_PANIC, 0, 0, 0)
    }));
}

/// A source path from cargo's registry without the registry's prefix:
/// `pulley-interpreter-50.0.1/src/interp.rs`.
fn short_path(file: &str) -> &str {
    match file.find("/registry/src/") {
        Some(i) => {
            let rest = &file[i + "/registry/src/".len()..];
            rest.split_once('/').map_or(rest, |(_, crate_path)| crate_path)
        }
        None => file,
    }
}

/// Runs jobs[first, end) and exits.
pub fn child(file: &JobFile, first: usize, end: usize) -> ! {
    install_handlers();
    let Some(mut vm) = Vm::with_stack(STACK_BYTES).into_vm() else {
        record_and_exit(STATUS_FAULT, 0, 0, 0)
    };
    // Both buffers are 16-byte aligned (the allocator aligns to 16) and
    // allocated before the filter; slots are 16 bytes apart (lib/tramp).
    let mut args = vec![0u8; MAX_BUFFER as usize];
    let mut results = vec![0u8; MAX_BUFFER as usize];
    install_panic_hook();
    if file.flags & FLAG_CONFINE != 0 {
        if let Err(e) = crate::sandbox::confine() {
            let _ = write_out(format!("cliff-pulley: cannot confine the jobs: {e}\n").as_bytes());
            unsafe { libc::_exit(EXIT_CONFINE) }
        }
    }
    let limit = libc::itimerval {
        it_interval: libc::timeval { tv_sec: 0, tv_usec: 0 },
        it_value: libc::timeval {
            tv_sec: (file.limit_ms / 1000) as libc::time_t,
            tv_usec: ((file.limit_ms % 1000) * 1000) as libc::suseconds_t,
        },
    };
    let off = libc::itimerval {
        it_interval: libc::timeval { tv_sec: 0, tv_usec: 0 },
        it_value: libc::timeval { tv_sec: 0, tv_usec: 0 },
    };
    for i in first..end {
        let job = &file.jobs[i];
        args[..job.args.len()].copy_from_slice(&job.args);
        let size = job.result_size as usize;
        results[..size].fill(0);
        let entry = NonNull::new(job.entry as *mut u8).expect("entry 0 is run by no child");
        if file.limit_ms > 0 {
            unsafe { libc::setitimer(libc::ITIMER_PROF, &limit, std::ptr::null_mut()) };
        }
        // SAFETY: the entry is a trampoline of the image, (i64, i64) ->
        // (): the args and results buffers.
        let done = unsafe {
            vm.call(
                entry,
                &[
                    XRegVal::new_ptr(args.as_mut_ptr()).into(),
                    XRegVal::new_ptr(results.as_mut_ptr()).into(),
                ],
                [],
            )
        };
        let outcome = match done {
            DoneReason::ReturnToHost(_) => None,
            DoneReason::Trap { pc, kind } => Some((STATUS_TRAP, trap_code(kind), pc.as_ptr() as u64)),
            DoneReason::CallIndirectHost { id, resume } => {
                Some((STATUS_HOST, u64::from(id), resume.as_ptr() as u64))
            }
        };
        if file.limit_ms > 0 {
            unsafe { libc::setitimer(libc::ITIMER_PROF, &off, std::ptr::null_mut()) };
        }
        if let Some((status, code, pc)) = outcome {
            record_and_exit(status, code, pc, 0);
        }
        let mut line = format!("{i} ok ");
        if size == 0 {
            line.push('-');
        }
        for b in &results[..size] {
            line.push_str(&format!("{b:02x}"));
        }
        line.push_str(" 0 0x0 0x0\n");
        if !write_out(line.as_bytes()) {
            unsafe { libc::_exit(5) }
        }
        slot().done.fetch_add(1, Ordering::SeqCst);
    }
    unsafe { libc::_exit(0) }
}
