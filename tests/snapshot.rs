//! Golden reports: a run's JSON report must stay byte-identical unless the change is intended.
//! The same files are what the wasm build must produce (tests/wasm.rs), so native and browser
//! runs are checked against one reference.
//!
//! After an intended change to the simulator or the report, rewrite the goldens with
//! `UPDATE_GOLDEN=1 cargo test --release --test snapshot` and review the diff.

use serde_json::Value;
use std::path::PathBuf;
use warpscope::config::preset;
use warpscope::Size;

fn golden_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden").join(name)
}

/// The dotted path of the first place where `a` and `b` differ (`""` for the root), or `None`.
fn first_difference(a: &Value, b: &Value, path: &str) -> Option<String> {
    let join = |key: &str| if path.is_empty() { key.to_string() } else { format!("{path}.{key}") };
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (k, va) in x {
                match y.get(k) {
                    Some(vb) => {
                        if let Some(d) = first_difference(va, vb, &join(k)) {
                            return Some(d);
                        }
                    }
                    None => return Some(join(k)),
                }
            }
            y.keys().find(|k| !x.contains_key(*k)).map(|k| join(k))
        }
        (Value::Array(x), Value::Array(y)) => {
            for (i, (va, vb)) in x.iter().zip(y).enumerate() {
                if let Some(d) = first_difference(va, vb, &join(&i.to_string())) {
                    return Some(d);
                }
            }
            (x.len() != y.len()).then(|| join(&x.len().min(y.len()).to_string()))
        }
        _ => (a != b).then(|| path.to_string()),
    }
}

fn check(name: &str, preset_name: &str, kernel: &str, size: Size, seed: u64) {
    let cfg = preset(preset_name).expect("known preset");
    let report = warpscope::run(cfg, kernel, size, seed, None).expect("valid run");
    let current = serde_json::to_string(&report).expect("reports serialize");
    let path = golden_path(name);
    if std::env::var_os("UPDATE_GOLDEN").is_some_and(|v| v == "1") {
        std::fs::write(&path, format!("{current}\n")).expect("write golden");
        eprintln!("rewrote {}", path.display());
        return;
    }
    let golden = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!("{}: {e}; create it with UPDATE_GOLDEN=1 cargo test --release --test snapshot", path.display())
    });
    let golden = golden.strip_suffix('\n').unwrap_or(&golden);
    if golden == current {
        return;
    }
    let parsed = (serde_json::from_str::<Value>(golden), serde_json::from_str::<Value>(&current));
    let place = match parsed {
        (Ok(g), Ok(c)) => match first_difference(&g, &c, "") {
            Some(k) if k.is_empty() => "at the top level".to_string(),
            Some(k) => format!("first at `{k}`"),
            None => "in formatting only (same values)".to_string(),
        },
        (Err(e), _) => format!("(the golden is not valid JSON: {e})"),
        (_, Err(e)) => format!("(the current report is not valid JSON: {e})"),
    };
    panic!(
        "the {preset_name} {kernel} {} seed {seed} report differs from {} {place}.\n\
         If the change is intended, rewrite the golden with `UPDATE_GOLDEN=1 cargo test --release --test snapshot` \
         and review the diff.",
        size.as_str(),
        path.display()
    );
}

#[test]
fn medic_bfs_tiny_seed5() {
    check("medic-bfs-tiny-seed5.json", "medic-gtx480", "bfs", Size::Tiny, 5);
}

#[test]
fn sc14_spmv_tiny_seed5() {
    check("sc14-spmv-tiny-seed5.json", "sc14-gtx480", "spmv", Size::Tiny, 5);
}

#[test]
fn first_difference_names_the_dotted_key() {
    let a: Value = serde_json::json!({"a": 1, "b": {"c": [1, 2, {"d": 3}]}});
    let b: Value = serde_json::json!({"a": 1, "b": {"c": [1, 2, {"d": 4}]}});
    assert_eq!(first_difference(&a, &b, "").as_deref(), Some("b.c.2.d"));
    assert_eq!(first_difference(&a, &a, ""), None);
    let c: Value = serde_json::json!({"a": 1, "b": {"c": [1, 2]}});
    assert_eq!(first_difference(&a, &c, "").as_deref(), Some("b.c.2"));
    let d: Value = serde_json::json!({"a": 1, "b": {"c": [1, 2, {"d": 3}]}, "e": 0});
    assert_eq!(first_difference(&a, &d, "").as_deref(), Some("e"));
}
