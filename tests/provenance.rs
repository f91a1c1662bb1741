//! docs/provenance.md says where each paper preset's values come from; its "ours" column
//! must be what the presets hold.

use serde_json::Value;

fn leaf<'a>(doc: &'a Value, path: &str) -> Option<&'a Value> {
    path.split('.').try_fold(doc, |v, k| v.get(k))
}

fn same(value: &Value, written: &str) -> bool {
    match value {
        Value::Number(n) => written.parse::<f64>().is_ok_and(|w| Some(w) == n.as_f64()),
        Value::String(s) => s == written,
        Value::Bool(b) => b.to_string() == written,
        _ => false,
    }
}

#[test]
fn the_provenance_tables_match_the_presets() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/provenance.md")).unwrap();
    let mut preset: Option<(String, Value)> = None;
    let mut checked = 0;
    for line in text.lines() {
        if let Some(name) = line.strip_prefix("## `").and_then(|l| l.strip_suffix('`')) {
            let cfg = warpscope::config::preset(name).unwrap_or_else(|| panic!("no preset {name}"));
            preset = Some((name.to_string(), serde_json::to_value(cfg).unwrap()));
            continue;
        }
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let (Some((name, doc)), [_, field, ours, ..]) = (&preset, cells.as_slice()) else { continue };
        let Some(field) = field.strip_prefix('`').and_then(|f| f.strip_suffix('`')) else { continue };
        let value = leaf(doc, field).unwrap_or_else(|| panic!("{name}: no field {field}"));
        assert!(same(value, ours), "{name}: {field} is {value}, the table says {ours}");
        checked += 1;
    }
    assert!(checked >= 150, "only {checked} rows checked");
}
