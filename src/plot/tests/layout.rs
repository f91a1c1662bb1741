//! The charts' words never cover the plot or each other: every chart, with 1, 6, 12 and 24
//! runs, at the widths of a projector's, a laptop's and a phone's page (the page sizes each
//! canvas with `preferred_height`) and at the CLI's fixed 900x520, is drawn through a recorder
//! of text boxes and checked. The checks were written before the layout was.

use super::super::boxes::{Recorder, TextBox};
use super::super::figure::draw_figure_boxes;
use super::super::{draw_chart, figure_height, preferred_height, BarFigure, BarSeries, Chart, ChartRun, Drawn};
use super::fixture;
use plotters::prelude::*;

/// Canvas widths (layout pixels): one chart across a 1400 px and a 1024 px page, and the width
/// a chart gets on a 390 px phone and on the narrowest phones.
const WIDTHS: [u32; 4] = [1400, 1024, 358, 320];
const RUNS: [usize; 4] = [1, 6, 12, 24];

/// Labels as the page writes them: what differs between runs, of varied length.
fn runs(n: usize) -> Vec<ChartRun> {
    const KERNELS: [&str; 6] = ["bfs", "sssp", "spmv", "kmeans", "atax", "pvc"];
    const POLICIES: [&str; 4] = ["baseline", "medic", "wg_m · dram.scheduler=gmc", "coordinated (l1d.size_kb=48)"];
    (0..n)
        .map(|i| {
            let label = format!("{} · {} · seed {}", KERNELS[i % 6], POLICIES[i % 4], 1 + i / 6);
            let mut r = fixture(&label);
            r.partitions.requests = (0..12).map(|p| 10 + (p * 7 + i as u64 * 3) % 40).collect();
            r
        })
        .collect()
}

/// A gallery figure with many named categories and series.
fn figure(series: usize) -> BarFigure {
    let kernels = [
        "bfs",
        "sssp",
        "spmv",
        "pvc",
        "kmeans",
        "streamcluster",
        "hotspot",
        "atax",
        "bicg",
        "mvt",
        "gesummv",
        "syrk",
        "hmean",
    ];
    BarFigure {
        title: "Speedup over the baseline of each policy, per kernel (paper-size inputs)".into(),
        x_label: "kernel (harmonic mean last)".into(),
        y_label: "IPC speedup over the baseline".into(),
        categories: kernels.iter().map(|k| k.to_string()).collect(),
        series: (0..series)
            .map(|j| BarSeries {
                label: format!("policy {j} ({})", ["WIP", "WMS", "WByp", "MeDiC", "PCAL"][j % 5]),
                values: (0..kernels.len()).map(|i| 0.8 + ((i * 7 + j * 3) % 10) as f64 / 10.0).collect(),
                ..BarSeries::default()
            })
            .collect(),
        reference: Some(1.0),
    }
}

struct Sheet {
    size: (u32, u32),
    texts: Vec<TextBox>,
    drawn: Drawn,
}

fn sheet(
    size: (u32, u32),
    draw: impl FnOnce(&DrawingArea<Recorder<SVGBackend>, plotters::coord::Shift>) -> Result<Drawn, String>,
) -> Sheet {
    let mut svg = String::new();
    let (rec, texts) = Recorder::new(SVGBackend::with_string(&mut svg, size));
    let area = rec.into_drawing_area();
    let drawn = draw(&area).unwrap_or_else(|e| panic!("drawing at {size:?} failed: {e}"));
    area.present().unwrap();
    drop(area);
    let texts = texts.borrow().clone();
    Sheet { size, texts, drawn }
}

// The binding drops the drawing area (which borrows `svg`) before `svg` itself.
#[allow(clippy::let_and_return)]
fn height_for(chart: Chart, runs: &[ChartRun], width: u32) -> u32 {
    let mut svg = String::new();
    let (rec, _) = Recorder::new(SVGBackend::with_string(&mut svg, (width, 100)));
    let h = preferred_height(chart, runs, &rec.into_drawing_area(), 1.0).unwrap();
    h
}

fn overlap(a: (i32, i32, i32, i32), b: (i32, i32, i32, i32)) -> bool {
    // One pixel of each box's edge may touch its neighbour's.
    a.0 + 1 < b.2 && b.0 + 1 < a.2 && a.1 + 1 < b.3 && b.1 + 1 < a.3
}

/// The checks every drawn chart must pass; `what` names the case in a failure.
fn check(what: &str, s: &Sheet, runs: usize, all_named: bool) {
    let (w, h) = (s.size.0 as i32, s.size.1 as i32);
    for t in &s.texts {
        let r = t.rect;
        assert!(
            r.0 >= -1 && r.1 >= -1 && r.2 <= w + 1 && r.3 <= h + 1,
            "{what}: `{}` at {r:?} falls off the {w}x{h} canvas",
            t.text
        );
    }
    for (i, a) in s.texts.iter().enumerate() {
        for b in &s.texts[i + 1..] {
            assert!(!overlap(a.rect, b.rect), "{what}: `{}` {:?} overlaps `{}` {:?}", a.text, a.rect, b.text, b.rect);
        }
    }
    let body = s.drawn.body;
    assert!((body.3 - body.1) * 2 >= h, "{what}: title and legend leave the plot {} of {h} px", body.3 - body.1);
    let data: i32 = s.drawn.plots.iter().map(|p| (p.2 - p.0) * (p.3 - p.1)).sum();
    assert!(data * 10 >= w * h * 3, "{what}: the plots cover {data} px², under 30 % of {}", w * h);
    for p in &s.drawn.plots {
        assert!(p.3 - p.1 >= 50, "{what}: a plot {} px tall", p.3 - p.1);
    }
    if all_named {
        assert_eq!(s.drawn.shown, runs.min(24), "{what}: the legend names {} of {runs} runs", s.drawn.shown);
    }
    if s.drawn.shown < runs {
        let more = format!("+{} more", runs - s.drawn.shown);
        assert!(
            s.texts.iter().any(|t| t.text.starts_with(&more)),
            "{what}: {} runs left out without a word",
            runs - s.drawn.shown
        );
    }
}

fn title_in_full(what: &str, s: &Sheet, title: &str) {
    let words: Vec<&str> = title.split_whitespace().collect();
    let drawn: Vec<&str> = s.texts.iter().flat_map(|t| t.text.split_whitespace()).collect();
    assert!(
        drawn.windows(words.len()).any(|win| win == words.as_slice()),
        "{what}: the title `{title}` is not drawn whole"
    );
}

/// Every named category has its label (whole, or shortened around an ellipsis).
fn categories_labelled(what: &str, s: &Sheet, ticks: &[String]) {
    for tick in ticks {
        let found = s.texts.iter().any(|t| {
            t.text == *tick
                || t.text.split_once('…').is_some_and(|(head, tail)| tick.starts_with(head) && tick.ends_with(tail))
        });
        assert!(found, "{what}: category `{tick}` has no label");
    }
}

fn named_ticks(chart: Chart, runs: &[ChartRun]) -> Option<Vec<String>> {
    match super::super::model::model(chart, runs) {
        super::super::model::Model::Bars(b) if !b.numeric => Some(b.categories.into_iter().map(|c| c.tick).collect()),
        _ => None,
    }
}

#[test]
fn every_chart_stays_legible_at_page_widths_with_1_to_24_runs() {
    for chart in Chart::ALL {
        for n in RUNS {
            let rs = runs(n);
            for w in WIDTHS {
                let h = height_for(chart, &rs, w);
                let s = sheet((w, h), |a| draw_chart(chart, &rs, a, 1.0));
                let what = format!("{} with {n} runs at {w}x{h}", chart.name());
                check(&what, &s, n, true);
                title_in_full(&what, &s, chart.title());
                if let Some(ticks) = named_ticks(chart, &rs) {
                    categories_labelled(&what, &s, &ticks);
                }
            }
        }
    }
}

#[test]
fn every_chart_stays_legible_in_the_clis_fixed_svg() {
    for chart in Chart::ALL {
        for n in RUNS {
            let rs = runs(n);
            let s = sheet((900, 520), |a| draw_chart(chart, &rs, a, 1.0));
            let what = format!("{} with {n} runs at 900x520", chart.name());
            check(&what, &s, n, false);
            title_in_full(&what, &s, chart.title());
        }
    }
}

#[test]
fn gallery_figures_label_every_kernel_at_card_and_phone_sizes() {
    for series in [1, 3, 10] {
        let fig = figure(series);
        let phone = |w: u32| {
            let mut svg = String::new();
            let (rec, _) = Recorder::new(SVGBackend::with_string(&mut svg, (w, 100)));
            let h = figure_height(&fig, &rec.into_drawing_area(), 1.0).unwrap();
            (w, h)
        };
        // The CLI's default, a gallery card on a wide page, and cards on phones (sized to fit).
        for size in [(900, 520), (640, 340), phone(358), phone(320)] {
            let s = sheet(size, |a| draw_figure_boxes(&fig, a, 1.0));
            let what = format!("figure with {series} series at {size:?}");
            check(&what, &s, series, false);
            title_in_full(&what, &s, &fig.title);
            categories_labelled(&what, &s, &fig.categories);
        }
    }
}

#[test]
fn a_high_dpi_canvas_lays_out_as_its_layout_size_does() {
    let rs = runs(6);
    for chart in [Chart::ReadTrip, Chart::Timeline] {
        let h = height_for(chart, &rs, 358);
        let one = sheet((358, h), |a| draw_chart(chart, &rs, a, 1.0));
        let two = sheet((716, 2 * h), |a| draw_chart(chart, &rs, a, 2.0));
        check(&format!("{} at 2x", chart.name()), &two, 6, true);
        assert_eq!(one.texts.len(), two.texts.len(), "{}: the same words at either pixel ratio", chart.name());
    }
}
