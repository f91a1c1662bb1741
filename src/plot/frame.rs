//! The words around a plot, laid out so that none covers the plot or another: the title on top
//! (wrapped, never cut), the legend below the plot in a grid of columns (labels shortened,
//! and beyond what fits, the chart says how many series it leaves out), and the axis
//! descriptions, wrapped along their axes.

use super::style::{err, Mark, Scale, DESC_PX, FONT, LABEL_PX, MAX_SERIES, TITLE_PX};
use super::text;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::FontTransform;

/// How a legend entry's swatch looks: a square for bars, a stroke for lines.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Swatch {
    Bar,
    Line,
}

/// The most of the canvas's height the legend may take: the plot keeps the rest.
const LEGEND_SHARE: f64 = 0.35;
/// A plot's own height when the page sizes the canvas to its legend (layout pixels).
const PLOT_PX: f64 = 250.0;

/// The area left for the axes and the plot, and how many series the legend names (the first
/// `shown`; the chart draws only those).
pub(super) struct Framed<DB: DrawingBackend> {
    pub body: DrawingArea<DB, Shift>,
    pub shown: usize,
}

/// Draws the title and, for two or more series, the legend; returns what is left.
pub(super) fn frame<DB: DrawingBackend>(
    title: &str,
    labels: &[String],
    swatch: Swatch,
    area: &DrawingArea<DB, Shift>,
    s: Scale,
) -> Result<Framed<DB>, String> {
    area.fill(&WHITE).map_err(err)?;
    let (w, h) = area.dim_in_pixel();
    let title_h = draw_title(title, area, s)?;
    let (_, body) = area.split_vertically(title_h as u32);
    if labels.len() < 2 {
        return Ok(Framed { body, shown: labels.len() });
    }
    let widths = label_widths(area, labels, s)?;
    let max_rows = ((h as f64 * LEGEND_SHARE) as i32 / row_h(s)).max(1) as usize;
    let g = grid(&widths, w as i32 - 2 * s.i(MARGIN), max_rows, s);
    let legend_h = g.rows as i32 * row_h(s) + s.i(4);
    let (plot, strip) = body.split_vertically((body.dim_in_pixel().1 as i32 - legend_h).max(0) as u32);
    draw_legend(&strip, labels, &g, swatch, s)?;
    Ok(Framed { body: plot, shown: g.shown })
}

/// The canvas height (device pixels) that gives `panels` plots `PLOT_PX` each, with `axes`
/// pixels for their numbers and descriptions, under the title and above a legend of every
/// label, for a canvas `width` device pixels wide.
pub(super) fn preferred_height<DB: DrawingBackend>(
    title: &str,
    labels: &[String],
    (panels, axes): (f64, i32),
    width: u32,
    area: &DrawingArea<DB, Shift>,
    s: Scale,
) -> Result<u32, String> {
    let avail = width as i32 - 2 * s.i(MARGIN);
    let title_lines = text::wrap(area, title, &title_font(s), avail, 2)?.len() as i32;
    let title_h = title_lines * s.line(TITLE_PX) + s.i(6);
    let plot_h = (PLOT_PX * panels * s.dev * s.text.max(0.9)) as i32 + axes;
    let legend_h = if labels.len() < 2 {
        0
    } else {
        let widths = label_widths(area, labels, s)?;
        // Shorten long labels to a third of the width before adding rows.
        let g = grid(&widths, avail, usize::MAX, s);
        let third = grid(&widths.iter().map(|&w| w.min(avail / 3)).collect::<Vec<_>>(), avail, usize::MAX, s);
        g.rows.min(third.rows) as i32 * row_h(s) + s.i(4)
    };
    let by_share = (legend_h as f64 / LEGEND_SHARE).ceil() as i32;
    Ok((title_h + plot_h + legend_h).max(by_share) as u32)
}

const MARGIN: i32 = 10;

fn title_font(s: Scale) -> TextStyle<'static> {
    (FONT, s.font(TITLE_PX)).into_font().style(FontStyle::Bold).color(&BLACK).pos(Pos::new(HPos::Center, VPos::Top))
}

fn label_font(s: Scale) -> TextStyle<'static> {
    (FONT, s.font(LABEL_PX)).into_font().color(&BLACK).pos(Pos::new(HPos::Left, VPos::Center))
}

/// Draws the title, wrapped to two lines at most; returns the height it took.
fn draw_title<DB: DrawingBackend>(title: &str, area: &DrawingArea<DB, Shift>, s: Scale) -> Result<i32, String> {
    let (w, _) = area.dim_in_pixel();
    let font = title_font(s);
    let lines = text::wrap(area, title, &font, w as i32 - 2 * s.i(MARGIN), 2)?;
    for (k, line) in lines.iter().enumerate() {
        area.draw_text(line, &font, (w as i32 / 2, s.i(4) + k as i32 * s.line(TITLE_PX))).map_err(err)?;
    }
    Ok(lines.len() as i32 * s.line(TITLE_PX) + s.i(6))
}

fn row_h(s: Scale) -> i32 {
    s.line(LABEL_PX) + s.i(3)
}

fn label_widths<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    labels: &[String],
    s: Scale,
) -> Result<Vec<i32>, String> {
    let font = label_font(s);
    labels.iter().map(|l| text::width(area, l, &font)).collect()
}

/// The legend's grid: `cols` columns of `col_w` pixels, labels shortened to `label_w`, the first
/// `shown` entries named and, when some are left out, a last cell saying how many.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Grid {
    cols: usize,
    rows: usize,
    col_w: i32,
    label_w: i32,
    shown: usize,
}

/// Lays `widths` (the labels' widths) out in at most `max_rows` rows of `avail` pixels: whole
/// labels if they fit, else labels shortened to fit more columns, else as many entries as the
/// narrowest columns hold and a count of the rest.
fn grid(widths: &[i32], avail: i32, max_rows: usize, s: Scale) -> Grid {
    let (swatch, pad, gap) = (s.font(LABEL_PX) as i32, s.i(6), s.i(14));
    let min_label = s.font(LABEL_PX) as i32 * 6;
    let max_rows = max_rows.max(1);
    let total = widths.len();
    let full = widths.iter().copied().max().unwrap_or(0);
    let cols_for = |label_w: i32| ((avail + gap) / (swatch + pad + label_w + gap)).max(1) as usize;
    let label_for = |cols: usize| (avail + gap) / cols as i32 - gap - swatch - pad;
    let make = |cols: usize, label_w: i32, shown: usize, cells: usize| Grid {
        cols,
        rows: cells.div_ceil(cols),
        col_w: (avail + gap) / cols as i32,
        label_w,
        shown,
    };
    if total <= MAX_SERIES {
        let cols = cols_for(full);
        if total.div_ceil(cols) <= max_rows {
            return make(cols, full.min(label_for(cols)), total, total);
        }
        let cols = total.div_ceil(max_rows);
        if label_for(cols) >= min_label {
            return make(cols, label_for(cols), total, total);
        }
    }
    // Not every series fits: name as many as the narrowest columns hold, and count the rest.
    let cols = cols_for(min_label.min(full));
    let shown = total.min(MAX_SERIES).min(cols * max_rows - 1).max(1);
    make(cols, label_for(cols), shown, shown + 1)
}

fn draw_legend<DB: DrawingBackend>(
    strip: &DrawingArea<DB, Shift>,
    labels: &[String],
    g: &Grid,
    swatch: Swatch,
    s: Scale,
) -> Result<(), String> {
    let font = label_font(s);
    let (size, pad) = (s.font(LABEL_PX) as i32, s.i(6));
    let cell = |k: usize| {
        let (row, col) = (k / g.cols, k % g.cols);
        (s.i(MARGIN) + col as i32 * g.col_w, row as i32 * row_h(s) + row_h(s) / 2 + s.i(2))
    };
    for (k, label) in labels.iter().take(g.shown).enumerate() {
        let (x, y) = cell(k);
        let m = super::style::mark(k);
        draw_swatch(strip, m, swatch, (x, y), size, s)?;
        let text = text::shorten(strip, label, &font, g.label_w)?;
        strip.draw_text(&text, &font, (x + size + pad, y)).map_err(err)?;
    }
    if g.shown < labels.len() {
        let (x, y) = cell(g.shown);
        let more = format!("+{} more, not drawn", labels.len() - g.shown);
        let text = text::shorten(strip, &more, &font, g.col_w - s.i(14))?;
        strip.draw_text(&text, &font, (x, y)).map_err(err)?;
    }
    Ok(())
}

fn draw_swatch<DB: DrawingBackend>(
    strip: &DrawingArea<DB, Shift>,
    m: Mark,
    swatch: Swatch,
    (x, y): (i32, i32),
    size: i32,
    s: Scale,
) -> Result<(), String> {
    let half = size / 2;
    match (swatch, m.second) {
        (Swatch::Bar, false) => strip.draw(&Rectangle::new([(x, y - half), (x + size, y + half)], m.color.filled())),
        (Swatch::Bar, true) => {
            strip
                .draw(&Rectangle::new([(x, y - half), (x + size, y + half)], m.color.mix(0.2).filled()))
                .map_err(err)?;
            strip.draw(&Rectangle::new([(x, y - half), (x + size, y + half)], m.color.stroke_width(s.px(2))))
        }
        (Swatch::Line, false) => {
            strip.draw(&PathElement::new(vec![(x, y), (x + size, y)], m.color.stroke_width(s.px(2))))
        }
        (Swatch::Line, true) => {
            let dash = (size / 3).max(1);
            strip.draw(&PathElement::new(vec![(x, y), (x + dash, y)], m.color.stroke_width(s.px(2)))).map_err(err)?;
            strip.draw(&PathElement::new(vec![(x + size - dash, y), (x + size, y)], m.color.stroke_width(s.px(2))))
        }
    }
    .map_err(err)
}

/// Draws the x description (wrapped, under the plot) and the y description (rotated, wrapped,
/// at its left) at the edges of `body`; returns the area left for the axes, their numbers and
/// the plot. `None` draws no x description (an upper panel sharing its x axis).
pub(super) fn axis_texts<DB: DrawingBackend>(
    body: &DrawingArea<DB, Shift>,
    x: Option<&str>,
    y: &str,
    s: Scale,
) -> Result<DrawingArea<DB, Shift>, String> {
    let font = (FONT, s.font(DESC_PX)).into_font().color(&BLACK);
    let (w, h) = body.dim_in_pixel();
    let line = s.line(DESC_PX);
    let rest = match x {
        Some(x) => {
            let lines = text::wrap(body, x, &font, w as i32 - 2 * s.i(MARGIN), 2)?;
            let strip_h = lines.len() as i32 * line + s.i(4);
            let (rest, strip) = body.split_vertically((h as i32 - strip_h).max(0) as u32);
            let centred = font.pos(Pos::new(HPos::Center, VPos::Top));
            for (k, l) in lines.iter().enumerate() {
                strip.draw_text(l, &centred, (w as i32 / 2, k as i32 * line)).map_err(err)?;
            }
            rest
        }
        None => body.clone(),
    };
    let (_, h) = rest.dim_in_pixel();
    let lines = text::wrap(&rest, y, &font, h as i32 - s.i(8), 2)?;
    let strip_w = lines.len() as i32 * line + s.i(4);
    let (strip, plot) = rest.split_horizontally(strip_w.max(0) as u32);
    let rotated = font.transform(FontTransform::Rotate270).pos(Pos::new(HPos::Center, VPos::Center));
    for (k, l) in lines.iter().enumerate() {
        strip.draw_text(l, &rotated, (s.i(2) + k as i32 * line + line / 2, h as i32 / 2)).map_err(err)?;
    }
    Ok(plot)
}
