//! Address mapping: a global byte address picks its memory partition (DRAM channel)
//! and a channel-local address, which decodes into bank, bank group, row and column.
//!
//! Local layout, low to high: column within a row, bank, row. Consecutive lines of a
//! channel fill a row before moving to the next bank, so streams get row-buffer hits.
//!
//! Every mapping's local addresses are compact, so a channel's rows, banks and L2 sets
//! fill as densely under one mapping as under another.

use super::config::{DramConfig, MemConfig};
use super::partition_mapping::Mapping;

/// Where a channel-local address lives inside the channel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct DramCoord {
    pub bank: u32,
    pub bank_group: u32,
    pub row: u32,
    /// Byte offset within the row.
    pub col: u32,
}

/// The partition mapping plus the channel's bank/row/column split, fixed at build time.
#[derive(Debug, Clone)]
pub struct AddressMap {
    mapping: Mapping,
    /// log2 of the channel-interleave granule: 256 B, widened to a line when lines are
    /// larger so that one line never straddles two channels.
    granule_shift: u32,
    row_shift: u32,
    bank_bits: u32,
    bank_groups: u32,
    bank_xor: bool,
}

impl AddressMap {
    /// `line_bytes` is the L2's line, which no channel may split.
    pub fn new(mem: &MemConfig, d: &DramConfig, line_bytes: u32) -> Self {
        let line_shift = line_bytes.max(1).ilog2();
        Self {
            mapping: Mapping::new(mem.partition_mapping, mem.partitions.max(1) as u64),
            granule_shift: line_shift.max(8),
            row_shift: d.row_bytes.max(1).ilog2(),
            bank_bits: d.banks.max(1).ilog2(),
            bank_groups: d.bank_groups.max(1),
            bank_xor: d.bank_xor,
        }
    }

    /// Memory partition (channel) of a global byte address.
    pub fn partition(&self, addr: u64) -> u32 {
        self.mapping.partition(addr >> self.granule_shift) as u32
    }

    /// Byte address within the partition: the channel digit squeezed out, the byte
    /// offset within the granule kept.
    pub fn local(&self, addr: u64) -> u64 {
        let offset = addr & ((1u64 << self.granule_shift) - 1);
        (self.mapping.local_index(addr >> self.granule_shift) << self.granule_shift) | offset
    }

    fn bank_mask(&self) -> u64 {
        (1u64 << self.bank_bits) - 1
    }

    /// The row of a channel-local address, unbounded: a trace checks it fits the 32 bits a
    /// `DramCoord` keeps before it is simulated.
    pub fn row_of(&self, local: u64) -> u64 {
        local >> self.row_shift >> self.bank_bits
    }

    /// Bank, bank group, row and column of a channel-local address.
    pub fn decode(&self, local: u64) -> DramCoord {
        let col = (local & ((1u64 << self.row_shift) - 1)) as u32;
        let above = local >> self.row_shift;
        let row = self.row_of(local);
        let mut bank = above & self.bank_mask();
        if self.bank_xor {
            bank ^= row & self.bank_mask();
        }
        let bank = bank as u32;
        DramCoord { bank, bank_group: bank % self.bank_groups, row: row as u32, col }
    }

    /// The channel-local address of a coordinate (the inverse of `decode`); tests and
    /// kernels use it to aim at a chosen bank and row.
    pub fn encode(&self, bank: u32, row: u32, col: u32) -> u64 {
        let mut b = bank as u64 & self.bank_mask();
        if self.bank_xor {
            b ^= row as u64 & self.bank_mask();
        }
        let col = col as u64 & ((1u64 << self.row_shift) - 1);
        ((((row as u64) << self.bank_bits) | b) << self.row_shift) | col
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{preset, PartitionMapping};
    use std::collections::HashSet;

    fn map(mapping: PartitionMapping, parts: u32, bank_xor: bool) -> AddressMap {
        let mut cfg = preset("sc14-gtx480").unwrap();
        cfg.mem.partition_mapping = mapping;
        cfg.mem.partitions = parts;
        cfg.dram.bank_xor = bank_xor;
        AddressMap::new(&cfg.mem, &cfg.dram, cfg.l2.line_bytes)
    }

    #[test]
    fn modulo_formula() {
        let m = map(PartitionMapping::Modulo, 6, false);
        for addr in [0u64, 0x100, 0x5ff, 0x600, 0x12345, 0xdead_beef, 1 << 40] {
            assert_eq!(m.partition(addr) as u64, (addr >> 8) % 6, "{addr:#x}");
            assert_eq!(m.local(addr), (((addr >> 8) / 6) << 8) | (addr & 0xff), "{addr:#x}");
        }
        assert_eq!(m.partition(0x700), 1);
        assert_eq!(m.local(0x7a0), 0x1a0);
    }

    #[test]
    fn sc14_xor_formula() {
        let m = map(PartitionMapping::Sc14Xor, 6, false);
        for addr in [0u64, 0x100, 0x800, 0x900, 0x3f00, 0x12345, 0xdead_beef, 1 << 40] {
            let v = ((addr >> 11) << 3) | (((addr >> 8) & 7) ^ ((addr >> 11) & 7));
            assert_eq!(m.partition(addr) as u64, v % 6, "{addr:#x}");
            assert_eq!(m.local(addr), ((v / 6) << 8) | (addr & 0xff), "{addr:#x}");
        }
        // addr 0x800: v = (1 << 3) | (0 ^ 1) = 9 -> channel 3, local (1 << 8).
        assert_eq!(m.partition(0x800), 3);
        assert_eq!(m.local(0x880), 0x180);
    }

    #[test]
    fn xor_formula() {
        for parts in [6u64, 16] {
            let m = map(PartitionMapping::Xor, parts as u32, false);
            for addr in [0u64, 0x100, 0x5ff, 0x1_0000, 0x1_0100, 0x12345, 0xdead_beef, 1 << 40] {
                let chip = (((addr >> 8) % parts) ^ ((addr >> 16) % parts)) % parts;
                assert_eq!(m.partition(addr) as u64, chip, "{parts}: {addr:#x}");
            }
        }
        // 6 partitions: 0x1_0000 is granule 256, (256 % 6) ^ (1 % 6) = 4 ^ 1 = 5.
        assert_eq!(map(PartitionMapping::Xor, 6, false).partition(0x1_0000), 5);
        // 16 partitions: the XOR only touches the low 4 granule bits, so the local
        // address is modulo's.
        let (x, m) = (map(PartitionMapping::Xor, 16, false), map(PartitionMapping::Modulo, 16, false));
        for addr in (0u64..1 << 24).step_by(0x1_0f80) {
            assert_eq!(x.local(addr), m.local(addr), "{addr:#x}");
        }
    }

    #[test]
    fn xor_spreads_a_stride_that_camps_under_modulo() {
        let parts = |mapping| {
            let m = map(mapping, 16, false);
            (0..256u64).map(|i| m.partition(i * 4096)).collect::<HashSet<_>>().len()
        };
        assert_eq!(parts(PartitionMapping::Modulo), 1);
        assert_eq!(parts(PartitionMapping::Xor), 16);
    }

    #[test]
    fn distinct_lines_stay_distinct() {
        for mapping in [PartitionMapping::Modulo, PartitionMapping::Sc14Xor, PartitionMapping::Xor] {
            for parts in [1, 4, 6, 7, 16] {
                let m = map(mapping, parts, true);
                let mut seen = HashSet::new();
                for line in 0u64..(1 << 15) {
                    let addr = line * 128;
                    let local = m.local(addr);
                    assert_eq!(local % 128, 0);
                    assert!(m.partition(addr) < parts);
                    assert!(seen.insert((m.partition(addr), local)), "{mapping:?} {parts}: {addr:#x}");
                }
            }
        }
    }

    #[test]
    fn decode_layout_and_encode_inverse() {
        let m = map(PartitionMapping::Modulo, 6, false);
        // 2 KB rows, 16 banks: col = bits 0..11, bank = 11..15, row above.
        let c = m.decode(0x3_8880);
        assert_eq!(c, DramCoord { bank: 1, bank_group: 1, row: 7, col: 0x80 });
        let x = map(PartitionMapping::Modulo, 6, true);
        assert_eq!(x.decode(0x3_8880).bank, 1 ^ 7);
        for local in (0u64..1 << 22).step_by(4096 + 128) {
            let c = x.decode(local);
            assert_eq!(c.bank_group, c.bank % 4);
            assert_eq!(x.encode(c.bank, c.row, c.col), local);
        }
    }

    #[test]
    fn streaming_fills_a_row_first() {
        let m = map(PartitionMapping::Modulo, 6, true);
        let first = m.decode(0);
        for local in (0..2048).step_by(128) {
            let c = m.decode(local);
            assert_eq!((c.bank, c.row), (first.bank, first.row));
        }
        assert_ne!(m.decode(2048).bank, first.bank);
    }

    #[test]
    fn bank_xor_spreads_row_strided_stream() {
        let stride = 2048 * 16;
        let plain = map(PartitionMapping::Modulo, 6, false);
        let hashed = map(PartitionMapping::Modulo, 6, true);
        let banks = |m: &AddressMap| (0..16u64).map(|i| m.decode(i * stride).bank).collect::<HashSet<_>>().len();
        assert_eq!(banks(&plain), 1);
        assert_eq!(banks(&hashed), 16);
    }
}
