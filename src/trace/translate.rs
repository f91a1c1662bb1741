//! Traced instructions as the model's instructions. The model's scoreboard has 32
//! register bits (`RegMask`); a traced register `Rn` uses bit `n % 32`, and only while its
//! last writer in the warp is a global load or atomic, since only loads keep registers
//! pending. Registers 32 apart can so wait for each other's loads (a false dependency),
//! never miss a true one; a trace written from a built-in kernel names only R0..R7 and
//! replays with the kernel's own masks.

use super::inst::Inst;
use super::opcode::{cache_op, width, Treatment};
use crate::kernels::{Instr, MemInstr, RegMask};
use crate::mem::{AccessKind, CacheOp};
use serde::Serialize;
use std::collections::BTreeMap;

/// What replay decided for one opcode, and how often the trace issued it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OpcodeCount {
    pub opcode: String,
    pub treatment: Treatment,
    /// `ca` or `cg` for global accesses.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cache_op: Option<CacheOp>,
    /// Bytes per lane for global accesses.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub width: Option<u8>,
    /// Warp instructions read from the trace.
    pub count: u64,
}

/// Opcode counts of the instructions read so far, each decoded once.
#[derive(Debug, Clone, Default)]
pub struct OpcodeTable(BTreeMap<String, OpcodeCount>);

impl OpcodeTable {
    fn note(&mut self, opcode: &str) -> &OpcodeCount {
        if !self.0.contains_key(opcode) {
            let treatment = Treatment::of(opcode);
            let global = matches!(
                treatment,
                Treatment::GlobalLoad | Treatment::GlobalStore | Treatment::Atomic | Treatment::Reduction
            );
            let row = OpcodeCount {
                opcode: opcode.to_string(),
                treatment,
                cache_op: global.then(|| cache_op(opcode, treatment)),
                width: global.then(|| width(opcode)),
                count: 0,
            };
            self.0.insert(opcode.to_string(), row);
        }
        let row = self.0.get_mut(opcode).expect("inserted above");
        row.count += 1;
        row
    }

    /// Adds `other`'s counts (a benchmark's launches into one table).
    pub fn merge(&mut self, other: &OpcodeTable) {
        for (k, v) in &other.0 {
            self.0.entry(k.clone()).and_modify(|r| r.count += v.count).or_insert_with(|| v.clone());
        }
    }

    pub fn rows(&self) -> Vec<OpcodeCount> {
        self.0.values().cloned().collect()
    }
}

/// Translates one warp's instructions in order.
pub struct Translator {
    /// Registers whose last writer so far is a global load or atomic.
    loaded: [bool; 256],
}

impl Default for Translator {
    fn default() -> Self {
        Self { loaded: [false; 256] }
    }
}

fn bit(r: u8) -> RegMask {
    1 << (r % RegMask::BITS as u8)
}

impl Translator {
    /// The model's instruction for `inst`, None for one that issues nothing (`EXIT`).
    pub fn translate(&mut self, inst: &Inst, table: &mut OpcodeTable) -> Option<Instr> {
        let row = table.note(&inst.opcode);
        let srcs = inst.srcs.iter().filter(|&&r| self.loaded[r as usize]).fold(0, |m, &r| m | bit(r));
        let kind = match row.treatment {
            Treatment::GlobalLoad | Treatment::Atomic => AccessKind::Read,
            Treatment::GlobalStore | Treatment::Reduction => AccessKind::Write,
            Treatment::Barrier => return Some(Instr::Barrier),
            Treatment::Exit => return None,
            Treatment::SharedMemory | Treatment::LocalMemory | Treatment::Other => {
                for &r in &inst.dsts {
                    self.loaded[r as usize] = false;
                }
                return Some(Instr::Alu { srcs });
            }
        };
        let mut dst = 0;
        if kind == AccessKind::Read {
            for &r in &inst.dsts {
                self.loaded[r as usize] = true;
                dst |= bit(r);
            }
        }
        Some(Instr::Mem(Box::new(MemInstr {
            pc: inst.pc,
            kind,
            op: row.cache_op.unwrap_or(CacheOp::Ca),
            width: row.width.unwrap_or(4),
            mask: inst.mask,
            addrs: inst.addrs,
            dst,
            srcs,
        })))
    }
}
