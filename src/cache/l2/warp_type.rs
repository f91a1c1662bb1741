//! MeDiC's warp-type identification (HPCA 2015, §4.1): per-warp L2 hit and access
//! counters, reset every `medic.reset_interval` core cycles; after each reset a warp is
//! profiled for its first `profile_accesses` L2 reads (no bypass decision meanwhile),
//! then typed by its hit ratio. The mostly-miss boundary drops by `boundary_step` for
//! every `boundary_step` rise of the L2 miss rate over the first window's; that rate
//! counts bypassed reads as misses or leaves them out (`medic.boundary_rate`).
//!
//! Resets are applied lazily — a warp's counters roll over when it is next seen in a
//! later window — so the table needs no clock events and idle skipping stays exact.
//! Every finished window of every warp is kept (hits, reads, type) for the report's
//! hit ratio over time and for measuring how stable the types are.

use super::config::{BoundaryRateKind, MedicConfig};

/// The type the classifier assigns; defined with the request that carries it.
pub use crate::mem::WarpType;

/// What the bypass demultiplexer reads from a warp's metadata.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WarpView {
    pub wtype: WarpType,
    /// Still within the first `profile_accesses` reads after a reset.
    pub profiling: bool,
}

/// One finished (or, in the report, current) window of one warp.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WindowSample {
    pub window: u64,
    pub hits: u32,
    pub accesses: u32,
    pub wtype: WarpType,
}

#[derive(Debug, Clone, Default)]
struct WarpState {
    window: u64,
    hits: u32,
    accesses: u32,
    /// Reads since the last reset (not halved), for the profiling phase.
    reads: u32,
    wtype: WarpType,
    history: Vec<WindowSample>,
}

#[derive(Debug, Clone)]
pub struct WarpTypeTable {
    interval: u64,
    profile: u32,
    top_bit: u32,
    hit_ratio: f64,
    base_miss_ratio: f64,
    step: f64,
    /// Bypassed reads count as misses of the window's miss rate.
    bypass_is_miss: bool,
    window: u64,
    warps: Vec<WarpState>,
    win_reads: u64,
    win_misses: u64,
    first_miss_rate: Option<f64>,
    /// The mostly-miss boundary in force.
    boundary: f64,
    /// (window, boundary in force during it) of every closed window, in order.
    past_boundaries: Vec<(u64, f64)>,
    /// Reads the partitions accepted (looked up or bypassed), by the type their warp held
    /// when routed (`type_index`; index 0 is reads of warps still being profiled).
    pub reads_by_type: [u64; 6],
}

impl WarpTypeTable {
    pub fn new(m: &MedicConfig) -> Self {
        Self {
            interval: m.reset_interval.max(1),
            profile: m.profile_accesses,
            top_bit: 1 << (m.counter_bits.clamp(2, 16) - 1),
            hit_ratio: m.mostly_hit_ratio,
            base_miss_ratio: m.mostly_miss_ratio,
            step: m.boundary_step,
            bypass_is_miss: m.boundary_rate == BoundaryRateKind::DramServed,
            window: 0,
            warps: Vec::new(),
            win_reads: 0,
            win_misses: 0,
            first_miss_rate: None,
            boundary: m.mostly_miss_ratio,
            past_boundaries: Vec::new(),
            reads_by_type: [0; 6],
        }
    }

    pub fn interval(&self) -> u64 {
        self.interval
    }

    pub fn boundary(&self) -> f64 {
        self.boundary
    }

    /// The type of `hits` out of `accesses` under the current boundaries.
    pub fn classify(&self, hits: u32, accesses: u32) -> WarpType {
        self.classify_with(hits, accesses, self.boundary)
    }

    /// The type of a warp's whole-run `hits` out of `accesses` under the configured (not the
    /// dynamically lowered) boundaries: the characterisation of the paper's Table II.
    pub fn classify_nominal(&self, hits: u32, accesses: u32) -> WarpType {
        self.classify_with(hits, accesses, self.base_miss_ratio)
    }

    /// The boundary that was in force during window `w`.
    fn boundary_at(&self, w: u64) -> f64 {
        match self.past_boundaries.binary_search_by_key(&w, |p| p.0) {
            Ok(i) => self.past_boundaries[i].1,
            Err(_) => self.boundary,
        }
    }

    fn classify_with(&self, hits: u32, accesses: u32, boundary: f64) -> WarpType {
        if accesses == 0 {
            return WarpType::Unknown;
        }
        let r = hits as f64 / accesses as f64;
        if hits == accesses {
            WarpType::AllHit
        } else if hits == 0 {
            WarpType::AllMiss
        } else if r >= self.hit_ratio {
            WarpType::MostlyHit
        } else if r <= boundary {
            WarpType::MostlyMiss
        } else {
            WarpType::Balanced
        }
    }

    /// Closes the global window when `now` is past it: retunes the mostly-miss boundary.
    fn roll(&mut self, now_core: u64) {
        let w = now_core / self.interval;
        if w == self.window {
            return;
        }
        self.past_boundaries.push((self.window, self.boundary));
        if self.win_reads > 0 {
            let rate = self.win_misses as f64 / self.win_reads as f64;
            let first = *self.first_miss_rate.get_or_insert(rate);
            if self.step > 0.0 {
                let steps = ((rate - first) / self.step).floor().max(0.0);
                self.boundary = (self.base_miss_ratio - steps * self.step).max(0.0);
            }
        }
        self.window = w;
        self.win_reads = 0;
        self.win_misses = 0;
    }

    /// The warp's state with its counters reset if its window has ended.
    fn state(&mut self, warp: u32, now_core: u64) -> &mut WarpState {
        self.roll(now_core);
        let w = warp as usize;
        if w >= self.warps.len() {
            self.warps.resize(w + 1, WarpState { window: self.window, ..WarpState::default() });
        }
        let window = self.window;
        let boundary_type = {
            let s = &self.warps[w];
            (s.window != window && s.accesses > 0)
                .then(|| self.classify_with(s.hits, s.accesses, self.boundary_at(s.window)))
        };
        let s = &mut self.warps[w];
        if s.window != window {
            if let Some(t) = boundary_type {
                s.history.push(WindowSample { window: s.window, hits: s.hits, accesses: s.accesses, wtype: t });
            }
            s.window = window;
            s.hits = 0;
            s.accesses = 0;
            s.reads = 0;
        }
        s
    }

    /// The warp's stored type and whether it is being profiled, as of core cycle `now`.
    pub fn view(&mut self, warp: u32, now_core: u64) -> WarpView {
        let profile = self.profile;
        let s = self.state(warp, now_core);
        WarpView { wtype: s.wtype, profiling: s.reads < profile }
    }

    /// Counts one L2 read lookup of `warp`; types the warp once profiling is over.
    pub fn record(&mut self, warp: u32, hit: bool, now_core: u64) {
        let (profile, top) = (self.profile, self.top_bit);
        let s = self.state(warp, now_core);
        s.accesses += 1;
        s.hits += hit as u32;
        s.reads = s.reads.saturating_add(1);
        if s.accesses & top != 0 {
            s.accesses >>= 1;
            s.hits >>= 1;
        }
        let (hits, accesses, reads, old) = (s.hits, s.accesses, s.reads, s.wtype);
        let t = if reads >= profile { self.classify(hits, accesses) } else { old };
        self.warps[warp as usize].wtype = t;
        self.win_reads += 1;
        self.win_misses += !hit as u64;
    }

    /// Counts one read sent straight to DRAM: a miss of the window's rate under `dram_served`.
    pub fn record_bypass(&mut self, now_core: u64) {
        if self.bypass_is_miss {
            self.roll(now_core);
            self.win_reads += 1;
            self.win_misses += 1;
        }
    }

    /// Counts one read routed while its warp's table entry read `v`.
    pub fn count_routed(&mut self, v: WarpView) {
        let i = if v.profiling { 0 } else { type_index(v.wtype) };
        self.reads_by_type[i] += 1;
    }

    /// L2 hits of `warp` in window `w` (0 when it read nothing then); PCAL grants tokens
    /// by them.
    pub fn hits_in(&self, warp: u32, w: u64) -> u32 {
        let Some(s) = self.warps.get(warp as usize) else { return 0 };
        if s.window == w {
            return s.hits;
        }
        s.history.iter().rev().find(|h| h.window == w).map_or(0, |h| h.hits)
    }

    /// Warps the table has seen, in id order.
    pub fn warps(&self) -> u32 {
        self.warps.len() as u32
    }

    /// Every window of `warp` with L2 reads, the current one included.
    pub fn samples(&self, warp: u32) -> Vec<WindowSample> {
        let Some(s) = self.warps.get(warp as usize) else { return Vec::new() };
        let mut v = s.history.clone();
        if s.accesses > 0 {
            v.push(WindowSample {
                window: s.window,
                hits: s.hits,
                accesses: s.accesses,
                wtype: self.classify(s.hits, s.accesses),
            });
        }
        v
    }

    /// (pairs of consecutive windows of one warp, both profiled, with the same type; all such pairs).
    pub fn stability(&self) -> (u64, u64) {
        let (mut same, mut pairs) = (0, 0);
        for w in 0..self.warps() {
            let v = self.samples(w);
            for p in v.windows(2) {
                let full = |s: &WindowSample| s.accesses >= self.profile.min(self.top_bit);
                if p[1].window == p[0].window + 1 && full(&p[0]) && full(&p[1]) {
                    pairs += 1;
                    same += (p[0].wtype == p[1].wtype) as u64;
                }
            }
        }
        (same, pairs)
    }
}

/// Index into `reads_by_type`; `Unknown` (never profiled) shares 0 with profiling.
pub fn type_index(t: WarpType) -> usize {
    match t {
        WarpType::Unknown => 0,
        WarpType::AllHit => 1,
        WarpType::MostlyHit => 2,
        WarpType::Balanced => 3,
        WarpType::MostlyMiss => 4,
        WarpType::AllMiss => 5,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> WarpTypeTable {
        WarpTypeTable::new(&MedicConfig { reset_interval: 1000, ..MedicConfig::default() })
    }

    #[test]
    fn profiles_thirty_reads_then_types() {
        let mut t = table();
        for i in 0..29 {
            t.record(3, i % 10 == 0, 5);
        }
        assert_eq!(t.view(3, 5), WarpView { wtype: WarpType::Unknown, profiling: true });
        t.record(3, false, 5);
        assert_eq!(t.view(3, 5), WarpView { wtype: WarpType::MostlyMiss, profiling: false });
    }

    #[test]
    fn reset_reprofiles_but_keeps_the_type() {
        let mut t = table();
        for _ in 0..40 {
            t.record(0, true, 10);
        }
        assert_eq!(t.view(0, 999).wtype, WarpType::AllHit);
        let v = t.view(0, 1000);
        assert_eq!(v, WarpView { wtype: WarpType::AllHit, profiling: true });
        assert_eq!(t.samples(0), vec![WindowSample { window: 0, hits: 40, accesses: 40, wtype: WarpType::AllHit }]);
        assert_eq!(t.hits_in(0, 0), 40);
    }

    #[test]
    fn ten_bit_counters_halve_at_the_top_bit() {
        let mut t = table();
        for i in 0..512 {
            t.record(1, i % 2 == 0, 0);
        }
        let s = &t.samples(1)[0];
        assert_eq!((s.accesses, s.hits), (256, 128));
    }

    #[test]
    fn boundaries_seventy_and_twenty() {
        let t = table();
        assert_eq!(t.classify(7, 10), WarpType::MostlyHit);
        assert_eq!(t.classify(69, 100), WarpType::Balanced);
        assert_eq!(t.classify(2, 10), WarpType::MostlyMiss);
        assert_eq!(t.classify(21, 100), WarpType::Balanced);
        assert_eq!((t.classify(5, 5), t.classify(0, 5)), (WarpType::AllHit, WarpType::AllMiss));
    }

    #[test]
    fn boundary_drops_five_points_per_five_point_miss_rate_rise() {
        let mut t = table();
        // Window 0: 10 % misses; window 1: 21 % misses (two 5-point steps up).
        for i in 0..100 {
            t.record(i % 7, i >= 10, 0);
        }
        for i in 0..100 {
            t.record(i % 7, i >= 21, 1000);
        }
        t.view(0, 2000);
        assert!((t.boundary() - 0.1).abs() < 1e-9, "{}", t.boundary());
        for i in 0..100 {
            t.record(i % 7, i >= 5, 2000);
        }
        t.view(0, 3000);
        assert!((t.boundary() - 0.2).abs() < 1e-9, "{}", t.boundary());
    }

    #[test]
    fn bypassed_reads_raise_the_rate_only_under_dram_served() {
        for (rate, boundary) in [(BoundaryRateKind::L2Lookups, 0.2), (BoundaryRateKind::DramServed, 0.1)] {
            let m = MedicConfig { reset_interval: 1000, boundary_rate: rate, ..MedicConfig::default() };
            let mut t = WarpTypeTable::new(&m);
            // Window 0: 10 % of 100 lookups miss. Window 1: the same lookups, and 15 reads
            // bypass: 25 of 115 reads go to DRAM (21.7 %, two 5-point steps up).
            for i in 0..100 {
                t.record(i % 7, i < 90, 0);
            }
            for i in 0..100 {
                t.record(i % 7, i < 90, 1000);
            }
            for _ in 0..15 {
                t.record_bypass(1000);
            }
            t.view(0, 2000);
            assert!((t.boundary() - boundary).abs() < 1e-9, "{rate:?}: {}", t.boundary());
        }
    }

    #[test]
    fn stability_counts_consecutive_profiled_windows() {
        let mut t = table();
        for w in 0..3u64 {
            for i in 0..40 {
                t.record(0, w < 2 || i % 2 == 0, w * 1000);
            }
        }
        assert_eq!(t.stability(), (1, 2));
    }
}
