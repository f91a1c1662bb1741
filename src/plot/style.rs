//! What every chart shares: colours and marks, the scale of text and lines, axis numbers and
//! the "no data" note.

use super::text;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// Okabe–Ito colours (distinguishable with the common colour-vision deficiencies) without the
/// yellow, too faint on white, then five of Paul Tol's muted colours: twelve in all.
const PALETTE: [RGBColor; 12] = [
    RGBColor(0, 114, 178),
    RGBColor(230, 159, 0),
    RGBColor(0, 158, 115),
    RGBColor(213, 94, 0),
    RGBColor(86, 180, 233),
    RGBColor(204, 121, 167),
    RGBColor(0, 0, 0),
    RGBColor(51, 34, 136),
    RGBColor(153, 153, 51),
    RGBColor(136, 34, 85),
    RGBColor(68, 170, 153),
    RGBColor(136, 136, 136),
];

/// The most series a chart draws: two rounds of the palette, the second hollow or dashed.
pub(super) const MAX_SERIES: usize = 2 * PALETTE.len();

/// How series `i` is drawn: its colour, and whether it is of the palette's second round (hollow
/// bars, dashed lines), so 24 series stay apart. The same run has the same mark on every chart.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Mark {
    pub color: RGBColor,
    pub second: bool,
}

pub(super) fn mark(i: usize) -> Mark {
    Mark { color: PALETTE[i % PALETTE.len()], second: (i / PALETTE.len()) % 2 == 1 }
}

pub(super) const FONT: &str = "sans-serif";
pub(super) const LABEL_PX: u32 = 13;
pub(super) const DESC_PX: u32 = 14;
pub(super) const TITLE_PX: u32 = 18;

/// Device pixels per layout pixel (`dev`: 1 for SVG, the screen's pixel ratio on a canvas, so
/// marks stay crisp on high-DPI screens) and how much text shrinks on a narrow chart (`text`),
/// so a phone gets the whole chart in smaller type rather than a chart cut short.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Scale {
    pub dev: f64,
    pub text: f64,
}

/// Below this width (layout pixels) text shrinks in proportion, down to `MIN_TEXT`.
const FULL_TEXT_WIDTH: f64 = 560.0;
const MIN_TEXT: f64 = 0.78;

impl Scale {
    /// The scale for an area `width` device pixels wide at `dev` device pixels per layout pixel.
    pub(super) fn for_width(width: u32, dev: f64) -> Scale {
        let layout_width = width as f64 / dev;
        Scale { dev, text: (layout_width / FULL_TEXT_WIDTH).clamp(MIN_TEXT, 1.0) }
    }

    pub(super) fn px(self, n: u32) -> u32 {
        (n as f64 * self.dev).round().max(1.0) as u32
    }

    pub(super) fn i(self, n: i32) -> i32 {
        (n as f64 * self.dev).round() as i32
    }

    /// A font size in device pixels.
    pub(super) fn font(self, n: u32) -> u32 {
        (n as f64 * self.dev * self.text).round().max(1.0) as u32
    }

    /// The height of a line of text of size `n`, with its leading.
    pub(super) fn line(self, n: u32) -> i32 {
        (self.font(n) as f64 * 1.3).ceil() as i32
    }
}

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

/// "no data" in the middle of an empty plot, with the reason below when the chart knows it.
pub(super) fn no_data<DB: DrawingBackend>(
    plot: &DrawingArea<DB, Shift>,
    s: Scale,
    why: Option<&str>,
) -> Result<(), String> {
    let (w, h) = plot.dim_in_pixel();
    let font =
        (FONT, s.font(DESC_PX)).into_font().color(&RGBColor(110, 110, 110)).pos(Pos::new(HPos::Center, VPos::Top));
    let mut lines = vec!["no data".to_string()];
    if let Some(why) = why {
        lines.extend(text::wrap(plot, why, &font, w as i32 - s.i(8), 3)?);
    }
    let top = h as i32 / 2 - lines.len() as i32 * s.line(DESC_PX) / 2;
    for (k, l) in lines.iter().enumerate() {
        plot.draw_text(l, &font, (w as i32 / 2, top + k as i32 * s.line(DESC_PX))).map_err(err)?;
    }
    Ok(())
}
