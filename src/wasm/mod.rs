//! The thin wasm-bindgen layer the web page and its worker call. Configs and reports
//! cross as JSON text (the report is then byte-identical to the CLI's); errors cross
//! as structured `{field, message}` values so the page can show them by their field.

mod gallery;
pub use gallery::{figure_build, figure_list, figure_plan, verdict_rules};

use crate::config::{parse_config, preset, preset_names, schema, ConfigError, ConfigErrors, PRESETS};
use crate::kernels::{Size, KERNELS};
use crate::plot::{draw_scaled, preferred_height, svg, table, Chart, ChartRun};
use crate::sample::Sampler;
use crate::stats::build_report;
use crate::trace::{self, Files, Selection, TraceError, TraceInput};
use crate::Simulator;
use plotters::prelude::*;
use plotters_canvas::CanvasBackend;
use serde::Serialize;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use web_sys::HtmlCanvasElement;

pub(crate) fn to_js<T: Serialize + ?Sized>(v: &T) -> JsValue {
    v.serialize(&serde_wasm_bindgen::Serializer::json_compatible()).unwrap_or(JsValue::NULL)
}

fn errors_to_js(e: &ConfigErrors) -> JsValue {
    to_js(&e.0)
}

#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}

/// A run's IPC over its base run's (`crate::speedup`), undefined where the base ran nothing.
#[wasm_bindgen]
pub fn speedup(ipc: f64, base: f64) -> Option<f64> {
    crate::speedup::speedup(ipc, base)
}

/// The harmonic mean of speedups (`crate::speedup`), undefined where any run failed.
#[wasm_bindgen]
pub fn harmonic_mean(values: Vec<f64>) -> Option<f64> {
    crate::speedup::harmonic_mean(&values)
}

/// Presets as `[{name, description, config, sample}]`, the default first. `sample` is the
/// config's `sample` section (off) with every field (`SampleConfig::document`), which a
/// serialized config leaves out; the form adds it.
/// They cross as JSON text: configs then need one serializer in the build (reports' JSON).
#[wasm_bindgen]
pub fn presets() -> JsValue {
    #[derive(Serialize)]
    struct P {
        name: &'static str,
        description: String,
        sample: serde_json::Value,
        config: crate::Config,
    }
    let list: Vec<P> = preset_names()
        .into_iter()
        .filter_map(|n| {
            preset(n).map(|c| P { name: n, description: c.description.clone(), sample: c.sample.document(), config: c })
        })
        .collect();
    js_sys::JSON::parse(&serde_json::to_string(&list).expect("presets serialize")).unwrap_or(JsValue::NULL)
}

/// Policy bundles as `[{name, description, sets: [[path, value], ...]}]`.
#[wasm_bindgen]
pub fn bundles() -> JsValue {
    to_js(crate::config::BUNDLES)
}

/// `[[old path, new path]]` of every renamed config field: the page moves an old share
/// link's values to their new fields.
#[wasm_bindgen]
pub fn renamed_paths() -> JsValue {
    to_js(crate::config::RENAMED)
}

/// Built-in kernels as `[[name, description]]`.
#[wasm_bindgen]
pub fn kernels() -> JsValue {
    to_js(KERNELS)
}

/// The form schema (see `config::schema`), built from the default preset.
#[wasm_bindgen]
pub fn config_schema() -> JsValue {
    let cfg = crate::config::parse_config(PRESETS[0].1).expect("the default preset is valid");
    to_js(&schema(&cfg))
}

/// Validates a config document: `[]` or `[{field, message}, ...]`.
#[wasm_bindgen]
pub fn validate_config(config_json: &str) -> JsValue {
    match parse_config(config_json) {
        Ok(_) => to_js::<[ConfigError]>(&[]),
        Err(e) => errors_to_js(&e),
    }
}

/// A run's seed from the page: a whole number that a JS number holds exactly.
fn page_seed(seed: f64) -> Result<u64, JsValue> {
    if !(seed.is_finite() && (0.0..=9_007_199_254_740_991.0).contains(&seed) && seed.fract() == 0.0) {
        let msg = format!("{seed} is not a whole number from 0 to 2^53 - 1");
        return Err(errors_to_js(&ConfigError::new("seed", msg).into()));
    }
    Ok(seed as u64)
}

/// The `l1d.bypass` values that profile the loads before the run: on a trace they read a
/// profiling trace, so the page offers one.
#[wasm_bindgen]
pub fn profiled_l1_bypass() -> JsValue {
    use crate::config::L1BypassKind;
    let profiled = |n: &&&str| L1BypassKind::parse(n).is_some_and(|k| k.profile().is_some());
    to_js(&L1BypassKind::NAMES.iter().filter(profiled).collect::<Vec<_>>())
}

/// The list file the page reads first from a trace folder.
const TRACE_LIST: &str = "kernelslist.g";

fn trace_error(e: TraceError) -> JsValue {
    errors_to_js(&ConfigError::new("trace", e.to_string()).into())
}

/// The files of a trace folder as the page read them (gzip inflated), with the kernels
/// chosen from its list: the worker adds `kernelslist.g`, asks which kernel files to read,
/// adds those and hands the folder to `WasmSim::trace`.
#[wasm_bindgen]
pub struct TraceFolder {
    files: Files,
    select: Option<Selection>,
}

#[wasm_bindgen]
impl TraceFolder {
    /// An empty folder whose run replays the kernels `kernels` chooses (as `--kernels`:
    /// `1,3-5`; blank for all); throws `[{field: "kernels", message}]` for a bad choice.
    #[wasm_bindgen(constructor)]
    pub fn new(kernels: &str) -> Result<TraceFolder, JsValue> {
        let select = Some(kernels.trim()).filter(|k| !k.is_empty()).map(Selection::parse).transpose();
        let select = select.map_err(|e| errors_to_js(&ConfigError::new("kernels", e).into()))?;
        Ok(TraceFolder { files: Files::default(), select })
    }

    /// Adds file `name` (its name in the folder) with its contents.
    pub fn add(&mut self, name: &str, bytes: &[u8]) {
        self.files.0.insert(name.to_string(), bytes.into());
    }

    /// The kernel files `kernelslist.g` names that the choice keeps, in launch order: what
    /// to read next. Throws `[{field, message}]`: `trace` for a problem in the list (with its
    /// line), `kernels` for a choice past the list's end.
    pub fn kernel_files(&self) -> Result<JsValue, JsValue> {
        let all = trace::launches(&self.files, TRACE_LIST, None).map_err(trace_error)?;
        if let Some(max) = self.select.as_ref().map(Selection::max).filter(|&m| m as usize > all.len()) {
            let n = all.len();
            let msg =
                format!("there is no kernel {max}: {TRACE_LIST} lists {n}; choose numbers from 1 to {n}, e.g. 1,3-5");
            return Err(errors_to_js(&ConfigError::new("kernels", msg).into()));
        }
        let chosen = trace::launches(&self.files, TRACE_LIST, self.select.as_ref()).map_err(trace_error)?;
        Ok(to_js(&chosen.into_iter().map(|(file, _)| file).collect::<Vec<_>>()))
    }
}

impl TraceFolder {
    /// The folder as a run opens it, named `name`.
    fn input(self, name: &str) -> TraceInput {
        TraceInput {
            source: Rc::new(self.files),
            list: TRACE_LIST.to_string(),
            name: name.to_string(),
            select: self.select,
        }
    }
}

/// The machine of `config_json` running built-in `kernel`; throws `[{field, message}]`.
fn simulator(config_json: &str, kernel: &str, size: &str, seed: f64) -> Result<Simulator, JsValue> {
    let cfg = parse_config(config_json).map_err(|e| errors_to_js(&e))?;
    let size = Size::parse(size).ok_or_else(|| {
        let msg = format!("unknown size `{size}`; valid sizes are: {}", Size::NAMES.join(", "));
        errors_to_js(&ConfigError::new("size", msg).into())
    })?;
    Simulator::new(cfg, kernel, size, page_seed(seed)?).map_err(|e| errors_to_js(&e))
}

/// A run as the page steps it: in full detail, or sampled (`sample.windows` > 0).
enum Run {
    Full(Simulator),
    Sampled(Box<Sampler>),
}

#[wasm_bindgen]
pub struct WasmSim {
    run: Run,
}

impl WasmSim {
    /// Steps `sim` in full detail, or sampled when its config's `sample.windows` is set.
    fn of(sim: Simulator) -> WasmSim {
        let run = if sim.config().sample.is_off() { Run::Full(sim) } else { Run::Sampled(Box::new(Sampler::new(sim))) };
        WasmSim { run }
    }

    fn sim(&self) -> &Simulator {
        match &self.run {
            Run::Full(sim) => sim,
            Run::Sampled(s) => s.sim(),
        }
    }
}

#[wasm_bindgen]
impl WasmSim {
    /// Builds a run; throws `[{field, message}]` for a bad config, kernel or size.
    #[wasm_bindgen(constructor)]
    pub fn new(config_json: &str, kernel: &str, size: &str, seed: f64) -> Result<WasmSim, JsValue> {
        Ok(WasmSim::of(simulator(config_json, kernel, size, seed)?))
    }

    /// Builds sampled runs of one kernel that share a warming (`Sampler::shared`) from a JSON
    /// array of configs; throws `[{field, message}]` for a bad config, kernel or size, or
    /// runs that cannot share (field `sample.warming_scheduler`).
    pub fn shared(configs_json: &str, kernel: &str, size: &str, seed: f64) -> Result<WasmSim, JsValue> {
        let configs: Vec<serde_json::Value> = serde_json::from_str(configs_json).map_err(|e| {
            errors_to_js(&ConfigError::new("config", format!("is not a JSON list of configs ({e})")).into())
        })?;
        let sims = configs.iter().map(|c| simulator(&c.to_string(), kernel, size, seed)).collect::<Result<_, _>>()?;
        let run =
            Sampler::shared(sims).map_err(|e| errors_to_js(&ConfigError::new("sample.warming_scheduler", e).into()))?;
        Ok(WasmSim { run: Run::Sampled(Box::new(run)) })
    }

    /// Builds a replay of the trace in `folder`, named `name` in its report (as the CLI names
    /// it after the folder); throws `[{field, message}]`, field `trace` for a problem in its
    /// files (with the file and line). A policy that profiles the loads before the run
    /// profiles `profile` (named `profile_name`), as `--profile-trace` does, else the trace
    /// itself; a problem found then has field `l1d.bypass`, as on the CLI.
    pub fn trace(
        config_json: &str,
        folder: TraceFolder,
        name: &str,
        seed: f64,
        profile: Option<TraceFolder>,
        profile_name: &str,
    ) -> Result<WasmSim, JsValue> {
        let cfg = parse_config(config_json).map_err(|e| errors_to_js(&e))?;
        let seed = page_seed(seed)?;
        let run = folder.input(name);
        let profile = profile.map_or_else(|| run.clone(), |p| p.input(profile_name));
        let bench = run.open().map_err(trace_error)?;
        Ok(WasmSim::of(trace::simulator(cfg, bench, seed, &profile).map_err(|e| errors_to_js(&e))?))
    }

    /// The problem that stopped reading a trace during the run (a malformed or truncated
    /// kernel file, with its file and line), if one did: the run's report is then not valid.
    pub fn trace_error(&self) -> Option<String> {
        self.sim().benchmark().read_error()
    }

    /// Advances by at most `cycles` core cycles (a sampled run: or one phase of it);
    /// returns true once the run is over.
    pub fn step(&mut self, cycles: u32) -> bool {
        match &mut self.run {
            Run::Full(sim) => {
                let until = sim.cycle().saturating_add(cycles as u64);
                sim.run_until(until)
            }
            Run::Sampled(s) => s.step(cycles as u64),
        }
    }

    /// `{cycle, warp_instructions, ipc, fraction, finished}`, and for a sampled run
    /// `windows: [measured, planned]`.
    pub fn progress(&self) -> JsValue {
        let mut p = serde_json::to_value(self.sim().progress()).expect("progress serializes");
        if let Run::Sampled(s) = &self.run {
            p["windows"] = serde_json::json!(s.windows());
            p["finished"] = serde_json::json!(s.is_done());
        }
        to_js(&p)
    }

    /// The error that stopped the run, if any.
    pub fn error(&self) -> Option<String> {
        self.sim().error().map(|e| e.to_string())
    }

    /// The report as JSON text, identical to `warpscope run --format json` (compact): for
    /// a sampled run, its estimates with their intervals.
    pub fn report_json(&self) -> String {
        match &self.run {
            Run::Full(sim) => serde_json::to_string(&build_report(sim)),
            Run::Sampled(s) => serde_json::to_string(&s.report()),
        }
        .expect("reports serialize")
    }

    /// How many runs it steps: those given to `shared`, else one.
    pub fn run_count(&self) -> usize {
        match &self.run {
            Run::Full(_) => 1,
            Run::Sampled(s) => s.runs(),
        }
    }

    /// `metrics_json` of its `i`-th run (in the order `shared` was given them).
    pub fn metrics_json_of(&self, i: usize) -> Result<String, JsValue> {
        match &self.run {
            Run::Full(_) if i == 0 => Ok(self.metrics_json()),
            Run::Sampled(s) if i < s.runs() => Ok(s.reports().swap_remove(i).figure_metrics().to_json_text()),
            _ => Err(JsValue::from_str(&format!("no run {i}: it steps {}", self.run_count()))),
        }
    }

    /// The numbers the gallery's figures plot (`figures::Metrics`) as JSON text: a sampled
    /// run's estimates, with their `intervals` and `spread` beside them.
    pub fn metrics_json(&self) -> String {
        match &self.run {
            Run::Full(sim) => crate::figures::Metrics::of(&build_report(sim)).to_json_text(),
            Run::Sampled(s) => s.report().figure_metrics().to_json_text(),
        }
    }
}

/// The charts: `[{name, title}]` in display order.
#[wasm_bindgen]
pub fn chart_list() -> JsValue {
    #[derive(Serialize)]
    struct C {
        name: &'static str,
        title: &'static str,
    }
    let list: Vec<C> = Chart::ALL.iter().map(|c| C { name: c.name(), title: c.title() }).collect();
    to_js(&list)
}

fn chart_named(name: &str) -> Result<Chart, JsValue> {
    Chart::from_name(name).map_err(|e| JsValue::from_str(&e))
}

fn svg_height(chart: Chart, runs: &[ChartRun], width: u32) -> Result<u32, JsValue> {
    let mut measure = String::new();
    let area = SVGBackend::with_string(&mut measure, (width, 1)).into_drawing_area();
    let h = preferred_height(chart, runs, &area, 1.0).map_err(|e| JsValue::from_str(&e))?;
    Ok(h)
}

/// The runs drawn together: parsed once from their report JSON, then drawn, tabulated
/// and exported chart by chart on the page (plotters measures text through `window`).
#[wasm_bindgen]
#[derive(Default)]
pub struct ChartSet {
    runs: Vec<ChartRun>,
}

#[wasm_bindgen]
impl ChartSet {
    #[wasm_bindgen(constructor)]
    pub fn new() -> ChartSet {
        ChartSet::default()
    }

    /// Adds a run from its report JSON; throws on text that is not a report.
    pub fn add(&mut self, label: &str, report_json: &str) -> Result<(), JsValue> {
        self.runs.push(ChartRun::from_json(label, report_json).map_err(|e| JsValue::from_str(&e))?);
        Ok(())
    }

    /// Draws `chart` on the canvas, whose pixel size the caller set to its CSS size times
    /// the screen's pixel ratio `scale`.
    pub fn draw(&self, canvas: HtmlCanvasElement, chart: &str, scale: f64) -> Result<(), JsValue> {
        let chart = chart_named(chart)?;
        let backend =
            CanvasBackend::with_canvas_object(canvas).ok_or_else(|| JsValue::from_str("no 2D canvas context"))?;
        let area = backend.into_drawing_area();
        draw_scaled(chart, &self.runs, &area, scale).map_err(|e| JsValue::from_str(&e))?;
        area.present().map_err(|e| JsValue::from_str(&e.to_string()))
    }

    /// The CSS height for `chart` on this canvas at its current width (its pixel width set to
    /// its CSS width times `scale`): the plot keeps its room however many runs the legend names.
    pub fn height(&self, canvas: HtmlCanvasElement, chart: &str, scale: f64) -> Result<f64, JsValue> {
        let chart = chart_named(chart)?;
        let backend =
            CanvasBackend::with_canvas_object(canvas).ok_or_else(|| JsValue::from_str("no 2D canvas context"))?;
        let h = preferred_height(chart, &self.runs, &backend.into_drawing_area(), scale)
            .map_err(|e| JsValue::from_str(&e))?;
        Ok((h as f64 / scale.max(0.5)).ceil())
    }

    /// The chart's numbers as `{headers, rows}`.
    pub fn table(&self, chart: &str) -> Result<JsValue, JsValue> {
        Ok(to_js(&table(chart_named(chart)?, &self.runs)))
    }

    pub fn csv(&self, chart: &str) -> Result<String, JsValue> {
        Ok(table(chart_named(chart)?, &self.runs).to_csv())
    }

    /// The chart as SVG, `width` pixels wide and `height` tall (0: as tall as its legend needs).
    pub fn svg(&self, chart: &str, width: u32, height: u32) -> Result<String, JsValue> {
        let chart = chart_named(chart)?;
        let height = if height == 0 { svg_height(chart, &self.runs, width)? } else { height };
        svg(chart, &self.runs, width, height).map_err(|e| JsValue::from_str(&e))
    }
}
