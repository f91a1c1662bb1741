//! A fixed-width histogram with an overflow bin, plus the exact sum and count so the
//! mean is not quantised.

use serde::{Deserialize, Serialize};

/// One metric's distribution; also read back from saved report JSON by the charts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Histogram {
    pub bin_width: u64,
    /// counts[i] holds samples in [i * bin_width, (i + 1) * bin_width).
    pub counts: Vec<u64>,
    /// Samples at or above bins * bin_width.
    pub overflow: u64,
    pub samples: u64,
    pub sum: u64,
    pub max: u64,
}

/// An empty histogram with no bins: every sample would land in the overflow.
impl Default for Histogram {
    fn default() -> Self {
        Self::new(1, 0)
    }
}

impl Histogram {
    pub fn new(bin_width: u64, bins: usize) -> Self {
        Self { bin_width: bin_width.max(1), counts: vec![0; bins], overflow: 0, samples: 0, sum: 0, max: 0 }
    }

    #[inline]
    pub fn add(&mut self, v: u64) {
        let i = (v / self.bin_width) as usize;
        match self.counts.get_mut(i) {
            Some(c) => *c += 1,
            None => self.overflow += 1,
        }
        self.samples += 1;
        self.sum += v;
        self.max = self.max.max(v);
    }

    pub fn mean(&self) -> f64 {
        if self.samples == 0 {
            0.0
        } else {
            self.sum as f64 / self.samples as f64
        }
    }

    /// Adds another histogram of the same shape.
    pub fn merge(&mut self, o: &Histogram) {
        debug_assert_eq!((self.bin_width, self.counts.len()), (o.bin_width, o.counts.len()));
        for (a, b) in self.counts.iter_mut().zip(&o.counts) {
            *a += b;
        }
        self.overflow += o.overflow;
        self.samples += o.samples;
        self.sum += o.sum;
        self.max = self.max.max(o.max);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bins_overflow_and_mean() {
        let mut h = Histogram::new(10, 3);
        for v in [0, 9, 10, 29, 30, 100] {
            h.add(v);
        }
        assert_eq!(h.counts, vec![2, 1, 1]);
        assert_eq!(h.overflow, 2);
        assert_eq!(h.samples, 6);
        assert_eq!(h.max, 100);
        assert!((h.mean() - 178.0 / 6.0).abs() < 1e-9);
    }
}
