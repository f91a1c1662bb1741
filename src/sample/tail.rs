//! Windows inside a long launch tail. Once a launch's last CTA is dispatched, its resident
//! warps run to the launch's end; a sampled run simulates that tail whole, because the SMs
//! empty out and IPC falls there. A launch of one wave (every CTA resident at once, as
//! PolyBench's matrix kernels are at `paper` size) is all tail, so simulating it whole
//! leaves nothing to gain. A tail that is long against the windows is sampled as the run
//! is: systematic windows over the instructions its warps have left, with functional
//! warming between them, and the last stretch, where the warps drain, in detail. That drain
//! is a tail in turn, judged by the same rule: in a one-wave launch it is the phase where a
//! few SMs are left, and it held most of the run's detailed cycles.

/// The windows placed inside one launch's tail.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct TailPlan {
    /// The launch whose tail this is.
    pub launch: usize,
    /// Instructions executed when the plan was made: window k starts `k * period` later,
    /// and the last stretch `windows * period` later.
    origin: u64,
    period: u64,
    /// Windows placed by this plan.
    placed: u32,
    /// Windows placed before it by the plans of the tail this is the drain of.
    base: u32,
    windows: u32,
}

/// How many times the instructions its windows would simulate in detail a tail must hold
/// to be sampled: below that, sampling saves too little to pay for its error. At 3 the
/// windows simulate at most a third of a tail; PolyBench's coalesced one-wave launches hold
/// 3.6 times, and simulated whole they were half of their runs' detailed cycles.
const MIN_SHARE: u64 = 3;

impl TailPlan {
    /// A plan for `windows` windows over the `left` instructions the tail of `launch` has
    /// yet to issue, from `origin`; `window` is how many instructions one window covers in
    /// detail at the tail's pace so far; `base`, the windows earlier plans placed in the tail
    /// this is the drain of. None where the tail is short enough to simulate whole.
    pub fn new(launch: usize, origin: u64, left: u64, window: u64, windows: u32, base: u32) -> Option<Self> {
        let m = u64::from(windows.max(1));
        // Windows at 0, P, ..., (m-1)P, each standing for the P instructions from its start;
        // the last P/2 are the drain, simulated in detail: P = left / (m + 1/2).
        (window > 0 && left >= MIN_SHARE * m * window).then(|| Self {
            launch,
            origin,
            period: 2 * left / (2 * m + 1),
            placed: 0,
            base,
            windows: m as u32,
        })
    }

    /// Where the next window starts, or with none left, where the drain does (instructions executed).
    pub fn next_start(&self) -> u64 {
        self.origin + u64::from(self.placed) * self.period
    }

    /// Places the next window; false when none is left (the drain comes next).
    pub fn place(&mut self) -> bool {
        let left = self.placed < self.windows;
        self.placed += u32::from(left);
        left
    }

    /// How many windows are placed so far in the launch's tail, by this plan and those before
    /// it: a window's slot, the same in two runs whose tails are cut alike.
    pub fn placed(&self) -> u32 {
        self.base + self.placed
    }

    pub fn windows(&self) -> u32 {
        self.windows
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_tail_gets_evenly_spaced_windows_and_a_drain_of_half_a_period() {
        let mut p = TailPlan::new(0, 1_000, 61_000, 100, 30, 0).unwrap();
        assert_eq!(p.period, 2_000);
        let starts: Vec<u64> = std::iter::from_fn(|| {
            let at = p.next_start();
            p.place().then_some(at)
        })
        .collect();
        assert_eq!(starts.len(), 30);
        assert_eq!((starts[0], starts[1], starts[29]), (1_000, 3_000, 59_000));
        // The drain: from 61 000, the last 1 000 of the 61 000 instructions.
        assert_eq!(p.next_start(), 61_000);
        assert!(!p.place());
        // A plan for that drain numbers its windows on from the tail's.
        let mut drain = TailPlan::new(0, 61_000, 1_000, 2, 30, p.placed()).unwrap();
        assert!(drain.place());
        assert_eq!(drain.placed(), 31);
    }

    #[test]
    fn a_tail_its_windows_would_mostly_simulate_anyway_is_left_whole() {
        assert!(TailPlan::new(0, 0, 3 * 30 * 100 - 1, 100, 30, 0).is_none());
        assert!(TailPlan::new(0, 0, 3 * 30 * 100, 100, 30, 0).is_some());
        assert!(TailPlan::new(0, 0, 1 << 40, 0, 30, 0).is_none(), "no pace measured, no plan");
    }
}
