//! Grouped bar charts (the histograms, warp types and partitions): one group per category,
//! one bar per run side by side, so runs compare bin by bin.

use super::model::Bars;
use super::style::{self, err, Scale, DESC_PX, FONT, LABEL_PX};
use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged};
use plotters::coord::Shift;
use plotters::prelude::*;
use std::ops::Range;

/// Fraction of a category's width its group of bars fills.
const GROUP: f64 = 0.8;
const Y_LABEL_AREA: u32 = 60;
const MARGIN: u32 = 12;

/// A bar chart's words: the title and the axis descriptions, each with its unit.
pub(super) struct Texts<'a> {
    pub title: &'a str,
    pub x: &'a str,
    pub y: &'a str,
}

/// Draws `b`; `reference` adds a horizontal rule at that height (1 on a speedup axis).
pub(super) fn draw_bars<DB: DrawingBackend>(
    texts: &Texts,
    b: &Bars,
    reference: Option<f64>,
    area: &DrawingArea<DB, Shift>,
    s: Scale,
) -> Result<(), String> {
    let legend: Vec<(String, RGBColor)> = b
        .runs
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let label = if r.has_data { r.label.clone() } else { format!("{} (no data)", r.label) };
            (label, style::color(i))
        })
        .collect();
    let plot = style::frame(texts.title, &legend, area, s)?;
    let n = b.categories.len();
    let top = b.runs.iter().flat_map(|r| r.values.iter().copied()).fold(0.0, f64::max);
    let top = top.max(reference.unwrap_or(0.0));
    let top = if top > 0.0 { top * 1.1 } else { 1.0 };

    let ticks: Vec<&str> = b.categories.iter().map(|c| c.tick.as_str()).collect();
    let plot_width = plot.dim_in_pixel().0.saturating_sub(s.px(Y_LABEL_AREA + 3 * MARGIN));
    let step = style::tick_step(&plot, &ticks, plot_width, s)?;
    // Every `step`-th category, and always the last one (the overflow bar, or the range's end).
    let mut shown: Vec<usize> = (0..n).step_by(step).collect();
    if let Some(&last) = shown.last() {
        if last + 1 < n {
            if n - 1 - last < step {
                shown.pop();
            }
            shown.push(n - 1);
        }
    }
    let key_points: Vec<f64> = shown.into_iter().map(|i| i as f64).collect();
    let x = CategoryAxis { n: n.max(1), ticks: key_points };

    let mut ch = ChartBuilder::on(&plot)
        .margin(s.px(MARGIN))
        .margin_right(s.px(2 * MARGIN))
        .x_label_area_size(s.px(44))
        .y_label_area_size(s.px(Y_LABEL_AREA))
        .build_cartesian_2d(x, 0.0..top)
        .map_err(err)?;
    let x_fmt = |v: &f64| {
        let i = v.round();
        let on_category = (v - i).abs() < 1e-6 && i >= 0.0;
        on_category.then(|| ticks.get(i as usize).map(|t| t.to_string())).flatten().unwrap_or_default()
    };
    let y_fmt = |v: &f64| style::axis_number(*v, top);
    ch.configure_mesh()
        .disable_x_mesh()
        .x_desc(texts.x)
        .y_desc(texts.y)
        .x_label_formatter(&x_fmt)
        .y_label_formatter(&y_fmt)
        .max_light_lines(0)
        .label_style((FONT, s.px(LABEL_PX)))
        .axis_desc_style((FONT, s.px(DESC_PX)))
        .draw()
        .map_err(err)?;
    if n == 0 {
        return style::no_data(&ch.plotting_area().strip_coord_spec(), s);
    }

    let w = GROUP / b.runs.len().max(1) as f64;
    for (j, r) in b.runs.iter().enumerate() {
        let color = style::color(j);
        ch.draw_series(r.values.iter().enumerate().map(|(i, &v)| {
            let x0 = i as f64 - GROUP / 2.0 + j as f64 * w;
            Rectangle::new([(x0, 0.0), (x0 + w, v)], color.filled())
        }))
        .map_err(err)?;
    }
    if let Some(r) = reference {
        let rule = [(-0.5, r), (n as f64 - 0.5, r)];
        ch.draw_series(std::iter::once(PathElement::new(rule, BLACK.stroke_width(s.px(1))))).map_err(err)?;
    }
    Ok(())
}

/// An x axis of `n` categories, category `i` centred on `i`, ticked exactly at `ticks` (plotters'
/// numeric axes pick their own "nice" ticks, which can fall between categories).
struct CategoryAxis {
    n: usize,
    ticks: Vec<f64>,
}

impl Ranged for CategoryAxis {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, v: &f64, limit: (i32, i32)) -> i32 {
        let t = (v + 0.5) / self.n as f64;
        limit.0 + ((limit.1 - limit.0) as f64 * t).round() as i32
    }

    fn key_points<H: KeyPointHint>(&self, _hint: H) -> Vec<f64> {
        self.ticks.clone()
    }

    fn range(&self) -> Range<f64> {
        -0.5..self.n as f64 - 0.5
    }
}
