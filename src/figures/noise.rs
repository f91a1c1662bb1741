//! Judging a figure built from sampled runs: a check counts only if it still holds when
//! every run's estimates move within their 95 % intervals, so a difference inside the
//! noise is not a gain.
//!
//! A parametric bootstrap: `DRAWS` times, each field of each sampled run that has an
//! interval is redrawn from a normal distribution centred on its estimate whose 95 %
//! bounds are the interval's (a different spread below and above where the interval is
//! lopsided, as IPC's is), and the figure is rebuilt from the draws. A check holds if it
//! holds at the estimates and in at least `SHARE` of the draws. Runs are drawn
//! independently, although a baseline and a policy sampled at the same windows tend to err
//! together: that widens a ratio's spread, so the judgement leans toward "inside the
//! noise" rather than toward a gain. Runs simulated whole carry no intervals and stay put.

use super::metrics::{leaves, set_leaf};
use super::{Agreement, Metrics, Outcome, RunSpec};
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

/// One field to redraw: where it is, its estimate and interval, and whether it is a count.
struct Field {
    name: String,
    estimate: f64,
    low: f64,
    high: f64,
    count: bool,
}

/// `outcome` (built from the estimates) with each check kept only where it survives the
/// runs' intervals, and a sentence saying how many did; unchanged when no run was sampled.
pub(crate) fn judge(
    mut outcome: Outcome,
    runs: &[(RunSpec, Metrics)],
    build: fn(&[(RunSpec, Metrics)]) -> Outcome,
) -> Outcome {
    if runs.iter().all(|(_, m)| m.intervals.is_empty()) {
        return outcome;
    }
    let prepared: Vec<(Value, Vec<Field>)> = runs.iter().map(|(_, m)| prepare(m)).collect();
    let mut rng = ChaCha8Rng::seed_from_u64(SEED);
    let checks = outcome.verdict.checks.clone();
    let mut held = vec![0usize; checks.len()];
    let mut drawn: Vec<(RunSpec, Metrics)> = runs.to_vec();
    for _ in 0..DRAWS {
        for ((_, m), (base, fields)) in drawn.iter_mut().zip(&prepared) {
            if !fields.is_empty() {
                *m = draw(base, fields, &mut rng);
            }
        }
        for (h, c) in held.iter_mut().zip(build(&drawn).verdict.checks) {
            *h += usize::from(c);
        }
    }
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
    let one_wave = runs.iter().filter(|(_, m)| m.one_wave_launches_sampled > 0).count();
    if one_wave > 0 {
        let runs = if one_wave == 1 { "1 run was".to_string() } else { format!("{one_wave} runs were") };
        v.summary.push_str(&format!(
            " {runs} sampled inside launches that fit on the machine at once, where sampling is biased \
             beyond its intervals (docs/sampling.md, one-wave kernels): confirm this verdict with whole runs."
        ));
    }
    outcome
}

/// The run's metrics without intervals, as JSON, and the fields to redraw.
fn prepare(m: &Metrics) -> (Value, Vec<Field>) {
    let base = serde_json::to_value(Metrics { intervals: Default::default(), ..m.clone() }).expect("metrics serialize");
    let mut all = Vec::new();
    leaves(&base, "", &mut all);
    let fields = all
        .into_iter()
        .filter_map(|(name, estimate, count)| {
            let i = m.intervals.get(&name)?;
            (i.low.is_finite() && i.high.is_finite()).then_some(Field {
                name,
                estimate,
                low: i.low,
                high: i.high,
                count,
            })
        })
        .collect();
    (base, fields)
}

/// One draw of a run: each field at estimate + z x (its side's half-width / 1.96), never
/// below zero (every metric is a count, rate, share or time).
fn draw(base: &Value, fields: &[Field], rng: &mut ChaCha8Rng) -> Metrics {
    let mut v = base.clone();
    for f in fields {
        let z = normal(rng);
        let half = if z < 0.0 { f.estimate - f.low } else { f.high - f.estimate };
        let x = (f.estimate + z * half.max(0.0) / 1.96).max(0.0);
        let value = if f.count {
            Value::from(x.round() as u64)
        } else {
            serde_json::Number::from_f64(x).map_or(Value::Null, Value::Number)
        };
        set_leaf(&mut v, &f.name, value);
    }
    serde_json::from_value(v).expect("a drawn run deserializes as the run did")
}

/// A standard normal draw (Box–Muller).
fn normal(rng: &mut ChaCha8Rng) -> f64 {
    let u1: f64 = 1.0 - rng.gen::<f64>();
    let u2: f64 = rng.gen();
    (-2.0 * u1.ln()).sqrt() * (TAU * u2).cos()
}
