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
    assert_eq!((&run.latency, &run.l2, &run.partitions), (&direct.latency, &direct.l2, &direct.partitions));
    assert_eq!(run.warps.l2_hit_ratio_histogram, direct.warps.l2_hit_ratio_histogram);
    assert_eq!((run.cycles, &run.series.cycle), (direct.cycles, &direct.series.cycle));
    assert!(close(&run.series.ipc, &direct.series.ipc) && close(&run.series.l2_hit_rate, &direct.series.l2_hit_rate));
    assert!(
        (run.ipc - direct.ipc).abs() < 1e-12 && (run.warps.types.all_hit - direct.warps.types.all_hit).abs() < 1e-12
    );
    assert!(run.latency.divergence_histogram.samples > 0 && !run.series.cycle.is_empty());
    assert_eq!(run.partitions.requests.len(), 6);
    for chart in Chart::ALL {
        assert!(!plot::table(chart, std::slice::from_ref(&run)).rows.is_empty(), "{chart}");
        let svg = plot::svg(chart, &[run.clone(), ChartRun { label: "copy".into(), ..run.clone() }], 640, 400).unwrap();
        assert!(svg.contains(chart.x_label()), "{chart}");
    }
}
