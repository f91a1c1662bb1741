//! Per-warp L2 hit ratios and MeDiC's warp types.

use crate::cache::l2::warp_type::{type_index, WarpType, WarpTypeTable};
use crate::cache::l2::WarpL2Counters;
use serde::{Deserialize, Serialize};

/// Fractions of warps (with at least one L2 read) of each type, by whole-run L2 hit ratio
/// and the configured boundaries (by default all-hit 100 %, mostly-hit >= 70 %, balanced,
/// mostly-miss <= 20 %, all-miss 0 %).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct WarpTypes {
    pub all_hit: f64,
    pub mostly_hit: f64,
    pub balanced: f64,
    pub mostly_miss: f64,
    pub all_miss: f64,
}

/// Fractions of the reads the L2 partitions accepted (looked up or bypassed), by the type
/// the online classifier held for the reading warp (`medic.warp_id`) when it was routed;
/// `profiling` while the warp is within its first profile of a window. WByp sends the
/// `mostly_miss` and `all_miss` reads to DRAM. Bypassed reads do not train the table, so
/// under WByp a warp typed mostly-miss stays so until the next reset: the share under the
/// baseline is a lower bound for what WByp bypasses.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ReadsByType {
    pub profiling: f64,
    pub all_hit: f64,
    pub mostly_hit: f64,
    pub balanced: f64,
    pub mostly_miss: f64,
    pub all_miss: f64,
}

impl WarpTypes {
    /// (type name, fraction) from all-hit to all-miss.
    pub fn shares(&self) -> [(&'static str, f64); 5] {
        [
            ("all-hit", self.all_hit),
            ("mostly-hit", self.mostly_hit),
            ("balanced", self.balanced),
            ("mostly-miss", self.mostly_miss),
            ("all-miss", self.all_miss),
        ]
    }
}

impl ReadsByType {
    /// (type name, fraction), profiling first, then all-hit to all-miss.
    pub fn shares(&self) -> [(&'static str, f64); 6] {
        [
            ("profiling", self.profiling),
            ("all-hit", self.all_hit),
            ("mostly-hit", self.mostly_hit),
            ("balanced", self.balanced),
            ("mostly-miss", self.mostly_miss),
            ("all-miss", self.all_miss),
        ]
    }

    fn from_counts(n: &[u64; 6]) -> Self {
        let total: u64 = n.iter().sum();
        let f = |k: u64| if total == 0 { 0.0 } else { k as f64 / total as f64 };
        Self {
            profiling: f(n[0]),
            all_hit: f(n[1]),
            mostly_hit: f(n[2]),
            balanced: f(n[3]),
            mostly_miss: f(n[4]),
            all_miss: f(n[5]),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WarpReport {
    /// Dynamic warps that read from the L2 at least once.
    pub count: u64,
    /// Warps per 10 %-wide bin of L2 hit ratio; the last bin includes 100 %.
    pub l2_hit_ratio_histogram: Vec<u64>,
    pub types: WarpTypes,
    pub mean_l2_hit_ratio: f64,
    /// L2 hit ratio and type of a few warps in each `medic.reset_interval` window, as the
    /// online classifier counted them (MeDiC fig. 5).
    pub hit_ratio_series: HitRatioSeries,
    /// The reads the partitions accepted, by the type their warp held then.
    pub l2_reads_by_type: ReadsByType,
    /// Of consecutive windows of one warp with a full profile each, the share in which
    /// the warp kept its type (MeDiC's observation 2).
    pub type_stability: f64,
    pub type_stability_pairs: u64,
    /// The mostly-miss boundary in force at the end of the run (dynamically lowered).
    pub mostly_miss_boundary: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HitRatioSeries {
    pub window_cycles: u64,
    pub warps: Vec<WarpSeries>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WarpSeries {
    pub warp: u32,
    /// Window index (window k covers core cycles k x window_cycles onwards).
    pub windows: Vec<u64>,
    pub hit_ratio: Vec<f64>,
    pub types: Vec<WarpType>,
}

/// The `n` warps seen in the most windows (ties: most L2 reads, then lowest id).
fn series(t: &WarpTypeTable, n: usize) -> HitRatioSeries {
    let mut ranked: Vec<(usize, u64, u32)> = (0..t.warps())
        .map(|w| {
            let s = t.samples(w);
            (s.len(), s.iter().map(|x| x.accesses as u64).sum(), w)
        })
        .filter(|r| r.0 > 0)
        .collect();
    ranked.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(b.1.cmp(&a.1)).then(a.2.cmp(&b.2)));
    let mut picked: Vec<u32> = ranked.iter().take(n).map(|r| r.2).collect();
    picked.sort_unstable();
    let warps = picked
        .into_iter()
        .map(|w| {
            let s = t.samples(w);
            WarpSeries {
                warp: w,
                windows: s.iter().map(|x| x.window).collect(),
                hit_ratio: s.iter().map(|x| x.hits as f64 / x.accesses as f64).collect(),
                types: s.iter().map(|x| x.wtype).collect(),
            }
        })
        .collect();
    HitRatioSeries { window_cycles: t.interval(), warps }
}

pub fn warp_report(c: &WarpL2Counters, table: &WarpTypeTable, sampled: usize) -> WarpReport {
    let mut hist = vec![0u64; 10];
    let mut n = [0u64; 5];
    let mut count = 0u64;
    let mut sum = 0.0;
    for (&a, &h) in c.accesses.iter().zip(&c.hits) {
        if a == 0 {
            continue;
        }
        count += 1;
        let r = h as f64 / a as f64;
        sum += r;
        hist[((r * 10.0) as usize).min(9)] += 1;
        n[type_index(table.classify_nominal(h, a)) - 1] += 1;
    }
    let f = |k: u64| if count == 0 { 0.0 } else { k as f64 / count as f64 };
    WarpReport {
        count,
        l2_hit_ratio_histogram: hist,
        types: WarpTypes {
            all_hit: f(n[0]),
            mostly_hit: f(n[1]),
            balanced: f(n[2]),
            mostly_miss: f(n[3]),
            all_miss: f(n[4]),
        },
        mean_l2_hit_ratio: if count == 0 { 0.0 } else { sum / count as f64 },
        hit_ratio_series: series(table, sampled),
        l2_reads_by_type: ReadsByType::from_counts(&table.reads_by_type),
        type_stability: {
            let (same, pairs) = table.stability();
            if pairs == 0 {
                0.0
            } else {
                same as f64 / pairs as f64
            }
        },
        type_stability_pairs: table.stability().1,
        mostly_miss_boundary: table.boundary(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_follow_medic_boundaries() {
        let mut c = WarpL2Counters::default();
        let cases = [(10, 10), (10, 7), (10, 5), (10, 2), (10, 0), (10, 3)];
        for (w, &(a, h)) in cases.iter().enumerate() {
            for i in 0..a {
                c.record(w as u32, i < h);
            }
        }
        let table = WarpTypeTable::new(&crate::config::MedicConfig::default());
        let r = warp_report(&c, &table, 8);
        assert_eq!(r.count, 6);
        let t = r.types;
        assert_eq!((t.all_hit, t.mostly_hit, t.mostly_miss, t.all_miss), (1.0 / 6.0, 1.0 / 6.0, 1.0 / 6.0, 1.0 / 6.0));
        assert!((t.balanced - 2.0 / 6.0).abs() < 1e-12);
        assert_eq!(r.l2_hit_ratio_histogram, vec![1, 0, 1, 1, 0, 1, 0, 1, 0, 1]);
        // The configured boundaries, not the paper's defaults, sort the warps.
        let m = crate::config::MedicConfig { mostly_hit_ratio: 0.8, mostly_miss_ratio: 0.3, ..Default::default() };
        let t = warp_report(&c, &WarpTypeTable::new(&m), 8).types;
        assert_eq!((t.mostly_hit, t.mostly_miss), (0.0, 2.0 / 6.0), "7/10 is balanced, 3/10 mostly-miss");
    }
}
