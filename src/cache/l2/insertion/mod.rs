//! L2 insertion policies (`l2.insertion`): the recency position (0 = MRU, ways - 1 = LRU)
//! at which a fill places its line. Victims are always taken from the LRU end, so a
//! line inserted near LRU is evicted first unless it is hit (which moves it to MRU).
//!
//! Contract: `position` is asked once per allocating fill, with the warp type the
//! request carried from its arrival; `on_evict` follows every eviction of the bank. A
//! policy is one file implementing `InsertionPolicy` and one entry in `registry!` below.

mod eaf;
mod medic;
mod mru;

pub use eaf::Eaf;
pub use medic::MedicInsertion;
pub use mru::Mru;

use super::warp_type::WarpType;

/// One insertion policy, built for one bank of `lines` lines.
pub trait InsertionPolicy: Sized {
    fn build(lines: u32) -> Self;

    /// Recency position of an allocating fill (0 = MRU, `ways - 1` = LRU).
    fn position(&mut self, wtype: WarpType, block: u64, ways: usize) -> usize;

    /// Follows every eviction of the bank.
    fn on_evict(&mut self, _block: u64) {}
}

/// The family's registry: each entry names the dispatch variant, the policy type it holds
/// and the config values (`L2InsertionKind`) it runs, with their names and doc comments.
/// The config enum, the dispatch enum and its constructor follow; the matches are
/// exhaustive, so every config value is registered.
macro_rules! registry {
    ($($var:ident($ty:ty) { $($(#[$m:meta])* $kind:ident = $s:literal,)+ })+) => {
        crate::settings::policy_enum!(
            /// Recency position of a line the L2 fills (`l2.insertion`).
            L2InsertionKind { $($($(#[$m])* $kind => $s,)+)+ }
        );

        /// The configured policy, dispatched by enum.
        #[derive(Debug, Clone)]
        pub enum L2Insertion { $($var($ty)),+ }

        impl L2Insertion {
            /// The policy for one bank of `lines` lines.
            pub fn new(kind: L2InsertionKind, lines: u32) -> Self {
                match kind { $($(L2InsertionKind::$kind)|+ => Self::$var(<$ty as InsertionPolicy>::build(lines)),)+ }
            }

            pub fn position(&mut self, wtype: WarpType, block: u64, ways: usize) -> usize {
                match self { $(Self::$var(p) => p.position(wtype, block, ways)),+ }
            }

            pub fn on_evict(&mut self, block: u64) {
                match self { $(Self::$var(p) => p.on_evict(block)),+ }
            }
        }
    };
}

registry! {
    Mru(Mru) {
        /// At the MRU position (plain LRU).
        Mru = "mru",
    }
    Medic(MedicInsertion) {
        /// MeDiC's WIP: by the warp type of the request (mostly-miss near LRU, balanced in the middle, else MRU).
        Medic = "medic",
    }
    Eaf(Eaf) {
        /// Evicted-Address Filter: MRU if the line was evicted recently, otherwise LRU (bimodally MRU 1/64).
        Eaf = "eaf",
    }
}
