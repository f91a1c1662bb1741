//! What replay makes of each SASS opcode, from its name alone: global loads and stores go
//! through the coalescer and the caches, barriers synchronise the CTA, and everything else
//! takes an issue slot for the ALU latency (docs/traces.md has the table).

use crate::mem::CacheOp;
use serde::Serialize;

/// How replay treats an opcode; the report counts instructions by opcode and treatment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Treatment {
    /// `LDG`, `LD`, `LDGSTS`: a warp-load with the traced addresses.
    GlobalLoad,
    /// `STG`, `ST`: a warp-store with the traced addresses.
    GlobalStore,
    /// `ATOM`, `ATOMG`: performed at the L2, so a `cg` load whose register waits for it.
    Atomic,
    /// `RED`: an atomic without a result, so a store.
    Reduction,
    /// `LDS`, `STS`, `LDSM`, `ATOMS`: shared memory is not modelled; an ALU slot.
    SharedMemory,
    /// `LDL`, `STL`: local memory (register spills) is not modelled; an ALU slot.
    LocalMemory,
    /// `BAR` (not `BAR.ARV`): a CTA-wide barrier.
    Barrier,
    /// `EXIT`: takes no slot; a warp ends after its last traced instruction.
    Exit,
    /// Anything else: an ALU slot waiting for its source registers.
    Other,
}

impl Treatment {
    pub fn of(opcode: &str) -> Treatment {
        let mut tokens = opcode.split('.');
        match tokens.next().unwrap_or("") {
            "LDG" | "LD" | "LDGSTS" => Treatment::GlobalLoad,
            "STG" | "ST" => Treatment::GlobalStore,
            "ATOM" | "ATOMG" => Treatment::Atomic,
            "RED" => Treatment::Reduction,
            "LDS" | "STS" | "LDSM" | "ATOMS" => Treatment::SharedMemory,
            "LDL" | "STL" => Treatment::LocalMemory,
            "BAR" if !tokens.any(|t| t == "ARV") => Treatment::Barrier,
            "EXIT" => Treatment::Exit,
            _ => Treatment::Other,
        }
    }
}

/// The cache operator of a global access: `.CG`, volatile `.CV` and `.STRONG` (coherent at
/// the L2) skip the L1, as do atomics; everything else is cached (`ca`).
pub fn cache_op(opcode: &str, treatment: Treatment) -> CacheOp {
    let l2_only = opcode.split('.').skip(1).any(|t| matches!(t, "CG" | "CV" | "STRONG"));
    if l2_only || matches!(treatment, Treatment::Atomic | Treatment::Reduction) {
        CacheOp::Cg
    } else {
        CacheOp::Ca
    }
}

/// Bytes per lane from the opcode's size suffix (`.64`, `.128`, `.U8`, `.S16`), 4 without
/// one. The opcode decides, not the line's width field, as Accel-Sim does: the tracer's
/// width is not always right.
pub fn width(opcode: &str) -> u8 {
    for t in opcode.split('.').skip(1) {
        let bits = t.strip_prefix(['U', 'S']).unwrap_or(t);
        if let Ok(bits @ (8 | 16 | 32 | 64 | 128)) = bits.parse::<u32>() {
            return (bits / 8) as u8;
        }
    }
    4
}

/// The opcode suffix that makes `width` bytes per lane, for writing traces.
pub fn width_suffix(width: u8) -> Option<&'static str> {
    Some(match width {
        1 => ".U8",
        2 => ".U16",
        4 => "",
        8 => ".64",
        16 => ".128",
        _ => return None,
    })
}
