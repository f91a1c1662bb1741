//! The `sample` section: sampled simulation (see `crate::sample` and docs/sampling.md).
//! Off by default, and left out of a serialized config while off, so every config and
//! report written before the section existed reads and compares the same.

use crate::dram::sched::DramSchedulerKind;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SampleConfig {
    /// Detailed windows spread evenly over the run's thread blocks; 0 simulates the whole
    /// run in detail.
    pub windows: u32,
    /// Core cycles each window simulates in detail before it measures: the queues, MSHRs
    /// and networks that functional warming leaves empty fill again.
    pub warmup_cycles: u64,
    /// Core cycles each window measures.
    pub measure_cycles: u64,
    /// The DRAM scheduler whose run the warming follows, when not `dram.scheduler`: each
    /// detailed piece starts from that run's state and runs with `dram.scheduler`, so runs
    /// of one kernel that differ only in their scheduler warm once (`crate::sample::shared`).
    /// Written `own` for none, and left out of a serialized config then.
    #[serde(skip_serializing_if = "Option::is_none", with = "own_or_named")]
    pub warming_scheduler: Option<DramSchedulerKind>,
}

/// `sample.warming_scheduler`'s value for a run that warms with its own scheduler.
pub const OWN_WARMING: &str = "own";

/// `sample.warming_scheduler` as config text: `own`, or a DRAM scheduler's name.
mod own_or_named {
    use super::{DramSchedulerKind, OWN_WARMING};
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &Option<DramSchedulerKind>, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(v.map_or(OWN_WARMING, DramSchedulerKind::as_str))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<DramSchedulerKind>, D::Error> {
        let name = String::deserialize(d)?;
        if name == OWN_WARMING {
            return Ok(None);
        }
        DramSchedulerKind::parse(&name).map(Some).ok_or_else(|| {
            let valid: Vec<String> = std::iter::once(OWN_WARMING)
                .chain(DramSchedulerKind::NAMES.iter().copied())
                .map(|n| format!("`{n}`"))
                .collect();
            serde::de::Error::custom(format!("unknown variant `{name}`, expected one of {}", valid.join(", ")))
        })
    }
}

impl Default for SampleConfig {
    fn default() -> Self {
        Self { windows: 0, warmup_cycles: 10_000, measure_cycles: 10_000, warming_scheduler: None }
    }
}

impl SampleConfig {
    pub fn is_off(&self) -> bool {
        self.windows == 0
    }

    /// The section as a document to edit (`--set`, the page's form, a figure's runs):
    /// every field, those a serialized config leaves out included.
    pub fn document(&self) -> serde_json::Value {
        let mut doc = serde_json::to_value(self).expect("the sample section serializes");
        doc["warming_scheduler"] = serde_json::Value::from(self.warming_scheduler.map_or(OWN_WARMING, |k| k.as_str()));
        doc
    }
}
