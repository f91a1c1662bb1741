//! The timeline: IPC (upper panel) and L2 hit rate (lower panel) over the run, one line per
//! run on a shared cycle axis, so phases line up across runs and panels. Charts without a
//! second y axis (sampled warps' hit ratio over time, TB_bg) draw one panel. TB_bg is a
//! setting that holds until it changes, so it draws as steps.

use super::frame::{self, Swatch};
use super::model::Line;
use super::style::{self, err, Scale, FONT, LABEL_PX};
use super::{rect, text, Chart, Drawn};
use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;

pub(super) fn draw_timeline<DB: DrawingBackend>(
    chart: Chart,
    lines: &[Line],
    area: &DrawingArea<DB, Shift>,
    s: Scale,
) -> Result<Drawn, String> {
    let labels: Vec<String> = lines
        .iter()
        .map(|l| if l.cycle.is_empty() { format!("{} (no data)", l.legend) } else { l.legend.clone() })
        .collect();
    let framed = frame::frame(chart.title(), &labels, Swatch::Line, area, s)?;
    let lines = &lines[..framed.shown.min(lines.len())];
    let plot = framed.body;
    let x_max = lines.iter().flat_map(|l| l.cycle.iter().copied()).max().unwrap_or(0).max(1) as f64;
    let mut drawn = Drawn { body: rect(&plot), plots: Vec::new(), shown: framed.shown };
    if chart == Chart::TbBg {
        let top = lines.iter().flat_map(|l| l.y.iter().copied()).fold(0.0, f64::max) + 1.0;
        let stepped: Vec<Line> = lines.iter().map(steps).collect();
        let texts = (chart.y_label(), Some(chart.x_label()), chart.no_data_reason());
        drawn.plots.push(panel(&plot, &stepped, (x_max, top), texts, s, |l| &l.y)?);
        return Ok(drawn);
    }
    let Some(y2) = chart.y2_label() else {
        let texts = (chart.y_label(), Some(chart.x_label()), None);
        drawn.plots.push(panel(&plot, lines, (x_max, 100.0), texts, s, |l| &l.y)?);
        return Ok(drawn);
    };
    let (upper, lower) = plot.split_vertically(plot.dim_in_pixel().1 * 45 / 100);
    let ipc_max = lines.iter().flat_map(|l| l.ipc.iter().copied()).fold(0.0, f64::max);
    let ipc_top = if ipc_max > 0.0 { ipc_max * 1.1 } else { 1.0 };
    drawn.plots.push(panel(&upper, lines, (x_max, ipc_top), (chart.y_label(), None, None), s, |l| &l.ipc)?);
    drawn.plots.push(panel(&lower, lines, (x_max, 100.0), (y2, Some(chart.x_label()), None), s, |l| &l.y)?);
    Ok(drawn)
}

/// The height the cycle numbers and the x description take under the lower panel (and the
/// upper panel's margins).
pub(super) fn x_axis_room(s: Scale) -> i32 {
    s.line(LABEL_PX) + 2 * s.line(super::style::DESC_PX) + s.i(24)
}

/// The line with each value held until the next sample: a corner point before every change.
fn steps(l: &Line) -> Line {
    let mut cycle = Vec::with_capacity(l.cycle.len() * 2);
    let mut y = Vec::with_capacity(l.y.len() * 2);
    for (i, (&c, &v)) in l.cycle.iter().zip(&l.y).enumerate() {
        if i > 0 {
            cycle.push(c);
            y.push(l.y[i - 1]);
        }
        cycle.push(c);
        y.push(v);
    }
    Line { cycle, y, ..l.clone() }
}

/// One panel: every run's `values` against cycles. Only a panel with an x description numbers
/// its x axis (an upper panel shares the lower one's); an empty panel says why when `no_data`
/// knows. Returns the plot's rectangle.
fn panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    lines: &[Line],
    (x_max, y_top): (f64, f64),
    (y_desc, x_desc, no_data): (&str, Option<&str>, Option<&str>),
    s: Scale,
    values: impl Fn(&Line) -> &Vec<f64>,
) -> Result<super::Rect, String> {
    let inner = frame::axis_texts(area, x_desc, y_desc, s)?;
    let font = (FONT, s.font(LABEL_PX)).into_font().color(&BLACK);
    let x_fmt = |v: &f64| style::axis_number(*v, x_max);
    let y_fmt = |v: &f64| style::axis_number(*v, y_top);
    let y_numbers = text::width(&inner, &y_fmt(&y_top), &font)?.max(text::width(&inner, "0.00", &font)?) + s.i(10);
    let line = s.line(LABEL_PX);
    let x_numbers = if x_desc.is_some() { line + s.i(8) } else { s.i(4) };
    let mut ch = ChartBuilder::on(&inner)
        .margin_top(s.px(8))
        .margin_right(s.px(16))
        .margin_left(s.px(4))
        .x_label_area_size(x_numbers.max(0) as u32)
        .y_label_area_size(y_numbers.max(0) as u32)
        .build_cartesian_2d(0.0..x_max, 0.0..y_top)
        .map_err(err)?;
    let (plot_w, plot_h) = ch.plotting_area().dim_in_pixel();
    // As many numbers as fit with room between them: plotters picks round values up to these.
    let widest_x = text::width(&inner, &x_fmt(&x_max), &font)? + s.i(24);
    let x_count = if x_desc.is_some() { (plot_w as i32 / widest_x.max(1)).clamp(2, 10) as usize } else { 0 };
    let y_count = (plot_h as i32 / (2 * line).max(1)).clamp(2, 6) as usize;
    ch.configure_mesh()
        .x_labels(x_count)
        .y_labels(y_count)
        .x_label_formatter(&x_fmt)
        .y_label_formatter(&y_fmt)
        .max_light_lines(0)
        .label_style(font)
        .draw()
        .map_err(err)?;
    let plot = ch.plotting_area().strip_coord_spec();
    let drawn_at = rect(&plot);
    if lines.iter().all(|l| l.cycle.is_empty()) {
        style::no_data(&plot, s, no_data)?;
        return Ok(drawn_at);
    }
    for (i, l) in lines.iter().enumerate() {
        let m = style::mark(i);
        let points: Vec<(f64, f64)> = l.cycle.iter().zip(values(l)).map(|(&c, &v)| (c as f64, v)).collect();
        let stroke = m.color.stroke_width(s.px(2));
        if points.len() == 1 {
            ch.draw_series(points.iter().map(|&p| Circle::new(p, s.px(3), m.color.filled()))).map_err(err)?;
        } else if m.second {
            let dashed = DashedPathElement::new(points, s.px(6), s.px(4), stroke);
            ch.draw_series(std::iter::once(dashed)).map_err(err)?;
        } else {
            ch.draw_series(std::iter::once(PathElement::new(points, stroke))).map_err(err)?;
        }
    }
    Ok(drawn_at)
}
