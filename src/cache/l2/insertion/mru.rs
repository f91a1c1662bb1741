//! MRU insertion: every fill goes in at the MRU position, which makes the L2 plain LRU.

use super::InsertionPolicy;
use crate::cache::l2::warp_type::WarpType;

#[derive(Debug, Clone)]
pub struct Mru;

impl InsertionPolicy for Mru {
    fn build(_lines: u32) -> Self {
        Self
    }

    fn position(&mut self, _wtype: WarpType, _block: u64, _ways: usize) -> usize {
        0
    }
}
