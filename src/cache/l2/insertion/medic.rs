//! WIP (MeDiC §4.3): lines fetched for mostly-miss (and all-miss) warps go in at the
//! LRU position, balanced warps' in the middle, mostly-hit and all-hit warps' at MRU,
//! so that within a set the lines of warps that mostly miss are evicted first. The
//! two type bits per line the paper adds are what picks the position here; a warp not
//! yet profiled inserts at MRU, as the baseline does.

use crate::cache::l2::warp_type::WarpType;

pub fn medic_position(wtype: WarpType, ways: usize) -> usize {
    match wtype {
        WarpType::MostlyMiss | WarpType::AllMiss => ways - 1,
        WarpType::Balanced => ways / 2,
        WarpType::AllHit | WarpType::MostlyHit | WarpType::Unknown => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_by_type() {
        assert_eq!(medic_position(WarpType::AllMiss, 16), 15);
        assert_eq!(medic_position(WarpType::MostlyMiss, 16), 15);
        assert_eq!(medic_position(WarpType::Balanced, 16), 8);
        assert_eq!(medic_position(WarpType::MostlyHit, 16), 0);
        assert_eq!(medic_position(WarpType::AllHit, 16), 0);
    }
}
