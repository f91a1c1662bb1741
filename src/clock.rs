//! Clock domains. Each domain has a period in femtoseconds and ticks when its next
//! edge is the earliest; where several edges coincide, they tick in the order `sim`
//! documents.

use serde::{Deserialize, Serialize};

/// Clock-domain frequencies (the config's `clocks` section). A latency in config is
/// counted in the cycles of the domain that owns the component.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClockSpec {
    pub core_mhz: f64,
    pub icnt_mhz: f64,
    pub l2_mhz: f64,
    /// DRAM command clock (tCK = 1000 / dram_mhz ns).
    pub dram_mhz: f64,
}

/// Current cycle of each domain.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Now {
    pub core: u64,
    pub icnt: u64,
    pub l2: u64,
    pub dram: u64,
}

pub const DRAM: usize = 0;
pub const L2: usize = 1;
pub const ICNT: usize = 2;
pub const CORE: usize = 3;

#[derive(Debug, Clone)]
pub struct Clocks {
    period_fs: [u64; 4],
    next_fs: [u64; 4],
    cycle: [u64; 4],
}

impl Clocks {
    pub fn new(spec: &ClockSpec) -> Self {
        let p = |mhz: f64| ((1e9 / mhz).round() as u64).max(1);
        Self {
            period_fs: [p(spec.dram_mhz), p(spec.l2_mhz), p(spec.icnt_mhz), p(spec.core_mhz)],
            next_fs: [0; 4],
            cycle: [0; 4],
        }
    }

    /// The domains whose edge is next (bit d set for domain d), with their cycle numbers
    /// in `now`. Call `advance` after ticking them.
    pub fn next_edge(&self) -> (u8, Now) {
        let t = *self.next_fs.iter().min().expect("four domains");
        let mut mask = 0u8;
        for d in 0..4 {
            if self.next_fs[d] == t {
                mask |= 1 << d;
            }
        }
        (mask, self.now())
    }

    pub fn advance(&mut self, mask: u8) {
        for d in 0..4 {
            if mask & (1 << d) != 0 {
                self.next_fs[d] += self.period_fs[d];
                self.cycle[d] += 1;
            }
        }
    }

    pub fn now(&self) -> Now {
        Now { dram: self.cycle[DRAM], l2: self.cycle[L2], icnt: self.cycle[ICNT], core: self.cycle[CORE] }
    }

    /// Time of cycle `c` of domain `d`.
    pub fn fs_of(&self, d: usize, c: u64) -> u64 {
        c.saturating_mul(self.period_fs[d])
    }

    /// Jumps every domain to its first edge at or after `t_fs`; returns the cycles
    /// skipped in each domain (indexed by `DRAM`, `L2`, `ICNT`, `CORE`).
    pub fn skip_to(&mut self, t_fs: u64) -> [u64; 4] {
        let mut skipped = [0; 4];
        for (d, skip) in skipped.iter_mut().enumerate() {
            if self.next_fs[d] < t_fs {
                *skip = (t_fs - self.next_fs[d]).div_ceil(self.period_fs[d]);
                self.next_fs[d] += *skip * self.period_fs[d];
                self.cycle[d] += *skip;
            }
        }
        skipped
    }

    pub fn period_ns(&self, d: usize) -> f64 {
        self.period_fs[d] as f64 / 1e6
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(core: f64, icnt: f64, l2: f64, dram: f64) -> ClockSpec {
        ClockSpec { core_mhz: core, icnt_mhz: icnt, l2_mhz: l2, dram_mhz: dram }
    }

    #[test]
    fn domains_tick_in_proportion_to_frequency() {
        let mut c = Clocks::new(&spec(1400.0, 700.0, 700.0, 924.0));
        let mut counts = [0u64; 4];
        for _ in 0..100_000 {
            let (mask, _) = c.next_edge();
            for (d, n) in counts.iter_mut().enumerate() {
                *n += (mask >> d & 1) as u64;
            }
            c.advance(mask);
        }
        let ratio = counts[CORE] as f64 / counts[ICNT] as f64;
        assert!((ratio - 2.0).abs() < 0.01, "core/icnt = {ratio}");
        let ratio = counts[DRAM] as f64 / counts[L2] as f64;
        assert!((ratio - 924.0 / 700.0).abs() < 0.01, "dram/l2 = {ratio}");
    }

    #[test]
    fn skip_lands_on_the_first_edge_at_or_after_the_target() {
        let mut c = Clocks::new(&spec(1000.0, 500.0, 500.0, 250.0));
        let target = c.fs_of(CORE, 10);
        let skipped = c.skip_to(target);
        assert_eq!(skipped, [3, 5, 5, 10]);
        assert_eq!(c.now(), Now { core: 10, icnt: 5, l2: 5, dram: 3 });
    }
}
