//! A finished run of a comparison as the numbers its tables print, read back from its report
//! (a whole run's, or a sampled run's estimates with their intervals), and a speedup between two.

use serde_json::Value;
use warpscope::config::ConfigError;
use warpscope::speedup::speedup;

/// One finished run's numbers.
#[derive(Debug, Clone)]
pub struct Row {
    pub(super) ipc: f64,
    pub(super) cycles: u64,
    pub(super) completed: bool,
    pub(super) l2_miss_rate: f64,
    /// Not estimated by a sampled run.
    pub(super) l2_miss_rate_with_bypass: Option<f64>,
    pub(super) queue_latency: f64,
    pub(super) row_hit_rate: f64,
    pub(super) bypassed: u64,
    /// A sampled run's: the 95 % intervals of its IPC, L2 miss rate, queuing latency and
    /// row-buffer hit rate, and whether it was sampled inside one-wave launches.
    pub(super) sampled: Option<Sampled>,
}

#[derive(Debug, Clone)]
pub(super) struct Sampled {
    pub(super) ipc: (f64, f64),
    pub(super) l2_miss_rate: (f64, f64),
    pub(super) queue_latency: (f64, f64),
    pub(super) row_hit_rate: (f64, f64),
    pub(super) one_wave: bool,
    /// Left with one sampled window: no interval (its ranges are unbounded).
    pub(super) lone: bool,
}

impl Row {
    /// The row of a report (as JSON: a job's report file reads back into the same numbers),
    /// or of a sampled run's report, from its estimates.
    pub(super) fn of(r: &Value) -> Result<Self, ConfigError> {
        if let Some(e) = r.get("estimate") {
            return Self::estimated(r, e);
        }
        let get = |path: &str| {
            let v = path.split('.').try_fold(r, |v, k| v.get(k));
            v.ok_or_else(|| ConfigError::new("report", format!("`{path}` is missing")))
        };
        let num = |path: &str| {
            let v = get(path)?;
            v.as_f64().ok_or_else(|| ConfigError::new("report", format!("`{path}` is {v}, not a number")))
        };
        let count = |path: &str| {
            let v = get(path)?;
            v.as_u64().ok_or_else(|| ConfigError::new("report", format!("`{path}` is {v}, not a count")))
        };
        let completed = get("completed")?;
        Ok(Self {
            ipc: num("ipc")?,
            cycles: count("cycles")?,
            completed: completed
                .as_bool()
                .ok_or_else(|| ConfigError::new("report", format!("`completed` is {completed}, not true or false")))?,
            l2_miss_rate: num("l2.miss_rate")?,
            l2_miss_rate_with_bypass: Some(num("l2.miss_rate_with_bypass")?),
            queue_latency: num("l2.avg_queue_latency")?,
            row_hit_rate: num("dram.row_buffer_hit_rate")?,
            bypassed: count("l2.bypassed")?,
            sampled: None,
        })
    }

    /// A sampled run's row: its estimates `e` and their intervals.
    fn estimated(r: &Value, e: &Value) -> Result<Self, ConfigError> {
        let missing = |what: String| ConfigError::new("report", format!("a sampled run's `{what}` is missing"));
        let num = |k: &str| e.get(k).and_then(Value::as_f64).ok_or_else(|| missing(format!("estimate.{k}")));
        if !r["intervals"].is_object() {
            return Err(missing("intervals".into()));
        }
        let interval = |k: &str| {
            let i = &r["intervals"][k];
            if i.is_null() {
                // One sampled window, or no events: an estimate of unknown spread.
                return Ok((0.0, f64::INFINITY));
            }
            match (i.get("low").and_then(Value::as_f64), i.get("high").and_then(Value::as_f64)) {
                (Some(lo), Some(hi)) => Ok((lo, hi)),
                _ => Err(missing(format!("intervals.{k}"))),
            }
        };
        Ok(Self {
            ipc: num("ipc")?,
            cycles: num("cycles")? as u64,
            completed: r.get("completed").and_then(Value::as_bool).ok_or_else(|| missing("completed".into()))?,
            l2_miss_rate: num("l2_miss_rate")?,
            l2_miss_rate_with_bypass: None,
            queue_latency: num("l2_queue_latency")?,
            row_hit_rate: num("dram_row_buffer_hit_rate")?,
            bypassed: num("l2_bypassed")? as u64,
            sampled: Some(Sampled {
                ipc: interval("ipc")?,
                l2_miss_rate: interval("l2_miss_rate")?,
                queue_latency: interval("l2_queue_latency")?,
                row_hit_rate: interval("dram_row_buffer_hit_rate")?,
                one_wave: e.get("one_wave_launches_sampled").and_then(Value::as_u64).unwrap_or(0) > 0,
                lone: e.get("one_window_sampled").and_then(Value::as_bool).unwrap_or(false),
            }),
        })
    }

    /// Its IPC as a range: the 95 % interval when sampled, the value itself when whole.
    fn ipc_range(&self) -> (f64, f64) {
        self.sampled.as_ref().map_or((self.ipc, self.ipc), |s| s.ipc)
    }
}

/// A speedup of `run` over `base` and, where either was sampled, the range their IPC ranges
/// allow taken as independent (wider than the matched windows `figure --sample` compares); a
/// run over itself is exactly 1.
pub(super) fn speedup_of(run: &Row, base: &Row) -> (Option<f64>, Option<(f64, f64)>) {
    let s = speedup(run.ipc, base.ipc);
    if std::ptr::eq(run, base) || (run.sampled.is_none() && base.sampled.is_none()) {
        return (s, None);
    }
    let ((lo, hi), (blo, bhi)) = (run.ipc_range(), base.ipc_range());
    let range = s.map(|_| (speedup(lo, bhi).unwrap_or(0.0), speedup(hi, blo).unwrap_or(f64::INFINITY)));
    (s, range)
}
