//! BXOR, `(blk & (n-1)) ^ ((blk >> log2 line) & (n-1))`.

use super::{Geometry, IndexFunction, Refused};

#[derive(Debug, Clone)]
pub struct Bxor {
    mask: u64,
    shift: u32,
}

impl IndexFunction for Bxor {
    fn build(g: &Geometry) -> Result<Self, Refused> {
        Ok(Self { mask: g.mask, shift: g.log_line })
    }

    #[inline]
    fn set_of(&self, block: u64) -> usize {
        ((block ^ (block >> self.shift)) & self.mask) as usize
    }
}
