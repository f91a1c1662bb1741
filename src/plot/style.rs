//! What every chart shares: colours, fonts, the title and legend strip, axis numbers and the
//! "no data" note.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// Okabe–Ito colours (distinguishable with the common colour-vision deficiencies), in the
/// order runs take them; yellow is left out as too faint on white. Grey, brown and purple
/// follow for the figures with up to ten series.
const PALETTE: [RGBColor; 10] = [
    RGBColor(0, 114, 178),
    RGBColor(230, 159, 0),
    RGBColor(0, 158, 115),
    RGBColor(213, 94, 0),
    RGBColor(86, 180, 233),
    RGBColor(204, 121, 167),
    RGBColor(0, 0, 0),
    RGBColor(136, 136, 136),
    RGBColor(140, 86, 45),
    RGBColor(112, 64, 160),
];

/// Run `i`'s colour; the same run has the same colour on every chart.
pub(super) fn color(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

pub(super) const FONT: &str = "sans-serif";

/// How many device pixels one layout pixel takes: 1 for SVG, the screen's pixel ratio on a
/// canvas, so text and marks keep their size on high-DPI screens while staying crisp.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Scale(pub f64);

impl Scale {
    pub(super) fn px(self, n: u32) -> u32 {
        (n as f64 * self.0).round().max(1.0) as u32
    }

    pub(super) fn i(self, n: i32) -> i32 {
        (n as f64 * self.0).round() as i32
    }
}
pub(super) const LABEL_PX: u32 = 13;
pub(super) const DESC_PX: u32 = 14;
const TITLE_PX: u32 = 18;
const LEGEND_ROW_PX: u32 = 20;

pub(super) fn err<E: std::fmt::Display>(e: E) -> String {
    format!("drawing the chart failed: {e}")
}

/// Natively, plotters lays text out with the font registered under the family's name (the
/// `ab_glyph` feature: no system font libraries); Noto Sans Regular stands in for every
/// style. On wasm32 the browser measures text, so nothing is registered there.
#[cfg(not(target_arch = "wasm32"))]
pub(super) fn ensure_fonts() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // A failure cannot happen with these bytes; if it did, drawing would return an error.
        let _ = plotters::style::register_font(FONT, FontStyle::Normal, ttf_noto_sans::REGULAR);
    });
}

#[cfg(target_arch = "wasm32")]
pub(super) fn ensure_fonts() {}

/// Natively, plotters measures Noto Sans at its nominal size, while an SVG viewer draws its own
/// sans-serif at that size / 1.24: DejaVu Sans comes out about 20 % wider than measured. On
/// wasm32 the browser measures the font it draws with.
#[cfg(not(target_arch = "wasm32"))]
const WIDTH_SLACK: f64 = 1.2;
#[cfg(target_arch = "wasm32")]
const WIDTH_SLACK: f64 = 1.0;

/// The width `text` takes on `area`, erring wide so neighbours never overlap.
fn text_width<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, text: &str, style: &TextStyle) -> Result<i32, String> {
    let (w, _) = area.estimate_text_size(text, style).map_err(err)?;
    Ok((w as f64 * WIDTH_SLACK).ceil() as i32)
}

/// Clears the area, draws the title and, for a comparison, a legend strip of the runs; returns
/// the area left for the plot.
pub(super) fn frame<DB: DrawingBackend>(
    title: &str,
    legend: &[(String, RGBColor)],
    area: &DrawingArea<DB, Shift>,
    s: Scale,
) -> Result<DrawingArea<DB, Shift>, String> {
    area.fill(&WHITE).map_err(err)?;
    let body =
        area.titled(title, (FONT, s.px(TITLE_PX)).into_font().style(FontStyle::Bold).color(&BLACK)).map_err(err)?;
    if legend.len() < 2 {
        return Ok(body);
    }
    let font = (FONT, s.px(LABEL_PX)).into_font().color(&BLACK).pos(Pos::new(HPos::Left, VPos::Center));
    let (width, _) = body.dim_in_pixel();
    let (swatch, gap, margin, pad) = (s.i(12), s.i(18), s.i(10), s.i(6));
    let row_px = s.px(LEGEND_ROW_PX);
    // Lay entries out left to right, wrapping to a new row when one would pass the edge.
    let mut placed = Vec::with_capacity(legend.len());
    let (mut x, mut row) = (margin, 0i32);
    for (label, c) in legend {
        let entry = swatch + pad + text_width(&body, label, &font)?;
        if x > margin && x + entry > width as i32 - margin {
            x = margin;
            row += 1;
        }
        placed.push((x, row, label, c));
        x += entry + gap;
    }
    let (strip, rest) = body.split_vertically((row as u32 + 1) * row_px + s.px(4));
    for (x, row, label, c) in placed {
        let y = row * row_px as i32 + row_px as i32 / 2;
        strip.draw(&Rectangle::new([(x, y - swatch / 2), (x + swatch, y + swatch / 2)], c.filled())).map_err(err)?;
        strip.draw_text(label, &font, (x + swatch + pad, y)).map_err(err)?;
    }
    Ok(rest)
}

/// Axis tick numbers: as few decimals as the axis span needs, thousands as k and millions as M.
pub(super) fn axis_number(v: f64, span: f64) -> String {
    let a = v.abs();
    if a >= 1e6 && span >= 1e6 {
        format!("{}M", trim(v / 1e6, 2))
    } else if a >= 1e4 && span >= 1e4 {
        format!("{}k", trim(v / 1e3, 1))
    } else if span >= 10.0 {
        format!("{v:.0}")
    } else if span >= 1.0 {
        trim(v, 1)
    } else {
        trim(v, 2)
    }
}

fn trim(v: f64, decimals: usize) -> String {
    let s = format!("{v:.decimals$}");
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// Every how many categories to label the x axis so the labels do not overlap.
pub(super) fn tick_step<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    ticks: &[&str],
    plot_width: u32,
    s: Scale,
) -> Result<usize, String> {
    if ticks.is_empty() {
        return Ok(1);
    }
    let font = (FONT, s.px(LABEL_PX)).into_text_style(area);
    let mut widest = 0;
    for t in ticks {
        widest = widest.max(text_width(area, t, &font)?);
    }
    let per_category = plot_width.max(1) as f64 / ticks.len() as f64;
    Ok(((widest as f64 + 8.0 * s.0) / per_category).ceil().max(1.0) as usize)
}

/// Writes "no data" in the middle of a plot whose runs have nothing to show.
pub(super) fn no_data<DB: DrawingBackend>(plot: &DrawingArea<DB, Shift>, s: Scale) -> Result<(), String> {
    no_data_because(plot, s, None)
}

/// "no data", with the reason on a second line when the chart knows it.
pub(super) fn no_data_because<DB: DrawingBackend>(
    plot: &DrawingArea<DB, Shift>,
    s: Scale,
    why: Option<&str>,
) -> Result<(), String> {
    let (w, h) = plot.dim_in_pixel();
    let font =
        (FONT, s.px(DESC_PX)).into_font().color(&RGBColor(110, 110, 110)).pos(Pos::new(HPos::Center, VPos::Center));
    plot.draw_text("no data", &font, (w as i32 / 2, h as i32 / 2)).map_err(err)?;
    match why {
        Some(why) => plot.draw_text(why, &font, (w as i32 / 2, h as i32 / 2 + s.i(LEGEND_ROW_PX as i32))).map_err(err),
        None => Ok(()),
    }
}
