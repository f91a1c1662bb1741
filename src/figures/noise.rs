//! Judging a figure built from sampled runs: a check counts only if it still holds when
//! every run's estimates move within their 95 % intervals, so a difference inside the
//! noise is not a gain.
//!
//! A parametric bootstrap: `DRAWS` times, every sampled run's estimates are redrawn and the
//! figure is rebuilt from the draws; a check holds if it holds at the estimates and in at
//! least `SHARE` of the draws. A draw moves each estimate by its windows' contributions
//! (`Spread`) times standard normal deviates, one per window, so each estimate alone ranges
//! over its interval. Windows the sampling plan put at the same place in runs of one kernel
//! draw the same deviate, and all the fields of a run draw its windows' deviates: a baseline
//! and a policy that measured the same stretches of the work err together, and only what
//! differs between their windows counts as noise in their difference (matched-pair
//! comparison: Ekman and Stenström, ISPASS 2005; SimFlex, Wenisch et al., IEEE Micro 2006).
//! IPC moves with the estimated time. A field
//! without contributions (a run reported before they were kept) is drawn on its own from a
//! normal whose 95 % bounds are its interval's. Runs simulated whole stay put.

use super::metrics::{leaves, set_leaf};
use super::{Agreement, Metrics, Outcome, RunSpec, FRACTIONS, ONE_WAVE_IPC_MISS};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;
use std::f64::consts::TAU;

/// Enough draws that a check's share moves by about 1 point between seeds of the draws.
const DRAWS: usize = 400;
/// The share of draws a check must hold in: one-sided, at the intervals' 95 %.
const SHARE: f64 = 0.95;
/// The draws are the same on every machine, so a figure's verdict is deterministic.
const SEED: u64 = 0x05ee_d0f0_da7a;

/// One field to redraw: where it is, its estimate and interval, whether it is a count, and
/// its windows' contributions to its error (empty: drawn on its own).
struct Field {
    name: String,
    estimate: f64,
    low: f64,
    high: f64,
    count: bool,
    contributions: Vec<f64>,
}

/// A run ready to be drawn: its metrics as JSON, the fields that move, and its windows.
struct Prepared {
    base: Value,
    fields: Vec<Field>,
    /// Each window's index among the figure's distinct windows (kernel and slot), whose
    /// deviates a draw holds; empty for a run without spread.
    windows: Vec<usize>,
    /// Estimated cycles and IPC, for IPC to follow a drawn time.
    cycles: f64,
    ipc: f64,
}

/// `outcome` (built from the estimates) with each check kept only where it survives the
/// runs' intervals, and a sentence saying how many did; unchanged when no run was sampled.
pub(crate) fn judge(
    mut outcome: Outcome,
    runs: &[(RunSpec, Metrics)],
    build: fn(&[(RunSpec, Metrics)]) -> Outcome,
) -> Outcome {
    if runs.iter().all(|(_, m)| m.intervals.is_empty() && !m.one_window_sampled) {
        return outcome;
    }
    // The figure's distinct windows: a kernel's runs share the window at each slot.
    let mut slots: Vec<(&str, u64)> = Vec::new();
    let prepared: Vec<Prepared> = runs
        .iter()
        .map(|(spec, m)| {
            let windows = m
                .spread
                .windows
                .iter()
                .map(|&slot| {
                    let key = (spec.kernel, slot);
                    slots.iter().position(|k| *k == key).unwrap_or_else(|| {
                        slots.push(key);
                        slots.len() - 1
                    })
                })
                .collect();
            prepare(m, windows)
        })
        .collect();
    let mut rng = ChaCha8Rng::seed_from_u64(SEED);
    let checks = outcome.verdict.checks.clone();
    let mut held = vec![0usize; checks.len()];
    let mut drawn: Vec<(RunSpec, Metrics)> = runs.to_vec();
    let mut e = Vec::new();
    // Every bar's value in every draw, by series and category.
    let mut bars: Vec<Vec<Vec<f64>>> =
        outcome.figure.series.iter().map(|r| vec![Vec::with_capacity(DRAWS); r.values.len()]).collect();
    for _ in 0..DRAWS {
        let deviates: Vec<f64> = slots.iter().map(|_| normal(&mut rng)).collect();
        for ((_, m), p) in drawn.iter_mut().zip(&prepared) {
            if !p.fields.is_empty() {
                e.clear();
                e.extend(p.windows.iter().map(|&w| deviates[w]));
                *m = draw(p, &e, &mut rng);
            }
        }
        let rebuilt = build(&drawn);
        for (h, c) in held.iter_mut().zip(rebuilt.verdict.checks) {
            *h += usize::from(c);
        }
        for (series, r) in bars.iter_mut().zip(&rebuilt.figure.series) {
            for (values, &v) in series.iter_mut().zip(&r.values) {
                values.push(v);
            }
        }
    }
    for (r, series) in outcome.figure.series.iter_mut().zip(&mut bars) {
        (r.low, r.high) = series.iter_mut().map(|values| central_range(values)).unzip();
        if r.low.iter().all(|x| x.is_nan()) {
            (r.low, r.high) = (Vec::new(), Vec::new());
        }
    }
    // Said where the figure goes alone (an export, an embed), not only beside it.
    let ranged = outcome.figure.series.iter().any(|r| !r.low.is_empty());
    outcome.figure.title.push_str(if ranged { " (estimated; whiskers: 95 % of draws)" } else { " (estimated)" });
    let kept: Vec<bool> = checks.iter().zip(&held).map(|(&c, &h)| c && h as f64 >= SHARE * DRAWS as f64).collect();
    let noisy = checks.iter().filter(|&&c| c).count() - kept.iter().filter(|&&c| c).count();
    let v = &mut outcome.verdict;
    v.summary.push_str(&format!(
        " Judged with the sampled runs' 95 % intervals: {} of {} checks hold in at least {:.0} % of {DRAWS} draws \
         within them{}.",
        kept.iter().filter(|&&c| c).count(),
        kept.len(),
        SHARE * 100.0,
        match noisy {
            0 => String::new(),
            1 => "; 1 that holds at the estimates is inside the noise and counts as unmet".to_string(),
            n => format!("; {n} that hold at the estimates are inside the noise and count as unmet"),
        }
    ));
    v.agreement = Agreement::of(&kept);
    v.checks = kept;
    let lone = runs.iter().filter(|(_, m)| m.one_window_sampled).count();
    if lone > 0 {
        let runs = if lone == 1 { "1 run was".to_string() } else { format!("{lone} runs were") };
        v.summary.push_str(&format!(
            " {runs} left with one sampled window, whose spread is unknown: its numbers carry no interval and \
             are drawn as they are, so this verdict cannot tell their differences from noise; use more windows."
        ));
    }
    let one_wave = runs.iter().filter(|(_, m)| m.one_wave_launches_sampled > 0).count();
    if one_wave > 0 {
        let runs = if one_wave == 1 { "1 run was".to_string() } else { format!("{one_wave} runs were") };
        v.summary.push_str(&format!(
            " {runs} sampled inside launches that fit on the machine at once, where sampling is biased \
             beyond its intervals (on the validation runs by {ONE_WAVE_IPC_MISS} of the IPC; docs/sampling.md, \
             one-wave kernels): confirm this verdict with whole runs."
        ));
    }
    outcome
}

/// The run's metrics without intervals as JSON (the spread is never in it), and the fields
/// to redraw.
fn prepare(m: &Metrics, windows: Vec<usize>) -> Prepared {
    let bare = Metrics { intervals: Default::default(), ..m.clone() };
    let base = serde_json::to_value(bare).expect("metrics serialize");
    let mut all = Vec::new();
    leaves(&base, "", &mut all);
    let follows_time = m.spread.of("cycles").is_some();
    let fields = all
        .into_iter()
        .filter_map(|(name, estimate, count)| {
            if name == "ipc" && follows_time {
                return None;
            }
            let i = m.intervals.get(&name)?;
            let contributions = m.spread.of(&name).map(<[f64]>::to_vec).unwrap_or_default();
            (i.low.is_finite() && i.high.is_finite()).then_some(Field {
                name,
                estimate,
                low: i.low,
                high: i.high,
                count,
                contributions,
            })
        })
        .collect();
    Prepared { base, fields, windows, cycles: m.cycles as f64, ipc: m.ipc }
}

/// One draw of a run: each field at its estimate + sum_k c_k e_k over its windows' deviates
/// `e`, or, without contributions, at estimate + z x (its side's half-width / 1.96); never
/// below zero (every metric is a count, rate, share or time) nor a share above 1. IPC follows
/// the drawn cycles.
fn draw(p: &Prepared, e: &[f64], rng: &mut ChaCha8Rng) -> Metrics {
    let mut v = p.base.clone();
    for f in &p.fields {
        let x = if f.contributions.len() == e.len() && !e.is_empty() {
            f.estimate + f.contributions.iter().zip(e).map(|(c, z)| c * z).sum::<f64>()
        } else {
            let z = normal(rng);
            let half = if z < 0.0 { f.estimate - f.low } else { f.high - f.estimate };
            f.estimate + z * half.max(0.0) / 1.96
        };
        if f.name == "cycles" && !f.contributions.is_empty() {
            // A time is never below one cycle; IPC is the run's instructions over it.
            let cycles = x.max(1.0);
            set_leaf(&mut v, "ipc", number(p.ipc * p.cycles / cycles));
        }
        let x = if FRACTIONS.contains(&f.name.as_str()) { x.clamp(0.0, 1.0) } else { x.max(0.0) };
        let value = if f.count { Value::from(x.round() as u64) } else { number(x) };
        set_leaf(&mut v, &f.name, value);
    }
    serde_json::from_value(v).expect("a drawn run deserializes as the run did")
}

fn number(x: f64) -> Value {
    serde_json::Number::from_f64(x).map_or(Value::Null, Value::Number)
}

/// The central 95 % of a bar's drawn values (the 2.5th and 97.5th percentiles, nearest
/// rank); NaN where any draw had no bar, or where the bar never moved: a whole run's number
/// is exact, and a sampled run's warp-type shares carry no interval, so neither has a range.
fn central_range(values: &mut [f64]) -> (f64, f64) {
    if values.is_empty() || values.iter().any(|v| v.is_nan()) || values.iter().all(|&v| v == values[0]) {
        return (f64::NAN, f64::NAN);
    }
    values.sort_by(f64::total_cmp);
    let at = |q: f64| values[((q * values.len() as f64).ceil() as usize).clamp(1, values.len()) - 1];
    (at(0.025), at(0.975))
}

/// A standard normal draw (Box–Muller).
fn normal(rng: &mut ChaCha8Rng) -> f64 {
    let u1: f64 = 1.0 - rng.gen::<f64>();
    let u2: f64 = rng.gen();
    (-2.0 * u1.ln()).sqrt() * (TAU * u2).cos()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::figures::{Interval, Spread};

    /// A run whose L2 miss rate is 0.5 within 0.4..0.6 from three windows' contributions.
    fn run(contributions: Vec<f64>) -> Metrics {
        let mut m = Metrics { l2_miss_rate: 0.5, ..Metrics::default() };
        m.intervals.insert("l2_miss_rate".into(), Interval { low: 0.4, high: 0.6 });
        let windows = (0..contributions.len() as u64).collect();
        m.spread = Spread { windows, ..Spread::default() };
        m.spread.push("l2_miss_rate", contributions);
        m
    }

    #[test]
    fn a_run_drawn_window_by_window_ranges_over_its_interval() {
        // Contributions whose root sum of squares is the half-width 0.1 over 1.96.
        let c: Vec<f64> = [3.0, -4.0, 0.0].iter().map(|x| x / 5.0 * 0.1 / 1.96).collect();
        let p = prepare(&run(c), vec![0, 1, 2]);
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let inside = (0..4000)
            .filter(|_| {
                let e: Vec<f64> = (0..3).map(|_| normal(&mut rng)).collect();
                (0.4..=0.6).contains(&draw(&p, &e, &mut rng).l2_miss_rate)
            })
            .count();
        assert!((3720..=3880).contains(&inside), "{inside} of 4000 inside the 95 % interval");
    }

    #[test]
    fn a_share_is_never_drawn_past_1_nor_below_0() {
        // A miss rate of 0.5 whose windows spread it over 0..1 and beyond.
        let p = prepare(&run(vec![0.4, -0.3]), vec![0, 1]);
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let xs: Vec<f64> = (0..2000)
            .map(|_| {
                let e: Vec<f64> = (0..2).map(|_| normal(&mut rng)).collect();
                draw(&p, &e, &mut rng).l2_miss_rate
            })
            .collect();
        assert!(xs.iter().all(|x| (0.0..=1.0).contains(x)));
        assert!(xs.contains(&1.0) && xs.contains(&0.0), "both ends are reached");
    }

    #[test]
    fn matched_runs_move_together_and_opposite_ones_apart() {
        let c: Vec<f64> = vec![0.03, -0.02, 0.01];
        let opposite = c.iter().map(|x| -x).collect();
        let (a, b) = (prepare(&run(c.clone()), vec![0, 1, 2]), prepare(&run(opposite), vec![0, 1, 2]));
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for _ in 0..100 {
            let e: Vec<f64> = (0..3).map(|_| normal(&mut rng)).collect();
            let (x, y) = (draw(&a, &e, &mut rng).l2_miss_rate, draw(&a, &e, &mut rng).l2_miss_rate);
            assert_eq!(x, y, "the same windows' deviates move a run alike every time");
            // Opposite contributions: the two runs' errors mirror each other, so their
            // difference moves twice as far as either.
            let z = draw(&b, &e, &mut rng).l2_miss_rate;
            assert!(((x - 0.5) + (z - 0.5)).abs() < 1e-12, "{x} {z}");
        }
    }

    /// A figure of one bar, the run's L2 miss rate, checked to be over 0.3.
    fn one_bar(runs: &[(RunSpec, Metrics)]) -> Outcome {
        let figure = crate::plot::BarFigure {
            title: "t".into(),
            categories: vec!["k".into()],
            series: vec![crate::plot::BarSeries {
                label: "s".into(),
                values: vec![runs[0].1.l2_miss_rate],
                ..Default::default()
            }],
            ..Default::default()
        };
        Outcome::new(figure, &[runs[0].1.l2_miss_rate > 0.3], Vec::new(), String::new())
    }

    #[test]
    fn a_sampled_figures_bars_carry_the_central_95_percent_of_their_draws() {
        let spec = RunSpec::new("k", "s", "medic-gtx480", "bfs");
        let c: Vec<f64> = [3.0, -4.0, 0.0].iter().map(|x| x / 5.0 * 0.1 / 1.96).collect();
        let runs = vec![(spec.clone(), run(c))];
        let judged = judge(one_bar(&runs), &runs, one_bar);
        let bar = &judged.figure.series[0];
        assert!((0.38..0.42).contains(&bar.low[0]) && (0.58..0.62).contains(&bar.high[0]), "{bar:?}");
        assert!(judged.figure.title.ends_with("(estimated; whiskers: 95 % of draws)"));
        // A number that never moves in the draws (a sampled run's warp-type shares carry no
        // interval) gets no whisker, and the title does not promise one.
        let mut still = runs.clone();
        still[0].1.intervals.clear();
        still[0].1.intervals.insert("ipc".into(), crate::figures::Interval { low: 1.0, high: 2.0 });
        let unranged = judge(one_bar(&still), &still, one_bar);
        assert!(unranged.figure.series[0].low.is_empty() && unranged.figure.title == "t (estimated)");
        // A run simulated whole has no draws, and its figure no whiskers.
        let whole = vec![(spec, Metrics { l2_miss_rate: 0.5, ..Metrics::default() })];
        let plain = judge(one_bar(&whole), &whole, one_bar);
        assert!(plain.figure.series[0].low.is_empty() && plain.figure.title == "t");
    }

    #[test]
    fn ipc_follows_the_drawn_time() {
        let mut m = Metrics { ipc: 2.0, cycles: 1000, ..Metrics::default() };
        m.intervals.insert("ipc".into(), Interval { low: 1.6, high: 2.5 });
        m.intervals.insert("cycles".into(), Interval { low: 800.0, high: 1250.0 });
        m.spread = Spread { windows: vec![0, 1], ..Spread::default() };
        m.spread.push("cycles", [100.0, 0.0]);
        let p = prepare(&m, vec![0, 1]);
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let d = draw(&p, &[1.0, 5.0], &mut rng);
        assert_eq!(d.cycles, 1100);
        assert!((d.ipc - 2000.0 / 1100.0).abs() < 1e-12, "{}", d.ipc);
    }
}
