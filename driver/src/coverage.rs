//! SanitizerCoverage collection, compiled only with the `coverage` feature
//! (off by default; scripts/coverage.sh builds it in a cargo target directory
//! of its own).
//!
//! The coverage build instruments cranelift-codegen with LLVM's
//! SanitizerCoverage (`-C passes=sancov-module` with inline bool flags and a
//! PC table, see scripts/coverage.sh). The instrumented code calls the two
//! `__sanitizer_cov_*_init` hooks below from its module constructors, before
//! main; they remember where the flags and the PC table are. One flag per
//! instrumented block is set when the block runs; the PC table gives each
//! block's address, in the same order.
//!
//! When `CLIFF_COVERAGE_DIR` names a directory, the driver writes the PCs of
//! the blocks that ran to `<dir>/<pid>-<nanos>.cov` (rewritten at most once
//! a second while serving, and at the end of input, so a driver killed on a
//! timeout loses at most a second), and once per directory every
//! instrumented PC to `<dir>/all.pcs`. Both are text: a `cliff-sancov 1`
//! line, an `anchor <hex>` line (the run-time address of
//! `__sanitizer_cov_pcs_init`, which lets the reader undo the load address of
//! a position-independent executable), an `exe <size> <mtime ns>` line (which
//! build wrote it), then one hex PC per line. Mapping PCs
//! to source lines happens afterwards, in Go (lib/coverage).

use std::fs::{self, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

static FLAGS_START: AtomicUsize = AtomicUsize::new(0);
static FLAGS_END: AtomicUsize = AtomicUsize::new(0);
static PCS_START: AtomicUsize = AtomicUsize::new(0);
static PCS_END: AtomicUsize = AtomicUsize::new(0);

/// Called by every instrumented object's constructor with the bounds of the
/// whole (linked) flag section: keep the widest.
#[no_mangle]
pub extern "C" fn __sanitizer_cov_bool_flag_init(start: *mut u8, end: *mut u8) {
    widen(&FLAGS_START, &FLAGS_END, start as usize, end as usize);
}

/// As above for the PC table: (pc, flags) pairs of usize, one per block.
#[no_mangle]
pub extern "C" fn __sanitizer_cov_pcs_init(start: *const usize, end: *const usize) {
    widen(&PCS_START, &PCS_END, start as usize, end as usize);
}

fn widen(lo: &AtomicUsize, hi: &AtomicUsize, start: usize, end: usize) {
    let old = lo.load(Ordering::SeqCst);
    if old == 0 || start < old {
        lo.store(start, Ordering::SeqCst);
    }
    if end > hi.load(Ordering::SeqCst) {
        hi.store(end, Ordering::SeqCst);
    }
}

/// The flags and the PCs of the instrumented blocks, or None when nothing
/// was instrumented (or the two disagree, which would be a build mistake).
fn blocks() -> Option<(&'static [u8], &'static [usize])> {
    let (fs, fe) = (
        FLAGS_START.load(Ordering::SeqCst),
        FLAGS_END.load(Ordering::SeqCst),
    );
    let (ps, pe) = (
        PCS_START.load(Ordering::SeqCst),
        PCS_END.load(Ordering::SeqCst),
    );
    if fs == 0 || ps == 0 || fe <= fs || pe <= ps {
        return None;
    }
    // SAFETY: the bounds come from the instrumentation's own sections, which
    // live as long as the process; flags are written by the instrumented
    // code as single bytes, and reading a stale value only undercounts.
    let flags = unsafe { std::slice::from_raw_parts(fs as *const u8, fe - fs) };
    let pairs = unsafe {
        std::slice::from_raw_parts(ps as *const usize, (pe - ps) / std::mem::size_of::<usize>())
    };
    if pairs.len() != 2 * flags.len() {
        return None;
    }
    Some((flags, pairs))
}

/// Writes the coverage files while the driver serves.
pub struct Recorder {
    dir: PathBuf,
    file: PathBuf,
    last: Mutex<Option<Instant>>,
}

const DUMP_EVERY: Duration = Duration::from_secs(1);

impl Recorder {
    /// A recorder when `CLIFF_COVERAGE_DIR` is set; the full PC table is
    /// written now if this directory does not have it yet.
    pub fn from_env() -> Option<Recorder> {
        let dir = PathBuf::from(std::env::var_os("CLIFF_COVERAGE_DIR")?);
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        let file = dir.join(format!("{}-{nanos}.cov", std::process::id()));
        let recorder = Recorder {
            dir,
            file,
            last: Mutex::new(None),
        };
        if let Err(e) = recorder.write_all_pcs() {
            eprintln!("cliff-driver: coverage: {}: {e}", recorder.dir.display());
        }
        Some(recorder)
    }

    fn write_all_pcs(&self) -> io::Result<()> {
        let Some((_, pairs)) = blocks() else {
            return Err(io::Error::other(
                "this driver has no SanitizerCoverage instrumentation",
            ));
        };
        let path = self.dir.join("all.pcs");
        if path.exists() {
            return Ok(());
        }
        let tmp = self.dir.join(format!("all.pcs.{}", std::process::id()));
        write_pcs(&tmp, pairs.chunks(2).map(|p| p[0]))?;
        // Another driver may have written it first: same binary, same table.
        if path.exists() {
            return fs::remove_file(&tmp);
        }
        fs::rename(&tmp, &path)
    }

    /// Writes this process's covered PCs if a second has passed since the
    /// last time (or always, with `force`).
    pub fn dump(&self, force: bool) {
        let mut last = self.last.lock().unwrap_or_else(|e| e.into_inner());
        if !force && last.is_some_and(|t| t.elapsed() < DUMP_EVERY) {
            return;
        }
        *last = Some(Instant::now());
        let Some((flags, pairs)) = blocks() else {
            return;
        };
        let covered = flags
            .iter()
            .zip(pairs.chunks(2))
            .filter(|(f, _)| **f != 0)
            .map(|(_, p)| p[0]);
        let tmp = self.file.with_extension("tmp");
        if let Err(e) = write_pcs(&tmp, covered).and_then(|_| fs::rename(&tmp, &self.file)) {
            eprintln!("cliff-driver: coverage: {}: {e}", self.file.display());
        }
    }
}

/// The size and modification time (ns) of this process's executable: the
/// PCs mean something only with the very build that wrote them, and the
/// reader checks the binary it maps them with against this.
fn exe_identity() -> String {
    use std::os::unix::fs::MetadataExt;
    match fs::metadata("/proc/self/exe") {
        Ok(m) => format!(
            "{} {}",
            m.size(),
            m.mtime() as i128 * 1_000_000_000 + m.mtime_nsec() as i128
        ),
        Err(_) => "unknown".into(),
    }
}

fn write_pcs(path: &Path, pcs: impl Iterator<Item = usize>) -> io::Result<()> {
    let mut out = BufWriter::new(
        OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .open(path)?,
    );
    writeln!(out, "cliff-sancov 1")?;
    writeln!(
        out,
        "anchor {:x}",
        __sanitizer_cov_pcs_init as *const () as usize
    )?;
    writeln!(out, "exe {}", exe_identity())?;
    for pc in pcs {
        writeln!(out, "{pc:x}")?;
    }
    out.flush()
}
