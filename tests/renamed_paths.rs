//! Old paths of renamed policy parameters keep working for one release: a config document
//! that gives them (a file, a plan, an old share link's config) reads as the new one, and
//! `--set`/`--tune` with an old path set the new field, with a warning on the CLI.

use serde_json::Value;
use std::process::{Command, Output};
use warpscope::config::{apply_set, parse_config, parse_config_value, preset, RENAMED};

fn warpscope(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_warpscope")).args(args).output().expect("the binary runs")
}

fn pointer(path: &str) -> String {
    format!("/{}", path.replace('.', "/"))
}

/// A preset as a document of the release before the rename: every renamed field at its
/// old path (the new sections gone).
fn old_document(name: &str) -> Value {
    let mut doc = serde_json::to_value(preset(name).unwrap()).unwrap();
    for (old, new) in RENAMED {
        let value = doc.pointer(&pointer(new)).unwrap().clone();
        let (section, key) = old.split_once('.').unwrap();
        doc[section][key] = value;
    }
    for (_, new) in RENAMED {
        let parts: Vec<&str> = new.split('.').collect();
        doc[parts[0]].as_object_mut().unwrap().remove(parts[1]);
    }
    doc
}

#[test]
fn an_old_document_reads_as_the_new_one() {
    for name in ["medic-gtx480", "iwarp-fermi", "sc14-gtx480"] {
        let old = old_document(name);
        assert!(old["medic"].get("rand_share").is_some() && old["l2"].get("rand").is_none());
        assert_eq!(parse_config_value(old.clone()).unwrap(), preset(name).unwrap(), "{name}");
        assert_eq!(parse_config(&old.to_string()).unwrap(), preset(name).unwrap(), "{name} as text (the page)");
    }
}

#[test]
fn an_old_set_path_sets_the_new_field() {
    let values = ["2", "3", "50", "9", "17", "300", "5", "0.75", "0.5", "8", "16", "2048"];
    assert_eq!(values.len(), RENAMED.len());
    let mut doc = serde_json::to_value(preset("medic-gtx480").unwrap()).unwrap();
    for ((old, new), v) in RENAMED.iter().zip(values) {
        apply_set(&mut doc, old, v).unwrap();
        assert_eq!(doc.pointer(&pointer(new)).unwrap().to_string(), v, "{old}");
    }
    parse_config_value(doc).unwrap();
}

#[test]
fn a_document_giving_both_paths_names_the_old_one() {
    let mut doc = serde_json::to_value(preset("medic-gtx480").unwrap()).unwrap();
    doc["medic"]["rand_share"] = serde_json::json!(0.5);
    let e = parse_config_value(doc).unwrap_err().to_string();
    assert!(e.starts_with("medic.rand_share: is the old name of l2.rand.share"), "{e}");
}

#[test]
fn the_cli_takes_old_paths_with_a_warning() {
    let o = warpscope(&["config", "--set", "medic.rand_share=0.5", "--set", "dram.sbwas_alpha=0.25"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("warning: --set medic.rand_share: renamed l2.rand.share"), "{err}");
    assert!(err.contains("warning: --set dram.sbwas_alpha: renamed dram.sbwas.alpha"), "{err}");
    let cfg: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!((cfg["l2"]["rand"]["share"].as_f64(), cfg["dram"]["sbwas"]["alpha"].as_f64()), (Some(0.5), Some(0.25)));
    // A bad value under an old path is named by its new path.
    let o = warpscope(&["config", "--set", "medic.rand_share=1.5"]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("l2.rand.share: 1.5 is not a fraction in 0..=1"));

    let path = std::env::temp_dir().join(format!("warpscope-renamed-{}.json", std::process::id()));
    std::fs::write(&path, old_document("iwarp-fermi").to_string()).unwrap();
    let file = path.to_str().unwrap();
    let o = warpscope(&["config", "--config", file]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(err.contains(&format!("warning: {file}: core.swl_limit is renamed core.swl.limit")), "{err}");
    assert!(!err.contains("leaves out"), "moved fields are not left out: {err}");
    let cfg: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(cfg, serde_json::to_value(preset("iwarp-fermi").unwrap()).unwrap());
    std::fs::remove_file(&path).ok();
}
