//! The Evicted-Address Filter (Seshadri et al., PACT 2012): a Bloom filter of the
//! addresses this bank evicted, sized for as many addresses as the bank has lines and
//! cleared when full. A missed line found in it was evicted too early (it has reuse) and
//! goes in at MRU; any other line goes in at LRU, except every 64th (bimodal insertion,
//! counted rather than drawn, so runs stay deterministic).

use super::InsertionPolicy;
use crate::cache::l2::bloom::Bloom;
use crate::cache::l2::warp_type::WarpType;

const BIMODAL: u32 = 64;

#[derive(Debug, Clone)]
pub struct Eaf {
    filter: Bloom,
    fills: u32,
}

impl InsertionPolicy for Eaf {
    fn build(lines: u32) -> Self {
        Self { filter: Bloom::new(lines.max(1) * 8, lines.max(1)), fills: 0 }
    }

    fn position(&mut self, _wtype: WarpType, block: u64, ways: usize) -> usize {
        if self.filter.contains(block) {
            return 0;
        }
        self.fills = (self.fills + 1) % BIMODAL;
        if self.fills == 0 {
            0
        } else {
            ways - 1
        }
    }

    fn on_evict(&mut self, block: u64) {
        self.filter.insert(block);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evicted_lines_come_back_at_mru_others_at_lru() {
        let mut e = Eaf::build(256);
        assert_eq!(e.position(WarpType::Unknown, 42, 16), 15);
        e.on_evict(42);
        assert_eq!(e.position(WarpType::Unknown, 42, 16), 0);
        let mru = (0..640).filter(|&b| e.position(WarpType::Unknown, 10_000 + b, 16) == 0).count();
        assert_eq!(mru, 10);
    }
}
