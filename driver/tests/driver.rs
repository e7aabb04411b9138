//! End-to-end tests: start the `cliff-driver` binary, talk PROTOCOL.md to it
//! over pipes, and check the answers and the objects it writes.

use object::{Object, ObjectSection, ObjectSymbol, RelocationTarget};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

/// No request in these tests takes more than a fraction of a second; this
/// only keeps a hung driver from hanging the test run.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(60);

struct Driver {
    child: Child,
    stdin: Option<ChildStdin>,
    answers: Receiver<String>,
}

impl Driver {
    fn start() -> Driver {
        let mut child = Command::new(env!("CARGO_BIN_EXE_cliff-driver"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start cliff-driver");
        let stdout = child.stdout.take().unwrap();
        let (tx, answers) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Driver {
            child,
            stdin,
            answers,
        }
    }

    fn send_line(&mut self, line: &str) -> Value {
        let stdin = self.stdin.as_mut().unwrap();
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
        let answer = self
            .answers
            .recv_timeout(ANSWER_TIMEOUT)
            .expect("an answer line");
        serde_json::from_str(&answer)
            .unwrap_or_else(|e| panic!("answer is not JSON ({e}): {answer}"))
    }

    fn request(&mut self, request: Value) -> Value {
        let answer = self.send_line(&request.to_string());
        assert_eq!(
            answer["id"], request["id"],
            "answer to the wrong request: {answer}"
        );
        answer
    }

    /// Closes stdin and checks that the driver exits 0 without writing more.
    fn finish(mut self) {
        drop(self.stdin.take());
        let status = self.child.wait().unwrap();
        assert!(status.success(), "driver exit status {status}");
        assert!(
            self.answers.recv_timeout(Duration::from_secs(5)).is_err(),
            "stray output after the last answer"
        );
    }
}

/// A test that fails midway must not leave its driver running (one spinning
/// in an endless loop would also hold the test's output open).
impl Drop for Driver {
    fn drop(&mut self) {
        if self.stdin.is_some() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

fn temp_path(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cliff-driver-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// The cranelift-codegen version in the Cargo.lock of this build (the lock
/// beside the manifest: a build directory's own, for other releases), read
/// here independently of build.rs.
fn lock_version() -> String {
    let lock = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.lock"))
        .expect("read Cargo.lock");
    lock.split("[[package]]")
        .find(|p| p.contains("name = \"cranelift-codegen\"\n"))
        .and_then(|p| p.lines().find_map(|l| l.strip_prefix("version = \"")))
        .and_then(|v| v.strip_suffix('"'))
        .expect("cranelift-codegen in Cargo.lock")
        .to_string()
}

/// The version the driver reports, checked against the lock.
fn driver_version(driver: &mut Driver) -> String {
    let answer = driver.request(json!({"id": 1000, "op": "version"}));
    assert_eq!(answer["status"], "ok", "{answer}");
    let version = answer["cranelift"].as_str().unwrap().to_string();
    assert_eq!(version, lock_version(), "{answer}");
    version
}

/// Module 0: `%cliff_tramp0` calls `%helper` by `%name` (colocated).
const MODULE_A: &str = "
function %helper(i32) -> i32 {
block0(v0: i32):
    v1 = imul v0, v0
    return v1
}

function %cliff_tramp0(i64, i64) system_v {
    fn0 = colocated %helper(i32) -> i32
block0(v0: i64, v1: i64):
    v2 = load.i32 v0
    v3 = call fn0(v2)
    store v3, v1
    return
}
";

/// Module 1: the same function names (they must not clash), a non-colocated
/// call, and an import that optimisation does not remove.
const MODULE_B: &str = "
function %helper(i64) -> i64 {
block0(v0: i64):
    v1 = iconst.i64 7
    v2 = udiv v0, v1
    return v2
}

function %cliff_tramp0(i64, i64) system_v {
    fn0 = %helper(i64) -> i64
    fn1 = %external_thing(i64) -> i64
block0(v0: i64, v1: i64):
    v2 = load.i64 v0
    v3 = call fn0(v2)
    v4 = call fn1(v3)
    store v4, v1
    return
}
";

#[test]
fn compile_links_names_per_module_on_every_target() {
    let cases = [
        ("x86_64", object::Architecture::X86_64, true),
        ("aarch64", object::Architecture::Aarch64, true),
        ("riscv64", object::Architecture::Riscv64, true),
        ("s390x", object::Architecture::S390x, false),
    ];
    let mut driver = Driver::start();
    for (i, (target, arch, little_endian)) in cases.into_iter().enumerate() {
        let output = temp_path(&format!("two-{target}.o"));
        let answer = driver.request(json!({
            "id": i, "op": "compile", "target": target, "flags": ["opt_level=speed"],
            "output": output,
            "modules": [MODULE_A, MODULE_B, "function %broken("],
            "entries": [
                {"module": 0, "func": "%cliff_tramp0"},
                {"module": 1, "func": "%cliff_tramp0"},
                {"module": 2, "func": "%cliff_tramp0"},
                {"module": 0, "func": "%no_such_function"},
            ],
        }));
        assert_eq!(answer["status"], "ok", "{target}: {answer}");
        let modules = answer["modules"].as_array().unwrap();
        assert_eq!(modules[0]["status"], "ok", "{target}: {answer}");
        assert_eq!(modules[1]["status"], "ok", "{target}: {answer}");
        assert_eq!(modules[2]["status"], "error", "{target}: {answer}");
        assert!(
            modules[2]["message"]
                .as_str()
                .unwrap()
                .starts_with("parse error"),
            "{answer}"
        );
        let symbols: Vec<&str> = modules[1]["functions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["symbol"].as_str().unwrap())
            .collect();
        assert_eq!(
            symbols,
            ["cliff_m1_helper", "cliff_m1_cliff_tramp0"],
            "{target}"
        );
        // The loads and stores of the trampolines may trap; the answer says where.
        let traps = &modules[0]["functions"][1]["traps"];
        assert!(
            traps
                .as_array()
                .unwrap()
                .iter()
                .any(|t| t["code"] == "heap_oob"),
            "{target}: {traps}"
        );
        assert!(answer["isa_flags"]
            .as_array()
            .unwrap()
            .iter()
            .all(|f| f.as_str().unwrap().contains('=')));

        let bytes = std::fs::read(&output).unwrap();
        let file = object::File::parse(&*bytes).unwrap();
        assert_eq!(file.architecture(), arch, "{target}");
        assert_eq!(file.is_little_endian(), little_endian, "{target}");
        check_symbols(target, &file);
        check_entry_table(target, &file, little_endian);
        check_call_targets(target, &file);
    }
    driver.finish();
}

fn check_symbols(target: &str, file: &object::File) {
    for name in [
        "cliff_m0_helper",
        "cliff_m0_cliff_tramp0",
        "cliff_m1_helper",
        "cliff_m1_cliff_tramp0",
    ] {
        let symbol = file
            .symbol_by_name(name)
            .unwrap_or_else(|| panic!("{target}: no symbol {name}"));
        assert!(
            symbol.is_definition() && symbol.is_global(),
            "{target}: {name} is not a global definition"
        );
        assert_eq!(symbol.kind(), object::SymbolKind::Text, "{target}: {name}");
    }
    let external = file
        .symbol_by_name("external_thing")
        .expect("the import is a symbol");
    assert!(
        external.is_undefined(),
        "{target}: external_thing must be undefined"
    );
    assert!(
        file.symbol_by_name("cliff_m2_broken").is_none(),
        "{target}: a failed module left a symbol"
    );
}

fn check_entry_table(target: &str, file: &object::File, little_endian: bool) {
    let count = file
        .symbol_by_name("cliff_entry_count")
        .expect("cliff_entry_count");
    let section = file
        .section_by_index(count.section_index().unwrap())
        .unwrap();
    let data = section.data().unwrap();
    let offset = (count.address() - section.address()) as usize;
    let raw: [u8; 8] = data[offset..offset + 8].try_into().unwrap();
    let value = if little_endian {
        u64::from_le_bytes(raw)
    } else {
        u64::from_be_bytes(raw)
    };
    assert_eq!(value, 4, "{target}: cliff_entry_count");

    let table = file.symbol_by_name("cliff_entries").expect("cliff_entries");
    assert_eq!(table.size(), 4 * 8, "{target}: cliff_entries size");
    // Entries 2 (failed module) and 3 (no such function) stay 0: no relocation.
    assert_eq!(
        entry_slots(file),
        [
            (0, "cliff_m0_cliff_tramp0".to_string()),
            (8, "cliff_m1_cliff_tramp0".to_string())
        ],
        "{target}: cliff_entries relocations"
    );
}

/// The filled slots of `cliff_entries`: byte offset and the symbol whose
/// address it holds (a slot left 0 has no relocation).
fn entry_slots(file: &object::File) -> Vec<(u64, String)> {
    let table = file.symbol_by_name("cliff_entries").expect("cliff_entries");
    let section = file
        .section_by_index(table.section_index().unwrap())
        .unwrap();
    let base = table.address() - section.address();
    let mut slots: Vec<(u64, String)> = section
        .relocations()
        .map(|(offset, reloc)| (offset - base, target_name(file, reloc.target())))
        .collect();
    slots.sort();
    slots
}

/// Each trampoline's call goes to the helper of its own module.
fn check_call_targets(target: &str, file: &object::File) {
    let text = file.section_by_name(".text").unwrap();
    let functions: Vec<(u64, u64, String)> = file
        .symbols()
        .filter(|s| s.kind() == object::SymbolKind::Text && s.is_definition())
        .map(|s| {
            (
                s.address(),
                s.address() + s.size(),
                s.name().unwrap().to_string(),
            )
        })
        .collect();
    let mut calls: Vec<(String, String)> = text
        .relocations()
        .map(|(offset, reloc)| {
            let caller = functions
                .iter()
                .find(|(start, end, _)| (*start..*end).contains(&offset))
                .map(|(_, _, name)| name.clone())
                .unwrap_or_default();
            (caller, target_name(file, reloc.target()))
        })
        .collect();
    calls.sort();
    assert_eq!(
        calls,
        [
            (
                "cliff_m0_cliff_tramp0".to_string(),
                "cliff_m0_helper".to_string()
            ),
            (
                "cliff_m1_cliff_tramp0".to_string(),
                "cliff_m1_helper".to_string()
            ),
            (
                "cliff_m1_cliff_tramp0".to_string(),
                "external_thing".to_string()
            ),
        ],
        "{target}: call relocations"
    );
}

fn target_name(file: &object::File, target: RelocationTarget) -> String {
    match target {
        RelocationTarget::Symbol(index) => file
            .symbol_by_index(index)
            .unwrap()
            .name()
            .unwrap()
            .to_string(),
        other => format!("{other:?}"),
    }
}

/// Each failure names its own function: a module where two functions fail
/// for different reasons (x86_64 rejects three i64 results in registers
/// without `enable_multi_ret_implicit_sret`, an error, and panics on
/// band.f16; both in every release from 0.120 to 0.137) reports each with its own message; a function that
/// refers to a failed one (by a call, directly or through another, or by
/// its address) carries that failure and says which; the others are in
/// the object and their entries filled.
#[test]
fn each_function_of_a_module_fails_on_its_own() {
    let module = "
function %rets(i64, i64) -> i64, i64, i64 system_v {
block0(v0: i64, v1: i64):
    v2 = umin v0, v1
    return v0, v1, v2
}

function %band(f16, f16) -> f16 {
block0(v0: f16, v1: f16):
    v2 = band v0, v1
    return v2
}

function %ok(i64) -> i64 {
block0(v0: i64):
    return v0
}

function %caller(i64) -> i64 {
    fn0 = %rets(i64, i64) -> i64
block0(v0: i64):
    v1 = call fn0(v0, v0)
    return v1
}

function %outer(i64) -> i64 {
    fn0 = %caller(i64) -> i64
    fn1 = %ok(i64) -> i64
block0(v0: i64):
    v1 = call fn1(v0)
    v2 = call fn0(v1)
    return v2
}

function %address() -> i64 {
    fn0 = %band(f16, f16) -> f16
block0:
    v0 = func_addr.i64 fn0
    return v0
}

function %uses_ok(i64) -> i64 {
    fn0 = %ok(i64) -> i64
block0(v0: i64):
    v1 = call fn0(v0)
    return v1
}
";
    let mut driver = Driver::start();
    let output = temp_path("per-function.o");
    let names = [
        "%rets", "%band", "%ok", "%caller", "%outer", "%address", "%uses_ok",
    ];
    let entries: Vec<Value> = names
        .iter()
        .map(|f| json!({"module": 0, "func": f}))
        .collect();
    let answer = driver.request(json!({
        "id": 1, "op": "compile", "target": "x86_64", "flags": ["opt_level=none"],
        "output": output, "modules": [module], "entries": entries,
    }));
    assert_eq!(answer["status"], "ok", "{answer}");
    let m = &answer["modules"][0];
    // The module's status is its first failure, named.
    assert_eq!(m["status"], "error", "{answer}");
    assert_eq!(m["function"], "%rets", "{answer}");
    let functions = m["functions"].as_array().unwrap();
    let got: Vec<&str> = functions
        .iter()
        .map(|f| f["name"].as_str().unwrap())
        .collect();
    assert_eq!(got, names, "{answer}");
    let text = |i: usize, field: &str| functions[i][field].as_str().unwrap_or("").to_string();

    assert_eq!(text(0, "status"), "error", "{answer}");
    assert!(
        text(0, "message").starts_with("function %rets: ")
            && text(0, "message").contains("Too many return values"),
        "{answer}"
    );
    assert_eq!(text(1, "status"), "crash", "{answer}");
    // ISLE's generated lowering: a path in cargo's build directory.
    assert!(text(1, "location").contains("isle_x64.rs:"), "{answer}");
    assert!(text(1, "message").contains("sse_and"), "{answer}");
    assert_eq!(text(2, "status"), "ok", "{answer}");
    assert_eq!(text(2, "symbol"), "cliff_m0_ok", "{answer}");
    for (i, needs, status) in [
        (3, "%rets", "error"),
        (4, "%rets", "error"),
        (5, "%band", "crash"),
    ] {
        assert_eq!(text(i, "status"), status, "{}: {answer}", names[i]);
        assert_eq!(text(i, "needs"), needs, "{}: {answer}", names[i]);
        let own = if needs == "%rets" { 0 } else { 1 };
        assert_eq!(
            text(i, "message"),
            text(own, "message"),
            "{}: {answer}",
            names[i]
        );
    }
    assert_eq!(text(6, "status"), "ok", "{answer}");

    let bytes = std::fs::read(&output).unwrap();
    let file = object::File::parse(&*bytes).unwrap();
    let defined: Vec<String> = file
        .symbols()
        .filter(|s| s.kind() == object::SymbolKind::Text && s.is_definition())
        .map(|s| s.name().unwrap().to_string())
        .collect();
    assert_eq!(
        defined,
        ["cliff_m0_ok", "cliff_m0_uses_ok"],
        "placed functions"
    );
    assert_eq!(
        entry_slots(&file),
        [
            (2 * 8, "cliff_m0_ok".to_string()),
            (6 * 8, "cliff_m0_uses_ok".to_string())
        ],
        "entries of failed functions stay 0"
    );
    driver.finish();
}

#[test]
fn a_cranelift_panic_is_a_crash_answer_and_the_driver_goes_on() {
    // Both inputs pass the verifier; the backends panic on them in every
    // release from 0.120 to 0.137.
    let sarg = "
function %callee(i64 sarg(64)) -> i64 system_v {
block0(v0: i64):
    v1 = load.i64 v0
    return v1
}
";
    let big_frame = "
function %big() -> i64 system_v {
    ss0 = explicit_slot 8192
block0:
    v0 = stack_addr.i64 ss0
    return v0
}
";
    let good = "
function %ok(i64) -> i64 {
block0(v0: i64):
    return v0
}
";
    let cases = [
        (
            "s390x",
            vec![],
            sarg,
            "StructArgument parameters are not supported",
            "isa/s390x/abi.rs:",
        ),
        (
            "aarch64",
            vec!["enable_probestack=true"],
            big_frame,
            "Stack probing is unimplemented",
            "isa/aarch64/abi.rs:",
        ),
    ];
    let mut driver = Driver::start();
    let version = driver_version(&mut driver);
    for (i, (target, flags, crashing, message, location)) in cases.into_iter().enumerate() {
        let output = temp_path(&format!("crash-{target}.o"));
        let answer = driver.request(json!({
            "id": i, "op": "compile", "target": target, "flags": flags, "output": output,
            "modules": [good, crashing, good],
            "entries": [{"module": 0, "func": "%ok"}, {"module": 1, "func": "%callee"}, {"module": 2, "func": "%ok"}],
        }));
        assert_eq!(answer["status"], "ok", "{answer}");
        let modules = answer["modules"].as_array().unwrap();
        assert_eq!(modules[1]["status"], "crash", "{answer}");
        assert!(
            modules[1]["message"].as_str().unwrap().contains(message),
            "{answer}"
        );
        let loc = modules[1]["location"].as_str().unwrap();
        assert!(
            loc.starts_with(&format!("cranelift-codegen-{version}/")) && loc.contains(location),
            "{loc}"
        );
        assert_eq!(modules[0]["status"], "ok", "{answer}");
        assert_eq!(modules[2]["status"], "ok", "{answer}");

        let bytes = std::fs::read(&output).unwrap();
        let file = object::File::parse(&*bytes).unwrap();
        assert!(file.symbol_by_name("cliff_m0_ok").is_some());
        assert!(file.symbol_by_name("cliff_m2_ok").is_some());
        assert!(
            !file
                .symbols()
                .any(|s| s.name().unwrap_or("").starts_with("cliff_m1_")),
            "{target}: half-defined module"
        );
    }
    let answer = driver.request(json!({"id": 99, "op": "version"}));
    assert_eq!(answer["status"], "ok");
    assert_eq!(answer["cranelift"], version, "{answer}");
    driver.finish();
}

const CALLER_CALLEE: &str = "
function %f(i32, i32) -> i32 {
    fn0 = %g(i32, i32) -> i32
block0(v0: i32, v1: i32):
    v2 = call fn0(v0, v1)
    v3 = iconst.i32 1
    v4 = iadd v2, v3
    return v4
}

function %g(i32, i32) -> i32 {
block0(v0: i32, v1: i32):
    v2 = udiv v0, v1
    return v2
}

function %spin(i64) -> i64 {
block0(v0: i64):
    jump block1(v0)
block1(v1: i64):
    v2 = iconst.i64 1
    v3 = iadd v1, v2
    jump block1(v3)
}
";

fn i32_value(v: i32) -> Value {
    json!({"type": "i32", "hex": hex(&v.to_le_bytes())})
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[test]
fn interpret_runs_calls_traps_and_fuel() {
    let mut driver = Driver::start();
    struct Case {
        func: &'static str,
        args: Vec<Value>,
        fuel: Option<u64>,
        status: &'static str,
        field: &'static str,
        want: Value,
    }
    let cases = [
        // %f calls %g: 42 / 5 + 1 = 9.
        Case {
            func: "%f",
            args: vec![i32_value(42), i32_value(5)],
            fuel: None,
            status: "ok",
            field: "results",
            want: json!([i32_value(9)]),
        },
        Case {
            func: "%f",
            args: vec![i32_value(1), i32_value(0)],
            fuel: None,
            status: "ok",
            field: "trap",
            want: json!("int_divz"),
        },
        Case {
            func: "%spin",
            args: vec![json!({"type": "i64", "hex": "0000000000000000"})],
            fuel: Some(1000),
            status: "ok",
            field: "timeout",
            want: json!(true),
        },
        Case {
            func: "%f",
            args: vec![i32_value(1)],
            fuel: None,
            status: "error",
            field: "message",
            want: json!("%f takes 2 arguments, got 1"),
        },
        Case {
            func: "%f",
            args: vec![
                json!({"type": "i64", "hex": "0000000000000000"}),
                i32_value(1),
            ],
            fuel: None,
            status: "error",
            field: "message",
            want: json!("argument 0: type i64 but %f wants i32"),
        },
        Case {
            func: "%nope",
            args: vec![],
            fuel: None,
            status: "error",
            field: "message",
            want: json!("no function %nope in the module"),
        },
    ];
    for (i, case) in cases.iter().enumerate() {
        let mut request = json!({"id": i, "op": "interpret", "clif": CALLER_CALLEE, "func": case.func, "args": case.args});
        if let Some(fuel) = case.fuel {
            request["fuel"] = json!(fuel);
        }
        let answer = driver.request(request);
        assert_eq!(answer["status"], case.status, "case {i}: {answer}");
        assert_eq!(answer[case.field], case.want, "case {i}: {answer}");
    }
    driver.finish();
}

/// Programs the interpreter cannot finish, or cannot run at all.
const LIMITS: &str = "
function %spin(i64) -> i64 {
block0(v0: i64):
    jump block1(v0)
block1(v1: i64):
    v2 = iconst.i64 1
    v3 = iadd v1, v2
    jump block1(v3)
}

function %deep(i64) -> i64 {
    fn0 = %deep(i64) -> i64
block0(v0: i64):
    brif v0, block1, block2
block1:
    v1 = iconst.i64 1
    v2 = isub v0, v1
    v3 = call fn0(v2)
    v4 = iadd v3, v1
    return v4
block2:
    return v0
}

function %tail(i64) -> i64 tail {
    fn0 = %tail(i64) -> i64 tail
block0(v0: i64):
    brif v0, block1, block2
block1:
    v1 = iconst.i64 1
    v2 = isub v0, v1
    return_call fn0(v2)
block2:
    return v0
}

function %pshufb(i8x16) -> i8x16 {
block0(v0: i8x16):
    v1 = x86_pshufb v0, v0
    return v1
}

function %outside(i64) -> i64 {
    fn0 = %nowhere(i64) -> i64
block0(v0: i64):
    v1 = call fn0(v0)
    return v1
}

function %memcpy(i64) -> i64 {
    fn0 = %Memcpy(i64, i64, i64) -> i64
block0(v0: i64):
    v1 = call fn0(v0, v0, v0)
    return v1
}

function %uno(f128) -> i8 {
block0(v0: f128):
    v1 = fcmp uno v0, v0
    return v1
}

function %lanes(i128) -> i64 {
block0(v0: i128):
    v1 = bitcast.i64x2 little v0
    v2 = extractlane v1, 1
    return v2
}
";

fn i64_value(v: i64) -> Value {
    json!({"type": "i64", "hex": hex(&v.to_le_bytes())})
}

/// Every run ends, in its own answer, and the driver lives on: an endless
/// loop at the deadline whatever the fuel, deep recursion at the depth
/// limit, what the interpreter lacks as `unsupported`; a bug of the
/// interpreter stays a crash.
#[test]
fn interpret_stops_at_limits_and_says_what_it_cannot_run() {
    let mut driver = Driver::start();
    struct Case {
        func: &'static str,
        arg: Value,
        extra: Value,
        status: &'static str,
        field: &'static str,
        want: Value,
        message: &'static str,
    }
    let unbounded = json!({"fuel": 1u64 << 50});
    let cases = [
        Case {
            func: "%spin",
            arg: i64_value(0),
            extra: json!({"fuel": 1u64 << 50, "timeout_ms": 200}),
            status: "ok",
            field: "timeout",
            want: json!(true),
            message: "deadline passed after",
        },
        Case {
            func: "%spin",
            arg: i64_value(0),
            extra: json!({"fuel": 1000, "timeout_ms": 60000}),
            status: "ok",
            field: "timeout",
            want: json!(true),
            message: "fuel exhausted after 1000 instructions",
        },
        Case {
            func: "%deep",
            arg: i64_value(1_000_000),
            extra: unbounded.clone(),
            status: "ok",
            field: "stack_overflow",
            want: json!(true),
            message: "more than 100000 frames",
        },
        Case {
            func: "%deep",
            arg: i64_value(10),
            extra: json!({"max_depth": 10}),
            status: "ok",
            field: "stack_overflow",
            want: json!(true),
            message: "more than 10 frames",
        },
        Case {
            func: "%deep",
            arg: i64_value(50_000),
            extra: unbounded.clone(),
            status: "ok",
            field: "results",
            want: json!([i64_value(50_000)]),
            message: "",
        },
        // Tail calls replace their frame: no depth limit.
        Case {
            func: "%tail",
            arg: i64_value(1_000_000),
            extra: unbounded.clone(),
            status: "ok",
            field: "results",
            want: json!([i64_value(0)]),
            message: "",
        },
        // An opcode the interpreter has no semantics for (in every release
        // from 0.120 to 0.137; sequence_point, from 0.126, is another).
        Case {
            func: "%pshufb",
            arg: json!({"type": "i8x16", "hex": hex(&[0u8; 16])}),
            extra: json!({}),
            status: "ok",
            field: "unsupported",
            want: json!("not implemented: X86Pshufb"),
            message: "",
        },
        Case {
            func: "%outside",
            arg: i64_value(1),
            extra: json!({}),
            status: "ok",
            field: "unsupported",
            want: json!("%outside calls %nowhere, which is not a function of the module"),
            message: "",
        },
        Case {
            func: "%memcpy",
            arg: i64_value(1),
            extra: json!({}),
            status: "ok",
            field: "unsupported",
            want: json!("libcall Memcpy is not available in the interpreter"),
            message: "",
        },
        // f128 has no float operations in the interpreter (`uno` panics
        // on its own InvalidType error): what it lacks, not a bug.
        Case {
            func: "%uno",
            arg: json!({"type": "f128", "hex": hex(&[0u8; 16])}),
            extra: json!({}),
            status: "ok",
            field: "unsupported",
            want: json!(
                "called `Result::unwrap()` on an `Err` value: InvalidType(Float, types::F128)"
            ),
            message: "",
        },
        // An interpreter bug (bitcast keeps the i128, extractlane indexes
        // one lane) is a crash, as before.
        Case {
            func: "%lanes",
            arg: json!({"type": "i128", "hex": hex(&[0u8; 16])}),
            extra: json!({}),
            status: "crash",
            field: "message",
            want: json!("index out of bounds: the len is 1 but the index is 1"),
            message: "",
        },
    ];
    for (i, case) in cases.iter().enumerate() {
        let mut request = json!({"id": i, "op": "interpret", "clif": LIMITS, "func": case.func, "args": [case.arg]});
        for (k, v) in case.extra.as_object().unwrap() {
            request[k] = v.clone();
        }
        let answer = driver.request(request);
        assert_eq!(answer["status"], case.status, "case {i}: {answer}");
        assert_eq!(answer[case.field], case.want, "case {i}: {answer}");
        if !case.message.is_empty() {
            let message = answer["message"].as_str().unwrap_or("");
            assert!(message.contains(case.message), "case {i}: {answer}");
        }
    }
    let version = driver_version(&mut driver);
    let answer = driver.request(json!({"id": 99, "op": "interpret", "clif": LIMITS, "func": "%pshufb", "args": [{"type": "i8x16", "hex": hex(&[0u8; 16])}]}));
    let location = answer["location"].as_str().unwrap_or("");
    assert!(
        location.starts_with(&format!("cranelift-interpreter-{version}/"))
            && location.contains("src/step.rs:"),
        "{answer}"
    );
    driver.finish();
}

#[test]
fn optimize_removes_redundant_instructions() {
    let redundant = "
function %r(i64) -> i64 {
block0(v0: i64):
    v1 = iconst.i64 0
    v2 = iadd v0, v1
    v3 = iadd v0, v1
    v4 = isub v2, v3
    v5 = iadd v0, v4
    return v5
}
";
    let mut driver = Driver::start();
    let answer = driver.request(json!({"id": 1, "op": "optimize", "clif": redundant, "target": "x86_64", "flags": ["opt_level=speed"]}));
    assert_eq!(answer["status"], "ok", "{answer}");
    let f = &answer["functions"][0];
    assert_eq!(f["name"], "%r");
    assert_eq!(f["insts_before"], 6);
    let after = f["insts_after"].as_u64().unwrap();
    assert!(after < 6, "{answer}");
    assert!(
        f["clif"]
            .as_str()
            .unwrap()
            .starts_with("function %r(i64) -> i64"),
        "{answer}"
    );

    let answer = driver.request(json!({"id": 2, "op": "optimize", "clif": redundant, "target": "x86_64", "flags": ["opt_level=none"]}));
    assert_eq!(
        answer["functions"][0]["insts_after"], 6,
        "opt_level=none must not rewrite: {answer}"
    );
    driver.finish();
}

#[test]
fn verify_reports_every_message() {
    let bad = "
function %a(i32) -> i64 {
block0(v0: i32):
    return v0
}

function %b(i64) -> i32 {
block0(v0: i64):
    return v0
}
";
    let mut driver = Driver::start();
    let cases = [
        (json!({"id": 1, "op": "verify", "clif": bad}), "error"),
        (
            json!({"id": 2, "op": "verify", "clif": bad, "target": "riscv64 has_v"}),
            "error",
        ),
        (
            json!({"id": 3, "op": "verify", "clif": MODULE_A, "target": "x86_64"}),
            "ok",
        ),
        (json!({"id": 4, "op": "verify", "clif": MODULE_A}), "ok"),
    ];
    for (request, status) in cases {
        let answer = driver.request(request);
        assert_eq!(answer["status"], status, "{answer}");
        if status == "error" {
            let message = answer["message"].as_str().unwrap();
            assert!(
                message.contains("function %a: ") && message.contains("function %b: "),
                "{message}"
            );
        }
    }
    driver.finish();
}

#[test]
fn bad_requests_get_error_answers_and_the_driver_goes_on() {
    let mut driver = Driver::start();
    let answer = driver.send_line(r#"{"id": 1, "op": "version""#);
    assert_eq!(answer["status"], "error");
    assert_eq!(answer["id"], Value::Null);
    assert!(
        answer["message"]
            .as_str()
            .unwrap()
            .starts_with("line 1: malformed JSON"),
        "{answer}"
    );

    let cases = [
        (json!({"id": 2, "op": "fly"}), "unknown op"),
        (json!({"id": 3}), "no \"op\""),
        (
            json!({"id": 4, "op": "compile", "target": "x86_64", "output": "/nonexistent/dir/x.o", "modules": ["function %f() {\nblock0:\n    return\n}"]}),
            "write /nonexistent/dir/x.o",
        ),
        (
            json!({"id": 5, "op": "compile", "target": "x86_64", "output": "/tmp/x.o", "modules": []}),
            "no modules",
        ),
        (
            json!({"id": 6, "op": "compile", "target": "mips64", "output": "/tmp/x.o", "modules": [MODULE_A]}),
            "mips64",
        ),
        (
            json!({"id": 7, "op": "optimize", "target": "x86_64 has_flux_capacitor", "clif": MODULE_A}),
            "has_flux_capacitor",
        ),
        (json!({"id": 8, "op": "verify"}), "bad request"),
    ];
    for (request, message) in cases {
        let answer = driver.request(request);
        assert_eq!(answer["status"], "error", "{answer}");
        assert!(
            answer["message"].as_str().unwrap().contains(message),
            "want {message:?}: {answer}"
        );
    }
    let answer = driver.send_line("[1, 2]");
    assert!(
        answer["message"].as_str().unwrap().starts_with("line 9: "),
        "{answer}"
    );
    let answer = driver.request(json!({"id": 11, "op": "version"}));
    assert_eq!(answer["status"], "ok");
    driver.finish();
}

#[test]
fn a_module_that_fails_in_the_object_is_left_out_whole() {
    // `%u0_1` and `u0:1` both become the symbol `cliff_m1_u0_1`: the clash
    // shows only when module 1 is defined in the object, after module 0 was.
    let clash = "
function %u0_1() {
block0:
    return
}

function u0:1() {
block0:
    return
}
";
    let good = "
function %ok() {
block0:
    return
}
";
    let output = temp_path("clash.o");
    let mut driver = Driver::start();
    let answer = driver.request(json!({
        "id": 1, "op": "compile", "target": "x86_64", "output": output,
        "modules": [good, clash, good],
        "entries": [{"module": 0, "func": "%ok"}, {"module": 1, "func": "u0:1"}, {"module": 2, "func": "%ok"}],
    }));
    assert_eq!(answer["status"], "ok", "{answer}");
    let modules = answer["modules"].as_array().unwrap();
    assert_eq!(modules[1]["status"], "error", "{answer}");
    assert_eq!(modules[1]["phase"], "object", "{answer}");
    assert!(
        modules[1]["message"]
            .as_str()
            .unwrap()
            .contains("cliff_m1_u0_1"),
        "{answer}"
    );
    assert_eq!(modules[0]["status"], "ok", "{answer}");
    assert_eq!(modules[2]["status"], "ok", "{answer}");

    let bytes = std::fs::read(&output).unwrap();
    let file = object::File::parse(&*bytes).unwrap();
    let names: Vec<&str> = file
        .symbols()
        .filter_map(|s| s.name().ok())
        .filter(|n| n.starts_with("cliff_m"))
        .collect();
    assert_eq!(names, ["cliff_m0_ok", "cliff_m2_ok"]);
    let table = file.symbol_by_name("cliff_entries").unwrap();
    let section = file
        .section_by_index(table.section_index().unwrap())
        .unwrap();
    let targets: Vec<(u64, String)> = section
        .relocations()
        .map(|(offset, reloc)| {
            (
                offset - (table.address() - section.address()),
                target_name(&file, reloc.target()),
            )
        })
        .collect();
    assert_eq!(
        targets,
        [
            (0, "cliff_m0_ok".to_string()),
            (16, "cliff_m2_ok".to_string())
        ]
    );
    driver.finish();
}

#[test]
fn null_lists_mean_empty() {
    // Go's encoding/json writes a nil slice as null.
    let no_args = "
function %seven() -> i8 {
block0:
    v0 = iconst.i8 7
    return v0
}
";
    let mut driver = Driver::start();
    let output = temp_path("nulls.o");
    let cases = [
        json!({"id": 1, "op": "compile", "target": "x86_64", "flags": null, "output": output, "modules": [no_args], "entries": null}),
        json!({"id": 2, "op": "interpret", "clif": no_args, "func": "%seven", "args": null, "fuel": null}),
        json!({"id": 3, "op": "verify", "clif": no_args, "target": null, "flags": null}),
        json!({"id": 4, "op": "optimize", "clif": no_args, "target": "aarch64", "flags": null}),
    ];
    for request in cases {
        let answer = driver.request(request);
        assert_eq!(answer["status"], "ok", "{answer}");
    }
    let answer =
        driver.request(json!({"id": 5, "op": "interpret", "clif": no_args, "func": "%seven"}));
    assert_eq!(
        answer["results"],
        json!([{"type": "i8", "hex": "07"}]),
        "{answer}"
    );
    let answer = driver.request(
        json!({"id": 6, "op": "compile", "target": "x86_64", "output": output, "modules": null}),
    );
    assert!(
        answer["message"].as_str().unwrap().contains("no modules"),
        "{answer}"
    );
    driver.finish();
}

#[test]
fn importing_a_symbol_the_object_defines_fails_the_importer() {
    // Module 0 calls module 1's function by its object symbol. Modules are
    // independent: module 0 fails, module 1 (defined later) must not.
    let importer = "
function %f() system_v {
    fn0 = %cliff_m1_g() system_v
block0:
    call fn0()
    return
}
";
    let defines = "
function %g() system_v {
block0:
    return
}
";
    let mut driver = Driver::start();
    let answer = driver.request(json!({
        "id": 1, "op": "compile", "target": "x86_64", "output": temp_path("import-clash.o"),
        "modules": [importer, defines],
    }));
    let modules = answer["modules"].as_array().unwrap();
    assert_eq!(modules[0]["status"], "error", "{answer}");
    assert_eq!(modules[0]["phase"], "object", "{answer}");
    assert_eq!(modules[1]["status"], "ok", "{answer}");
    driver.finish();
}

/// `features` lists what this release knows, and what it lists is what the
/// driver accepts: every opcode is a CLIF opcode name, every ISA flag and
/// preset can be given in `target`, every shared enum value in `flags`.
#[test]
fn features_lists_opcodes_and_settings_the_driver_accepts() {
    let mut driver = Driver::start();
    let version = driver_version(&mut driver);
    let answer = driver.request(json!({"id": 1, "op": "features"}));
    assert_eq!(answer["status"], "ok", "{answer}");
    assert_eq!(answer["cranelift"], version.as_str());
    let strings = |v: &Value| -> Vec<String> {
        v.as_array()
            .unwrap_or_else(|| panic!("not a list: {v}"))
            .iter()
            .map(|s| s.as_str().unwrap().to_string())
            .collect()
    };
    let opcodes = strings(&answer["opcodes"]);
    assert!(
        opcodes.windows(2).all(|w| w[0] < w[1]),
        "sorted: {opcodes:?}"
    );
    assert!(opcodes.len() > 150, "{} opcodes", opcodes.len());
    for op in [
        "iadd",
        "udiv",
        "call",
        "return",
        "brif",
        "fma",
        "atomic_rmw",
    ] {
        assert!(opcodes.contains(&op.to_string()), "{op} missing");
    }

    let check_settings = |list: &Value| -> Vec<(String, String, Vec<String>)> {
        let list = list.as_array().unwrap();
        let names: Vec<&str> = list.iter().map(|s| s["name"].as_str().unwrap()).collect();
        assert!(names.windows(2).all(|w| w[0] < w[1]), "sorted: {names:?}");
        list.iter()
            .map(|s| {
                let kind = s["kind"].as_str().unwrap().to_string();
                assert!(
                    ["bool", "enum", "num", "preset"].contains(&kind.as_str()),
                    "{s}"
                );
                assert_eq!(kind == "enum", s.get("values").is_some(), "{s}");
                let values = s.get("values").map(strings).unwrap_or_default();
                (s["name"].as_str().unwrap().to_string(), kind, values)
            })
            .collect()
    };
    let shared = check_settings(&answer["shared_settings"]);
    let opt = shared
        .iter()
        .find(|s| s.0 == "opt_level")
        .expect("opt_level");
    assert_eq!(opt.2, ["none", "speed", "speed_and_size"]);
    let mut id = 10;
    for (name, kind, values) in &shared {
        let settings: Vec<String> = match kind.as_str() {
            "enum" => values.iter().map(|v| format!("{name}={v}")).collect(),
            "bool" => vec![format!("{name}=true"), format!("{name}=false")],
            _ => continue,
        };
        for setting in settings {
            id += 1;
            let answer = driver.request(json!({"id": id, "op": "verify", "clif": MODULE_A,
                "target": "x86_64", "flags": [setting]}));
            assert_eq!(answer["status"], "ok", "{setting}: {answer}");
        }
    }

    let isas = answer["isa_flags"].as_object().unwrap();
    let names: Vec<&String> = isas.keys().collect();
    assert_eq!(names, ["aarch64", "riscv64", "s390x", "x86_64"]);
    for (isa, flags) in isas {
        let flags = check_settings(flags);
        assert!(flags.iter().any(|f| f.1 == "bool"), "{isa}: no bool flags");
        for (name, kind, _) in &flags {
            if kind != "bool" && kind != "preset" {
                continue;
            }
            id += 1;
            let target = format!("{isa} {name}");
            let answer = driver.request(json!({"id": id, "op": "verify", "clif": MODULE_A,
                "target": target}));
            assert_eq!(answer["status"], "ok", "{target}: {answer}");
        }
    }
    let x86 = check_settings(&isas["x86_64"]);
    assert!(x86.contains(&("has_avx".into(), "bool".into(), vec![])));
    assert!(x86.contains(&("skylake".into(), "preset".into(), vec![])));
    driver.finish();
}
