//! The seccomp filter of cliff-pulley's children (job file flag bit 1).
//!
//! A child installs it after its set-up (handlers, interpreter, buffers)
//! and before its first job. What remains allowed is what the
//! interpreter and the child's own reporting need: managing memory (no
//! executable mappings; the interpreter's allocator takes nothing after
//! set-up, but a panic message is allocated), writing to stdout, the
//! CPU-time timer, returning from a signal handler and exiting. Any other
//! call raises SIGSYS (SECCOMP_RET_TRAP), which the child reports as the
//! harness does ("syscall"); a call of another ABI kills it.

/// Whether this host has a filter here.
pub const SUPPORTED: bool = cfg!(any(target_arch = "x86_64", target_arch = "aarch64"));

#[cfg(target_arch = "x86_64")]
const AUDIT_ARCH: u32 = 0xc000_003e; // AUDIT_ARCH_X86_64
#[cfg(target_arch = "aarch64")]
const AUDIT_ARCH: u32 = 0xc000_00b7; // AUDIT_ARCH_AARCH64
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
const AUDIT_ARCH: u32 = 0;

const LD_W_ABS: u16 = 0x20;
const JEQ_K: u16 = 0x15;
const JSET_K: u16 = 0x45;
const RET_K: u16 = 0x06;
const RET_ALLOW: u32 = 0x7fff_0000;
const RET_TRAP: u32 = 0x0003_0000;
const RET_KILL_PROCESS: u32 = 0x8000_0000;
/// struct seccomp_data: nr, arch, instruction_pointer, args[6].
const OFF_NR: u32 = 0;
const OFF_ARCH: u32 = 4;
const fn off_arg_low(i: u32) -> u32 {
    16 + 8 * i // little-endian hosts: the low half first
}

fn op(code: u16, jt: u8, jf: u8, k: u32) -> libc::sock_filter {
    libc::sock_filter { code, jt, jf, k }
}

/// Installs the filter; an error says why it could not be.
pub fn confine() -> Result<(), String> {
    let simple = [
        libc::SYS_exit,
        libc::SYS_exit_group,
        libc::SYS_rt_sigreturn,
        libc::SYS_setitimer,
        libc::SYS_brk,
        libc::SYS_munmap,
        libc::SYS_mremap,
        libc::SYS_madvise,
        libc::SYS_futex,
    ];
    let mut prog = vec![
        op(LD_W_ABS, 0, 0, OFF_ARCH),
        op(JEQ_K, 1, 0, AUDIT_ARCH),
        op(RET_K, 0, 0, RET_KILL_PROCESS),
        op(LD_W_ABS, 0, 0, OFF_NR),
    ];
    for nr in simple {
        prog.push(op(JEQ_K, 0, 1, nr as u32));
        prog.push(op(RET_K, 0, 0, RET_ALLOW));
    }
    // write(2) to stdout only.
    prog.push(op(JEQ_K, 0, 4, libc::SYS_write as u32));
    prog.push(op(LD_W_ABS, 0, 0, off_arg_low(0)));
    prog.push(op(JEQ_K, 0, 1, 1));
    prog.push(op(RET_K, 0, 0, RET_ALLOW));
    prog.push(op(RET_K, 0, 0, RET_TRAP));
    // mmap(2) without PROT_EXEC.
    prog.push(op(JEQ_K, 0, 3, libc::SYS_mmap as u32));
    prog.push(op(LD_W_ABS, 0, 0, off_arg_low(2)));
    prog.push(op(JSET_K, 1, 0, libc::PROT_EXEC as u32));
    prog.push(op(RET_K, 0, 0, RET_ALLOW));
    prog.push(op(RET_K, 0, 0, RET_TRAP));
    let fprog = libc::sock_fprog {
        len: prog.len() as u16,
        filter: prog.as_mut_ptr(),
    };
    unsafe {
        if libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 {
            return Err(format!("no_new_privs: {}", std::io::Error::last_os_error()));
        }
        if libc::prctl(
            libc::PR_SET_SECCOMP,
            libc::SECCOMP_MODE_FILTER,
            &fprog as *const libc::sock_fprog,
        ) != 0
        {
            return Err(format!("seccomp: {}", std::io::Error::last_os_error()));
        }
    }
    Ok(())
}
