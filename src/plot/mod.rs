//! The charts, drawn once for any plotters `DrawingBackend`: SVG natively (the CLI and
//! exports) and canvases on the web page, with one layout for every size from a phone to a
//! projector. Every chart takes one or more runs, since comparing runs is what they are for.
//!
//! Text: natively plotters measures labels with Noto Sans embedded in the binary (no system
//! font libraries); on wasm32 it asks the browser, which needs `window` (draw on the page, not
//! in a worker). SVG output names the `sans-serif` family and leaves glyphs to the viewer.

mod bars;
#[cfg(test)]
mod boxes;
mod chart;
mod data;
mod figure;
mod frame;
mod model;
mod style;
mod table;
mod text;
mod timeline;

pub use chart::Chart;
pub use data::{
    BypassData, ChartRun, HitRatioSeriesData, L1Data, L2Data, LatencyData, MissClasses, PartitionData, SeriesData,
    TbBgSeriesData, WarpData, WarpSeriesData,
};
#[cfg(not(target_arch = "wasm32"))]
pub use figure::figure_png;
pub use figure::{draw_figure, figure_height, figure_svg, BarFigure, BarSeries};
pub use table::{table, Table};

use model::{model, Model};
use plotters::coord::Shift;
use plotters::prelude::*;
use style::Scale;

/// A rectangle in the backend's pixels: left, top, right, bottom.
pub(crate) type Rect = (i32, i32, i32, i32);

/// Where a drawn chart put its plots (one per panel) and how many of its series it drew, so
/// tests can check that the words left the plot its room.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Drawn {
    /// What the title and legend left: the axes, their numbers and descriptions, the plots.
    pub body: Rect,
    pub plots: Vec<Rect>,
    pub shown: usize,
}

fn rect<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>) -> Rect {
    let (x, y) = area.get_pixel_range();
    (x.start, y.start, x.end, y.end)
}

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
    draw_chart(chart, runs, area, scale).map(|_| ())
}

fn draw_chart<DB: DrawingBackend>(
    chart: Chart,
    runs: &[ChartRun],
    area: &DrawingArea<DB, Shift>,
    scale: f64,
) -> Result<Drawn, String> {
    let s = prepare(area, scale)?;
    match model(chart, runs) {
        Model::Bars(b) => {
            let texts = bars::Texts { title: chart.title(), x: chart.x_label(), y: chart.y_label() };
            bars::draw_bars(&texts, &b, None, area, s)
        }
        Model::Lines(lines) => timeline::draw_timeline(chart, &lines, area, s),
    }
}

/// The height (device pixels) at which `chart` of `runs`, drawn `area`'s width wide, gives its
/// plot a fixed room above a legend naming every run: the page sizes each canvas so, so a
/// comparison of many runs grows the chart rather than shrinking its plot.
pub fn preferred_height<DB: DrawingBackend>(
    chart: Chart,
    runs: &[ChartRun],
    area: &DrawingArea<DB, Shift>,
    scale: f64,
) -> Result<u32, String> {
    style::ensure_fonts();
    let width = area.dim_in_pixel().0;
    let s = Scale::for_width(width, clamp_scale(scale));
    let (labels, room): (Vec<String>, _) = match model(chart, runs) {
        Model::Bars(b) => {
            let axes = bars::x_axis_room(&b, area, width, s)?;
            (b.runs.into_iter().map(|r| r.label).collect(), (1.0, axes))
        }
        Model::Lines(lines) => {
            let panels = if chart.y2_label().is_some() { 1.6 } else { 1.0 };
            let axes = timeline::x_axis_room(s);
            (lines.into_iter().map(|l| l.legend).collect(), (panels, axes))
        }
    };
    frame::preferred_height(chart.title(), &labels, room, width, area, s)
}

fn clamp_scale(scale: f64) -> f64 {
    if scale.is_finite() {
        scale.clamp(0.5, 4.0)
    } else {
        1.0
    }
}

/// Loads the fonts and checks the area against `MIN_SIZE` at `scale` (clamped to 0.5-4).
fn prepare<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, scale: f64) -> Result<Scale, String> {
    style::ensure_fonts();
    let dev = clamp_scale(scale);
    let (w, h) = area.dim_in_pixel();
    let min = |n: u32| (n as f64 * dev).round() as u32;
    if w < min(MIN_SIZE.0) || h < min(MIN_SIZE.1) {
        return Err(format!("a chart needs at least {}x{} pixels, not {w}x{h}", min(MIN_SIZE.0), min(MIN_SIZE.1)));
    }
    Ok(Scale::for_width(w, dev))
}

/// Below this (layout pixels) the words leave no room for the plot; a 320 px phone's chart fits.
pub const MIN_SIZE: (u32, u32) = (240, 180);

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
