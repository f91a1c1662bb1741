//! Grouped bar charts (the histograms, warp types and partitions): one group per category,
//! one bar per run side by side, so runs compare bin by bin.

use super::frame::{self, Swatch};
use super::model::Bars;
use super::style::{self, err, Scale, FONT, LABEL_PX};
use super::{rect, text, Drawn};
use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::FontTransform;
use std::ops::Range;

/// Fraction of a category's width its group of bars fills.
const GROUP: f64 = 0.8;
/// The most of the axes' height rotated category labels may take.
const ROTATED_SHARE: f64 = 0.4;

/// A bar chart's words: the title and the axis descriptions, each with its unit.
pub(super) struct Texts<'a> {
    pub title: &'a str,
    pub x: &'a str,
    pub y: &'a str,
}

/// How the category labels go under the bars: level (every `step`-th, on a numeric axis) or
/// turned to read upwards when named categories are too many to sit side by side.
enum Ticks {
    Level { step: usize },
    Turned { length: i32 },
}

/// How the category labels fit under a plot `plot_w` pixels wide.
fn tick_layout<DB: DrawingBackend>(
    b: &Bars,
    area: &DrawingArea<DB, Shift>,
    plot_w: i32,
    s: Scale,
) -> Result<Ticks, String> {
    let font = (FONT, s.font(LABEL_PX)).into_font().color(&BLACK);
    let per_category = plot_w as f64 / b.categories.len().max(1) as f64;
    let mut widest = 0;
    for c in &b.categories {
        widest = widest.max(text::width(area, &c.tick, &font)?);
    }
    Ok(if b.numeric || per_category < s.line(LABEL_PX) as f64 {
        Ticks::Level { step: ((widest + s.i(8)) as f64 / per_category).ceil().max(1.0) as usize }
    } else if (widest + s.i(6)) as f64 <= per_category {
        Ticks::Level { step: 1 }
    } else {
        Ticks::Turned { length: widest }
    })
}

/// The height the category labels and axis description take under a plot of `b` drawn on an
/// area `width` pixels wide (an estimate of the plot's width is enough to choose the layout).
pub(super) fn x_axis_room<DB: DrawingBackend>(
    b: &Bars,
    area: &DrawingArea<DB, Shift>,
    width: u32,
    s: Scale,
) -> Result<i32, String> {
    let plot_w = width as i32 - s.i(110);
    let ticks = match tick_layout(b, area, plot_w, s)? {
        Ticks::Level { .. } => s.line(LABEL_PX) + s.i(8),
        Ticks::Turned { length } => length + s.i(10),
    };
    Ok(ticks + 2 * s.line(super::style::DESC_PX) + s.i(4))
}

/// Draws `b`; `reference` adds a horizontal rule at that height (1 on a speedup axis).
pub(super) fn draw_bars<DB: DrawingBackend>(
    texts: &Texts,
    b: &Bars,
    reference: Option<f64>,
    area: &DrawingArea<DB, Shift>,
    s: Scale,
) -> Result<Drawn, String> {
    let labels: Vec<String> =
        b.runs.iter().map(|r| if r.has_data { r.label.clone() } else { format!("{} (no data)", r.label) }).collect();
    let framed = frame::frame(texts.title, &labels, Swatch::Bar, area, s)?;
    let runs = &b.runs[..framed.shown.min(b.runs.len())];
    let inner = frame::axis_texts(&framed.body, Some(texts.x), texts.y, s)?;
    let n = b.categories.len();
    let top = runs.iter().flat_map(|r| r.values.iter().copied()).fold(0.0, f64::max);
    // Whiskers may raise the axis, but to no more than twice the tallest bar, so one wide
    // range cannot flatten every bar; a longer one is cut at the top.
    let whisker_top = runs.iter().flat_map(|r| r.ranges.iter().flatten().map(|&(_, hi)| hi)).fold(0.0, f64::max);
    let top = top.max(whisker_top.min(2.0 * top)).max(reference.unwrap_or(0.0));
    let top = if top > 0.0 { top * 1.1 } else { 1.0 };

    let font = (FONT, s.font(LABEL_PX)).into_font().color(&BLACK);
    let (inner_w, inner_h) = inner.dim_in_pixel();
    let y_numbers =
        text::width(&inner, &style::axis_number(top, top), &font)?.max(text::width(&inner, "0.00", &font)?) + s.i(10);
    let (margin_top, margin_right, margin_left) = (s.i(8), s.i(16), s.i(4));
    let plot_w = (inner_w as i32 - y_numbers - margin_right - margin_left).max(1);
    let ticks: Vec<&str> = b.categories.iter().map(|c| c.tick.as_str()).collect();
    let line = s.line(LABEL_PX);
    let layout = match tick_layout(b, &inner, plot_w, s)? {
        Ticks::Turned { length } => Ticks::Turned { length: length.min((inner_h as f64 * ROTATED_SHARE) as i32) },
        level => level,
    };
    let tick_area = match layout {
        Ticks::Level { .. } => line + s.i(8),
        Ticks::Turned { length } => length + s.i(10),
    };
    let step = match layout {
        Ticks::Level { step } => step,
        Ticks::Turned { .. } => 1,
    };
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
    let key_points: Vec<f64> = shown.iter().map(|&i| i as f64).collect();
    let x = CategoryAxis { n: n.max(1), ticks: key_points };

    let mut ch = ChartBuilder::on(&inner)
        .margin_top(margin_top.max(0) as u32)
        .margin_right(margin_right.max(0) as u32)
        .margin_left(margin_left.max(0) as u32)
        .x_label_area_size(tick_area.max(0) as u32)
        .y_label_area_size(y_numbers.max(0) as u32)
        .build_cartesian_2d(x, 0.0..top)
        .map_err(err)?;
    let plot_h = ch.plotting_area().dim_in_pixel().1 as i32;
    let y_fmt = |v: &f64| style::axis_number(*v, top);
    ch.configure_mesh()
        .disable_x_mesh()
        .x_label_formatter(&|_| String::new())
        .y_label_formatter(&y_fmt)
        .y_labels((plot_h / (3 * line)).clamp(2, 10) as usize)
        .max_light_lines(0)
        .label_style(font.clone())
        .draw()
        .map_err(err)?;
    let drawn = Drawn {
        body: rect(&framed.body),
        plots: vec![rect(&ch.plotting_area().strip_coord_spec())],
        shown: framed.shown,
    };
    if n == 0 {
        style::no_data(&ch.plotting_area().strip_coord_spec(), s, None)?;
        return Ok(drawn);
    }

    let w = GROUP / runs.len().max(1) as f64;
    for (j, r) in runs.iter().enumerate() {
        let m = style::mark(j);
        let corners = |i: usize, v: f64| {
            let x0 = i as f64 - GROUP / 2.0 + j as f64 * w;
            [(x0, 0.0), (x0 + w, v)]
        };
        if m.second {
            let fill = m.color.mix(0.2).filled();
            ch.draw_series(r.values.iter().enumerate().map(|(i, &v)| Rectangle::new(corners(i, v), fill)))
                .map_err(err)?;
            let edge = m.color.stroke_width(s.px(2));
            ch.draw_series(r.values.iter().enumerate().map(|(i, &v)| Rectangle::new(corners(i, v), edge)))
                .map_err(err)?;
        } else {
            let fill = m.color.filled();
            ch.draw_series(r.values.iter().enumerate().map(|(i, &v)| Rectangle::new(corners(i, v), fill)))
                .map_err(err)?;
        }
    }
    // Each bar's 95 % range, where it has one: a line with a cap at each end, on a white halo
    // so it shows on a dark bar too.
    let halo = WHITE.stroke_width(s.px(4));
    let whisker = RGBColor(34, 34, 34).stroke_width(s.px(2));
    for (j, r) in runs.iter().enumerate() {
        for (i, range) in r.ranges.iter().enumerate() {
            let Some((lo, hi)) = *range else { continue };
            let (lo, hi) = (lo.clamp(0.0, top), hi.clamp(0.0, top));
            let x = i as f64 - GROUP / 2.0 + (j as f64 + 0.5) * w;
            let cap = w / 4.0;
            let lines =
                [vec![(x, lo), (x, hi)], vec![(x - cap, lo), (x + cap, lo)], vec![(x - cap, hi), (x + cap, hi)]];
            for style in [halo, whisker] {
                ch.draw_series(lines.iter().map(|l| PathElement::new(l.clone(), style))).map_err(err)?;
            }
        }
    }
    if let Some(r) = reference {
        let rule = [(-0.5, r), (n as f64 - 0.5, r)];
        ch.draw_series(std::iter::once(PathElement::new(rule, BLACK.stroke_width(s.px(1))))).map_err(err)?;
    }

    // The category labels, each under its own group of bars.
    let (bx, by) = area.get_base_pixel();
    for &i in &shown {
        let (px, py) = ch.backend_coord(&(i as f64, 0.0));
        let at = (px - bx, py - by + s.i(5));
        match layout {
            Ticks::Level { .. } => {
                let style = font.clone().pos(Pos::new(HPos::Center, VPos::Top));
                area.draw_text(ticks[i], &style, at).map_err(err)?;
            }
            Ticks::Turned { length } => {
                let style = font.clone().transform(FontTransform::Rotate270).pos(Pos::new(HPos::Right, VPos::Center));
                let t = text::shorten(area, ticks[i], &font, length)?;
                area.draw_text(&t, &style, at).map_err(err)?;
            }
        }
    }
    Ok(drawn)
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
