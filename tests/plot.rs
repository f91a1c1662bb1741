//! Charts from a real report: the report's JSON reads as a `ChartRun` and every chart draws it.

use warpscope::config::preset;
use warpscope::plot::{self, Chart, ChartRun};
use warpscope::Size;

#[test]
fn a_reports_json_reads_as_a_chart_run_and_every_chart_draws_it() {
    let report = warpscope::run(preset("medic-gtx480").unwrap(), "bfs", Size::Tiny, 1, None).unwrap();
    let json = serde_json::to_string_pretty(&report).unwrap();
    let run = ChartRun::from_json("bfs", &json).unwrap();
    let direct = ChartRun::from_report("bfs", &report);
    // serde_json parses floats to within an ulp, so those compare approximately.
    let close = |a: &[f64], b: &[f64]| a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-12);
    let value = |x: (&_, &_, &_)| serde_json::to_value(x).unwrap();
    assert_close(
        &value((&run.latency, &run.l2, &run.partitions)),
        &value((&direct.latency, &direct.l2, &direct.partitions)),
    );
    assert_eq!(run.warps.l2_hit_ratio_histogram, direct.warps.l2_hit_ratio_histogram);
    assert_eq!((run.cycles, &run.series.cycle), (direct.cycles, &direct.series.cycle));
    assert!(close(&run.series.ipc, &direct.series.ipc) && close(&run.series.l2_hit_rate, &direct.series.l2_hit_rate));
    assert!(
        (run.ipc - direct.ipc).abs() < 1e-12 && (run.warps.types.all_hit - direct.warps.types.all_hit).abs() < 1e-12
    );
    assert!(run.latency.divergence_histogram.samples > 0 && !run.series.cycle.is_empty());
    assert_eq!(run.partitions.requests.len(), 6);
    for chart in Chart::ALL {
        // Always-cache runs have no TB_bg learner, so that chart alone is empty.
        let rows = plot::table(chart, std::slice::from_ref(&run)).rows;
        assert_eq!(rows.is_empty(), chart == Chart::TbBg, "{chart}");
        let svg = plot::svg(chart, &[run.clone(), ChartRun { label: "copy".into(), ..run.clone() }], 640, 400).unwrap();
        assert!(svg.contains(chart.x_label()), "{chart}");
    }
}

#[test]
fn tb_bg_of_a_coordinated_run_reads_from_its_json_and_draws() {
    let mut cfg = preset("xie-fermi").unwrap();
    cfg.l1d.bypass = warpscope::config::L1BypassKind::Coordinated;
    let report = warpscope::run(cfg, "spmv", Size::Tiny, 1, None).unwrap();
    let series = &report.bypass.as_ref().expect("coordinated runs report bypass").tb_bg_series;
    let run = ChartRun::from_json("coordinated", &serde_json::to_string(&report).unwrap()).unwrap();
    assert_eq!(run.bypass.tb_bg_series.cycle, series.cycle);
    assert_eq!(run.bypass.tb_bg_series.tb_bg, series.tb_bg);
    let rows = plot::table(Chart::TbBg, std::slice::from_ref(&run)).rows;
    assert!(rows.len() >= series.cycle.len() && !rows.is_empty());
    assert_eq!(rows[0][2], series.tb_bg[0].to_string());
    assert_eq!(run.bypass, ChartRun::from_report("coordinated", &report).bypass);
    let always_cache = warpscope::run(preset("xie-fermi").unwrap(), "spmv", Size::Tiny, 1, None).unwrap();
    let svg = plot::svg(Chart::TbBg, &[run, ChartRun::from_report("none", &always_cache)], 640, 400).unwrap();
    assert!(svg.contains("coordinated: ") && svg.contains("changes of TB_bg"), "the legend counts the changes");
    assert!(svg.contains("none: no TB_bg learner") && !svg.contains("\nno data\n"), "one run without data");
}

/// Equal JSON, but for numbers that may differ in the last few ulps.
fn assert_close(a: &serde_json::Value, b: &serde_json::Value) {
    use serde_json::Value;
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            let (x, y) = (x.as_f64().unwrap(), y.as_f64().unwrap());
            assert!((x - y).abs() <= 1e-12 * x.abs().max(1.0), "{x} vs {y}");
        }
        (Value::Array(x), Value::Array(y)) => {
            assert_eq!(x.len(), y.len());
            x.iter().zip(y).for_each(|(x, y)| assert_close(x, y));
        }
        (Value::Object(x), Value::Object(y)) => {
            assert_eq!(x.keys().collect::<Vec<_>>(), y.keys().collect::<Vec<_>>());
            x.iter().for_each(|(k, v)| assert_close(v, &y[k]));
        }
        _ => assert_eq!(a, b),
    }
}
