//! crdump prints what cranelift-codegen 0.135 itself knows about opcodes and
//! types, as line-oriented text that lib/ir's tests compare the opcode table
//! and the derived-type functions with:
//!
//!     cargo run --offline -q > ../cranelift_opcodes.txt
//!     cargo run --offline -q -- types > ../cranelift_types.txt
//!
//! It reaches cranelift-codegen only through cranelift-reader, so that it
//! builds offline from the crates already in ~/.cargo (Cargo.lock pins
//! them). Opcode and Type cannot be named from here: values of both come
//! from a parsed probe function, and the other opcodes are the same
//! one-byte enum with discriminants 1..=NUM_OPCODES.
//!
//! Operand constraints are private, so each one is recovered by probing:
//! resolve it for every member of the controlling type set and report every
//! derivation that explains all the answers (several may, e.g. `same` and
//! `lane_of` when the set holds scalars only).
//!
//! Opcode lines:
//!
//!     op NAME format=F polymorphic=B use_typevar_operand=B requires_typevar_operand=B results=N args=N flags=F,F|-
//!       ctrl ints=M,floats=M,lanes=M,dynlanes=M     (polymorphic only; lib/ir TypeSet bit layout)
//!       out|in INDEX KIND|KIND...                    (fixed value results, then fixed value operands)
//!
//! where KIND is a derivation (same, lane_of, as_truthy, half_width,
//! double_width, split_lanes, merge_lanes, dynamic_to_vector, narrower,
//! wider), fixed:TYPE, free:SET, or panics:TYPE,... listing controlling
//! types for which Cranelift itself panics resolving the constraint.

use std::panic;

/// Number of opcodes in cranelift-codegen-meta 0.135.0 (`Inst::new(` in
/// shared/instructions.rs). Opcodes are numbered from 1.
const NUM_OPCODES: u8 = 163;

const PROBE: &str = "function %probe(i8, i16, i32, i64, i128, f16, f32, f64, f128) {
block0(v0: i8, v1: i16, v2: i32, v3: i64, v4: i128, v5: f16, v6: f32, v7: f64, v8: f128):
    return
}";

/// Derivations probed, named as in opcodes.txt (`same` is no derivation).
const DERIVES: [&str; 8] = [
    "same",
    "lane_of",
    "as_truthy",
    "half_width",
    "double_width",
    "split_lanes",
    "merge_lanes",
    "dynamic_to_vector",
];

/// A type set in Cranelift's bit layout: ints and floats by log2 lane bits,
/// lanes and dynamic lanes by log2 lane count.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Set {
    lanes: u32,
    ints: u32,
    floats: u32,
    dyn_lanes: u32,
}

impl Set {
    /// Spelled in the bit layout of lib/ir's TypeSet.
    fn show(self) -> String {
        format!(
            "ints={:#x},floats={:#x},lanes={:#x},dynlanes={:#x}",
            self.ints >> 3,
            self.floats >> 4,
            self.lanes,
            self.dyn_lanes
        )
    }
}

/// Reads the four bit sets out of the Debug text of a resolved `Free`
/// constraint (ScalarBitSet prints as `ScalarBitSet<u16> { 0: true, ... }`).
fn parse_set(debug: &str) -> Set {
    let mut masks = Vec::new();
    for part in debug.split("ScalarBitSet<").skip(1) {
        let body = &part[part.find('{').unwrap() + 1..part.find('}').unwrap()];
        let mut m = 0u32;
        for item in body.split(',') {
            let (k, v) = item.split_once(':').unwrap();
            if v.trim() == "true" {
                m |= 1 << k.trim().parse::<u32>().unwrap();
            }
        }
        masks.push(m);
    }
    assert_eq!(masks.len(), 4, "unexpected ValueTypeSet debug form: {debug}");
    Set {
        lanes: masks[0],
        ints: masks[1],
        floats: masks[2],
        dyn_lanes: masks[3],
    }
}

fn main() {
    // Probing panics on purpose; keep stderr quiet unless asked.
    if std::env::var_os("CRDUMP_PANICS").is_none() {
        panic::set_hook(Box::new(|_| {}));
    }
    let funcs = cranelift_reader::parse_functions(PROBE).expect("probe parses");
    let func = &funcs[0];
    let scalars: Vec<_> = func.signature.params.iter().map(|p| p.value_type).collect();
    let entry = func.layout.entry_block().unwrap();
    let proto = func.dfg.insts[func.layout.first_inst(entry).unwrap()].opcode();
    assert_eq!(std::mem::size_of_val(&proto), 1);

    // Every type Cranelift can represent: scalars, fixed vectors, and the
    // dynamic vectors of at most 256 bits.
    let mut all = Vec::new();
    for &l in &scalars {
        for log2 in 0..=8 {
            if let Some(t) = l.by(1 << log2) {
                all.push(t);
                if t.is_vector() {
                    if let Some(d) = t.vector_to_dynamic() {
                        all.push(d);
                    }
                }
            }
        }
    }

    // `if false { scalars[0] } else { t }` pins a closure parameter to the
    // unnameable Type so that its methods resolve.
    let derive = |name: &str, t| {
        let t = if false { scalars[0] } else { t };
        panic::catch_unwind(|| match name {
            "same" => Some(t),
            "lane_of" => Some(t.lane_of()),
            "as_truthy" => Some(t.as_truthy()),
            "half_width" => t.half_width(),
            "double_width" => t.double_width(),
            // Operand constraints split and merge the fixed form of a
            // dynamic type (OperandConstraint::resolve).
            "split_lanes" if t.is_dynamic_vector() => {
                t.dynamic_to_vector()?.split_lanes()?.vector_to_dynamic()
            }
            "split_lanes" => t.split_lanes(),
            "merge_lanes" if t.is_dynamic_vector() => {
                t.dynamic_to_vector()?.merge_lanes()?.vector_to_dynamic()
            }
            "merge_lanes" => t.merge_lanes(),
            "dynamic_to_vector" if t.is_dynamic_vector() => t.dynamic_to_vector(),
            _ => None,
        })
        .ok()
        .flatten()
    };
    // The scalar types of ctrl's kind strictly narrower (wider) than ctrl, as
    // Cranelift's Narrower and Wider constraints resolve.
    let relative = |ctrl, wider: bool| -> Set {
        let ctrl = if false { scalars[0] } else { ctrl };
        let bits = ctrl.log2_lane_bits();
        let range = |lo: u32| -> u32 {
            (lo..8)
                .filter(|&b| if wider { b > bits } else { b < bits })
                .fold(0, |m, b| m | 1 << b)
        };
        Set {
            lanes: 1,
            ints: if ctrl.is_int() { range(3) } else { 0 },
            floats: if ctrl.is_float() { range(4) } else { 0 },
            dyn_lanes: 0,
        }
    };
    // Cranelift's Display spells dynamic types with the Debug form of the
    // lane ("types::I32x4xN") and panics on the invalid types some derivations
    // of dynamic types produce; print `i32x4xN` and `?`.
    let show = |t| -> String {
        let t = if false { scalars[0] } else { t };
        panic::catch_unwind(|| {
            if t.is_dynamic_vector() {
                format!("{}x{}xN", t.lane_type(), t.min_lane_count())
            } else {
                t.to_string()
            }
        })
        .unwrap_or("?".to_string())
    };

    if std::env::args().nth(1).as_deref() == Some("types") {
        println!("# Derived types as cranelift-codegen 0.135.0 computes them; split_lanes and");
        println!("# merge_lanes as operand constraints resolve them (also on dynamic vectors).");
        println!("# `-` means the derivation does not exist, `?` that Cranelift yields an");
        println!("# invalid type. Generated by testdata/crdump; do not edit.");
        println!("# type lane_of as_truthy as_int half_width double_width split_lanes merge_lanes dynamic_to_vector lane_bits lanes bits");
        for &t in &all {
            let mut cols = vec![show(t)];
            for d in [
                "lane_of",
                "as_truthy",
                "as_int",
                "half_width",
                "double_width",
                "split_lanes",
                "merge_lanes",
                "dynamic_to_vector",
            ] {
                let r = if d == "as_int" {
                    panic::catch_unwind(|| t.as_int()).ok()
                } else {
                    derive(d, t)
                };
                cols.push(r.map(|u| show(u)).unwrap_or("-".to_string()));
            }
            let dynamic = t.is_dynamic_vector();
            cols.push(t.lane_bits().to_string());
            cols.push(if dynamic { t.min_lane_count() } else { t.lane_count() }.to_string());
            cols.push(if dynamic { t.min_bits() } else { t.bits() }.to_string());
            println!("{}", cols.join(" "));
        }
        return;
    }

    println!("# What cranelift-codegen 0.135.0 says about each opcode, in its order.");
    println!("# Generated by testdata/crdump (format in its src/main.rs); do not edit.");
    for i in 1..=NUM_OPCODES {
        // The `i == 0` arm never runs; it gives `op` the type of `proto`.
        // SAFETY: Opcode is a fieldless #[repr(u8)] enum numbered 1..=NUM_OPCODES.
        let op = if i == 0 {
            proto
        } else {
            unsafe { std::mem::transmute_copy::<u8, _>(&i) }
        };
        let c = op.constraints();
        let flags: Vec<&str> = [
            (op.is_terminator(), "terminator"),
            (op.is_branch(), "branch"),
            (op.is_call(), "call"),
            (op.is_return(), "return"),
            (op.can_trap(), "can_trap"),
            (op.can_load(), "can_load"),
            (op.can_store(), "can_store"),
            (op.other_side_effects(), "side_effects"),
            (op.side_effects_idempotent(), "idempotent"),
        ]
        .into_iter()
        .filter(|(on, _)| *on)
        .map(|(_, name)| name)
        .collect();
        println!(
            "op {} format={:?} polymorphic={} use_typevar_operand={} requires_typevar_operand={} results={} args={} flags={}",
            op,
            op.format(),
            c.is_polymorphic(),
            c.use_typevar_operand(),
            c.requires_typevar_operand(),
            c.num_fixed_results(),
            c.num_fixed_value_arguments(),
            if flags.is_empty() { "-".to_string() } else { flags.join(",") },
        );
        let ctrls: Vec<_> = match c.ctrl_typeset() {
            Some(s) => {
                let set = Set {
                    lanes: s.lanes.0 as u32,
                    ints: s.ints.0 as u32,
                    floats: s.floats.0 as u32,
                    dyn_lanes: s.dynamic_lanes.0 as u32,
                };
                println!("  ctrl {}", set.show());
                all.iter().copied().filter(|&t| s.contains(t)).collect()
            }
            // Monomorphic constraints ignore the controlling type.
            None => vec![scalars[0]],
        };
        let nres = c.num_fixed_results();
        for n in 0..nres + c.num_fixed_value_arguments() {
            let answers: Vec<Option<String>> = ctrls
                .iter()
                .map(|&t| {
                    panic::catch_unwind(|| {
                        if n < nres {
                            format!("Bound({:?})", c.result_type(n, t))
                        } else {
                            format!("{:?}", c.value_argument_constraint(n - nres, t))
                        }
                    })
                    .ok()
                })
                .collect();
            // Cranelift panics resolving some constraints for some members
            // of the controlling set (merge_lanes of i8x2xN); list those
            // members and probe with the others.
            let panics: Vec<String> = ctrls
                .iter()
                .zip(&answers)
                .filter(|(_, a)| a.is_none())
                .map(|(&t, _)| show(t))
                .collect();
            let ctrls: Vec<_> = ctrls
                .iter()
                .zip(&answers)
                .filter(|(_, a)| a.is_some())
                .map(|(&t, _)| t)
                .collect();
            let answers: Vec<String> = answers.into_iter().flatten().collect();

            let mut kinds = Vec::new();
            if c.is_polymorphic() {
                for d in DERIVES {
                    let explains = ctrls.iter().zip(&answers).all(|(&t, a)| {
                        derive(d, t).map(|u| format!("Bound({u:?})")).as_deref() == Some(a.as_str())
                    });
                    if explains {
                        kinds.push(d.to_string());
                    }
                }
                for (wider, name) in [(false, "narrower"), (true, "wider")] {
                    let explains = ctrls.iter().zip(&answers).all(|(&t, a)| {
                        a.starts_with("Free(") && parse_set(a) == relative(t, wider)
                    });
                    if explains {
                        kinds.push(name.to_string());
                    }
                }
            }
            if answers.iter().all(|a| *a == answers[0]) {
                let a = &answers[0];
                if a.starts_with("Free(") {
                    kinds.push(format!("free:{}", parse_set(a).show()));
                } else {
                    let fixed = all
                        .iter()
                        .find(|&&t| format!("Bound({t:?})") == *a)
                        .map_or("?".to_string(), |&t| show(t));
                    kinds.push(format!("fixed:{fixed}"));
                }
            }
            if kinds.is_empty() {
                kinds.push("UNKNOWN".to_string());
            }
            if !panics.is_empty() {
                kinds.push(format!("panics:{}", panics.join(",")));
            }
            let (dir, idx) = if n < nres { ("out", n) } else { ("in", n - nres) };
            println!("  {dir} {idx} {}", kinds.join("|"));
        }
    }
}
