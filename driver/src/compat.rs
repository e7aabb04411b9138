//! Every API difference between the Cranelift releases the driver builds
//! against (0.120 to 0.137), in one place.
//!
//! build.rs reads the resolved cranelift-codegen version and sets one cfg
//! per difference; the rest of the driver calls the functions here and
//! never names a cfg itself. Each shim says which releases need it.

use cranelift_codegen::ir::{ExternalName, UserExternalNameRef};
use cranelift_codegen::CompiledCode;

/// The Cranelift release the driver was built against (cranelift-codegen's
/// version in the Cargo.lock of the build).
pub const CRANELIFT_VERSION: &str = env!("CLIFF_CRANELIFT_VERSION");

/// One relocation of a compiled function's code, as `ModuleReloc::from_mach_reloc`
/// takes it. Before 0.137: `FinalizedMachReloc`.
#[cfg(cranelift_finalized_relocs)]
pub type Reloc = cranelift_codegen::FinalizedMachReloc;
/// One relocation of a compiled function's code, as `ModuleReloc::from_mach_reloc`
/// takes it. From 0.137: `MachReloc`.
#[cfg(not(cranelift_finalized_relocs))]
pub type Reloc = cranelift_codegen::MachReloc;

/// The user-named function a relocation refers to, if it refers to one.
/// Before 0.137 the target is a `FinalizedRelocTarget`, then a `RelocTarget`.
pub fn reloc_user_name(reloc: &Reloc) -> Option<UserExternalNameRef> {
    #[cfg(cranelift_finalized_relocs)]
    use cranelift_codegen::FinalizedRelocTarget as Target;
    #[cfg(not(cranelift_finalized_relocs))]
    use cranelift_codegen::RelocTarget as Target;
    match reloc.target {
        Target::ExternalName(ExternalName::User(reference)) => Some(reference),
        _ => None,
    }
}

/// The external name a relocation refers to; `None` for a label or an
/// offset in the function itself.
pub fn reloc_external_name(reloc: &Reloc) -> Option<&ExternalName> {
    #[cfg(cranelift_finalized_relocs)]
    use cranelift_codegen::FinalizedRelocTarget as Target;
    #[cfg(not(cranelift_finalized_relocs))]
    use cranelift_codegen::RelocTarget as Target;
    match &reloc.target {
        Target::ExternalName(name) => Some(name),
        _ => None,
    }
}

/// How a Pulley pc-relative relocation (a call, a near function address)
/// is applied, when `kind` is one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PulleyPcRel {
    /// The 4-byte field becomes `target + addend - field address`.
    Replace,
    /// `target + addend - field address` is added to the field, which
    /// holds the field's offset from its instruction's start.
    Add,
}

/// Before 0.124 Pulley borrowed X86CallPCRel4 (with the offset of the
/// field in the addend); from 0.124 it has PulleyPcRel.
pub fn pulley_pc_rel(kind: cranelift_codegen::binemit::Reloc) -> Option<PulleyPcRel> {
    use cranelift_codegen::binemit::Reloc as R;
    match kind {
        R::X86CallPCRel4 => Some(PulleyPcRel::Replace),
        #[cfg(not(cranelift_pulley_x86_pcrel))]
        R::PulleyPcRel => Some(PulleyPcRel::Add),
        _ => None,
    }
}

/// The alignment the function's code needs. The field is `alignment`
/// before 0.137.
#[cfg(cranelift_buffer_alignment)]
pub fn code_alignment(code: &CompiledCode) -> u32 {
    code.buffer.alignment
}

/// The alignment the function's code needs. The field is `min_alignment`
/// from 0.137.
#[cfg(not(cranelift_buffer_alignment))]
pub fn code_alignment(code: &CompiledCode) -> u32 {
    code.buffer.min_alignment
}
