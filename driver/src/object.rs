//! The `compile` op, second half: placing compiled modules into one ELF
//! object with cranelift-object, plus the `cliff_entries` table.
//!
//! Defining a module can still fail (a symbol clash, an unsupported
//! relocation, a panic inside cranelift-object). The object is then built
//! again from scratch without that module, so that a failed module never
//! leaves half-defined state behind.

use crate::compile::CompiledModule;
use crate::names::{IMPORT, LOCAL_FUNCTION};
use crate::panics;
use crate::protocol::Failure;
use cranelift_codegen::ir::Endianness;
use cranelift_codegen::isa::OwnedTargetIsa;
use cranelift_module::{
    default_libcall_names, DataDescription, DataId, FuncId, Linkage, Module, ModuleReloc,
    ModuleRelocTarget,
};
use cranelift_object::{ObjectBuilder, ObjectModule};
use std::collections::HashSet;

/// An entry of the `cliff_entries` table: function `func` (display name) of
/// module `module`.
#[derive(serde::Deserialize)]
pub struct Entry {
    pub module: usize,
    pub func: String,
}

/// Builds the object from the modules that compiled (`None` for those that
/// did not). Returns the ELF bytes and, per module, the failure that kept it
/// out of the object (always `None` for modules that were `None` already).
pub fn build_object(
    isa: &OwnedTargetIsa,
    modules: &[Option<&CompiledModule>],
    entries: &[Entry],
) -> Result<(Vec<u8>, Vec<Option<Failure>>), String> {
    let mut left_out: Vec<Option<Failure>> = modules.iter().map(|_| None).collect();
    loop {
        let included = |k: usize| modules[k].is_some() && left_out[k].is_none();
        let builder = ObjectBuilder::new(isa.clone(), "cliff", default_libcall_names())
            .map_err(|e| format!("object: {e}"))?;
        let mut object = ObjectModule::new(builder);
        let mut func_ids: Vec<Vec<FuncId>> = vec![Vec::new(); modules.len()];
        // Symbols the object defines; a module may not import one of them
        // (a data import would clash with the later function definition, and
        // the blame would fall on the defining module).
        let mut defined: HashSet<&str> = HashSet::from(["cliff_entries", "cliff_entry_count"]);
        for (k, module) in modules.iter().enumerate() {
            if let Some(module) = module.filter(|_| included(k)) {
                defined.extend(module.functions.iter().map(|f| f.symbol.as_str()));
            }
        }
        let mut failed = None;
        for (k, module) in modules.iter().enumerate() {
            let Some(module) = module.filter(|_| included(k)) else {
                continue;
            };
            match panics::catch(|| define_module(&mut object, module, &defined)) {
                Ok(Ok(ids)) => func_ids[k] = ids,
                Ok(Err(message)) => failed = Some((k, Failure::Error(message))),
                Err(crash) => failed = Some((k, Failure::Crash(crash))),
            }
            if failed.is_some() {
                break;
            }
        }
        if let Some((k, failure)) = failed {
            left_out[k] = Some(failure);
            continue;
        }
        let bytes = panics::catch(|| {
            define_entry_table(&mut object, isa, modules, &func_ids, entries)?;
            object.finish().emit().map_err(|e| format!("object: {e}"))
        })
        .map_err(|c| format!("object: panic at {}: {}", c.location, c.message))??;
        return Ok((bytes, left_out));
    }
}

/// Declares and defines the module's functions and imports; returns the
/// FuncId of each function, in module order.
fn define_module(
    object: &mut ObjectModule,
    module: &CompiledModule,
    defined: &HashSet<&str>,
) -> Result<Vec<FuncId>, String> {
    let mut func_ids = Vec::with_capacity(module.functions.len());
    for f in &module.functions {
        let id = object
            .declare_function(&f.symbol, Linkage::Export, &f.func.signature)
            .map_err(|e| format!("declare {}: {e}", f.symbol))?;
        func_ids.push(id);
    }
    // Imports are declared when a relocation uses them, so that a reference
    // the optimiser removed leaves no undefined symbol behind. They are
    // declared as data even when called: data declarations carry no
    // signature, so two modules may import `memcpy` with different
    // signatures, and an undefined ELF symbol has no type anyway.
    let mut import_ids: Vec<Option<DataId>> = vec![None; module.imports.len()];
    for (f, &id) in module.functions.iter().zip(&func_ids) {
        let mut relocs: Vec<ModuleReloc> = Vec::with_capacity(f.code.relocs.len());
        for r in &f.code.relocs {
            let mut reloc = ModuleReloc::from_mach_reloc(r, &f.func, id);
            if let ModuleRelocTarget::User { namespace, index } = reloc.name {
                let index = index as usize;
                reloc.name = match namespace {
                    LOCAL_FUNCTION => match module.outcomes.get(index).and_then(|o| o.placed) {
                        Some(position) => func_ids[position].into(),
                        // compile.rs leaves out every function that refers
                        // to one not placed; this is the net.
                        None => {
                            return Err(format!(
                                "{} refers to function {index} of its module, which is not in the object",
                                f.name
                            ))
                        }
                    },
                    IMPORT => match import_ids[index] {
                        Some(data_id) => data_id.into(),
                        None => {
                            let import = &module.imports[index];
                            if defined.contains(import.symbol.as_str()) {
                                return Err(format!(
                                    "import {}: the object defines that symbol",
                                    import.symbol
                                ));
                            }
                            let data_id = object
                                .declare_data(&import.symbol, Linkage::Import, false, import.tls)
                                .map_err(|e| format!("import {}: {e}", import.symbol))?;
                            import_ids[index] = Some(data_id);
                            data_id.into()
                        }
                    },
                    _ => unreachable!("names.rs only creates namespaces 0 and 1"),
                };
            }
            relocs.push(reloc);
        }
        object
            .define_function_bytes(id, f.code.alignment, &f.code.bytes, &relocs)
            .map_err(|e| format!("define {}: {e}", f.symbol))?;
    }
    Ok(func_ids)
}

/// Defines `cliff_entry_count` (a target-endian u64) and `cliff_entries` (one
/// pointer per entry, 0 when the module failed or has no such function).
fn define_entry_table(
    object: &mut ObjectModule,
    isa: &OwnedTargetIsa,
    modules: &[Option<&CompiledModule>],
    func_ids: &[Vec<FuncId>],
    entries: &[Entry],
) -> Result<(), String> {
    let err = |e: cranelift_module::ModuleError| format!("entry table: {e}");
    let count = entries.len() as u64;
    let count_bytes = match isa.endianness() {
        Endianness::Little => count.to_le_bytes(),
        Endianness::Big => count.to_be_bytes(),
    };
    let count_id = object
        .declare_data("cliff_entry_count", Linkage::Export, false, false)
        .map_err(err)?;
    let mut count_data = DataDescription::new();
    count_data.define(Box::new(count_bytes));
    count_data.set_align(8);
    object.define_data(count_id, &count_data).map_err(err)?;

    let pointer = usize::from(isa.pointer_bytes());
    let table_id = object
        .declare_data("cliff_entries", Linkage::Export, false, false)
        .map_err(err)?;
    let mut table = DataDescription::new();
    table.define(vec![0u8; pointer * entries.len()].into_boxed_slice());
    table.set_align(pointer as u64);
    for (i, entry) in entries.iter().enumerate() {
        let Some(Some(module)) = modules.get(entry.module) else {
            continue;
        };
        let Some(position) = module.functions.iter().position(|f| f.name == entry.func) else {
            continue;
        };
        let Some(&id) = func_ids[entry.module].get(position) else {
            continue;
        };
        let func_ref = object.declare_func_in_data(id, &mut table);
        table.write_function_addr((i * pointer) as u32, func_ref);
    }
    object.define_data(table_id, &table).map_err(err)
}
