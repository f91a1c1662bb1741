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
fn medic_gains_within_one_percent_do_not_agree_with_fig11() {
    let f = figure("medic-fig11").unwrap();
    let verdict = |medic: f64| {
        let metrics = f.specs().iter().map(|s| with_ipc(if s.series == "MeDiC" { medic } else { 1.0 })).collect();
        f.build(metrics).unwrap().verdict.agreement
    };
    assert_eq!(verdict(1.005), Agreement::Differs);
    assert_eq!(verdict(1.05), Agreement::Agrees);
}
