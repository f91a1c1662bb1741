//! Grouped bars that carry their own words: the figure gallery draws each paper's figure with
//! them, from numbers it computed out of several runs (one bar per run and category).

use super::bars::{self, Texts};
use super::model::{BarRun, Bars, Category};
use super::style;
use super::Table;
use plotters::coord::Shift;
use plotters::prelude::*;
use serde::{Deserialize, Serialize};

/// A figure's numbers: `series[j].values[i]` is the bar of series `j` in category `i`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct BarFigure {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub categories: Vec<String>,
    pub series: Vec<BarSeries>,
    /// A horizontal rule at this height (1 on a speedup axis), drawn over the bars.
    pub reference: Option<f64>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct BarSeries {
    pub label: String,
    /// NaN where the series has no bar; JSON writes it as null and reads null back as NaN.
    #[serde(deserialize_with = "nan_for_null")]
    pub values: Vec<f64>,
    /// For a figure of sampled runs, each value's 95 % range over the draws its verdict is
    /// judged on (`figures::noise`), drawn as whiskers; empty otherwise, NaN where a value has
    /// none.
    #[serde(default, skip_serializing_if = "Vec::is_empty", deserialize_with = "nan_for_null")]
    pub low: Vec<f64>,
    #[serde(default, skip_serializing_if = "Vec::is_empty", deserialize_with = "nan_for_null")]
    pub high: Vec<f64>,
}

impl BarSeries {
    /// Each value's range as a pair, `None` where it has none.
    fn ranges(&self) -> Vec<Option<(f64, f64)>> {
        let at = |v: &[f64], i: usize| v.get(i).copied().filter(|x| x.is_finite());
        (0..self.values.len()).map(|i| at(&self.low, i).zip(at(&self.high, i))).collect()
    }
}

fn nan_for_null<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<f64>, D::Error> {
    let v: Vec<Option<f64>> = Vec::deserialize(d)?;
    Ok(v.into_iter().map(|x| x.unwrap_or(f64::NAN)).collect())
}

impl BarFigure {
    fn bars(&self) -> Bars {
        let has_data = self.series.iter().any(|r| r.values.iter().any(|v| v.is_finite() && *v != 0.0));
        let categories = if has_data {
            self.categories.iter().map(|c| Category { tick: c.clone(), name: c.clone() }).collect()
        } else {
            Vec::new()
        };
        let runs = self
            .series
            .iter()
            .map(|r| BarRun {
                label: r.label.clone(),
                values: r.values.iter().map(|v| if v.is_finite() { *v } else { 0.0 }).collect(),
                has_data: r.values.iter().any(|v| v.is_finite() && *v != 0.0),
                ranges: r.ranges(),
            })
            .collect();
        Bars { categories, runs, numeric: false }
    }

    /// The numbers as a table: a row per category, a column per series, and where a series
    /// has ranges, their ends in two more columns after it.
    pub fn table(&self) -> Table {
        let mut headers = vec![self.x_label.clone()];
        for r in &self.series {
            headers.push(format!("{}: {}", r.label, self.y_label));
            if !r.low.is_empty() {
                headers.push(format!("{}: 95 % low", r.label));
                headers.push(format!("{}: 95 % high", r.label));
            }
        }
        let number = |v: Option<&f64>| v.filter(|v| v.is_finite()).map_or(String::new(), |v| format!("{v:.4}"));
        let rows = self
            .categories
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let mut row = vec![c.clone()];
                for r in &self.series {
                    row.push(r.values.get(i).map_or(String::new(), |v| format!("{v:.4}")));
                    if !r.low.is_empty() {
                        row.push(number(r.low.get(i)));
                        row.push(number(r.high.get(i)));
                    }
                }
                row
            })
            .collect();
        Table { headers, rows }
    }
}

/// Draws `fig` on `area` with `scale` device pixels per layout pixel.
pub fn draw_figure<DB: DrawingBackend>(
    fig: &BarFigure,
    area: &DrawingArea<DB, Shift>,
    scale: f64,
) -> Result<(), String> {
    draw_figure_boxes(fig, area, scale).map(|_| ())
}

pub(super) fn draw_figure_boxes<DB: DrawingBackend>(
    fig: &BarFigure,
    area: &DrawingArea<DB, Shift>,
    scale: f64,
) -> Result<super::Drawn, String> {
    let s = super::prepare(area, scale)?;
    let texts = Texts { title: &fig.title, x: &fig.x_label, y: &fig.y_label };
    bars::draw_bars(&texts, &fig.bars(), fig.reference, area, s)
}

/// The height (device pixels) at which `fig`, drawn `area`'s width wide, keeps its plot's room
/// above a legend naming every series (as `preferred_height` does for the charts).
pub fn figure_height<DB: DrawingBackend>(
    fig: &BarFigure,
    area: &DrawingArea<DB, Shift>,
    scale: f64,
) -> Result<u32, String> {
    style::ensure_fonts();
    let width = area.dim_in_pixel().0;
    let s = style::Scale::for_width(width, super::clamp_scale(scale));
    let b = fig.bars();
    let axes = bars::x_axis_room(&b, area, width, s)?;
    let labels: Vec<String> = fig.series.iter().map(|r| r.label.clone()).collect();
    super::frame::preferred_height(&fig.title, &labels, (1.0, axes), width, area, s)
}

/// The figure as an SVG document of `width` x `height` pixels.
pub fn figure_svg(fig: &BarFigure, width: u32, height: u32) -> Result<String, String> {
    let mut out = String::new();
    {
        let area = SVGBackend::with_string(&mut out, (width, height)).into_drawing_area();
        draw_figure(fig, &area, 1.0)?;
        area.present().map_err(style::err)?;
    }
    Ok(out)
}

/// The figure as a PNG file of `width` x `height` pixels.
#[cfg(not(target_arch = "wasm32"))]
pub fn figure_png(fig: &BarFigure, path: &std::path::Path, width: u32, height: u32) -> Result<(), String> {
    let area = BitMapBackend::new(path, (width, height)).into_drawing_area();
    draw_figure(fig, &area, 1.0)?;
    area.present().map_err(|e| format!("cannot write {}: {e}", path.display()))
}
