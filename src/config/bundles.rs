//! Named policy bundles (`--policy NAME`): sets of `--set` overrides applied on top of a
//! preset, so MeDiC's mechanisms and the policies it is compared with (fig. 11) are one
//! word each. A bundle keeps the preset's write policy: `medic-gtx480` has the write-back
//! L2 the MeDiC authors simulated, `medic-gtx480-wt` the write-through L2 their §4.2
//! assumes.

use super::overrides::apply_set;
use crate::settings::ConfigError;
use serde::Serialize;
use serde_json::Value;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Bundle {
    pub name: &'static str,
    pub description: &'static str,
    /// (dotted path, value) pairs, applied in order.
    pub sets: &'static [(&'static str, &'static str)],
}

const WT: (&str, &str) = ("l2.write_policy", "write_through");
const MEDIC: [(&str, &str); 3] = [("l2.bypass", "medic"), ("l2.insertion", "medic"), ("dram.scheduler", "medic_wms")];
/// Every request skips the ROP pipeline, as `-gpgpu_cache:bypass_rop 1` in the MeDiC runs.
const ROP_SKIP: (&str, &str) = ("l2.rop_skip", "all");

pub const BUNDLES: &[Bundle] = &[
    Bundle { name: "baseline", description: "the preset as it is", sets: &[] },
    Bundle {
        name: "write_through",
        description: "the preset with a write-through L2 (MeDiC's assumption)",
        sets: &[WT],
    },
    Bundle {
        name: "write_back",
        description: "the preset with a write-back L2 that allocates store misses without reading them",
        sets: &[("l2.write_policy", "write_back")],
    },
    Bundle { name: "medic", description: "MeDiC: WByp + WIP + WMS", sets: &MEDIC },
    Bundle {
        name: "medic_as_run",
        description: "MeDiC as its authors' scripts ran it: every request also skips the ROP pipeline",
        sets: &[MEDIC[0], MEDIC[1], MEDIC[2], ROP_SKIP],
    },
    Bundle {
        name: "rop_skip",
        description: "no policy; every request skips the ROP pipeline, as in the MeDiC authors' MeDiC runs",
        sets: &[ROP_SKIP],
    },
    Bundle { name: "wbyp", description: "MeDiC's warp-type-aware bypass alone", sets: &[("l2.bypass", "medic")] },
    Bundle { name: "wip", description: "MeDiC's warp-type-aware insertion alone", sets: &[("l2.insertion", "medic")] },
    Bundle {
        name: "wms",
        description: "MeDiC's warp-type-aware DRAM scheduler alone",
        sets: &[("dram.scheduler", "medic_wms")],
    },
    Bundle {
        name: "medic_reuse",
        description: "MeDiC with a Bloom filter of high-reuse lines overriding the bypass (§6.4)",
        sets: &[("l2.bypass", "medic_reuse"), ("l2.insertion", "medic"), ("dram.scheduler", "medic_wms")],
    },
    Bundle { name: "eaf", description: "Evicted-Address Filter insertion", sets: &[("l2.insertion", "eaf")] },
    Bundle { name: "pcal", description: "PCAL token-based L2 allocation", sets: &[("l2.bypass", "pcal")] },
    Bundle { name: "rand", description: "a random share of warps bypasses the L2", sets: &[("l2.bypass", "rand")] },
    Bundle { name: "pc_byp", description: "bypass by the static load's hit ratio", sets: &[("l2.bypass", "pc_byp")] },
];

pub fn bundle_names() -> Vec<&'static str> {
    BUNDLES.iter().map(|b| b.name).collect()
}

/// Applies bundle `name`'s overrides to a resolved config document.
pub fn apply_bundle(doc: &mut Value, name: &str) -> Result<(), ConfigError> {
    let b = BUNDLES.iter().find(|b| b.name == name).ok_or_else(|| {
        ConfigError::new(
            "--policy",
            format!("unknown policy bundle `{name}`; valid bundles are: {}", bundle_names().join(", ")),
        )
    })?;
    for (path, value) in b.sets {
        apply_set(doc, path, value)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{parse_config_value, preset, L2BypassKind};

    #[test]
    fn every_bundle_yields_a_valid_config() {
        for b in BUNDLES {
            let mut doc = serde_json::to_value(preset("medic-gtx480").unwrap()).unwrap();
            apply_bundle(&mut doc, b.name).unwrap();
            parse_config_value(doc).unwrap_or_else(|e| panic!("{}: {e}", b.name));
        }
    }

    #[test]
    fn bundles_that_send_reads_to_dram_are_refused_over_a_write_back_l2() {
        let mut refused = 0;
        for b in BUNDLES {
            let mut doc = serde_json::to_value(preset("medic-gtx480").unwrap()).unwrap();
            apply_bundle(&mut doc, b.name).unwrap();
            let bypass: L2BypassKind = serde_json::from_value(doc["l2"]["bypass"].clone()).unwrap();
            apply_set(&mut doc, "l2.write_policy", "write_back").unwrap();
            let to_dram = bypass.sends_reads_to_dram();
            match parse_config_value(doc) {
                Err(e) if to_dram => {
                    assert!(e.to_string().contains("l2.bypass"), "{}: {e}", b.name);
                    refused += 1;
                }
                Ok(_) if !to_dram => {}
                other => panic!("{}: to_dram {to_dram}, got {:?}", b.name, other.map(|c| c.l2.bypass)),
            }
        }
        assert!(
            refused >= 5,
            "medic, medic_as_run, wbyp, medic_reuse, rand and pc_byp bypass to DRAM; refused {refused}"
        );
    }

    #[test]
    fn unknown_bundle_lists_the_valid_ones() {
        let mut doc = serde_json::to_value(preset("medic-gtx480").unwrap()).unwrap();
        let e = apply_bundle(&mut doc, "medik").unwrap_err();
        assert_eq!(e.field, "--policy");
        assert!(e.message.contains("medic_reuse"), "{}", e.message);
    }
}
