//! The `sample` section: sampled simulation (see `crate::sample` and docs/sampling.md).
//! Off by default, and left out of a serialized config while off, so every config and
//! report written before the section existed reads and compares the same.

use crate::cache::l2::config::RopSkip;
use crate::dram::sched::DramSchedulerKind;
use crate::settings::Named;
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
    /// Likewise the `l2.rop_skip` of the run whose warming this one takes, which warming
    /// never reads either.
    #[serde(skip_serializing_if = "Option::is_none", with = "own_or_named")]
    pub warming_rop_skip: Option<RopSkip>,
}

/// The value of a `sample.warming_*` field for a run that warms with its own setting.
pub const OWN_WARMING: &str = "own";

/// The `sample.warming_*` fields as config text and form choices: `own`, or a name of
/// the setting's family.
pub fn own_or_names<T: Named>() -> Vec<&'static str> {
    std::iter::once(OWN_WARMING).chain(T::NAMES.iter().copied()).collect()
}

fn own_or_name<T: Named>(v: Option<T>) -> &'static str {
    v.map_or(OWN_WARMING, T::as_str)
}

mod own_or_named {
    use super::{own_or_name, own_or_names, Named, OWN_WARMING};
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer, T: Named>(v: &Option<T>, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(own_or_name(*v))
    }

    pub fn deserialize<'de, D: Deserializer<'de>, T: Named>(d: D) -> Result<Option<T>, D::Error> {
        let name = String::deserialize(d)?;
        if name == OWN_WARMING {
            return Ok(None);
        }
        T::parse(&name).map(Some).ok_or_else(|| {
            let valid: Vec<String> = own_or_names::<T>().into_iter().map(|n| format!("`{n}`")).collect();
            serde::de::Error::custom(format!("unknown variant `{name}`, expected one of {}", valid.join(", ")))
        })
    }
}

impl Default for SampleConfig {
    fn default() -> Self {
        Self {
            windows: 0,
            warmup_cycles: 10_000,
            measure_cycles: 10_000,
            warming_scheduler: None,
            warming_rop_skip: None,
        }
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
        doc["warming_scheduler"] = own_or_name(self.warming_scheduler).into();
        doc["warming_rop_skip"] = own_or_name(self.warming_rop_skip).into();
        doc
    }
}
