//! A run whose input comes from the per-thread benchmark cache gives the same report,
//! byte for byte, as a run on a freshly built input, even after an earlier run has
//! consumed the cached input and on a machine other than the one that built it.

use warpscope::config::{apply_set, parse_config_value, preset};
use warpscope::kernels::{build, Size};
use warpscope::stats::build_report;
use warpscope::{Config, Simulator};

fn machine(name: &str, sets: &[(&str, &str)]) -> Config {
    let mut doc = serde_json::to_value(preset(name).unwrap()).unwrap();
    for (path, value) in sets {
        apply_set(&mut doc, path, value).unwrap();
    }
    parse_config_value(doc).unwrap()
}

fn report(sim: &mut Simulator) -> String {
    sim.run_until(u64::MAX);
    serde_json::to_string(&build_report(sim)).unwrap()
}

#[test]
fn a_cached_input_gives_the_report_of_a_fresh_one() {
    for (kernel, sets) in [("bfs", [("dram.scheduler", "fcfs")]), ("spmv", [("l1d.size_kb", "64")])] {
        let cfg = machine("medic-gtx480", &sets);
        let fresh = report(&mut Simulator::with_benchmark(cfg.clone(), build(kernel, Size::Tiny, 3).unwrap(), 3));
        // The first run builds the input (or takes it from an earlier test on this thread)
        // on another machine, the second must take that same input from the cache.
        let mut first = Simulator::new(machine("medic-gtx480", &[]), kernel, Size::Tiny, 3).unwrap();
        report(&mut first);
        let mut cached = Simulator::new(cfg, kernel, Size::Tiny, 3).unwrap();
        assert!(std::ptr::eq(first.benchmark(), cached.benchmark()), "{kernel}: the second run reused the input");
        assert_eq!(report(&mut cached), fresh, "{kernel}");
    }
}

#[test]
fn coordinated_bypassing_profiles_the_same_from_the_cache() {
    // The run profiles its kernel many times on a second input first. On a new thread
    // its own input is built fresh; here, after the first run, both come from the cache.
    let run = || {
        let cfg = machine("xie-fermi", &[("l1d.bypass", "coordinated")]);
        report(&mut Simulator::new(cfg, "streamcluster", Size::Tiny, 1).unwrap())
    };
    let fresh = std::thread::spawn(run).join().unwrap();
    let warm = run();
    assert_eq!(run(), warm);
    assert_eq!(warm, fresh);
}
