//! D_PRIME, `((blk >> log2 n) * 11 + blk) & (n-1)`.

use super::{Geometry, IndexFunction, Refused};

#[derive(Debug, Clone)]
pub struct DPrime {
    shift: u32,
    mask: u64,
}

impl IndexFunction for DPrime {
    fn build(g: &Geometry) -> Result<Self, Refused> {
        Ok(Self { shift: g.log_sets, mask: g.mask })
    }

    #[inline]
    fn set_of(&self, block: u64) -> usize {
        ((block >> self.shift).wrapping_mul(11).wrapping_add(block) & self.mask) as usize
    }
}
