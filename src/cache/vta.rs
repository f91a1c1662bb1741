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

/// One warp's victim tags: a FIFO of (block, evictor) records, oldest first, at most `cap`
/// of them. A consumed record leaves a hole rather than closing the gap, so neither a take
/// nor a push moves records but the occasional compaction; a one-byte fingerprint per slot
/// lets a lookup read a cache line or two rather than every record (on uncoalesced kernels
/// nearly every miss finds its record, most often near the oldest end).
#[derive(Debug, Clone, Default)]
struct Vta {
    gid: u32,
    /// Slots `start..end` hold the FIFO, holes included; allocated at the first record.
    entries: Vec<(u64, Owner)>,
    fps: Vec<u8>,
    start: usize,
    end: usize,
    live: usize,
}

/// The block of a consumed record's slot; no block number reaches it (addresses are
/// shifted right by the line size).
const HOLE: u64 = u64::MAX;

/// A block's fingerprint: the top byte of a multiplicative hash, so lines a power of two
/// apart differ.
fn fingerprint(block: u64) -> u8 {
    (block.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 56) as u8
}

impl Vta {
    fn clear(&mut self) {
        (self.start, self.end, self.live) = (0, 0, 0);
    }

    fn push(&mut self, cap: usize, block: u64, evictor: Owner) {
        if self.entries.is_empty() {
            // Half as many slots again as records: a compaction at most every cap/2 pushes.
            // Fingerprints are read eight at a time.
            let slots = (cap + cap / 2 + 1).div_ceil(8) * 8;
            self.entries = vec![(HOLE, Owner::NONE); slots];
            self.fps = vec![0; slots];
        }
        if self.live == cap {
            self.skip_holes();
            self.entries[self.start].0 = HOLE;
            self.start += 1;
            self.live -= 1;
        }
        if self.end == self.entries.len() {
            self.compact();
        }
        self.entries[self.end] = (block, evictor);
        self.fps[self.end] = fingerprint(block);
        self.end += 1;
        self.live += 1;
    }

    fn skip_holes(&mut self) {
        while self.start < self.end && self.entries[self.start].0 == HOLE {
            self.start += 1;
        }
    }

    /// Moves the live records, in order, to the front.
    fn compact(&mut self) {
        let mut to = 0;
        for from in self.start..self.end {
            if self.entries[from].0 != HOLE {
                self.entries[to] = self.entries[from];
                self.fps[to] = self.fps[from];
                to += 1;
            }
        }
        (self.start, self.end) = (0, to);
    }

    /// Removes the newest record of `block`, returning its evictor. Most records are found
    /// near the oldest end, so the scan reads eight fingerprints a step, newest first.
    fn take(&mut self, block: u64) -> Option<Owner> {
        const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
        let want = 0x0101_0101_0101_0101 * u64::from(fingerprint(block));
        let (start, end) = (self.start, self.end);
        let mut base = end.div_ceil(8) * 8;
        while base > start - start % 8 {
            base -= 8;
            let word = u64::from_le_bytes(self.fps[base..base + 8].try_into().expect("eight bytes"));
            let x = word ^ want;
            // The top bit of each byte of `x` that is zero, exactly: that slot's fingerprint matches.
            let mut hits = !(((x & LOW7) + LOW7) | x | LOW7) & in_range(base, start, end);
            while hits != 0 {
                let byte = 7 - (hits.leading_zeros() / 8) as usize;
                hits &= !(0x80 << (8 * byte));
                let at = base + byte;
                if self.entries[at].0 == block {
                    self.entries[at].0 = HOLE;
                    self.live -= 1;
                    if at + 1 == end {
                        self.end -= 1;
                    }
                    return Some(self.entries[at].1);
                }
            }
        }
        None
    }
}

/// The top bits of the bytes of the eight slots from `base` that lie in `start..end`.
fn in_range(base: usize, start: usize, end: usize) -> u64 {
    let below = |n: usize| if n >= 8 { u64::MAX } else { (1u64 << (8 * n)) - 1 };
    let mask = below(end - base) & !below(start.saturating_sub(base));
    mask & 0x8080_8080_8080_8080
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
        if w.gid > v.gid || (v.live == 0 && w.gid != v.gid) {
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
    fn the_fifo_holds_its_order_through_holes_and_compactions() {
        let mut v = VictimTags::new(1, 64);
        for b in 0..1000u64 {
            v.record(W0, b * 4096, W0);
        }
        for b in (0..1000u64).rev() {
            let want = if b >= 936 { MissClass::IntraWarp } else { MissClass::Other };
            assert_eq!(v.classify(W0, b * 4096), want, "block {b}");
        }
        assert_eq!(v.vtas[0].live, 0);
        v.record(W0, 7, W3);
        assert_eq!(v.classify(W0, 7), MissClass::InterWarp { aggressor: W3 });
    }

    /// The FIFO with holes against the plain one it replaces, on random records and misses
    /// over few blocks, so that duplicates, holes at both ends and compactions all occur.
    #[test]
    fn records_and_misses_match_a_plain_fifo() {
        use rand::{Rng, SeedableRng};
        for cap in [1usize, 2, 5, 64] {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(cap as u64);
            let mut v = VictimTags::new(1, cap);
            let mut model = std::collections::VecDeque::new();
            for step in 0..20_000 {
                let block = rng.gen_range(0..(2 * cap as u64 + 3));
                if rng.gen_bool(0.5) {
                    let evictor = if rng.gen_bool(0.5) { W0 } else { W3 };
                    v.record(W0, block, evictor);
                    if model.len() == cap {
                        model.pop_front();
                    }
                    model.push_back((block, evictor));
                } else {
                    let want = match model.iter().rposition(|&(b, _)| b == block) {
                        Some(i) if model.remove(i).unwrap().1 == W0 => MissClass::IntraWarp,
                        Some(_) => MissClass::InterWarp { aggressor: W3 },
                        None => MissClass::Other,
                    };
                    assert_eq!(v.classify(W0, block), want, "cap {cap}, step {step}");
                }
            }
        }
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
