//! L2 insertion policies (`l2.insertion`): the recency position (0 = MRU, ways - 1 = LRU)
//! at which a fill places its line. Victims are always taken from the LRU end, so a
//! line inserted near LRU is evicted first unless it is hit (which moves it to MRU).
//!
//! Contract: `position` is asked once per allocating fill, with the warp type the
//! request carried from its arrival; `on_evict` follows every eviction of the bank.

mod eaf;
mod medic;

pub use eaf::Eaf;
pub use medic::medic_position;

use super::warp_type::WarpType;
use crate::config::L2InsertionKind;

#[derive(Debug, Clone)]
pub enum L2Insertion {
    Mru,
    Medic,
    Eaf(Eaf),
}

impl L2Insertion {
    /// The policy for one bank of `lines` lines.
    pub fn new(kind: L2InsertionKind, lines: u32) -> Self {
        match kind {
            L2InsertionKind::Mru => Self::Mru,
            L2InsertionKind::Medic => Self::Medic,
            L2InsertionKind::Eaf => Self::Eaf(Eaf::new(lines)),
        }
    }

    pub fn position(&mut self, wtype: WarpType, block: u64, ways: usize) -> usize {
        match self {
            Self::Mru => 0,
            Self::Medic => medic_position(wtype, ways),
            Self::Eaf(e) => e.position(block, ways),
        }
    }

    pub fn on_evict(&mut self, block: u64) {
        if let Self::Eaf(e) = self {
            e.on_evict(block);
        }
    }
}
