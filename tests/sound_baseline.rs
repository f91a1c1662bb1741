//! The sound-baseline paper's findings on our kernels (tiny inputs, the MeDiC machine's
//! 16 KB L1): allocation on fill beats allocation on miss, and with MDB the IPC over
//! bypass slots is not monotonic.

use warpscope::config::{apply_set, parse_config_value, preset};
use warpscope::{run, Report, Size};

fn run_with(kernel: &str, sets: &[(&str, &str)]) -> Report {
    let mut doc = serde_json::to_value(preset("medic-gtx480").unwrap()).unwrap();
    for (path, value) in sets {
        apply_set(&mut doc, path, value).unwrap();
    }
    let r = run(parse_config_value(doc).unwrap(), kernel, Size::Tiny, 1, None).unwrap();
    assert!(r.completed, "{kernel} {sets:?}: {:?}", r.error);
    r
}

#[test]
fn allocation_on_fill_has_fewer_reservation_failures_and_no_lower_ipc() {
    for k in ["atax", "bicg", "mvt", "gesummv"] {
        let miss = run_with(k, &[]);
        let fill = run_with(k, &[("l1d.allocation", "on_fill")]);
        assert!(
            fill.l1d.rsfail_per_access < miss.l1d.rsfail_per_access,
            "{k}: {} vs {}",
            fill.l1d.rsfail_per_access,
            miss.l1d.rsfail_per_access
        );
        assert!(fill.ipc >= miss.ipc, "{k}: IPC {} vs {}", fill.ipc, miss.ipc);
    }
}

#[test]
fn mdb_ipc_over_bypass_slots_is_not_monotonic_on_mvt() {
    let ipc: Vec<f64> = ["8", "16", "32", "64", "128", "inf"]
        .iter()
        .map(|s| run_with("mvt", &[("l1d.bypass", "mdb"), ("l1d.bypass_slots", s)]).ipc)
        .collect();
    let rising = ipc.windows(2).all(|w| w[1] >= w[0]);
    let falling = ipc.windows(2).all(|w| w[1] <= w[0]);
    assert!(!rising && !falling, "IPC over 8, 16, 32, 64, 128, inf slots: {ipc:?}");
}

#[test]
fn few_bypass_slots_cause_bypass_reservation_failures() {
    let few = run_with("atax", &[("l1d.bypass", "mdb"), ("l1d.bypass_slots", "8")]);
    let many = run_with("atax", &[("l1d.bypass", "mdb"), ("l1d.bypass_slots", "128")]);
    let (f, m) = (few.l1d.bypass_rsfail, many.l1d.bypass_rsfail);
    assert!(f > 1000 && m * 100 < f, "bypass reservation failures at 8 slots {f}, at 128 {m}");
    assert!(few.l1d.avg_bypass_in_flight <= 8.0 * 1.0001);
}

#[test]
fn bxor_beats_linear_indexing_on_column_walks() {
    // Small inputs: rows of 1024 floats are 4 KB apart, so under `linear` the 32 lines of a
    // warp-load share one set of the 16 KB L1.
    for k in ["atax", "mvt"] {
        let with = |index: &str| {
            let mut doc = serde_json::to_value(preset("sound-maxwell").unwrap()).unwrap();
            apply_set(&mut doc, "l1d.set_index", index).unwrap();
            run(parse_config_value(doc).unwrap(), k, Size::Small, 1, None).unwrap()
        };
        let (linear, bxor) = (with("linear"), with("bxor"));
        assert!(
            bxor.l1d.miss_rate < linear.l1d.miss_rate - 0.1,
            "{k}: {} vs {}",
            bxor.l1d.miss_rate,
            linear.l1d.miss_rate
        );
        assert!(bxor.ipc > 1.5 * linear.ipc, "{k}: IPC {} vs {}", bxor.ipc, linear.ipc);
    }
}
