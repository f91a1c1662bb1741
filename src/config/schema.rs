//! The config form's schema, derived from a config document: one entry per leaf field,
//! with its type and, for policy families, the valid names. The web page builds its
//! form from this, so a field a later change adds shows up without new UI code.

use super::sample::own_or_names;
use super::{config_document, policy_families, Config, DramSchedulerKind, RopSkip};
use serde::Serialize;
use serde_json::Value;

/// Fields shown in the main form; the rest go under "all settings".
const MAIN_FIELDS: &[&str] = &[
    "core.num_sms",
    "core.warp_scheduler",
    "core.two_level.group",
    "core.swl.limit",
    "l1d.size_kb",
    "l1d.ways",
    "l1d.set_index",
    "l1d.allocation",
    "l1d.mshrs",
    "l1d.bypass",
    "l1d.bypass_slots",
    "l2.size_kb",
    "l2.ways",
    "l2.set_index",
    "l2.bypass",
    "l2.insertion",
    "mem.partitions",
    "mem.partition_mapping",
    "dram.scheduler",
];

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FieldSchema {
    /// Dotted path, as `--set` takes it.
    pub path: String,
    /// The section (`core`, `l1d`, ...).
    pub group: String,
    /// `integer`, `number`, `boolean`, `string` or `choice`.
    pub kind: &'static str,
    /// Valid names of a `choice` field.
    pub choices: Vec<&'static str>,
    /// Shown in the main form (otherwise under "all settings").
    pub main: bool,
}

/// Every leaf field of `cfg` in document order.
pub fn schema(cfg: &Config) -> Vec<FieldSchema> {
    let mut doc = config_document(cfg);
    // The `sample` section is left out of a document while off; the form still offers it.
    if let Some(o) = doc.as_object_mut() {
        o.insert("sample".to_string(), cfg.sample.document());
    }
    let families = policy_families();
    let mut out = Vec::new();
    walk(&doc, String::new(), &families, &mut out);
    // Choices that are not policy families: `own`, or a name of the family.
    for (path, choices) in [
        ("sample.warming_scheduler", own_or_names::<DramSchedulerKind>()),
        ("sample.warming_rop_skip", own_or_names::<RopSkip>()),
    ] {
        if let Some(f) = out.iter_mut().find(|f| f.path == path) {
            f.kind = "choice";
            f.choices = choices;
        }
    }
    out
}

fn walk(v: &Value, path: String, families: &[(&str, &'static [&'static str])], out: &mut Vec<FieldSchema>) {
    if let Value::Object(map) = v {
        for (k, child) in map {
            let p = if path.is_empty() { k.clone() } else { format!("{path}.{k}") };
            walk(child, p, families, out);
        }
        return;
    }
    if !path.contains('.') {
        return;
    }
    let choices = families.iter().find(|(f, _)| *f == path).map(|(_, names)| names.to_vec());
    let kind = match (v, &choices) {
        (_, Some(_)) => "choice",
        (Value::Bool(_), _) => "boolean",
        (Value::Number(n), _) if n.is_f64() => "number",
        (Value::Number(_), _) => "integer",
        _ => "string",
    };
    out.push(FieldSchema {
        group: path.split('.').next().unwrap_or_default().to_string(),
        main: MAIN_FIELDS.contains(&path.as_str()),
        choices: choices.unwrap_or_default(),
        kind,
        path,
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{preset, WarpSchedulerKind};

    #[test]
    fn every_leaf_is_listed_with_its_kind_and_policy_choices() {
        let s = schema(&preset("medic-gtx480").unwrap());
        let get = |p: &str| s.iter().find(|f| f.path == p).unwrap_or_else(|| panic!("{p} missing"));
        assert_eq!(get("l1d.size_kb").kind, "integer");
        assert!(get("l1d.size_kb").main);
        assert_eq!(get("clocks.core_mhz").kind, "number");
        assert_eq!(get("dram.bank_xor").kind, "boolean");
        assert_eq!(get("dram.timing.t_rcd").group, "dram");
        let sched = get("core.warp_scheduler");
        assert_eq!((sched.kind, sched.choices.as_slice()), ("choice", WarpSchedulerKind::NAMES));
        assert!(s.iter().all(|f| f.path != "name" && f.path != "description"));
        for m in MAIN_FIELDS {
            get(m);
        }
    }
}
