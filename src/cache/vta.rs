//! Per-warp victim tag arrays (VTAs) and the miss classification built on them.
//!
//! Every cache line remembers the warp that allocated it (its owner). When a line is
//! evicted its tag goes into the owner's VTA together with the warp whose allocation
//! pushed it out (the evictor). A later miss of the owner on that tag is a miss caused
//! by contention: intra-warp if the warp evicted its own line, inter-warp if another
//! warp did. A miss not found in the requester's VTA is `other` (compulsory, or its
//! victim record already aged out). A hit removes the record: the line is back.
//!
//! Each VTA is a bounded FIFO. VTAs are keyed by a small bounded number (an SM's warp
//! slot at the L1, `sm x warps_per_sm + slot` at the L2) and carry the dynamic warp id
//! of their warp, so a slot reused by a later warp starts with an empty history.

use serde::Serialize;
use std::collections::VecDeque;

/// A warp as a cache sees it: the VTA key and the dynamic warp id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Owner {
    pub key: u32,
    pub gid: u32,
}

impl Owner {
    /// Lines with no warp behind them (never recorded, never classified).
    pub const NONE: Owner = Owner { key: u32::MAX, gid: u32::MAX };

    pub fn is_none(self) -> bool {
        self == Owner::NONE
    }
}

/// Why a miss missed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MissClass {
    /// The requester's own allocation evicted its line.
    IntraWarp,
    /// Another warp's allocation evicted the requester's line.
    InterWarp { aggressor: Owner },
    /// Not in the requester's victim tags: compulsory, capacity beyond the VTA, or shared data.
    Other,
}

/// Misses by class (counts; the report turns them into MPKI).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct MissClassCounts {
    pub intra_warp: u64,
    pub inter_warp: u64,
    pub other: u64,
}

impl MissClassCounts {
    pub fn add(&mut self, c: MissClass) {
        match c {
            MissClass::IntraWarp => self.intra_warp += 1,
            MissClass::InterWarp { .. } => self.inter_warp += 1,
            MissClass::Other => self.other += 1,
        }
    }

    pub fn merge(&mut self, o: &MissClassCounts) {
        self.intra_warp += o.intra_warp;
        self.inter_warp += o.inter_warp;
        self.other += o.other;
    }

    pub fn total(&self) -> u64 {
        self.intra_warp + self.inter_warp + self.other
    }
}

#[derive(Debug, Clone)]
struct Vta {
    gid: u32,
    /// (block, evictor), oldest first.
    entries: VecDeque<(u64, Owner)>,
    /// Entries per hash bucket of their block: most misses find no record, and a zero here
    /// says so without scanning the FIFO (the scan was a twentieth of a sampled run's time).
    buckets: [u16; BUCKETS],
}

const BUCKETS: usize = 64;

/// A block's bucket: the top bits of a multiplicative hash, so lines a power of two apart
/// spread over the buckets.
fn bucket(block: u64) -> usize {
    (block.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 58) as usize
}

impl Default for Vta {
    fn default() -> Self {
        Self { gid: 0, entries: VecDeque::new(), buckets: [0; BUCKETS] }
    }
}

impl Vta {
    fn clear(&mut self) {
        self.entries.clear();
        self.buckets = [0; BUCKETS];
    }

    fn push(&mut self, cap: usize, block: u64, evictor: Owner) {
        if self.entries.len() == cap {
            let (old, _) = self.entries.pop_front().expect("a full VTA has entries");
            self.buckets[bucket(old)] -= 1;
        }
        self.entries.push_back((block, evictor));
        self.buckets[bucket(block)] += 1;
    }

    /// Removes the newest record of `block`, returning its evictor.
    fn take(&mut self, block: u64) -> Option<Owner> {
        let b = bucket(block);
        if self.buckets[b] == 0 {
            return None;
        }
        let i = self.entries.iter().rposition(|&(x, _)| x == block)?;
        self.buckets[b] -= 1;
        self.entries.remove(i).map(|(_, evictor)| evictor)
    }
}

/// The VTAs of one cache (an SM's L1 or one L2 bank).
#[derive(Debug, Clone)]
pub struct VictimTags {
    vtas: Vec<Vta>,
    cap: usize,
}

impl VictimTags {
    /// `keys` VTAs of `cap` entries each.
    pub fn new(keys: usize, cap: usize) -> Self {
        Self { vtas: vec![Vta::default(); keys], cap: cap.max(1) }
    }

    /// The VTA of `w`, emptied first if its slot now belongs to a later warp; `None` for
    /// a warp older than the slot's current one (its history no longer matters).
    fn vta(&mut self, w: Owner) -> Option<&mut Vta> {
        let v = self.vtas.get_mut(w.key as usize)?;
        if w.gid > v.gid || (v.entries.is_empty() && w.gid != v.gid) {
            v.gid = w.gid;
            v.clear();
        }
        (v.gid == w.gid).then_some(v)
    }

    /// Records that `evictor`'s allocation pushed `block`, owned by `owner`, out of the cache.
    pub fn record(&mut self, owner: Owner, block: u64, evictor: Owner) {
        if owner.is_none() {
            return;
        }
        let cap = self.cap;
        if let Some(v) = self.vta(owner) {
            v.push(cap, block, evictor);
        }
    }

    /// Classifies a miss of `requester` on `block`, consuming the matching record.
    pub fn classify(&mut self, requester: Owner, block: u64) -> MissClass {
        if requester.is_none() {
            return MissClass::Other;
        }
        let Some(v) = self.vta(requester) else { return MissClass::Other };
        let Some(evictor) = v.take(block) else { return MissClass::Other };
        if evictor == requester {
            MissClass::IntraWarp
        } else {
            MissClass::InterWarp { aggressor: evictor }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const W0: Owner = Owner { key: 0, gid: 10 };
    const W3: Owner = Owner { key: 3, gid: 13 };

    #[test]
    fn the_evictor_decides_intra_or_inter_and_a_hit_consumes_the_record() {
        let mut v = VictimTags::new(4, 4);
        v.record(W0, 100, W3);
        v.record(W0, 101, W0);
        assert_eq!(v.classify(W0, 100), MissClass::InterWarp { aggressor: W3 });
        assert_eq!(v.classify(W0, 100), MissClass::Other, "consumed");
        assert_eq!(v.classify(W0, 101), MissClass::IntraWarp);
        assert_eq!(v.classify(W3, 101), MissClass::Other, "only the owner's VTA is probed");
        assert_eq!(v.classify(W0, 555), MissClass::Other);
    }

    #[test]
    fn the_bucket_counts_follow_the_fifo_through_many_records() {
        // 64 entries in 64 buckets: most buckets hold several blocks, some none.
        let mut v = VictimTags::new(1, 64);
        for b in 0..1000u64 {
            v.record(W0, b * 4096, W0);
        }
        for b in (0..1000u64).rev() {
            let want = if b >= 936 { MissClass::IntraWarp } else { MissClass::Other };
            assert_eq!(v.classify(W0, b * 4096), want, "block {b}");
        }
        assert_eq!(v.vtas[0].buckets.iter().map(|&c| c as usize).sum::<usize>(), 0);
        v.record(W0, 7, W3);
        assert_eq!(v.classify(W0, 7), MissClass::InterWarp { aggressor: W3 });
    }

    #[test]
    fn vtas_are_bounded_fifos_and_reset_when_a_slot_gets_a_new_warp() {
        let mut v = VictimTags::new(4, 2);
        for b in 0..3 {
            v.record(W0, b, W0);
        }
        assert_eq!(v.classify(W0, 0), MissClass::Other, "oldest record fell out");
        assert_eq!(v.classify(W0, 2), MissClass::IntraWarp);
        v.record(W0, 7, W3);
        let next = Owner { key: 0, gid: 20 };
        assert_eq!(v.classify(next, 7), MissClass::Other, "a later warp in the slot has no history");
        v.record(W0, 8, W3);
        assert_eq!(v.classify(next, 8), MissClass::Other, "evictions of an exited warp are dropped");
        v.record(Owner::NONE, 9, W3);
        assert_eq!(v.classify(Owner::NONE, 9), MissClass::Other);
    }
}
