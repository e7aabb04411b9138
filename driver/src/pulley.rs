//! The `compile` op's second half for Pulley: cranelift-object has no
//! Pulley format, so the driver lays the batch out itself and writes a
//! Pulley batch file (PROTOCOL.md, "Pulley batch file"), which cliff's Go
//! side loads and cliff-pulley runs.
//!
//! Every function's bytecode is placed in one image, module after module;
//! the pc-relative relocations between functions (calls, near function
//! addresses) are resolved here, since they do not depend on where the
//! image is loaded. What does depend on it (the absolute `func_addr` and
//! `symbol` values, Abs8 or Abs4) stays in the file as relocations, and so
//! does every use of a name the batch does not define (an import, a
//! libcall, a host call): the loader decides what to do with those.

use crate::compat::{self, PulleyPcRel};
use crate::compile::CompiledModule;
use crate::names::{IMPORT, LOCAL_FUNCTION};
use crate::object::Entry;
use crate::protocol::Failure;
use cranelift_codegen::binemit::Reloc;
use cranelift_codegen::ir::{Endianness, ExternalName};
use cranelift_codegen::isa::OwnedTargetIsa;

/// The file's first bytes.
pub const MAGIC: &[u8; 8] = b"CLIFPULY";
/// The layout of this file, after the magic.
pub const VERSION: u32 = 1;
/// Flags of the header.
pub const FLAG_POINTER32: u32 = 1;
pub const FLAG_BIG_ENDIAN: u32 = 2;
/// The image's first bytes hold no function, so that offset 0 can mean
/// "no entry".
const RESERVED: usize = 16;

/// Relocation kinds in the file.
const KIND_ABS8: u32 = 1;
const KIND_ABS4: u32 = 2;
/// `call_indirect_host`: the loader cannot resolve it; the runner reports
/// the call (cliff-pulley provides no host functions).
const KIND_HOST_CALL: u32 = 3;
/// Relocation targets: an offset in the image, or a name of the names table.
const TARGET_IMAGE: u32 = 0;
const TARGET_NAME: u32 = 1;

struct FileReloc {
    offset: u32,
    kind: u32,
    addend: i64,
    target_kind: u32,
    target: u32,
}

/// The batch being laid out.
#[derive(Default)]
struct Batch {
    image: Vec<u8>,
    /// `(offset, size, symbol)`.
    functions: Vec<(u32, u32, String)>,
    relocs: Vec<FileReloc>,
    names: Vec<String>,
}

impl Batch {
    fn name_index(&mut self, name: String) -> u32 {
        match self.names.iter().position(|n| *n == name) {
            Some(i) => i as u32,
            None => {
                self.names.push(name);
                (self.names.len() - 1) as u32
            }
        }
    }
}

/// Builds the batch file from the modules that compiled (`None` for those
/// that did not). Returns its bytes and, per module, the failure that kept
/// it out (as `object::build_object` does).
pub fn build_batch(
    isa: &OwnedTargetIsa,
    modules: &[Option<&CompiledModule>],
    entries: &[Entry],
) -> Result<(Vec<u8>, Vec<Option<Failure>>), String> {
    let mut batch = Batch {
        image: vec![0; RESERVED],
        ..Batch::default()
    };
    let mut left_out: Vec<Option<Failure>> = modules.iter().map(|_| None).collect();
    // Per module, the image offset of each placed function.
    let mut offsets: Vec<Vec<u32>> = vec![Vec::new(); modules.len()];
    for (k, module) in modules.iter().enumerate() {
        let Some(module) = module else { continue };
        let mark = (
            batch.image.len(),
            batch.functions.len(),
            batch.relocs.len(),
            batch.names.len(),
        );
        let placed = crate::panics::catch(|| place_module(&mut batch, module))
            .map_err(Failure::Crash)
            .and_then(|r| r.map_err(Failure::Error));
        match placed {
            Ok(o) => offsets[k] = o,
            Err(failure) => {
                // Undo the module: nothing of it stays in the file.
                batch.image.truncate(mark.0);
                batch.functions.truncate(mark.1);
                batch.relocs.truncate(mark.2);
                batch.names.truncate(mark.3);
                left_out[k] = Some(failure);
            }
        }
    }
    let entry_offsets: Vec<u32> = entries
        .iter()
        .map(|e| {
            let Some(Some(module)) = modules.get(e.module) else {
                return 0;
            };
            if left_out[e.module].is_some() {
                return 0;
            }
            module
                .functions
                .iter()
                .position(|f| f.name == e.func)
                .and_then(|p| offsets[e.module].get(p).copied())
                .unwrap_or(0)
        })
        .collect();
    let mut flags = 0;
    if isa.pointer_bytes() == 4 {
        flags |= FLAG_POINTER32;
    }
    if isa.endianness() == Endianness::Big {
        flags |= FLAG_BIG_ENDIAN;
    }
    Ok((encode(&batch, flags, &entry_offsets)?, left_out))
}

/// Places the module's functions at the end of the image and resolves
/// their pc-relative relocations; returns each function's offset.
fn place_module(batch: &mut Batch, module: &CompiledModule) -> Result<Vec<u32>, String> {
    let mut offsets = Vec::with_capacity(module.functions.len());
    for f in &module.functions {
        let align = f.code.alignment.max(1) as usize;
        let start = batch.image.len().next_multiple_of(align);
        batch.image.resize(start, 0);
        batch.image.extend_from_slice(&f.code.bytes);
        if batch.image.len() > u32::MAX as usize / 2 {
            return Err("the batch's image is over 2 GiB".to_string());
        }
        offsets.push(start as u32);
        batch
            .functions
            .push((start as u32, f.code.bytes.len() as u32, f.symbol.clone()));
    }
    for (f, &start) in module.functions.iter().zip(&offsets) {
        for r in &f.code.relocs {
            let at = start + r.offset;
            let name = compat::reloc_external_name(r).ok_or_else(|| {
                format!(
                    "{}: relocation {} to a label, which a Pulley batch does not resolve",
                    f.name, r.kind
                )
            })?;
            // The target: a function of the module (its image offset) or
            // a name the batch does not define.
            let target = match name {
                ExternalName::User(reference) => {
                    let user = &f.func.params.user_named_funcs()[*reference];
                    match user.namespace {
                        LOCAL_FUNCTION => {
                            let position = module
                                .outcomes
                                .get(user.index as usize)
                                .and_then(|o| o.placed)
                                .ok_or_else(|| {
                                    format!(
                                        "{} refers to function {} of its module, which is not in the batch",
                                        f.name, user.index
                                    )
                                })?;
                            Ok(offsets[position])
                        }
                        IMPORT => {
                            let import = &module.imports[user.index as usize];
                            if import.tls {
                                return Err(format!(
                                    "{}: thread-local symbol {}: Pulley has no thread-local storage",
                                    f.name, import.symbol
                                ));
                            }
                            Err(import.symbol.clone())
                        }
                        _ => unreachable!("names.rs only creates namespaces 0 and 1"),
                    }
                }
                ExternalName::LibCall(libcall) => Err(format!("{libcall}")),
                other => Err(format!("{}", other.display(None))),
            };
            if let Some(how) = compat::pulley_pc_rel(r.kind) {
                let Ok(target) = target else {
                    return Err(format!(
                        "{}: pc-relative reference to {}, which is not a function of the module",
                        f.name,
                        target.unwrap_err()
                    ));
                };
                patch_pc_rel(&mut batch.image, at, target, r.addend, how)?;
                continue;
            }
            let kind = match r.kind {
                Reloc::Abs8 => KIND_ABS8,
                Reloc::Abs4 => KIND_ABS4,
                Reloc::PulleyCallIndirectHost => KIND_HOST_CALL,
                other => {
                    return Err(format!(
                        "{}: relocation {other}, which a Pulley batch does not know",
                        f.name
                    ))
                }
            };
            let (target_kind, target) = match target {
                Ok(offset) => (TARGET_IMAGE, offset),
                Err(name) => (TARGET_NAME, batch.name_index(name)),
            };
            batch.relocs.push(FileReloc {
                offset: at,
                kind,
                addend: r.addend,
                target_kind,
                target,
            });
        }
    }
    Ok(offsets)
}

/// Resolves a pc-relative field (4 bytes, little-endian as all Pulley
/// immediates are) at image offset `at`.
fn patch_pc_rel(
    image: &mut [u8],
    at: u32,
    target: u32,
    addend: i64,
    how: PulleyPcRel,
) -> Result<(), String> {
    let at = at as usize;
    let field: &mut [u8; 4] = image
        .get_mut(at..at + 4)
        .and_then(|s| s.try_into().ok())
        .ok_or_else(|| format!("pc-relative relocation at {at} outside the code"))?;
    let delta = i64::from(target) + addend - at as i64;
    let value = match how {
        PulleyPcRel::Replace => delta,
        PulleyPcRel::Add => i64::from(i32::from_le_bytes(*field)) + delta,
    };
    let value =
        i32::try_from(value).map_err(|_| format!("pc-relative offset {value} out of range"))?;
    *field = value.to_le_bytes();
    Ok(())
}

/// The file's bytes (PROTOCOL.md).
fn encode(batch: &Batch, flags: u32, entries: &[u32]) -> Result<Vec<u8>, String> {
    let count = |n: usize, what: &str| {
        u32::try_from(n).map_err(|_| format!("{n} {what}: too many for a Pulley batch"))
    };
    let mut out = Vec::with_capacity(batch.image.len() + 64);
    out.extend_from_slice(MAGIC);
    for v in [
        VERSION,
        flags,
        count(batch.image.len(), "image bytes")?,
        count(batch.functions.len(), "functions")?,
        count(batch.relocs.len(), "relocations")?,
        count(batch.names.len(), "names")?,
        count(entries.len(), "entries")?,
        0,
    ] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out.extend_from_slice(&batch.image);
    for (offset, size, symbol) in &batch.functions {
        out.extend_from_slice(&offset.to_le_bytes());
        out.extend_from_slice(&size.to_le_bytes());
        out.extend_from_slice(&(symbol.len() as u32).to_le_bytes());
        out.extend_from_slice(symbol.as_bytes());
    }
    for r in &batch.relocs {
        out.extend_from_slice(&r.offset.to_le_bytes());
        out.extend_from_slice(&r.kind.to_le_bytes());
        out.extend_from_slice(&r.addend.to_le_bytes());
        out.extend_from_slice(&r.target_kind.to_le_bytes());
        out.extend_from_slice(&r.target.to_le_bytes());
    }
    for name in &batch.names {
        out.extend_from_slice(&(name.len() as u32).to_le_bytes());
        out.extend_from_slice(name.as_bytes());
    }
    for e in entries {
        out.extend_from_slice(&e.to_le_bytes());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pc_rel_replace_and_add() {
        let mut image = vec![0u8; 16];
        patch_pc_rel(&mut image, 4, 12, -1, PulleyPcRel::Replace).unwrap();
        assert_eq!(i32::from_le_bytes(image[4..8].try_into().unwrap()), 7);
        image[8..12].copy_from_slice(&1i32.to_le_bytes());
        patch_pc_rel(&mut image, 8, 0, 0, PulleyPcRel::Add).unwrap();
        assert_eq!(i32::from_le_bytes(image[8..12].try_into().unwrap()), -7);
        assert!(patch_pc_rel(&mut image, 14, 0, 0, PulleyPcRel::Add).is_err());
    }
}
