//! The charts, drawn once for any plotters `DrawingBackend`: SVG natively (the CLI and
//! exports) and, later, canvases on the web page. Every chart takes one or more runs, since
//! comparing runs is what the charts are for.
//!
//! Text: natively plotters measures labels with Noto Sans embedded in the binary (no system
//! font libraries); on wasm32 it asks the browser, which needs `window` (draw on the page, not
//! in a worker). SVG output names the `sans-serif` family and leaves glyphs to the viewer.

mod bars;
mod chart;
mod data;
mod figure;
mod model;
mod style;
mod table;
mod timeline;

pub use chart::Chart;
pub use data::{
    BypassData, ChartRun, HitRatioSeriesData, L1Data, L2Data, LatencyData, MissClasses, PartitionData, SeriesData,
    TbBgSeriesData, WarpData, WarpSeriesData,
};
#[cfg(not(target_arch = "wasm32"))]
pub use figure::figure_png;
pub use figure::{draw_figure, figure_svg, BarFigure, BarSeries};
pub use table::{table, Table};

use model::{model, Model};
use plotters::coord::Shift;
use plotters::prelude::*;
use style::Scale;

/// Draws `chart` for `runs` (overlaid or grouped, with a legend when there are several) on
/// `area`. Empty data draws the axes with a "no data" note; errors are the backend's.
pub fn draw<DB: DrawingBackend>(chart: Chart, runs: &[ChartRun], area: &DrawingArea<DB, Shift>) -> Result<(), String> {
    draw_scaled(chart, runs, area, 1.0)
}

/// `draw` on a surface with `scale` device pixels per layout pixel (a high-DPI canvas).
pub fn draw_scaled<DB: DrawingBackend>(
    chart: Chart,
    runs: &[ChartRun],
    area: &DrawingArea<DB, Shift>,
    scale: f64,
) -> Result<(), String> {
    let s = prepare(area, scale)?;
    match model(chart, runs) {
        Model::Bars(b) => {
            let texts = bars::Texts { title: chart.title(), x: chart.x_label(), y: chart.y_label() };
            bars::draw_bars(&texts, &b, None, area, s)
        }
        Model::Lines(lines) => timeline::draw_timeline(chart, &lines, area, s),
    }
}

/// Loads the fonts and checks the area against `MIN_SIZE` at `scale` (clamped to 0.5-4).
fn prepare<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, scale: f64) -> Result<Scale, String> {
    style::ensure_fonts();
    let s = Scale(if scale.is_finite() { scale.clamp(0.5, 4.0) } else { 1.0 });
    let (w, h) = area.dim_in_pixel();
    if w < s.px(MIN_SIZE.0) || h < s.px(MIN_SIZE.1) {
        return Err(format!("a chart needs at least {}x{} pixels, not {w}x{h}", s.px(MIN_SIZE.0), s.px(MIN_SIZE.1)));
    }
    Ok(s)
}

/// Below this the labels leave no room for the plot.
pub const MIN_SIZE: (u32, u32) = (320, 220);

/// The chart as an SVG document of `width` x `height` pixels.
pub fn svg(chart: Chart, runs: &[ChartRun], width: u32, height: u32) -> Result<String, String> {
    let mut out = String::new();
    {
        let area = SVGBackend::with_string(&mut out, (width, height)).into_drawing_area();
        draw(chart, runs, &area)?;
        area.present().map_err(style::err)?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests;
