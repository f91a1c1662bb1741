//! A warp's translated instructions packed into bytes. A resident CTA's warps wait with
//! their whole lists, and an unpacked memory instruction is some 300 bytes (an address for
//! every lane), so lists are held packed, addresses as a base with a stride or with deltas
//! as the trace has them, and unpacked a chunk at a time as the warp fetches.

use crate::kernels::{Instr, MemInstr, RegMask, WARP_SIZE};
use crate::mem::{AccessKind, CacheOp};

const ALU: u8 = 0;
const BARRIER: u8 = 1;
const MEM: u8 = 2;
/// Flag bits of a memory instruction.
const WRITE: u8 = 1;
const STRIDED: u8 = 2;
const OP_SHIFT: u8 = 2;

#[derive(Debug, Default)]
pub struct Packed {
    bytes: Vec<u8>,
    /// Where the next instruction to unpack starts.
    pos: usize,
    /// Instructions pushed, and unpacked so far.
    pushed: u64,
    unpacked: u64,
}

impl Packed {
    pub fn push(&mut self, instr: &Instr) {
        self.pushed += 1;
        match instr {
            Instr::Alu { srcs } => {
                self.bytes.push(ALU);
                varint(&mut self.bytes, *srcs as u64);
            }
            Instr::Barrier => self.bytes.push(BARRIER),
            Instr::Mem(m) => self.push_mem(m),
        }
    }

    fn push_mem(&mut self, m: &MemInstr) {
        let active: Vec<u64> = (0..WARP_SIZE).filter(|l| m.mask & (1 << l) != 0).map(|l| m.addrs[l]).collect();
        let deltas: Vec<u64> = active.windows(2).map(|w| w[1].wrapping_sub(w[0])).collect();
        let strided = deltas.windows(2).all(|w| w[0] == w[1]);
        let op = match m.op {
            CacheOp::Ca => 0,
            CacheOp::Cg => 1,
            CacheOp::Cm => 2,
        };
        let flags = (u8::from(m.kind == AccessKind::Write) * WRITE) | (u8::from(strided) * STRIDED) | (op << OP_SHIFT);
        self.bytes.push(MEM);
        varint(&mut self.bytes, m.pc as u64);
        self.bytes.extend([flags, m.width]);
        varint(&mut self.bytes, m.dst as u64);
        varint(&mut self.bytes, m.srcs as u64);
        self.bytes.extend(m.mask.to_le_bytes());
        if let Some(&base) = active.first() {
            varint(&mut self.bytes, base);
            let listed = if strided { &deltas[..deltas.len().min(1)] } else { &deltas[..] };
            for &d in listed {
                varint(&mut self.bytes, zigzag(d as i64));
            }
        }
    }

    /// Appends up to `n` instructions to `out`; returns how many.
    pub fn unpack(&mut self, n: usize, out: &mut Vec<Instr>) -> usize {
        let mut done = 0;
        while done < n && self.pos < self.bytes.len() {
            let tag = self.byte();
            out.push(match tag {
                ALU => Instr::Alu { srcs: self.varint() as RegMask },
                BARRIER => Instr::Barrier,
                _ => Instr::Mem(Box::new(self.unpack_mem())),
            });
            done += 1;
        }
        self.unpacked += done as u64;
        done
    }

    /// Instructions not yet unpacked.
    pub fn left(&self) -> u64 {
        self.pushed - self.unpacked
    }

    /// Whether every instruction has been unpacked.
    pub fn is_done(&self) -> bool {
        self.pos >= self.bytes.len()
    }

    fn unpack_mem(&mut self) -> MemInstr {
        let pc = self.varint() as u32;
        let (flags, width) = (self.byte(), self.byte());
        let (dst, srcs) = (self.varint() as RegMask, self.varint() as RegMask);
        let mask = u32::from_le_bytes(std::array::from_fn(|_| self.byte()));
        let mut addrs = [0; WARP_SIZE];
        let mut lanes = (0..WARP_SIZE).filter(|l| mask & (1 << l) != 0);
        if let Some(first) = lanes.next() {
            let mut addr = self.varint();
            addrs[first] = addr;
            let mut stride = None;
            for lane in lanes {
                let d = match stride {
                    Some(d) => d,
                    None => unzigzag(self.varint()) as u64,
                };
                if flags & STRIDED != 0 {
                    stride = Some(d);
                }
                addr = addr.wrapping_add(d);
                addrs[lane] = addr;
            }
        }
        let op = match flags >> OP_SHIFT {
            0 => CacheOp::Ca,
            1 => CacheOp::Cg,
            _ => CacheOp::Cm,
        };
        let kind = if flags & WRITE != 0 { AccessKind::Write } else { AccessKind::Read };
        MemInstr { pc, kind, op, width, mask, addrs, dst, srcs }
    }

    fn byte(&mut self) -> u8 {
        self.pos += 1;
        self.bytes[self.pos - 1]
    }

    fn varint(&mut self) -> u64 {
        let (mut v, mut shift) = (0u64, 0);
        loop {
            let b = self.byte();
            v |= ((b & 0x7f) as u64) << shift;
            if b < 0x80 {
                return v;
            }
            shift += 7;
        }
    }
}

fn varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn zigzag(v: i64) -> u64 {
    ((v << 1) ^ (v >> 63)) as u64
}

fn unzigzag(v: u64) -> i64 {
    (v >> 1) as i64 ^ -((v & 1) as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mem(mask: u32, addr: impl Fn(usize) -> u64, op: CacheOp) -> Instr {
        let addrs = std::array::from_fn(|l| if mask & (1 << l) != 0 { addr(l) } else { 0 });
        Instr::Mem(Box::new(MemInstr {
            pc: 0x1f30,
            kind: AccessKind::Read,
            op,
            width: 8,
            mask,
            addrs,
            dst: 4,
            srcs: 3,
        }))
    }

    #[test]
    fn instructions_unpack_as_they_were_packed() {
        let list = vec![
            Instr::Alu { srcs: 0b1010 },
            mem(u32::MAX, |l| 0x7f00_0000_1000 + 8 * l as u64, CacheOp::Ca),
            mem(0x8000_0001, |l| u64::MAX - l as u64, CacheOp::Cg),
            mem(0xf0f0_1234, |l| (l as u64 * 7919) % 1000, CacheOp::Cm),
            mem(0, |_| 0, CacheOp::Ca),
            mem(1 << 5, |_| 42, CacheOp::Ca),
            Instr::Barrier,
        ];
        let mut p = Packed::default();
        list.iter().for_each(|i| p.push(i));
        let mut out = Vec::new();
        assert_eq!(p.unpack(3, &mut out), 3);
        assert!(!p.is_done());
        assert_eq!(p.unpack(100, &mut out), 4);
        assert!(p.is_done());
        assert_eq!(out, list);
    }
}
