use super::grid::{gmean, hmean, Grid};
use super::*;

fn spec(category: &str, series: &str) -> RunSpec {
    RunSpec::new(category, series, "medic-gtx480", "bfs")
}

fn with_ipc(ipc: f64) -> Metrics {
    Metrics { ipc, ..Metrics::default() }
}

#[test]
fn names_are_unique_and_found_and_unknown_names_list_the_valid_ones() {
    let all = figures();
    assert_eq!(all.len(), 13);
    let mut names: Vec<&str> = all.iter().map(|f| f.name).collect();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), 13);
    assert_eq!(figure("sc14-fig10").unwrap().name, "sc14-fig10");
    let err = figure("medic-fig99").err().unwrap();
    assert!(err.contains("medic-fig99") && err.contains("medic-fig3") && err.contains("xie-fig7"), "{err}");
}

#[test]
fn every_plan_resolves_to_valid_machines_with_distinct_cells() {
    for f in figures() {
        let plan = f.plan(Size::Tiny, 7).unwrap_or_else(|e| panic!("{}: {e}", f.name));
        assert!(!plan.is_empty() && plan.len() <= 44, "{}: {} runs", f.name, plan.len());
        assert!(plan.iter().all(|r| r.seed == 7 && r.size == "tiny"));
        let mut cells: Vec<(String, String)> = plan.iter().map(|r| (r.category.clone(), r.series.clone())).collect();
        cells.sort();
        cells.dedup();
        assert_eq!(cells.len(), plan.len(), "{}: two runs share a bar", f.name);
    }
}

#[test]
fn every_figure_builds_from_metrics_and_rejects_a_wrong_count() {
    for f in figures() {
        let n = f.specs().len();
        let metrics: Vec<Metrics> = (0..n)
            .map(|i| Metrics {
                ipc: 1.0 + i as f64 / 10.0,
                warp_hit_ratio_histogram: vec![i as u64; 10],
                l1_mpki_classes: [1.0, 2.0, 3.0],
                ..Metrics::default()
            })
            .collect();
        let out = f.build(metrics).unwrap();
        assert!(!out.figure.categories.is_empty(), "{}", f.name);
        for s in &out.figure.series {
            assert_eq!(s.values.len(), out.figure.categories.len(), "{} {}", f.name, s.label);
        }
        assert!(!out.verdict.summary.is_empty());
        assert!(f.build(Vec::new()).unwrap_err().contains(&n.to_string()));
    }
}

#[test]
fn speedups_divide_by_the_base_series_and_append_the_harmonic_mean() {
    let runs = vec![
        (spec("a", "base"), with_ipc(2.0)),
        (spec("a", "x"), with_ipc(3.0)),
        (spec("b", "base"), with_ipc(1.0)),
        (spec("b", "x"), with_ipc(0.5)),
    ];
    let g = Grid::of(&runs, |m| m.ipc).relative_to("base").with_mean("hmean", hmean);
    assert_eq!(g.series, vec!["x"]);
    assert_eq!(g.categories, vec!["a", "b", "hmean"]);
    assert_eq!(g.get("x", "a"), 1.5);
    assert_eq!(g.get("x", "b"), 0.5);
    assert!((g.get("x", "hmean") - 0.75).abs() < 1e-12);
    assert!(g.get("base", "a").is_nan());
    assert!((gmean(&[2.0, 8.0]) - 4.0).abs() < 1e-12);
    assert!(hmean(&[]).is_nan());
}

#[test]
fn agreement_counts_the_checks_that_hold() {
    assert_eq!(Agreement::of(&[true, true]), Agreement::Agrees);
    assert_eq!(Agreement::of(&[true, false]), Agreement::Partly);
    assert_eq!(Agreement::of(&[false, false]), Agreement::Differs);
}

#[test]
fn medic_gains_within_one_percent_do_not_agree_with_fig11_and_a_fraction_of_its_size_only_partly() {
    let f = figure("medic-fig11").unwrap();
    let verdict = |medic: f64, parts: f64| {
        let metrics = f
            .specs()
            .iter()
            .map(|s| {
                with_ipc(match s.series.as_str() {
                    "MeDiC" => medic,
                    "WIP" | "WMS" | "WByp" => parts,
                    _ => 1.0,
                })
            })
            .collect();
        f.build(metrics).unwrap().verdict
    };
    assert_eq!(verdict(1.005, 1.0).agreement, Agreement::Differs);
    let small = verdict(1.05, 1.02);
    assert_eq!(small.agreement, Agreement::Partly, "{}", small.summary);
    assert!(small.summary.contains("MeDiC 0.12x") && small.summary.contains("0 of 4 within 2x"), "{}", small.summary);
    let like_the_paper = verdict(1.40, 1.30);
    assert_eq!(like_the_paper.agreement, Agreement::Agrees, "{}", like_the_paper.summary);
    assert_eq!(like_the_paper.sizes.len(), 4);
}

#[test]
fn a_size_holds_within_a_factor_of_two_either_way_and_never_the_other_way() {
    let holds = |ours: f64, paper: f64| SizeCheck::of_ratios("x", ours, paper).holds();
    // 1.2x against 1.4x is half the paper's effect; 4.88x against 1.88x is 4.4 times it.
    assert!(holds(1.2, 1.4));
    assert!(!holds(4.88, 1.88));
    assert!(holds(1.5, 1.28) && !holds(1.6, 1.28));
    assert!(holds(0.95, 0.909) && !holds(1.03, 0.831));
    assert!(!holds(0.72, 1.28), "the other way never holds");
    assert!(!holds(f64::NAN, 1.4));
    assert_eq!(SizeCheck::of_ratios("x", 0.72, 1.28).describe(), "x the other way");
}

#[test]
fn a_failed_baseline_leaves_fig11_without_a_mean_rather_than_a_flattering_one() {
    let f = figure("medic-fig11").unwrap();
    let metrics = f
        .specs()
        .iter()
        .map(|s| with_ipc(if s.kernel == "bfs" && s.series == "Baseline" { 0.0 } else { 1.5 }))
        .collect();
    let out = f.build(metrics).unwrap();
    let medic = out.figure.series.iter().find(|s| s.label == "MeDiC").unwrap();
    assert!(medic.values.last().unwrap().is_nan(), "{:?}", medic.values);
    assert_eq!(out.verdict.agreement, Agreement::Differs, "{}", out.verdict.summary);
    assert!(out.verdict.summary.contains("MeDiC n/a"), "{}", out.verdict.summary);
}

/// medic-fig11's runs with MeDiC at +40 % and WIP, WMS, WByp at +30 %, every IPC
/// within ±`spread` (a share of it) when `spread` is given.
fn fig11_like_the_paper(spread: Option<f64>) -> Verdict {
    let f = figure("medic-fig11").unwrap();
    let metrics = f
        .specs()
        .iter()
        .map(|s| {
            let ipc = match s.series.as_str() {
                "MeDiC" => 1.40,
                "WIP" | "WMS" | "WByp" => 1.30,
                _ => 1.0,
            };
            let mut m = with_ipc(ipc);
            if let Some(w) = spread {
                m.intervals.insert("ipc".into(), Interval { low: ipc * (1.0 - w), high: ipc * (1.0 + w) });
            }
            m
        })
        .collect();
    f.build(metrics).unwrap().verdict
}

#[test]
fn sampled_runs_keep_a_gain_their_intervals_leave_standing_and_drop_one_inside_the_noise() {
    let whole = fig11_like_the_paper(None);
    assert_eq!(whole.agreement, Agreement::Agrees);
    assert!(!whole.summary.contains("intervals"), "{}", whole.summary);
    let tight = fig11_like_the_paper(Some(0.005));
    assert_eq!(tight.agreement, Agreement::Agrees, "{}", tight.summary);
    assert!(tight.summary.contains("7 of 7 checks hold"), "{}", tight.summary);
    // ±30 % on every run: MeDiC's lead of 10 points over WIP is inside the noise.
    let loose = fig11_like_the_paper(Some(0.30));
    assert_eq!(loose.agreement, Agreement::Partly, "{}", loose.summary);
    assert!(loose.summary.contains("inside the noise and count as unmet"), "{}", loose.summary);
    assert_eq!(loose, fig11_like_the_paper(Some(0.30)), "the draws are seeded");
}

/// medic-fig11's runs as `fig11_like_the_paper` puts them, each sampled at ten windows
/// whose contributions move its time by ±30 % (95 %) in one pattern shared by every run;
/// `matched` names the same windows in every run of a kernel, otherwise each run its own.
fn fig11_sampled_at_windows(matched: bool) -> Verdict {
    let f = figure("medic-fig11").unwrap();
    let pattern: [f64; 10] = [0.5, -0.3, 0.2, -0.4, 0.1, 0.3, -0.2, 0.4, -0.1, -0.5];
    let norm = pattern.iter().map(|x| x * x).sum::<f64>().sqrt();
    let metrics = f
        .specs()
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let ipc = match s.series.as_str() {
                "MeDiC" => 1.40,
                "WIP" | "WMS" | "WByp" => 1.30,
                _ => 1.0,
            };
            let cycles = 1_000_000.0 / ipc;
            let mut m = Metrics { ipc, cycles: cycles as u64, ..Metrics::default() };
            m.intervals.insert("ipc".into(), Interval { low: ipc / 1.3, high: ipc / 0.7 });
            m.intervals.insert("cycles".into(), Interval { low: 0.7 * cycles, high: 1.3 * cycles });
            let first = if matched { 0 } else { 100 * i as u64 };
            m.spread.windows = (first..first + 10).collect();
            m.spread.push("cycles", pattern.iter().map(|x| x / norm * 0.3 * cycles / 1.96));
            m
        })
        .collect();
    f.build(metrics).unwrap().verdict
}

#[test]
fn runs_sampled_at_the_same_windows_are_compared_as_matched_pairs() {
    // Each run alone is ±30 %, as in `loose` above; drawn apart, MeDiC's lead is noise.
    let apart = fig11_sampled_at_windows(false);
    assert_eq!(apart.agreement, Agreement::Partly, "{}", apart.summary);
    assert!(apart.summary.contains("inside the noise"), "{}", apart.summary);
    // Sampled at the same windows, every run errs alike: their ratios do not move.
    let matched = fig11_sampled_at_windows(true);
    assert_eq!(matched.agreement, Agreement::Agrees, "{}", matched.summary);
    assert!(matched.summary.contains("7 of 7 checks hold"), "{}", matched.summary);
}

#[test]
fn a_verdict_on_runs_sampled_inside_one_wave_launches_says_to_confirm_it_with_whole_runs() {
    let f = figure("medic-fig11").unwrap();
    let build = |one_wave: &dyn Fn(usize) -> u32| {
        let metrics = (0..f.specs().len())
            .map(|i| {
                let mut m = with_ipc(1.0);
                m.intervals.insert("ipc".into(), Interval { low: 0.99, high: 1.01 });
                m.one_wave_launches_sampled = one_wave(i);
                m
            })
            .collect();
        f.build(metrics).unwrap().verdict.summary
    };
    let none = build(&|_| 0);
    assert!(!none.contains("one-wave"), "{none}");
    let two = build(&|i| u32::from(i < 2));
    assert!(two.contains("2 runs were sampled inside launches that fit on the machine at once"), "{two}");
    assert!(two.ends_with("confirm this verdict with whole runs."), "{two}");
}

#[test]
fn a_verdict_on_runs_left_with_one_sampled_window_says_it_cannot_tell_them_from_noise() {
    let f = figure("medic-fig11").unwrap();
    let build = |lone: &dyn Fn(usize) -> bool| {
        let metrics = (0..f.specs().len()).map(|i| Metrics { one_window_sampled: lone(i), ..with_ipc(1.0) }).collect();
        f.build(metrics).unwrap()
    };
    let whole = build(&|_| false);
    assert!(!whole.verdict.summary.contains("sampled window") && !whole.figure.title.contains("estimated"));
    // Every run with one window, so no interval anywhere: still judged as estimated, and said.
    let all = build(&|_| true);
    let s = &all.verdict.summary;
    assert!(s.contains("runs were left with one sampled window") && s.contains("use more windows"), "{s}");
    assert!(all.figure.title.ends_with("(estimated)"), "{}", all.figure.title);
}

#[test]
fn every_figure_metric_reads_back_from_the_report_key_it_names() {
    let cfg = crate::config::preset("medic-gtx480").unwrap();
    let mut sim = crate::Simulator::with_benchmark(cfg, crate::kernels::build("bfs", crate::Size::Tiny, 1).unwrap(), 1);
    sim.run_until(u64::MAX);
    let report = crate::stats::build_report(&sim);
    let (r, m) = (serde_json::to_value(&report).unwrap(), serde_json::to_value(Metrics::of(&report)).unwrap());
    let at = |v: &serde_json::Value, path: &str| path.split('.').try_fold(v.clone(), |v, k| v.get(k).cloned());
    for (field, key) in super::REPORT_KEYS {
        let (from_report, from_metrics) = (at(&r, key), at(&m, field));
        assert!(from_report.is_some(), "{key} is not a report key");
        assert_eq!(from_report, from_metrics, "{field} is not {key}");
    }
    // Every scalar field is listed but `l2_reads_mostly_miss`, a sum of two report keys (the
    // histogram, the miss classes and the intervals are not report scalars).
    let mut scalars = Vec::new();
    for (k, v) in m.as_object().unwrap() {
        match v {
            serde_json::Value::Object(o) if k == "warp_types" => scalars.extend(o.keys().map(|t| format!("{k}.{t}"))),
            serde_json::Value::Array(_) | serde_json::Value::Object(_) => {}
            _ if k == "l2_reads_mostly_miss" => {}
            _ => scalars.push(k.clone()),
        }
    }
    let listed: Vec<String> = super::REPORT_KEYS.iter().map(|(f, _)| f.to_string()).collect();
    scalars.sort();
    let mut sorted = listed.clone();
    sorted.sort();
    assert_eq!(scalars, sorted);
}
