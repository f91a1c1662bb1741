//! Where a sampled estimate's cycles err, against the whole run of the same config and seed:
//! each piece of the sampled run is laid over the same warp instructions of the whole run (by
//! its instructions-by-cycle curve), so the error splits into what the windows measured
//! against what the whole run does at their place (the state warming left them in), how far
//! each chunk's own pace is from its window's place (placement), and how the launch heads and
//! tails simulated whole compare with the same stretch of the whole run.

use super::WindowSample;
use serde::{Deserialize, Serialize};

/// Core cycles between the points of a whole run's curve: fine enough to resolve a
/// 10 000-cycle window (a 1 000-cycle curve splits the validation runs alike within 0.5 points).
pub const CURVE_EVERY: u64 = 5_000;

/// A whole run's warp instructions so far at every `every` core cycles from 0, and at its end.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Curve {
    pub every: u64,
    /// Cumulative warp instructions at cycles 0, `every`, 2 `every`, ...
    pub instructions: Vec<u64>,
    /// The run's last core cycle and its instructions then.
    pub end: (u64, u64),
}

impl Curve {
    pub fn new(every: u64) -> Self {
        Self { every: every.max(1), instructions: vec![0], end: (0, 0) }
    }

    /// The next point, at cycle `instructions.len() * every`.
    pub fn push(&mut self, instructions: u64) {
        self.instructions.push(instructions);
    }

    /// Closes the curve at the run's end.
    pub fn finish(&mut self, cycle: u64, instructions: u64) {
        self.end = (cycle, instructions);
    }
}

/// A curve's points as (cycle, instructions), its end included, to find when the run had
/// executed a given count.
struct Line(Vec<(f64, f64)>);

impl Line {
    fn of(c: &Curve) -> Self {
        let inside = c.instructions.iter().enumerate().map(|(k, &x)| ((k as u64 * c.every) as f64, x as f64));
        let mut pts: Vec<(f64, f64)> = inside.filter(|&(cy, _)| cy < c.end.0 as f64).collect();
        pts.push((c.end.0 as f64, c.end.1 as f64));
        Self(pts)
    }

    /// The cycle at which the run had executed `x` instructions (linear between points).
    fn cycle_at(&self, x: f64) -> f64 {
        let k = self.0.partition_point(|p| p.1 < x);
        match (k.checked_sub(1).and_then(|j| self.0.get(j)), self.0.get(k)) {
            (Some(&(c0, i0)), Some(&(c1, i1))) => c0 + (c1 - c0) * (x - i0) / (i1 - i0).max(f64::MIN_POSITIVE),
            (None, Some(&(c, _))) => c,
            (_, None) => self.0.last().map_or(0.0, |p| p.0),
        }
    }
}

/// The estimate's cycles less the whole run's, in parts, each in core cycles.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Parts {
    /// The windows' warm-ups and measured pace against the whole run over the same
    /// instructions, the measurement scaled to the rest of its chunk: the state warming left
    /// them in.
    pub windows_state: f64,
    /// The whole run's pace at each window's place against its whole chunk's: where the
    /// windows fell. More windows narrow it.
    pub placement: f64,
    /// Launch heads and tails, simulated whole, against the same stretch of the whole run.
    pub heads_and_tails: f64,
    /// The whole run's cycles, to which the parts sum with the estimate's.
    pub full_cycles: f64,
}

/// Splits the cycles estimated from `windows` (the pieces of a sampled run, in run order)
/// against the whole run's `curve`. A window's place is where its measurement began: its
/// chunk's start and the instructions of its warm-up.
pub fn parts(windows: &[WindowSample], curve: &Curve) -> Parts {
    let total: u64 = windows.iter().map(|w| w.chunk_instructions).sum();
    let (time, instr) = windows.iter().filter(|w| w.measured()).fold((0.0, 0.0), |(t, i), w| {
        (t + w.chunk_cpi() * w.chunk_instructions as f64, i + w.chunk_instructions as f64)
    });
    // An unmeasured piece stands at the others' mean pace, as in the estimate.
    let mean_cpi = if instr > 0.0 { time / instr } else { 0.0 };
    let curve = Line::of(curve);
    let mut p = Parts { full_cycles: curve.cycle_at(total as f64), ..Parts::default() };
    let mut pos = 0.0;
    for w in windows {
        let n = w.chunk_instructions as f64;
        let (start, end) = (curve.cycle_at(pos), curve.cycle_at(pos + n));
        let truth = end - start;
        if !w.measured() {
            p.placement += n * mean_cpi - truth;
        } else if w.exact {
            p.heads_and_tails += w.cycles as f64 - truth;
        } else {
            // The warm-up counts at its own cycles (`chunk_cpi`); the rest of the chunk at the
            // measurement's pace, which stands where the measurement began.
            let (from, i) = (pos + w.warmup_instructions as f64, w.instructions as f64);
            let rest = n - w.warmup_instructions as f64;
            let place = (curve.cycle_at(from + i) - curve.cycle_at(from)) / i;
            let warmup_truth = curve.cycle_at(from) - start;
            p.windows_state += w.warmup_cycles as f64 - warmup_truth + rest * (w.cycles as f64 / i - place);
            p.placement += rest * place - (end - curve.cycle_at(from));
        }
        pos += n;
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A whole run at `ipc` for `cycles`, sampled every 1 000 cycles.
    fn steady(ipc: u64, cycles: u64) -> Curve {
        let mut c = Curve::new(1_000);
        for k in 1..=cycles / 1_000 {
            c.push(k * 1_000 * ipc);
        }
        c.finish(cycles, cycles * ipc);
        c
    }

    fn window(cycles: u64, instructions: u64, chunk: u64, exact: bool) -> WindowSample {
        WindowSample { cycles, instructions, chunk_instructions: chunk, exact, ..WindowSample::default() }
    }

    fn warmed(mut w: WindowSample, warmup_instructions: u64, warmup_cycles: u64) -> WindowSample {
        (w.warmup_instructions, w.warmup_cycles) = (warmup_instructions, warmup_cycles);
        w
    }

    #[test]
    fn the_curve_inverts_between_points() {
        let c = Line::of(&steady(2, 10_500));
        assert_eq!(c.cycle_at(4_000.0), 2_000.0);
        assert_eq!(c.cycle_at(20_500.0), 10_250.0, "inside the last, shorter stretch");
        assert_eq!(c.cycle_at(1e9), 10_500.0, "past the end, the end");
    }

    #[test]
    fn a_window_that_reads_fast_shows_as_its_state_and_nothing_else() {
        // Whole run: IPC 2 for 100 000 cycles. A head of 10 000 exact cycles, then two windows
        // that warm up and measure at IPC 2.5, each standing for 90 000 instructions.
        let c = steady(2, 100_000);
        let w = [
            window(10_000, 20_000, 20_000, true),
            warmed(window(8_000, 20_000, 90_000, false), 2_000, 800),
            warmed(window(8_000, 20_000, 90_000, false), 2_000, 800),
        ];
        let p = parts(&w, &c);
        assert_eq!(p.heads_and_tails, 0.0);
        assert!(p.placement.abs() < 1e-6, "{p:?}");
        // Each chunk estimated at CPI 0.4 against 0.5: 9 000 cycles short.
        assert!((p.windows_state + 18_000.0).abs() < 1e-6, "{p:?}");
        assert_eq!(p.full_cycles, 100_000.0);
    }

    #[test]
    fn the_parts_sum_to_the_estimates_error() {
        // Whole run: IPC 1 for 50 000 cycles, then IPC 3; a window that reads a little slow in
        // the first phase, one measuring across the change for a chunk mostly in the second,
        // and a tail measured slow.
        let mut c = Curve::new(1_000);
        let at = |k: u64| if k <= 50 { k * 1_000 } else { 50_000 + (k - 50) * 3_000 };
        for k in 1..=100 {
            c.push(at(k));
        }
        c.finish(100_000, at(100));
        let w = [
            warmed(window(10_000, 9_000, 40_000, false), 2_000, 2_500),
            warmed(window(10_000, 31_000, 140_000, false), 6_000, 5_000),
            window(3_000, 20_000, 20_000, true),
        ];
        let p = parts(&w, &c);
        let est: f64 = w.iter().map(|w| w.chunk_cpi() * w.chunk_instructions as f64).sum();
        assert!((p.windows_state + p.placement + p.heads_and_tails - (est - p.full_cycles)).abs() < 1e-6, "{p:?}");
        assert!(p.placement.abs() > 1_000.0, "the first window's chunk runs on into the fast phase: {p:?}");
        assert!((p.heads_and_tails - (3_000.0 - 20_000.0 / 3.0)).abs() < 1e-6, "{p:?}");
    }
}
