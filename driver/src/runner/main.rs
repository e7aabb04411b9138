//! cliff-pulley: runs Pulley bytecode for cliff, as the C harness
//! (lib/harness/csrc/harness.c) runs machine code.
//!
//! Its only argument is a job file in the C harness's format (CLIFJOB2,
//! lib/harness/doc.go): the image segments (a Pulley batch laid out and
//! relocated by lib/harness) and the jobs. Each segment is mapped at the
//! address it was linked for; every trampoline is called through
//! pulley-interpreter's `Vm` with the args and results buffers, and one
//! line per job is written to stdout in the harness's form (doc.go,
//! "Output"; the statuses only Pulley has are in lib/harness/pulley.go).
//!
//! The bytecode runs in forked children, never in the process that reads
//! the jobs: consecutive jobs of one entry share a child until one fails,
//! each job has a CPU-time limit (ITIMER_PROF), a child in which no job
//! finished for 2×limit+500ms of wall time is killed, and (job file flag
//! bit 1) a seccomp filter leaves a child only what the interpreter needs
//! (memory management, writing its line, the timer, exiting). A trap of
//! the interpreter is reported with its bytecode PC (an address in the
//! image) and kind; a panic of the interpreter with its message and
//! site; a native fault (a wild load or store of the bytecode reaches
//! host memory) with the signal and address.
//!
//! pulley32 code holds addresses in 32 bits, so everything it addresses
//! lies below 4 GiB: the image (placed there by lib/harness), and the
//! interpreter's stack and the buffers, which come from this program's
//! allocator (lowmem.rs), an arena mapped below 4 GiB.

mod interp;
mod lowmem;
mod sandbox;

use std::ptr;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

#[global_allocator]
static ALLOC: lowmem::LowArena = lowmem::LowArena;

const MAGIC: &[u8; 8] = b"CLIFJOB2";
const FLAG_ISOLATE: u32 = 1;
const FLAG_CONFINE: u32 = 2;
const MAX_BUFFER: u32 = 1 << 20;

/// Exit statuses, as the C harness's (doc.go).
const EXIT_USAGE: i32 = 2;
const EXIT_MALFORMED: i32 = 3;
const EXIT_ENTRY: i32 = 4;
const EXIT_SYSCALL: i32 = 5;
const EXIT_CONFINE: i32 = 6;
/// A child's exit status after it recorded a failed job in the slot.
pub const EXIT_RECORDED: i32 = 77;

fn die(code: i32, message: &str) -> ! {
    eprintln!("cliff-pulley: {message}");
    std::process::exit(code)
}

struct Segment {
    addr: u64,
    data: Vec<u8>,
    mem_size: u64,
}

struct Job {
    entry: u64,
    args: Vec<u8>,
    result_size: u32,
}

struct JobFile {
    limit_ms: u32,
    flags: u32,
    segments: Vec<Segment>,
    jobs: Vec<Job>,
}

/// Reads the job file (lib/harness/doc.go, "Job file").
fn parse(data: &[u8]) -> Result<JobFile, String> {
    let mut at = 0usize;
    let mut take = |n: usize, what: &str| -> Result<&[u8], String> {
        let end = at
            .checked_add(n)
            .filter(|&e| e <= data.len())
            .ok_or_else(|| format!("truncated at {what} (offset {at})"))?;
        let s = &data[at..end];
        at = end;
        Ok(s)
    };
    if take(8, "magic")? != MAGIC {
        return Err("not a CLIFJOB2 job file".to_string());
    }
    let u32_of = |b: &[u8]| u32::from_le_bytes(b.try_into().unwrap());
    let u64_of = |b: &[u8]| u64::from_le_bytes(b.try_into().unwrap());
    let count = u32_of(take(4, "job count")?);
    let limit_ms = u32_of(take(4, "limit")?);
    let flags = u32_of(take(4, "flags")?);
    let nseg = u32_of(take(4, "segment count")?);
    let mut segments = Vec::new();
    for i in 0..nseg {
        let addr = u64_of(take(8, "segment")?);
        let file = u32_of(take(4, "segment")?);
        let mem = u32_of(take(4, "segment")?);
        if file > mem {
            return Err(format!(
                "segment {i}: {file} bytes in file, {mem} in memory"
            ));
        }
        let data = take(file as usize, "segment data")
            .map_err(|_| format!("segment {i}: {file} bytes in file, truncated"))?
            .to_vec();
        segments.push(Segment {
            addr,
            data,
            mem_size: u64::from(mem),
        });
    }
    let mut jobs = Vec::new();
    for i in 0..count {
        let entry = u64_of(take(8, "job")?);
        let args_len = u32_of(take(4, "job")?);
        let result_size = u32_of(take(4, "job")?);
        if args_len > MAX_BUFFER || result_size > MAX_BUFFER {
            return Err(format!("job {i}: buffers over {MAX_BUFFER} bytes"));
        }
        let args = take(args_len as usize, "job args")?.to_vec();
        jobs.push(Job {
            entry,
            args,
            result_size,
        });
    }
    if at != data.len() {
        return Err(format!("{} bytes after the last job", data.len() - at));
    }
    Ok(JobFile {
        limit_ms,
        flags,
        segments,
        jobs,
    })
}

/// What a child leaves for the parent, in memory shared with it.
#[repr(C)]
pub struct Slot {
    /// Jobs of the child's run that finished (their lines written).
    pub done: AtomicU32,
    /// How the job after them failed (STATUS_*), when the child exits
    /// with EXIT_RECORDED.
    pub status: u32,
    pub code: u64,
    pub pc: u64,
    pub addr: u64,
    pub message_len: u32,
    pub message: [u8; 2048],
}

pub const STATUS_TRAP: u32 = 1;
pub const STATUS_HOST: u32 = 2;
pub const STATUS_PANIC: u32 = 3;
pub const STATUS_TIMEOUT: u32 = 4;
pub const STATUS_FAULT: u32 = 5;
pub const STATUS_SYSCALL: u32 = 6;

/// The slot, set up before the first fork.
pub static mut SLOT: *mut Slot = ptr::null_mut();

fn slot() -> &'static mut Slot {
    // SAFETY: mapped once in main before any child exists; each process
    // (parent, or one child at a time) is single-threaded.
    unsafe { &mut *SLOT }
}

/// Writes all of `bytes` to stdout with write(2): no buffer that a fork
/// could duplicate or a child's death could lose.
pub fn write_out(bytes: &[u8]) -> bool {
    let mut rest = bytes;
    while !rest.is_empty() {
        let n = unsafe { libc::write(1, rest.as_ptr().cast(), rest.len()) };
        if n <= 0 {
            if n < 0 && std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
                continue;
            }
            return false;
        }
        rest = &rest[n as usize..];
    }
    true
}

fn hex(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push_str(&format!("{b:02x}"));
    }
    s
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 2 {
        die(EXIT_USAGE, "usage: cliff-pulley JOBFILE");
    }
    let data = std::fs::read(&args[1])
        .unwrap_or_else(|e| die(EXIT_USAGE, &format!("{}: {e}", args[1])));
    let file = parse(&data).unwrap_or_else(|e| die(EXIT_MALFORMED, &format!("{}: {e}", args[1])));
    drop(data);
    for (i, j) in file.jobs.iter().enumerate() {
        let inside = file
            .segments
            .iter()
            .any(|s| j.entry >= s.addr && j.entry < s.addr + s.mem_size);
        if j.entry != 0 && !inside {
            die(
                EXIT_ENTRY,
                &format!("job {i}: entry 0x{:x} outside the image", j.entry),
            );
        }
    }
    if file.flags & FLAG_CONFINE != 0 && !sandbox::SUPPORTED {
        die(
            EXIT_CONFINE,
            "cannot confine the jobs: no seccomp filter for this host",
        );
    }
    for s in &file.segments {
        map_segment(s).unwrap_or_else(|e| die(EXIT_SYSCALL, &e));
    }
    unsafe {
        let p = libc::mmap(
            ptr::null_mut(),
            std::mem::size_of::<Slot>(),
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_SHARED | libc::MAP_ANONYMOUS,
            -1,
            0,
        );
        if p == libc::MAP_FAILED {
            die(EXIT_SYSCALL, "mmap of the shared slot failed");
        }
        SLOT = p.cast();
        let no_core = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        libc::setrlimit(libc::RLIMIT_CORE, &no_core);
    }
    run_all(&file);
}

/// Maps a segment at the address it was linked for, readable and
/// writable: bytecode is data, nothing here is ever executable.
fn map_segment(s: &Segment) -> Result<(), String> {
    let page = 4096u64;
    let start = s.addr & !(page - 1);
    let end = (s.addr + s.mem_size).next_multiple_of(page);
    let p = unsafe {
        libc::mmap(
            start as *mut libc::c_void,
            (end - start) as usize,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_FIXED_NOREPLACE,
            -1,
            0,
        )
    };
    if p == libc::MAP_FAILED || p as u64 != start {
        return Err(format!(
            "cannot map the image at 0x{:x}: {}",
            s.addr,
            std::io::Error::last_os_error()
        ));
    }
    unsafe { ptr::copy_nonoverlapping(s.data.as_ptr(), s.addr as *mut u8, s.data.len()) };
    Ok(())
}

/// Runs every job, a child per run of jobs of one entry.
fn run_all(file: &JobFile) {
    let mut i = 0;
    while i < file.jobs.len() {
        let entry = file.jobs[i].entry;
        if entry == 0 {
            line(i, "null", "-", 0, 0, 0);
            i += 1;
            continue;
        }
        let mut end = i + 1;
        if file.flags & FLAG_ISOLATE == 0 {
            while end < file.jobs.len() && file.jobs[end].entry == entry {
                end += 1;
            }
        }
        i = run_child(file, i, end);
    }
}

fn line(index: usize, status: &str, field: &str, code: u64, pc: u64, addr: u64) {
    let text = format!("{index} {status} {field} {code} 0x{pc:x} 0x{addr:x}\n");
    if !write_out(text.as_bytes()) {
        die(EXIT_SYSCALL, "writing stdout failed");
    }
}

/// Forks a child for jobs[first, end); reports what it could not, and
/// returns the index of the next job to run.
fn run_child(file: &JobFile, first: usize, end: usize) -> usize {
    let s = slot();
    s.done.store(0, Ordering::SeqCst);
    s.status = 0;
    s.message_len = 0;
    let pid = unsafe { libc::fork() };
    if pid < 0 {
        die(EXIT_SYSCALL, "fork failed");
    }
    if pid == 0 {
        interp::child(file, first, end);
    }
    // The wall-clock backstop: no job finished for 2×limit+500ms.
    let backstop = Duration::from_millis(2 * u64::from(file.limit_ms) + 500);
    let mut last_done = 0;
    let mut since = Instant::now();
    let mut killed = false;
    let mut status = 0;
    let mut nap = Duration::from_micros(50);
    loop {
        let r = unsafe { libc::waitpid(pid, &mut status, libc::WNOHANG) };
        if r == pid {
            break;
        }
        if r < 0 {
            die(EXIT_SYSCALL, "waitpid failed");
        }
        let done = s.done.load(Ordering::SeqCst);
        if done != last_done {
            last_done = done;
            since = Instant::now();
        } else if file.limit_ms > 0 && since.elapsed() > backstop && !killed {
            unsafe { libc::kill(pid, libc::SIGKILL) };
            killed = true;
        }
        std::thread::sleep(nap);
        nap = (nap * 2).min(Duration::from_millis(5));
    }
    let done = s.done.load(Ordering::SeqCst) as usize;
    let failed = first + done;
    if failed >= end {
        return end;
    }
    let exited = libc::WIFEXITED(status);
    let code = if exited { libc::WEXITSTATUS(status) } else { 0 };
    if killed {
        line(failed, "timeout", "-", 0, 0, 0);
    } else if exited && code == EXIT_RECORDED && s.status != 0 {
        let message = &s.message[..(s.message_len as usize).min(s.message.len())];
        match s.status {
            STATUS_TRAP => line(failed, "trap", interp::trap_name(s.code), 0, s.pc, 0),
            STATUS_HOST => line(failed, "host", "-", s.code, s.pc, 0),
            STATUS_PANIC => line(failed, "panic", &hex(message), 0, 0, 0),
            STATUS_TIMEOUT => line(failed, "timeout", "-", 0, 0, 0),
            STATUS_FAULT => line(failed, "fault", "-", s.code, 0, s.addr),
            STATUS_SYSCALL => line(failed, "syscall", "-", s.code, s.pc, 0),
            _ => line(failed, "exit", "-", code as u64, 0, 0),
        }
    } else if exited {
        line(failed, "exit", "-", code as u64, 0, 0);
    } else {
        let sig = libc::WTERMSIG(status);
        line(failed, "signal", "-", sig as u64, 0, pid as u64);
    }
    failed + 1
}
