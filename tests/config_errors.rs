//! Bad input gets an error that names the field and, where there are choices, lists them.

use serde_json::Value;
use warpscope::config::{apply_set, parse_config, parse_config_value, preset, preset_names, PRESETS};
use warpscope::{ConfigError, ConfigErrors};

fn preset_doc() -> Value {
    serde_json::to_value(preset("medic-gtx480").unwrap()).unwrap()
}

fn set(path: &str, value: &str) -> Result<warpscope::Config, ConfigErrors> {
    let mut doc = preset_doc();
    apply_set(&mut doc, path, value).map_err(ConfigErrors::from)?;
    parse_config_value(doc)
}

fn only(e: ConfigErrors) -> ConfigError {
    assert_eq!(e.0.len(), 1, "{e}");
    e.0.into_iter().next().unwrap()
}

#[test]
fn every_preset_parses_validates_and_round_trips() {
    assert_eq!(preset_names()[0], "medic-gtx480");
    for (name, text) in PRESETS {
        let c = parse_config(text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(&c.name, name);
        let again = parse_config_value(serde_json::to_value(&c).unwrap()).unwrap();
        assert_eq!(again, c);
    }
}

#[test]
fn set_reaches_fields_by_dotted_path() {
    let c = set("l1d.size_kb", "32").unwrap();
    assert_eq!(c.l1d.size_kb, 32);
    assert_eq!(set("core.warp_scheduler", "lrr").unwrap().core.warp_scheduler.as_str(), "lrr");
    assert_eq!(set("dram.scheduler", "fcfs").unwrap().dram.scheduler.as_str(), "fcfs");
    assert_eq!(set("dram.timing.t_rcd", "14").unwrap().dram.timing.t_rcd, 14);
    assert!(!set("dram.bank_xor", "false").unwrap().dram.bank_xor);
}

#[test]
fn unknown_field_lists_the_valid_ones() {
    let e = only(set("l1d.sizekb", "32").unwrap_err());
    assert_eq!(e.field, "l1d.sizekb");
    assert!(e.message.contains("size_kb") && e.message.contains("ways"), "{}", e.message);
    let e = only(set("l3.size_kb", "1").unwrap_err());
    assert_eq!(e.field, "l3");
    assert!(e.message.contains("l1d") && e.message.contains("dram"));
    let e = only(set("l1d", "1").unwrap_err());
    assert!(e.message.contains("section"));
}

#[test]
fn unknown_policy_name_lists_the_choices() {
    let e = only(set("core.warp_scheduler", "fifo").unwrap_err());
    assert_eq!(e.field, "core.warp_scheduler");
    assert!(e.message.contains("fifo") && e.message.contains("lrr") && e.message.contains("gto"), "{}", e.message);
    let e = only(set("dram.scheduler", "frfcfs").unwrap_err());
    assert_eq!(e.field, "dram.scheduler");
    assert!(e.message.contains("fr_fcfs"));
}

#[test]
fn wrong_type_names_the_field() {
    let e = only(set("l1d.ways", "four").unwrap_err());
    assert_eq!(e.field, "l1d.ways");
    let e = only(set("core.num_sms", "-3").unwrap_err());
    assert_eq!(e.field, "core.num_sms");
}

#[test]
fn impossible_cache_geometry_is_explained() {
    let e = only(set("l1d.size_kb", "15").unwrap_err());
    assert_eq!(e.field, "l1d.size_kb");
    assert!(e.message.contains("sets x ways x line"), "{}", e.message);
    let e = set("l1d.line_bytes", "100").unwrap_err();
    assert_eq!(e.0[0].field, "l1d.line_bytes");
    assert!(e.0[0].message.contains("power of two"));
    let e = only(set("l2.size_kb", "700").unwrap_err());
    assert_eq!(e.field, "l2.size_kb");
}

fn set_all(pairs: &[(&str, &str)]) -> Result<warpscope::Config, ConfigErrors> {
    let mut doc = preset_doc();
    for (path, value) in pairs {
        apply_set(&mut doc, path, value).map_err(ConfigErrors::from)?;
    }
    parse_config_value(doc)
}

#[test]
fn every_set_index_function_serves_the_presets_32_set_caches() {
    // medic-gtx480: 16 KB 4-way 128 B L1 and 768 KB / (6 partitions x 2 banks) 16-way L2, 32 sets each.
    for name in ["linear", "bxor", "pmod", "a_prime", "d_prime", "ipoly", "fermi"] {
        let c = set_all(&[("l1d.set_index", name), ("l2.set_index", name)]).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(c.l1d.set_index.as_str(), name);
    }
}

#[test]
fn a_set_index_function_that_cannot_serve_the_set_count_names_the_valid_ones() {
    // 64 KB 4-way 128 B: 128 sets.
    let e = only(set_all(&[("l1d.size_kb", "64"), ("l1d.set_index", "ipoly")]).unwrap_err());
    assert_eq!(e.field, "l1d.set_index");
    assert!(e.message.contains("128 sets") && e.message.contains("16, 32 or 64 sets"), "{}", e.message);
    let e = only(set_all(&[("l1d.size_kb", "64"), ("l1d.set_index", "fermi")]).unwrap_err());
    assert!(e.message.contains("32 or 64 sets"), "{}", e.message);
    // 1 KB 4-way 128 B: 2 sets, no prime below 2.
    let e = only(set_all(&[("l1d.size_kb", "1"), ("l1d.set_index", "pmod")]).unwrap_err());
    assert_eq!(e.field, "l1d.set_index");
    assert!(e.message.contains("at least 4 sets"), "{}", e.message);
    // The L2 counts sets per bank: 3072 KB / (6 x 2 x 16 x 128 B) = 128.
    let e = only(set_all(&[("l2.size_kb", "3072"), ("l2.set_index", "ipoly")]).unwrap_err());
    assert_eq!(e.field, "l2.set_index");
    assert!(e.message.contains("128 sets") && e.message.contains("per bank"), "{}", e.message);
    assert!(set_all(&[("l2.size_kb", "1536"), ("l2.set_index", "fermi")]).is_ok(), "64 sets per bank");
}

#[test]
fn an_unknown_set_index_name_lists_the_functions() {
    let e = only(set("l1d.set_index", "xor").unwrap_err());
    assert_eq!(e.field, "l1d.set_index");
    for name in ["linear", "bxor", "pmod", "a_prime", "d_prime", "ipoly", "fermi"] {
        assert!(e.message.contains(name), "{name}: {}", e.message);
    }
}

#[test]
fn zero_sized_queues_and_bad_watermarks_are_rejected() {
    assert_eq!(only(set("l1d.miss_queue", "0").unwrap_err()).field, "l1d.miss_queue");
    assert_eq!(only(set("l2.bank_queue", "0").unwrap_err()).field, "l2.bank_queue");
    assert_eq!(only(set("dram.write_low_watermark", "40").unwrap_err()).field, "dram.write_low_watermark");
    assert_eq!(only(set("dram.banks", "12").unwrap_err()).field, "dram.banks");
    assert_eq!(only(set("clocks.core_mhz", "0").unwrap_err()).field, "clocks.core_mhz");
    assert_eq!(only(set("l2.data_port_bytes", "0").unwrap_err()).field, "l2.data_port_bytes");
}

/// A config saved before the L2 data ports existed loads with ports as wide as a line.
#[test]
fn configs_without_l2_data_ports_still_load() {
    let mut doc = preset_doc();
    doc["l2"].as_object_mut().unwrap().remove("data_port_bytes");
    assert_eq!(parse_config_value(doc).unwrap().l2.data_port_bytes, 128);
}

#[test]
fn several_problems_are_all_reported() {
    let mut doc = preset_doc();
    apply_set(&mut doc, "l1d.mshrs", "0").unwrap();
    apply_set(&mut doc, "l2.ports", "0").unwrap();
    let e = parse_config_value(doc).unwrap_err();
    let fields: Vec<_> = e.0.iter().map(|e| e.field.as_str()).collect();
    assert_eq!(fields, vec!["l1d.mshrs", "l2.ports"]);
}

#[test]
fn config_documents_reject_unknown_keys_and_malformed_json() {
    let mut doc = preset_doc();
    doc["dram"]["timing"]["REFI"] = Value::from(100);
    let e = only(parse_config_value(doc).unwrap_err());
    assert_eq!(e.field, "dram.timing.REFI");
    assert!(e.message.contains("t_refi"), "{}", e.message);
    let e = only(parse_config("{ \"name\": ").unwrap_err());
    assert_eq!(e.field, "config");
    assert!(e.message.contains("malformed JSON"));
    let mut doc = preset_doc();
    doc.as_object_mut().unwrap().remove("l2");
    assert!(only(parse_config_value(doc).unwrap_err()).message.contains("l2"));
}

#[test]
fn unknown_kernel_lists_the_valid_ones() {
    let e = only(
        warpscope::Simulator::new(preset("medic-gtx480").unwrap(), "bfss", warpscope::Size::Tiny, 1).err().unwrap(),
    );
    assert_eq!(e.field, "kernel");
    assert!(e.message.contains("bfs") && e.message.contains("atax"), "{}", e.message);
}

#[test]
fn limits_that_would_exhaust_memory_or_overflow_are_errors() {
    for (path, value) in [
        ("l1d.ways", "256"),
        ("l2.ports", "65"),
        ("l1d.mshrs", "4000000000"),
        ("l2.size_kb", "4000000000"),
        ("core.max_ctas_per_sm", "100000"),
    ] {
        let e = set(path, value).unwrap_err();
        assert!(e.0.iter().any(|e| e.field == path), "{path}: {e}");
    }
}

#[test]
fn a_cta_larger_than_an_sm_is_a_config_error() {
    let cfg = set("core.max_threads_per_sm", "64").unwrap();
    let e = only(warpscope::Simulator::new(cfg, "bfs", warpscope::Size::Tiny, 1).err().unwrap());
    assert_eq!(e.field, "core.max_threads_per_sm");
    assert!(e.message.contains("512 threads"), "{}", e.message);
}

#[test]
fn medic_fields_are_checked_and_old_configs_without_them_still_load() {
    let e = only(set("l2.bypass", "medik").unwrap_err());
    assert_eq!(e.field, "l2.bypass");
    assert!(e.message.contains("pc_byp") && e.message.contains("medic_reuse"), "{}", e.message);
    let e = only(set("l2.insertion", "lip").unwrap_err());
    assert!(e.message.contains("eaf"), "{}", e.message);
    let e = only(set("medic.mostly_miss_ratio", "0.8").unwrap_err());
    assert_eq!(e.field, "medic.mostly_miss_ratio");
    assert_eq!(only(set("l2.rand.share", "1.5").unwrap_err()).field, "l2.rand.share");
    assert_eq!(only(set("l2.pcal.tokens", "0").unwrap_err()).to_string(), "l2.pcal.tokens: must be at least 1");
    assert_eq!(only(set("medic.reset_interval", "0").unwrap_err()).field, "medic.reset_interval");
    let wb = |bypass| set_all(&[("l2.write_policy", "write_back"), ("l2.bypass", bypass)]);
    assert_eq!(only(wb("rand").unwrap_err()).field, "l2.bypass");
    assert!(wb("pcal").is_ok(), "PCAL looks every request up, so write-back is fine");
    let mut doc = preset_doc();
    for (path, v) in [("l2.bypass", "medic"), ("l2.write_policy", "write_through"), ("l2.dram_queue", "1")] {
        apply_set(&mut doc, path, v).unwrap();
    }
    assert_eq!(only(parse_config_value(doc).unwrap_err()).field, "l2.dram_queue");
    assert!(set("l2.bypass", "medic").is_ok(), "the MeDiC authors bypassed over GPGPU-Sim's write-back L2");
    let mut doc = preset_doc();
    doc.as_object_mut().unwrap().remove("medic");
    doc["l2"].as_object_mut().unwrap().remove("bypass");
    doc["l2"].as_object_mut().unwrap().remove("insertion");
    let c = parse_config_value(doc).unwrap();
    assert_eq!((c.l2.bypass.as_str(), c.l2.insertion.as_str(), c.medic.reset_interval), ("none", "mru", 100_000));
    let mut doc = preset_doc();
    doc["medic"]["reset_intervall"] = serde_json::json!(5);
    assert!(parse_config_value(doc).unwrap_err().to_string().contains("reset_intervall"));
}

/// Every leaf of a config document, as (dotted path, value).
fn leaves(v: &Value, prefix: &str, out: &mut Vec<(String, Value)>) {
    match v.as_object() {
        Some(o) => {
            for (k, sub) in o {
                let path = if prefix.is_empty() { k.clone() } else { format!("{prefix}.{k}") };
                leaves(sub, &path, out);
            }
        }
        None => out.push((prefix.to_string(), v.clone())),
    }
}

/// Words a student should never read in an error: Rust types and places in generated JSON.
const JARGON: [&str; 12] =
    ["u8", "u16", "u32", "u64", "usize", "i32", "i64", "f32", "f64", "line 1 column", "invalid type", "invalid value"];

#[test]
fn every_field_refuses_a_wrong_type_a_negative_zero_and_a_huge_value_in_plain_words() {
    let mut fields = Vec::new();
    leaves(&preset_doc(), "", &mut fields);
    assert!(fields.len() > 100, "{} fields", fields.len());
    let mut refused = 0;
    for (path, original) in &fields {
        let wrong_type = if original.is_string() { Value::from(12) } else { Value::from("abc") };
        for bad in [wrong_type, Value::from(-16), Value::from(0), Value::from(1e30)] {
            let mut doc = preset_doc();
            let mut node = &mut doc;
            for key in path.split('.') {
                node = &mut node[key];
            }
            *node = bad.clone();
            let Err(errors) = parse_config_value(doc) else { continue };
            refused += 1;
            for e in &errors.0 {
                let words: Vec<&str> = e.message.split(|c: char| !c.is_alphanumeric() && c != ' ').collect();
                for j in JARGON {
                    let hit = if j.contains(' ') {
                        e.message.contains(j)
                    } else {
                        words.iter().flat_map(|w| w.split(' ')).any(|w| w == j)
                    };
                    assert!(!hit, "{path} = {bad}: `{}` says `{j}`", e.message);
                }
                assert!(!e.field.is_empty() && e.field != "config", "{path} = {bad}: no field in `{e}`");
            }
            // A value the field cannot hold is named as written.
            let shown: Vec<String> = match &bad {
                Value::String(s) => vec![format!("\"{s}\"")],
                Value::Number(n) if n.as_f64() == Some(1e30) => vec!["1e+30".into(), format!("1{}", "0".repeat(30))],
                other => vec![other.to_string()],
            };
            if errors.0.iter().any(|e| e.field == *path && e.message.contains(" is not ")) {
                assert!(
                    errors.0.iter().any(|e| shown.iter().any(|s| e.message.contains(s.as_str()))),
                    "{path} = {bad}: the message does not show the value: {errors}"
                );
            }
        }
    }
    assert!(refused > fields.len() * 2, "only {refused} refusals over {} fields", fields.len());
}

#[test]
fn a_watchdog_stop_on_a_slow_machine_names_the_latency_and_the_remedy() {
    let cfg = set("core.alu_latency", "1000000").unwrap();
    let mut sim = warpscope::Simulator::new(cfg, "bfs", warpscope::Size::Tiny, 1).unwrap();
    sim.run_until(u64::MAX);
    let error = sim.error().expect("the watchdog stops the run").to_string();
    assert!(error.contains("core.alu_latency = 1000000") && error.contains("raise stats.watchdog_cycles"), "{error}");
}

#[test]
fn one_sampled_window_is_refused_since_it_gives_no_interval() {
    let with = |windows: u32| {
        let mut doc = preset_doc();
        doc["sample"] = serde_json::json!({ "windows": windows });
        parse_config_value(doc)
    };
    let e = only(with(1).unwrap_err());
    assert_eq!(e.field, "sample.windows");
    assert!(e.message.contains("no interval") && e.message.contains("at least 2"), "{}", e.message);
    assert_eq!(with(2).unwrap().sample.windows, 2);
    assert_eq!(with(0).unwrap().sample.windows, 0);
}
