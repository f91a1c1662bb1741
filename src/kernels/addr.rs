//! A bump allocator for a benchmark's global arrays, like `cudaMalloc` on a fresh
//! device: arrays start 4 KB-aligned above a non-zero base, so address 0 stays
//! invalid and array starts fall on line, sector and DRAM-row boundaries.

use serde::Serialize;

/// First address handed out (1 GB), clear of the null page.
pub const BASE: u64 = 0x4000_0000;
/// Alignment of every array start.
pub const ALIGN: u64 = 4096;

/// One allocated global array.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Array {
    pub name: &'static str,
    pub base: u64,
    pub bytes: u64,
}

impl Array {
    /// Whether `[addr, addr + width)` lies inside the array.
    pub fn contains(&self, addr: u64, width: u64) -> bool {
        addr >= self.base && addr + width <= self.base + self.bytes
    }
}

/// The arrays of one benchmark, in allocation order.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct AddrSpace {
    next: u64,
    arrays: Vec<Array>,
}

impl AddrSpace {
    pub fn new() -> Self {
        Self { next: BASE, arrays: Vec::new() }
    }

    /// Reserves `bytes` (at least one byte) for array `name` and returns its base.
    pub fn alloc(&mut self, name: &'static str, bytes: u64) -> u64 {
        let base = self.next;
        let bytes = bytes.max(1);
        self.arrays.push(Array { name, base, bytes });
        self.next = (base + bytes).div_ceil(ALIGN) * ALIGN;
        base
    }

    pub fn arrays(&self) -> &[Array] {
        &self.arrays
    }

    /// The array named `name`, if allocated.
    pub fn find(&self, name: &str) -> Option<&Array> {
        self.arrays.iter().find(|a| a.name == name)
    }

    /// The array holding `addr`, if any.
    pub fn array_at(&self, addr: u64) -> Option<&Array> {
        let i = self.arrays.partition_point(|a| a.base <= addr);
        self.arrays[..i].last().filter(|a| a.contains(addr, 1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrays_are_aligned_disjoint_and_found() {
        let mut m = AddrSpace::new();
        let a = m.alloc("a", 10);
        let b = m.alloc("b", 4096);
        let c = m.alloc("c", 0);
        assert_eq!(a, BASE);
        assert_eq!(b, BASE + ALIGN);
        assert_eq!(c, BASE + 2 * ALIGN);
        assert_eq!(m.array_at(a + 9).map(|x| x.name), Some("a"));
        assert_eq!(m.array_at(a + 10), None);
        assert_eq!(m.array_at(b + 4095).map(|x| x.name), Some("b"));
        assert_eq!(m.array_at(BASE - 1), None);
        assert_eq!(m.find("c").map(|x| x.bytes), Some(1));
    }
}
