//! The timeline: IPC (upper panel) and L2 hit rate (lower panel) over the run, one line per
//! run on a shared cycle axis, so phases line up across runs and panels. Charts without a
//! second y axis (sampled warps' hit ratio over time, TB_bg) draw one panel. TB_bg is a
//! setting that holds until it changes, so it draws as steps.

use super::model::Line;
use super::style::{self, err, Scale, DESC_PX, FONT, LABEL_PX};
use super::Chart;
use plotters::coord::Shift;
use plotters::prelude::*;

pub(super) fn draw_timeline<DB: DrawingBackend>(
    chart: Chart,
    lines: &[Line],
    area: &DrawingArea<DB, Shift>,
    s: Scale,
) -> Result<(), String> {
    let legend: Vec<(String, RGBColor)> = lines
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let text = if l.cycle.is_empty() { format!("{} (no data)", l.legend) } else { l.legend.clone() };
            (text, style::color(i))
        })
        .collect();
    let plot = style::frame(chart.title(), &legend, area, s)?;
    let x_max = lines.iter().flat_map(|l| l.cycle.iter().copied()).max().unwrap_or(0).max(1) as f64;
    if chart == Chart::TbBg {
        let top = lines.iter().flat_map(|l| l.y.iter().copied()).fold(0.0, f64::max) + 1.0;
        let stepped: Vec<Line> = lines.iter().map(steps).collect();
        return panel(
            &plot,
            &stepped,
            (x_max, top),
            (chart.y_label(), Some(chart.x_label()), chart.no_data_reason()),
            s,
            |l| &l.y,
        );
    }
    if chart.y2_label().is_none() {
        return panel(&plot, lines, (x_max, 100.0), (chart.y_label(), Some(chart.x_label()), None), s, |l| &l.y);
    }
    let panels = plot.split_evenly((2, 1));
    let ipc_max = lines.iter().flat_map(|l| l.ipc.iter().copied()).fold(0.0, f64::max);
    let ipc_top = if ipc_max > 0.0 { ipc_max * 1.1 } else { 1.0 };

    panel(&panels[0], lines, (x_max, ipc_top), (chart.y_label(), None, None), s, |l| &l.ipc)?;
    let y2 = chart.y2_label().unwrap_or_default();
    panel(&panels[1], lines, (x_max, 100.0), (y2, Some(chart.x_label()), None), s, |l| &l.y)
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

/// One panel: every run's `values` against cycles; the x axis is described on the lower one,
/// and an empty panel says why when `no_data` knows.
fn panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    lines: &[Line],
    (x_max, y_top): (f64, f64),
    (y_desc, x_desc, no_data): (&str, Option<&str>, Option<&str>),
    s: Scale,
    values: impl Fn(&Line) -> &Vec<f64>,
) -> Result<(), String> {
    let mut ch = ChartBuilder::on(area)
        .margin(s.px(12))
        .x_label_area_size(s.px(if x_desc.is_some() { 44 } else { 24 }))
        .y_label_area_size(s.px(60))
        .build_cartesian_2d(0.0..x_max, 0.0..y_top)
        .map_err(err)?;
    let x_fmt = |v: &f64| style::axis_number(*v, x_max);
    let y_fmt = |v: &f64| style::axis_number(*v, y_top);
    let mut mesh = ch.configure_mesh();
    mesh.x_labels(8)
        .y_labels(5)
        .y_desc(y_desc)
        .x_label_formatter(&x_fmt)
        .y_label_formatter(&y_fmt)
        .max_light_lines(0)
        .label_style((FONT, s.px(LABEL_PX)))
        .axis_desc_style((FONT, s.px(DESC_PX)));
    if let Some(d) = x_desc {
        mesh.x_desc(d);
    }
    mesh.draw().map_err(err)?;
    if lines.iter().all(|l| l.cycle.is_empty()) {
        return style::no_data_because(&ch.plotting_area().strip_coord_spec(), s, no_data);
    }
    for (i, l) in lines.iter().enumerate() {
        let color = style::color(i);
        let points: Vec<(f64, f64)> = l.cycle.iter().zip(values(l)).map(|(&c, &v)| (c as f64, v)).collect();
        if points.len() == 1 {
            ch.draw_series(points.iter().map(|&p| Circle::new(p, s.px(3), color.filled()))).map_err(err)?;
        } else {
            ch.draw_series(std::iter::once(PathElement::new(points, color.stroke_width(s.px(2))))).map_err(err)?;
        }
    }
    Ok(())
}
