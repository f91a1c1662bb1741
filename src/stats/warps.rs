//! Per-warp L2 hit ratios and MeDiC's warp types.

use crate::cache::l2::WarpL2Counters;
use serde::{Deserialize, Serialize};

/// Fractions of warps (with at least one L2 read) of each type, by L2 hit ratio:
/// all-hit 100 %, mostly-hit >= 70 %, balanced, mostly-miss <= 20 %, all-miss 0 %.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct WarpTypes {
    pub all_hit: f64,
    pub mostly_hit: f64,
    pub balanced: f64,
    pub mostly_miss: f64,
    pub all_miss: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WarpReport {
    /// Dynamic warps that read from the L2 at least once.
    pub count: u64,
    /// Warps per 10 %-wide bin of L2 hit ratio; the last bin includes 100 %.
    pub l2_hit_ratio_histogram: Vec<u64>,
    pub types: WarpTypes,
    pub mean_l2_hit_ratio: f64,
}

pub fn warp_report(c: &WarpL2Counters) -> WarpReport {
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
        let t = if h == a {
            0
        } else if h == 0 {
            4
        } else if r >= 0.7 {
            1
        } else if r <= 0.2 {
            3
        } else {
            2
        };
        n[t] += 1;
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
        let r = warp_report(&c);
        assert_eq!(r.count, 6);
        let t = r.types;
        assert_eq!((t.all_hit, t.mostly_hit, t.mostly_miss, t.all_miss), (1.0 / 6.0, 1.0 / 6.0, 1.0 / 6.0, 1.0 / 6.0));
        assert!((t.balanced - 2.0 / 6.0).abs() < 1e-12);
        assert_eq!(r.l2_hit_ratio_histogram, vec![1, 0, 1, 1, 0, 1, 0, 1, 0, 1]);
    }
}
