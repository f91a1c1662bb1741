//! WIP (MeDiC §4.3): lines fetched for mostly-miss (and all-miss) warps go in at the
//! LRU position, balanced warps' in the middle, mostly-hit and all-hit warps' at MRU,
//! so that within a set the lines of warps that mostly miss are evicted first. The
//! two type bits per line the paper adds are what picks the position here; a warp not
//! yet profiled inserts at MRU, as the baseline does.

use super::InsertionPolicy;
use crate::cache::l2::warp_type::WarpType;

#[derive(Debug, Clone)]
pub struct MedicInsertion;

impl InsertionPolicy for MedicInsertion {
    fn build(_lines: u32) -> Self {
        Self
    }

    fn position(&mut self, wtype: WarpType, _block: u64, ways: usize) -> usize {
        match wtype {
            WarpType::MostlyMiss | WarpType::AllMiss => ways - 1,
            WarpType::Balanced => ways / 2,
            WarpType::AllHit | WarpType::MostlyHit | WarpType::Unknown => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_by_type() {
        let p = |t| MedicInsertion.position(t, 0, 16);
        assert_eq!(p(WarpType::AllMiss), 15);
        assert_eq!(p(WarpType::MostlyMiss), 15);
        assert_eq!(p(WarpType::Balanced), 8);
        assert_eq!(p(WarpType::MostlyHit), 0);
        assert_eq!(p(WarpType::AllHit), 0);
    }
}
