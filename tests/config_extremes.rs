//! Every numeric field of every preset, set to an extreme value: the config is either
//! rejected by validation or simulates a tiny kernel without a panic.

use serde_json::Value;
use std::panic::{catch_unwind, AssertUnwindSafe};
use warpscope::config::{parse_config_value, preset, preset_names};
use warpscope::Size;

/// (dotted path, value) of every leaf of a config document.
fn leaves(v: &Value, path: &str, out: &mut Vec<(String, Value)>) {
    match v {
        Value::Object(m) => {
            for (k, c) in m {
                let p = if path.is_empty() { k.clone() } else { format!("{path}.{k}") };
                leaves(c, &p, out);
            }
        }
        _ => out.push((path.to_string(), v.clone())),
    }
}

fn set_leaf(doc: &mut Value, path: &str, val: Value) {
    let cur = path.split('.').fold(doc, |cur, p| cur.get_mut(p).expect("leaf path"));
    *cur = val;
}

#[test]
fn extreme_numeric_fields_are_rejected_or_simulate_without_panicking() {
    let extremes: [Value; 5] = [0.into(), 1.into(), 3.into(), 0.5.into(), u32::MAX.into()];
    let (mut accepted, mut panics) = (0, Vec::new());
    for name in preset_names() {
        let base = serde_json::to_value(preset(name).unwrap()).unwrap();
        let mut fields = Vec::new();
        leaves(&base, "", &mut fields);
        for (path, _) in fields.iter().filter(|(_, v)| v.is_number()) {
            for v in &extremes {
                let mut doc = base.clone();
                set_leaf(&mut doc, path, v.clone());
                let Ok(cfg) = parse_config_value(doc) else { continue };
                accepted += 1;
                let run = catch_unwind(AssertUnwindSafe(|| warpscope::run(cfg, "bfs", Size::Tiny, 1, Some(200_000))));
                if run.is_err() {
                    panics.push(format!("{name}: {path} = {v}"));
                }
            }
        }
    }
    assert!(accepted > 1000, "only {accepted} configs were accepted");
    assert!(panics.is_empty(), "these configs panicked: {panics:#?}");
}
