//! BMOD, `blk & (n-1)`: the plain bit-select.

use super::{Geometry, IndexFunction, Refused};

#[derive(Debug, Clone)]
pub struct Linear {
    mask: u64,
}

impl IndexFunction for Linear {
    fn build(g: &Geometry) -> Result<Self, Refused> {
        Ok(Self { mask: g.mask })
    }

    #[inline]
    fn set_of(&self, block: u64) -> usize {
        (block & self.mask) as usize
    }
}
