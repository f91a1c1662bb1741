//! The figure gallery's bindings: the figures, the runs each needs (which the page spreads
//! over its workers), the figure built from those runs' metrics, and drawing or exporting it.

use super::to_js;
use crate::figures::{figure, figures, Metrics};
use crate::kernels::Size;
use crate::plot::{draw_figure, figure_height, figure_svg, BarFigure};
use plotters::prelude::*;
use plotters_canvas::CanvasBackend;
use serde::Serialize;
use wasm_bindgen::prelude::*;
use web_sys::HtmlCanvasElement;

fn err(e: impl ToString) -> JsValue {
    JsValue::from_str(&e.to_string())
}

/// `[{name, paper, citation, title, claim, runs}]` in gallery order.
#[wasm_bindgen]
pub fn figure_list() -> JsValue {
    #[derive(Serialize)]
    struct F {
        name: &'static str,
        paper: crate::figures::Paper,
        citation: &'static str,
        title: &'static str,
        claim: &'static str,
        runs: usize,
    }
    let list: Vec<F> = figures()
        .iter()
        .map(|f| F {
            name: f.name,
            paper: f.paper,
            citation: f.paper.citation(),
            title: f.title,
            claim: f.claim,
            runs: f.specs().len(),
        })
        .collect();
    to_js(&list)
}

/// How verdicts are made (the text `warpscope figure --help` ends with).
#[wasm_bindgen]
pub fn verdict_rules() -> String {
    crate::figures::VERDICT_RULES.to_string()
}

/// The figure's runs at `size` and `seed`: `[{category, series, kernel, size, seed, max_cycles, config}]`.
#[wasm_bindgen]
pub fn figure_plan(name: &str, size: &str, seed: f64) -> Result<JsValue, JsValue> {
    let f = figure(name).map_err(err)?;
    let size = Size::parse(size)
        .ok_or_else(|| err(format!("unknown size `{size}`; valid sizes are: {}", Size::NAMES.join(", "))))?;
    if !(seed.is_finite() && seed >= 0.0 && seed.fract() == 0.0 && seed <= 9_007_199_254_740_991.0) {
        return Err(err(format!("seed {seed} is not a whole number from 0 to 2^53 - 1")));
    }
    let plan = f.plan(size, seed as u64).map_err(|e| err(e.to_string()))?;
    Ok(to_js(&plan))
}

/// The figure from its runs' metrics (a JSON array in plan order): `{figure, verdict}`.
#[wasm_bindgen]
pub fn figure_build(name: &str, metrics_json: &str) -> Result<JsValue, JsValue> {
    let f = figure(name).map_err(err)?;
    let metrics = Metrics::list_from_json_text(metrics_json).map_err(|e| err(format!("bad run metrics: {e}")))?;
    Ok(to_js(&f.build(metrics).map_err(err)?))
}

fn bar_figure(v: JsValue) -> Result<BarFigure, JsValue> {
    serde_wasm_bindgen::from_value(v).map_err(|e| err(format!("not a figure: {e}")))
}

/// Draws a built figure on the canvas (pixel size = CSS size times `scale`).
#[wasm_bindgen]
pub fn figure_draw(fig: JsValue, canvas: HtmlCanvasElement, scale: f64) -> Result<(), JsValue> {
    let fig = bar_figure(fig)?;
    let backend = CanvasBackend::with_canvas_object(canvas).ok_or_else(|| err("no 2D canvas context"))?;
    let area = backend.into_drawing_area();
    draw_figure(&fig, &area, scale).map_err(err)?;
    area.present().map_err(err)
}

/// The CSS height that keeps a built figure's plot its room on this canvas at its current
/// width (pixel width = CSS width times `scale`), legend and turned labels included.
#[wasm_bindgen]
pub fn figure_fit_height(fig: JsValue, canvas: HtmlCanvasElement, scale: f64) -> Result<f64, JsValue> {
    let fig = bar_figure(fig)?;
    let backend = CanvasBackend::with_canvas_object(canvas).ok_or_else(|| err("no 2D canvas context"))?;
    let h = figure_height(&fig, &backend.into_drawing_area(), scale).map_err(err)?;
    Ok((h as f64 / scale.max(0.5)).ceil())
}

#[wasm_bindgen]
pub fn figure_svg_text(fig: JsValue, width: u32, height: u32) -> Result<String, JsValue> {
    figure_svg(&bar_figure(fig)?, width, height).map_err(err)
}

#[wasm_bindgen]
pub fn figure_csv(fig: JsValue) -> Result<String, JsValue> {
    Ok(bar_figure(fig)?.table().to_csv())
}
