//! The wasm layer in a real browser (headless Chromium through wasm-bindgen-test-runner):
//! `bash scripts/test-wasm.sh`. Native runs skip this file.
#![cfg(target_arch = "wasm32")]

use serde_json::Value;
use warpscope::config::{preset, PRESETS};
use warpscope::wasm::{chart_list, ChartSet, WasmSim};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

wasm_bindgen_test_configure!(run_in_browser);

/// The same run as tests/golden/medic-bfs-tiny-seed5.json (see tests/snapshot.rs).
const GOLDEN_MEDIC_BFS: &str = include_str!("golden/medic-bfs-tiny-seed5.json");

fn preset_json(name: &str) -> String {
    serde_json::to_string(&preset(name).expect("known preset")).expect("configs serialize")
}

fn default_preset_json() -> String {
    preset_json(PRESETS[0].0)
}

/// Steps `sim` to the end in chunks, as the page's worker does.
fn run_to_end(sim: &mut WasmSim) {
    let mut chunks = 0u32;
    while !sim.step(2_000) {
        chunks += 1;
        assert!(chunks < 100_000, "the run did not finish");
    }
}

fn js_to_json(v: &JsValue) -> Value {
    serde_wasm_bindgen::from_value(v.clone()).expect("a JSON-compatible value")
}

/// The `field` of the first `{field, message}` a failed `WasmSim::new` threw.
fn first_error_field(config_json: &str, kernel: &str, size: &str, seed: f64) -> String {
    let err = match WasmSim::new(config_json, kernel, size, seed) {
        Ok(_) => panic!("expected an error for kernel {kernel:?}, size {size:?}, seed {seed}"),
        Err(e) => e,
    };
    assert!(js_sys::Array::is_array(&err), "the error is an array: {err:?}");
    let errors = js_to_json(&err);
    let first = &errors.as_array().expect("an array")[0];
    assert!(first["message"].as_str().is_some_and(|m| !m.is_empty()), "the error has a message: {first}");
    first["field"].as_str().expect("a field name").to_string()
}

#[wasm_bindgen_test]
fn default_preset_runs_to_completion() {
    let mut sim = WasmSim::new(&default_preset_json(), "bfs", "tiny", 1.0).expect("a valid run");
    run_to_end(&mut sim);
    assert_eq!(sim.error(), None);
    let progress = js_to_json(&sim.progress());
    assert_eq!(progress["finished"], Value::Bool(true), "progress: {progress}");
    let report: Value = serde_json::from_str(&sim.report_json()).expect("the report is JSON");
    assert_eq!(report["completed"], Value::Bool(true));
    assert!(report["cycles"].as_u64().is_some_and(|c| c > 0), "cycles: {}", report["cycles"]);
}

#[wasm_bindgen_test]
fn invalid_config_names_the_field() {
    let mut cfg: Value = serde_json::from_str(&default_preset_json()).unwrap();
    cfg["l1d"]["size_kb"] = Value::from(15);
    assert_eq!(first_error_field(&cfg.to_string(), "bfs", "tiny", 1.0), "l1d.size_kb");

    let errors = js_to_json(&warpscope::wasm::validate_config(&cfg.to_string()));
    assert_eq!(errors[0]["field"], "l1d.size_kb");
    let none = js_to_json(&warpscope::wasm::validate_config(&default_preset_json()));
    assert_eq!(none, Value::Array(vec![]));
}

#[wasm_bindgen_test]
fn bad_kernel_size_and_seed_name_their_fields() {
    let cfg = default_preset_json();
    assert_eq!(first_error_field(&cfg, "no-such-kernel", "tiny", 1.0), "kernel");
    assert_eq!(first_error_field(&cfg, "bfs", "huge", 1.0), "size");
    assert_eq!(first_error_field(&cfg, "bfs", "tiny", -1.0), "seed");
    assert_eq!(first_error_field(&cfg, "bfs", "tiny", 1.5), "seed");
    assert_eq!(first_error_field(&cfg, "bfs", "tiny", f64::NAN), "seed");
}

fn medic_bfs_report() -> String {
    let mut sim = WasmSim::new(&preset_json("medic-gtx480"), "bfs", "tiny", 5.0).expect("a valid run");
    run_to_end(&mut sim);
    sim.report_json()
}

#[wasm_bindgen_test]
fn report_matches_the_native_golden() {
    let golden = GOLDEN_MEDIC_BFS.strip_suffix('\n').unwrap_or(GOLDEN_MEDIC_BFS);
    let report = medic_bfs_report();
    // Compare the text first (a byte-identical report is the contract) but fail with a readable
    // message rather than two 8 KB strings.
    if report != golden {
        let g: Value = serde_json::from_str(golden).unwrap();
        let r: Value = serde_json::from_str(&report).unwrap();
        let differing: Vec<&String> =
            g.as_object().unwrap().iter().filter(|(k, v)| r.get(k.as_str()) != Some(v)).map(|(k, _)| k).collect();
        panic!("the wasm report differs from the native golden; differing top-level keys: {differing:?}");
    }
}

fn canvas(width: u32, height: u32) -> HtmlCanvasElement {
    let document = web_sys::window().expect("a window").document().expect("a document");
    let canvas: HtmlCanvasElement = document.create_element("canvas").unwrap().dyn_into().unwrap();
    canvas.set_width(width);
    canvas.set_height(height);
    document.body().expect("a body").append_child(&canvas).unwrap();
    canvas
}

/// Pixels that are neither white nor transparent.
fn inked_pixels(canvas: &HtmlCanvasElement) -> usize {
    let ctx: CanvasRenderingContext2d = canvas.get_context("2d").unwrap().expect("a 2D context").dyn_into().unwrap();
    let data = ctx.get_image_data(0.0, 0.0, canvas.width() as f64, canvas.height() as f64).unwrap().data();
    data.chunks_exact(4).filter(|p| p[3] != 0 && (p[0] < 250 || p[1] < 250 || p[2] < 250)).count()
}

#[wasm_bindgen_test]
fn every_chart_draws_exports_and_tabulates() {
    let mut set = ChartSet::new();
    set.add("medic bfs", &medic_bfs_report()).expect("a report");
    // TB_bg needs a run with the coordinated-bypassing learner.
    let mut cfg: Value = serde_json::from_str(&preset_json("xie-fermi")).unwrap();
    cfg["l1d"]["bypass"] = Value::from("coordinated");
    let mut sim = WasmSim::new(&cfg.to_string(), "spmv", "tiny", 1.0).expect("a valid run");
    run_to_end(&mut sim);
    set.add("coordinated spmv", &sim.report_json()).expect("a report");
    assert!(set.add("junk", "{not a report").is_err());

    let charts = js_to_json(&chart_list());
    let charts = charts.as_array().expect("a list of charts");
    assert_eq!(charts.len(), 11);
    for chart in charts {
        let name = chart["name"].as_str().expect("a name");
        let canvas = canvas(800, 500);
        assert_eq!(inked_pixels(&canvas), 0, "a fresh canvas is blank");
        set.draw(canvas.clone(), name, 1.0).unwrap_or_else(|e| panic!("{name}: draw failed: {e:?}"));
        assert!(inked_pixels(&canvas) > 1_000, "{name}: the canvas is blank");

        let svg = set.svg(name, 800, 500).unwrap_or_else(|e| panic!("{name}: svg failed: {e:?}"));
        assert!(svg.starts_with("<svg"), "{name}: svg starts with {:?}", &svg[..svg.len().min(40)]);

        let table = js_to_json(&set.table(name).unwrap());
        assert!(table["headers"].as_array().is_some_and(|h| !h.is_empty()), "{name}: headers");
        assert!(table["rows"].as_array().is_some_and(|r| !r.is_empty()), "{name}: no rows");
        let csv = set.csv(name).unwrap();
        assert!(csv.lines().count() >= 2, "{name}: csv {csv:?}");
    }
    assert!(set.draw(canvas(10, 10), "no-such-chart", 1.0).is_err());
}

#[wasm_bindgen_test]
fn a_gallery_figure_is_planned_run_and_built_in_the_browser() {
    use warpscope::wasm::{figure_build, figure_list, figure_plan};
    let list = js_to_json(&figure_list());
    assert_eq!(list.as_array().unwrap().len(), 13);
    let plan = js_to_json(&figure_plan("sc14-fig11", "tiny", 3.0).unwrap());
    let runs = plan.as_array().unwrap();
    assert_eq!(runs.len(), 25);
    assert_eq!(runs[0]["config"]["dram"]["scheduler"], "gmc");
    let first = &runs[0];
    let mut sim = WasmSim::new(&first["config"].to_string(), first["kernel"].as_str().unwrap(), "tiny", 3.0)
        .expect("a valid run");
    run_to_end(&mut sim);
    let metrics = sim.metrics_json();
    let m: Value = serde_json::from_str(&metrics).unwrap();
    assert!(m["completed"].as_bool().unwrap() && m["ipc"].as_f64().unwrap() > 0.0);
    let all = format!("[{}]", vec![metrics.as_str(); 25].join(","));
    let outcome = js_to_json(&figure_build("sc14-fig11", &all).unwrap());
    assert_eq!(outcome["figure"]["categories"].as_array().unwrap().len(), 5);
    assert!(figure_build("sc14-fig11", "[]").is_err());
    assert!(figure_plan("sc14-fig11", "huge", 1.0).is_err());
    assert!(figure_plan("nope", "tiny", 1.0).is_err());
}

#[wasm_bindgen_test]
fn the_page_takes_speedups_and_their_harmonic_mean_from_the_simulator() {
    use warpscope::wasm::{harmonic_mean, speedup};
    assert_eq!(harmonic_mean(vec![1.5, 0.5]), Some(0.75));
    assert_eq!(harmonic_mean(vec![1.5, 0.0]), None, "a failed run leaves no mean");
    assert_eq!(harmonic_mean(vec![1.5, f64::NAN]), None);
    assert_eq!(speedup(3.0, 2.0), Some(1.5));
    assert_eq!(speedup(3.0, 0.0), None);
}

#[wasm_bindgen_test]
fn runs_sharing_a_warming_report_as_each_would_alone() {
    use warpscope::wasm::figure_plan;
    let plan = js_to_json(&figure_plan("sc14-fig9", "small", 3.0).unwrap());
    let runs = &plan.as_array().unwrap()[..3];
    assert!(runs.iter().all(|r| r["warming_scheduler"] == "gmc"), "sampled, a kernel's runs take GMC's warming");
    let configs: Vec<Value> = runs
        .iter()
        .map(|r| {
            let mut c = r["config"].clone();
            c["sample"] = serde_json::json!({"windows": 4, "warming_scheduler": "gmc"});
            c
        })
        .collect();
    let mut group =
        WasmSim::shared(&Value::from(configs.clone()).to_string(), "bfs", "small", 3.0).expect("they share");
    run_to_end(&mut group);
    assert_eq!(group.run_count(), 3);
    for (i, c) in configs.iter().enumerate() {
        let mut alone = WasmSim::new(&c.to_string(), "bfs", "small", 3.0).expect("a valid run");
        run_to_end(&mut alone);
        assert_eq!(group.metrics_json_of(i).unwrap(), alone.metrics_json(), "run {i}");
    }
    assert!(group.metrics_json_of(3).is_err());
    let mut other = configs[1].clone();
    other["l2"]["size_kb"] = Value::from(384);
    let err = WasmSim::shared(&Value::from(vec![configs[0].clone(), other]).to_string(), "bfs", "small", 3.0)
        .err()
        .expect("a different L2 does not share");
    assert_eq!(js_to_json(&err)[0]["field"], "sample.warming_scheduler");
}
