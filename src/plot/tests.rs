use super::*;
use crate::stats::{Histogram, ReadsByType, TripReport, WarpTypes};

fn hist(bin_width: u64, bins: usize, samples: &[u64]) -> Histogram {
    let mut h = Histogram::new(bin_width, bins);
    for &s in samples {
        h.add(s);
    }
    h
}

/// A small run whose every chart has data, with numbers easy to check by hand.
pub(super) fn fixture(label: &str) -> ChartRun {
    ChartRun {
        label: label.into(),
        cycles: 3000,
        ipc: 1.5,
        latency: LatencyData {
            divergence_histogram: hist(50, 80, &[0, 10, 60, 160, 9000]),
            trip_l2_hit: TripReport {
                reads: 4,
                request_net: 10.0,
                port_wait: 5.5,
                l2_queue: 20.0,
                l2_or_dram: 10.0,
                reply_queue: 30.0,
                reply_net: 12.0,
                sm_eject: 0.0,
            },
            trip_dram: TripReport { reads: 1, l2_or_dram: 200.0, ..TripReport::default() },
        },
        l1d: L1Data { miss_classes: MissClasses { intra_warp: 120.5, inter_warp: 30.0, other: 7.25 } },
        l2: L2Data {
            queue_latency_histogram: hist(4, 64, &[0, 1, 5, 7]),
            miss_classes: MissClasses { intra_warp: 1.0, inter_warp: 20.0, other: 3.0 },
        },
        warps: WarpData {
            l2_hit_ratio_histogram: vec![2, 0, 0, 0, 0, 0, 0, 0, 1, 1],
            types: WarpTypes { all_hit: 0.25, mostly_hit: 0.25, balanced: 0.0, mostly_miss: 0.0, all_miss: 0.5 },
            l2_reads_by_type: ReadsByType {
                profiling: 0.5,
                all_hit: 0.125,
                mostly_hit: 0.125,
                balanced: 0.0,
                mostly_miss: 0.0,
                all_miss: 0.25,
            },
            hit_ratio_series: HitRatioSeriesData {
                window_cycles: 1000,
                warps: vec![WarpSeriesData { warp: 4, windows: vec![0, 1, 2], hit_ratio: vec![0.5, 0.9, 1.0] }],
            },
        },
        partitions: PartitionData { requests: vec![10, 30, 60] },
        series: SeriesData {
            cycle: vec![1000, 2000, 3000],
            ipc: vec![1.0, 2.0, 1.5],
            l2_hit_rate: vec![0.5, 0.25, 1.0],
        },
        bypass: BypassData { tb_bg_series: TbBgSeriesData { cycle: vec![0, 1200, 2500], tb_bg: vec![8, 7, 6] } },
    }
}

fn column(t: &Table, i: usize) -> Vec<&str> {
    t.rows.iter().map(|r| r[i].as_str()).collect()
}

#[test]
fn histogram_tables_trim_the_empty_tail_and_keep_the_overflow() {
    let t = table(Chart::Divergence, &[fixture("a")]);
    assert_eq!(t.headers, vec![Chart::Divergence.x_label().to_string(), "a: warp-loads (%)".to_string()]);
    assert_eq!(column(&t, 0), vec!["0–49", "50–99", "100–149", "150–199", "≥ 4000"]);
    assert_eq!(column(&t, 1), vec!["40.00", "20.00", "0.00", "20.00", "20.00"]);
    let t = table(Chart::QueueLatency, &[fixture("a")]);
    assert_eq!(column(&t, 0), vec!["0–3", "4–7"]);
    assert_eq!(column(&t, 1), vec!["50.00", "50.00"]);
}

#[test]
fn category_tables_hold_percentages_per_run() {
    let mut b = fixture("b");
    b.partitions.requests = vec![50, 50, 0, 0];
    let runs = [fixture("a"), b];
    let t = table(Chart::Partitions, &runs);
    assert_eq!(t.headers[1..], ["a: requests (% of all)".to_string(), "b: requests (% of all)".to_string()]);
    assert_eq!(column(&t, 0), vec!["0", "1", "2", "3"]);
    assert_eq!(column(&t, 1), vec!["10.00", "30.00", "60.00", "0.00"]);
    assert_eq!(column(&t, 2), vec!["50.00", "50.00", "0.00", "0.00"]);
    let t = table(Chart::HitRatio, &runs);
    assert_eq!(t.rows.len(), 10);
    assert_eq!(t.rows[0], vec!["0–10", "50.00", "50.00"]);
    assert_eq!(t.rows[9], vec!["90–100", "25.00", "25.00"]);
    let t = table(Chart::WarpTypes, &runs[..1]);
    assert_eq!(column(&t, 0)[1], "mostly-hit (≥ 70 %)");
    assert_eq!(column(&t, 1), vec!["25.00", "25.00", "0.00", "0.00", "50.00"]);
    let t = table(Chart::ReadsByType, &runs[..1]);
    assert_eq!(column(&t, 0)[0], "profiling (not yet typed)");
    assert_eq!(column(&t, 1), vec!["50.00", "12.50", "12.50", "0.00", "0.00", "25.00"]);
}

#[test]
fn read_trip_table_lists_the_stages_of_hits_then_dram_reads() {
    let t = table(Chart::ReadTrip, &[fixture("a"), ChartRun::default()]);
    assert_eq!(t.rows.len(), 14);
    assert_eq!(t.rows[0][0], "L2 hits: request net");
    assert_eq!(t.rows[2][0], "L2 hits: l2 queue");
    assert_eq!(t.rows[10][0], "reads DRAM served: l2 or dram");
    assert_eq!(column(&t, 1)[..7], ["10.00", "5.50", "20.00", "10.00", "30.00", "12.00", "0.00"]);
    assert_eq!(column(&t, 1)[10], "200.00");
}

#[test]
fn timeline_table_has_a_row_per_window_and_run() {
    let t = table(Chart::Timeline, &[fixture("a"), ChartRun::default()]);
    assert_eq!(t.headers, vec!["run", "time (core cycles)", "IPC (warp instructions / cycle)", "L2 hit rate (%)"]);
    assert_eq!(t.rows.len(), 3);
    assert_eq!(t.rows[1], vec!["a", "2000", "2.000", "25.00"]);
}

#[test]
fn long_histograms_merge_bins_and_mixed_widths_still_bin() {
    let samples: Vec<u64> = (0..80).map(|i| i * 50).collect();
    let mut a = fixture("a");
    a.latency.divergence_histogram = hist(50, 80, &samples);
    let t = table(Chart::Divergence, &[a.clone()]);
    assert_eq!(t.rows.len(), 40);
    assert_eq!(t.rows[0], vec!["0–99", "2.50"]);
    let mut b = fixture("b");
    b.latency.divergence_histogram = hist(25, 40, &[30, 999, 1000]);
    let t = table(Chart::Divergence, &[a, b]);
    assert_eq!(t.rows.last().unwrap()[0], "≥ 1000");
    assert_eq!(t.rows.last().unwrap()[2], "33.33");
}

#[test]
fn empty_runs_give_empty_tables() {
    for chart in Chart::ALL {
        assert!(table(chart, &[ChartRun::default()]).rows.is_empty(), "{chart}");
        assert!(table(chart, &[]).rows.is_empty(), "{chart}");
    }
}

#[test]
fn csv_quotes_only_what_needs_it() {
    let t = Table { headers: vec!["a".into(), "b, c".into()], rows: vec![vec!["say \"hi\"".into(), "1".into()]] };
    assert_eq!(t.to_csv(), "a,\"b, c\"\r\n\"say \"\"hi\"\"\",1\r\n");
}

#[test]
fn chart_names_round_trip_and_unknown_names_list_the_valid_ones() {
    for chart in Chart::ALL {
        assert_eq!(Chart::from_name(chart.name()), Ok(chart));
        assert_eq!(serde_json::to_string(&chart).unwrap(), format!("\"{}\"", chart.name()));
    }
    let e = Chart::from_name("pie").unwrap_err();
    assert!(e.contains("pie") && Chart::ALL.iter().all(|c| e.contains(c.name())), "{e}");
}

#[test]
fn every_chart_renders_for_one_two_and_no_runs_with_its_axis_labels() {
    let cases: Vec<(&str, Vec<ChartRun>)> = vec![
        ("one", vec![fixture("gto")]),
        ("two", vec![fixture("gto"), fixture("lrr")]),
        ("empty", vec![ChartRun::default()]),
        ("none", vec![]),
    ];
    for chart in Chart::ALL {
        for (case, runs) in &cases {
            let s = svg(chart, runs, 800, 500).unwrap_or_else(|e| panic!("{chart} {case}: {e}"));
            assert!(s.starts_with("<svg"), "{chart} {case}");
            for label in [chart.title(), chart.x_label(), chart.y_label()].into_iter().chain(chart.y2_label()) {
                assert!(s.contains(label), "{chart} {case}: no `{label}`");
            }
            let empty = runs.iter().all(|r| *r == ChartRun::default());
            assert_eq!(s.contains("\nno data\n"), empty, "{chart} {case}");
            if runs.len() == 2 {
                assert!(s.contains("\ngto") && s.contains("\nlrr"), "{chart}: legend");
            }
        }
    }
}

#[test]
fn too_small_an_area_is_an_error() {
    assert!(svg(Chart::Timeline, &[fixture("a")], 100, 50).is_err());
    assert!(svg(Chart::Divergence, &[fixture("a")], 0, 0).is_err());
}

#[test]
fn chart_runs_round_trip_through_json() {
    let run = fixture("a");
    let json = serde_json::to_string(&run).unwrap();
    assert_eq!(ChartRun::from_json("a", &json), Ok(run));
    assert_eq!(ChartRun::from_json("x", "{}"), Ok(ChartRun { label: "x".into(), ..ChartRun::default() }));
    assert!(ChartRun::from_json("x", "[1]").is_err());
}

#[test]
fn many_long_labelled_runs_at_the_smallest_size_still_draw() {
    let runs: Vec<ChartRun> =
        (0..12).map(|i| fixture(&format!("a <long> & \"quoted\" label for run number {i}"))).collect();
    for chart in Chart::ALL {
        for (w, h) in [MIN_SIZE, (MIN_SIZE.0, 2000), (2000, MIN_SIZE.1)] {
            let s = svg(chart, &runs, w, h).unwrap_or_else(|e| panic!("{chart} {w}x{h}: {e}"));
            assert!(s.contains("a &lt;lon") && !s.contains("<lon"), "{chart}: labels are escaped");
        }
    }
}

#[test]
fn the_miss_class_table_lists_l1_then_l2_causes_in_mpki() {
    let t = table(Chart::MissClasses, &[fixture("gto"), fixture("iwarp")]);
    assert_eq!(t.headers[1], "gto: misses per 1000 warp instructions (MPKI)");
    assert_eq!(
        column(&t, 0),
        vec!["L1 intra-warp", "L1 inter-warp", "L1 other", "L2 intra-warp", "L2 inter-warp", "L2 other"]
    );
    assert_eq!(column(&t, 1), vec!["120.50", "30.00", "7.25", "1.00", "20.00", "3.00"]);
}

#[test]
fn warp_hit_ratio_table_has_one_row_per_warp_window() {
    let t = table(Chart::WarpHitRatio, &[fixture("a")]);
    assert_eq!(t.headers, vec!["run", "window start (core cycles)", "L2 hit ratio of the warp (%)"]);
    assert_eq!(t.rows[1], vec!["a warp 4", "1000", "90.00"]);
    assert_eq!(t.rows.len(), 3);
}

#[test]
fn tb_bg_table_holds_the_last_value_to_the_end_of_the_run() {
    let t = table(Chart::TbBg, &[fixture("coordinated")]);
    assert_eq!(t.headers, vec!["run", "time (core cycles)", "TB_bg (blocks per SM)"]);
    let rows: Vec<Vec<&str>> = t.rows.iter().map(|r| r.iter().map(String::as_str).collect()).collect();
    assert_eq!(
        rows,
        vec![
            vec!["coordinated", "0", "8"],
            vec!["coordinated", "1200", "7"],
            vec!["coordinated", "2500", "6"],
            vec!["coordinated", "3000", "6"],
        ]
    );
}

#[test]
fn tb_bg_of_a_run_without_the_learner_is_no_data_with_the_reason() {
    let mut always_cache = fixture("none");
    always_cache.bypass = BypassData::default();
    assert!(table(Chart::TbBg, &[always_cache.clone()]).rows.is_empty());
    let s = svg(Chart::TbBg, std::slice::from_ref(&always_cache), 800, 500).unwrap();
    assert!(s.contains("\nno data\n") && s.contains("only coordinated and dynamic_only bypassing learn TB_bg"), "{s}");
    let s = svg(Chart::TbBg, &[always_cache, fixture("coordinated")], 800, 500).unwrap();
    assert!(!s.contains("\nno data\n") && s.contains("coordinated: 2 changes of TB_bg"));
}

mod layout;

#[test]
fn a_sampled_figures_ranges_survive_json_fill_two_columns_and_draw_as_whiskers() {
    let series = |low: Vec<f64>, high: Vec<f64>| BarSeries { label: "s".into(), values: vec![1.0, 2.0], low, high };
    let fig = BarFigure {
        title: "t".into(),
        x_label: "kernel".into(),
        y_label: "IPC".into(),
        categories: vec!["a".into(), "b".into()],
        series: vec![series(vec![0.9, f64::NAN], vec![1.2, f64::NAN])],
        reference: None,
    };
    let json = serde_json::to_string(&fig).unwrap();
    assert!(json.contains("\"low\":[0.9,null]"), "{json}");
    let back: BarFigure = serde_json::from_str(&json).unwrap();
    assert_eq!(back.series[0].low[0], 0.9);
    assert!(back.series[0].high[1].is_nan());
    let t = fig.table();
    assert_eq!(t.headers, ["kernel", "s: IPC", "s: 95 % low", "s: 95 % high"]);
    assert_eq!(t.rows, [["a", "1.0000", "0.9000", "1.2000"], ["b", "2.0000", "", ""]]);
    // A whole runs' figure keeps its one column per series and its JSON without ranges.
    let whole = BarFigure { series: vec![series(Vec::new(), Vec::new())], ..fig.clone() };
    assert_eq!(whole.table().headers.len(), 2);
    assert!(!serde_json::to_string(&whole).unwrap().contains("low"));
    // The whisker: a line and two caps more than the bars alone, each on its halo.
    let lines = |f: &BarFigure| figure_svg(f, 600, 400).unwrap().matches("<polyline").count();
    assert_eq!(lines(&fig), lines(&whole) + 6);
}
