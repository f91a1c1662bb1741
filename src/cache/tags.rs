//! A set-associative tag array with a per-set recency stack.
//!
//! The stack (MRU first) rather than LRU timestamps makes insertion at any position
//! natural, which insertion policies (near-LRU, middle, MRU) need.

use super::set_index::SetIndexKind;
use super::vta::Owner;
use super::SetIndex;
use crate::settings::policy_enum;

policy_enum!(
    /// Victim choice within a set (`l1d.replacement`, `l2.replacement`).
    ReplacementKind {
        Lru => "lru",
    }
);

/// What a line holds besides its block, which lives in `TagArray::keys`.
#[derive(Debug, Clone, Copy)]
struct Line {
    dirty: bool,
    /// The warp whose miss allocated the line (iWarp's WID field).
    owner: Owner,
}

impl Default for Line {
    fn default() -> Self {
        Self { dirty: false, owner: Owner::NONE }
    }
}

/// Result of looking a block up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Probe {
    Hit {
        set: usize,
        way: usize,
    },
    /// The block has a reserved line whose fill is pending.
    HitReserved {
        set: usize,
        way: usize,
    },
    /// Not present; `victim` is the way to replace, or `None` when every way is reserved.
    Miss {
        set: usize,
        victim: Option<usize>,
    },
}

/// A line pushed out by an allocation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Evicted {
    pub block: u64,
    pub dirty: bool,
    pub owner: Owner,
}

#[derive(Debug, Clone)]
pub struct TagArray {
    ways: usize,
    index: SetIndex,
    lines: Vec<Line>,
    /// Per line, its block (with `RESERVED` set while its fill is pending), or `EMPTY`: a
    /// lookup and a victim choice read only these 8-byte keys (the hottest loop of
    /// functional warming), never the lines.
    keys: Vec<u64>,
    /// Per set, way numbers from MRU to LRU.
    order: Vec<u8>,
}

/// The key of a line holding nothing; no block number reaches it (addresses are shifted
/// right by the line size).
const EMPTY: u64 = u64::MAX >> 1;
/// Marks a key whose line is reserved for an outstanding miss, its data not yet here.
const RESERVED: u64 = 1 << 63;

/// Whether a line with this key holds a block's data: neither empty nor awaiting its fill.
fn holds_data(key: u64) -> bool {
    key != EMPTY && key & RESERVED == 0
}

impl TagArray {
    /// # Panics
    /// If `kind` cannot index `sets` sets of `line_bytes`-byte lines; config validation
    /// (and the teaching mode's own check) rule that out first.
    pub fn new(sets: u32, ways: u32, line_bytes: u32, kind: SetIndexKind) -> Self {
        let index = SetIndex::new(kind, sets, line_bytes).unwrap_or_else(|e| panic!("unvalidated geometry: {e}"));
        let (sets, ways) = (sets as usize, ways as usize);
        let order = (0..sets).flat_map(|_| (0..ways).map(|w| w as u8)).collect();
        Self { ways, index, lines: vec![Line::default(); sets * ways], keys: vec![EMPTY; sets * ways], order }
    }

    pub fn sets(&self) -> usize {
        self.lines.len() / self.ways
    }

    pub fn set_of(&self, block: u64) -> usize {
        self.index.set_of(block)
    }

    pub fn probe(&self, block: u64) -> Probe {
        self.probe_at(self.index.set_of(block), block)
    }

    /// Looks the block up in a given set (for sampled shadow tags that index differently).
    pub fn probe_at(&self, set: usize, block: u64) -> Probe {
        let base = set * self.ways;
        debug_assert!(block < EMPTY);
        let keys = &self.keys[base..base + self.ways];
        if let Some(way) = keys.iter().position(|&k| k & !RESERVED == block) {
            return if keys[way] & RESERVED != 0 { Probe::HitReserved { set, way } } else { Probe::Hit { set, way } };
        }
        let order = &self.order[base..base + self.ways];
        let victim = order
            .iter()
            .map(|&w| w as usize)
            .find(|&w| keys[w] == EMPTY)
            .or_else(|| order.iter().rev().map(|&w| w as usize).find(|&w| keys[w] & RESERVED == 0));
        Probe::Miss { set, victim }
    }

    /// Moves the way to the MRU position.
    pub fn touch(&mut self, set: usize, way: usize) {
        self.move_to(set, way, 0);
    }

    /// Places `block` in (set, way) at recency position `pos` (0 = MRU), returning the
    /// valid line it replaced. `reserved` lines wait for `fill`.
    pub fn allocate(&mut self, set: usize, way: usize, block: u64, reserved: bool, pos: usize) -> Option<Evicted> {
        let i = set * self.ways + way;
        let (key, l) = (self.keys[i], self.lines[i]);
        let old = holds_data(key).then_some(Evicted { block: key, dirty: l.dirty, owner: l.owner });
        self.lines[i] = Line::default();
        self.keys[i] = if reserved { block | RESERVED } else { block };
        self.move_to(set, way, pos.min(self.ways - 1));
        old
    }

    /// Whether evicting (set, way) would need a write-back: a valid, dirty line.
    pub fn is_dirty(&self, set: usize, way: usize) -> bool {
        let i = set * self.ways + way;
        holds_data(self.keys[i]) && self.lines[i].dirty
    }

    /// Completes a reserved line's fill. Returns false if the block is not reserved here.
    pub fn fill(&mut self, block: u64) -> bool {
        match self.probe(block) {
            Probe::HitReserved { set, way } => {
                self.keys[set * self.ways + way] = block;
                true
            }
            _ => false,
        }
    }

    /// Tags the line with the warp that allocated it.
    pub fn set_owner(&mut self, set: usize, way: usize, owner: Owner) {
        self.lines[set * self.ways + way].owner = owner;
    }

    pub fn set_dirty(&mut self, set: usize, way: usize) {
        self.lines[set * self.ways + way].dirty = true;
    }

    /// Drops a valid (not reserved) copy of the block; returns whether one was there.
    pub fn invalidate(&mut self, block: u64) -> bool {
        if let Probe::Hit { set, way } = self.probe(block) {
            self.keys[set * self.ways + way] = EMPTY;
            let last = self.ways - 1;
            self.move_to(set, way, last);
            return true;
        }
        false
    }

    /// Lines reserved for pending fills (zero at the end of a clean run).
    pub fn reserved_lines(&self) -> usize {
        self.keys.iter().filter(|&&k| k & RESERVED != 0).count()
    }

    fn move_to(&mut self, set: usize, way: usize, pos: usize) {
        let order = &mut self.order[set * self.ways..(set + 1) * self.ways];
        let cur = order.iter().position(|&w| w as usize == way).expect("way is in its set's order");
        // A plain shift: the slices are a few bytes, where `rotate` costs a call to memmove.
        if cur < pos {
            for i in cur..pos {
                order[i] = order[i + 1];
            }
        } else {
            for i in (pos..cur).rev() {
                order[i + 1] = order[i];
            }
        }
        order[pos] = way as u8;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hit(t: &TagArray, b: u64) -> bool {
        matches!(t.probe(b), Probe::Hit { .. })
    }

    fn insert(t: &mut TagArray, b: u64) -> Option<Evicted> {
        match t.probe(b) {
            Probe::Miss { set, victim: Some(way) } => t.allocate(set, way, b, false, 0),
            p => panic!("expected a miss with a victim, got {p:?}"),
        }
    }

    #[test]
    fn lru_evicts_least_recently_used() {
        let mut t = TagArray::new(1, 4, 128, SetIndexKind::Linear);
        for b in 0..4 {
            assert_eq!(insert(&mut t, b), None);
        }
        if let Probe::Hit { set, way } = t.probe(0) {
            t.touch(set, way);
        }
        assert_eq!(insert(&mut t, 4), Some(Evicted { block: 1, dirty: false, owner: Owner::NONE }));
        assert!(hit(&t, 0) && hit(&t, 4) && !hit(&t, 1));
    }

    #[test]
    fn reserved_lines_are_never_victims() {
        let mut t = TagArray::new(1, 2, 128, SetIndexKind::Linear);
        for b in [10, 11] {
            if let Probe::Miss { set, victim: Some(w) } = t.probe(b) {
                t.allocate(set, w, b, true, 0);
            }
        }
        assert_eq!(t.probe(12), Probe::Miss { set: 0, victim: None });
        assert!(matches!(t.probe(10), Probe::HitReserved { .. }));
        assert!(t.fill(10));
        assert!(hit(&t, 10));
        assert_eq!(t.reserved_lines(), 1);
    }

    #[test]
    fn insertion_at_lru_position_is_evicted_first() {
        let mut t = TagArray::new(1, 4, 128, SetIndexKind::Linear);
        for b in 0..3 {
            insert(&mut t, b);
        }
        if let Probe::Miss { set, victim: Some(w) } = t.probe(99) {
            t.allocate(set, w, 99, false, 3);
        }
        assert_eq!(insert(&mut t, 5), Some(Evicted { block: 99, dirty: false, owner: Owner::NONE }));
    }

    #[test]
    fn dirty_bit_and_owner_travel_with_the_eviction() {
        let mut t = TagArray::new(1, 1, 128, SetIndexKind::Linear);
        insert(&mut t, 7);
        t.set_dirty(0, 0);
        let w = Owner { key: 2, gid: 9 };
        t.set_owner(0, 0, w);
        assert_eq!(insert(&mut t, 8), Some(Evicted { block: 7, dirty: true, owner: w }));
    }
}
