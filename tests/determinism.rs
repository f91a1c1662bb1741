//! The same config, kernel and seed give byte-identical reports; another seed changes
//! data-dependent kernels.

use warpscope::config::preset;
use warpscope::{run, Size};

fn json(kernel: &str, seed: u64) -> String {
    let r = run(preset("medic-gtx480").unwrap(), kernel, Size::Tiny, seed, None).unwrap();
    serde_json::to_string(&r).unwrap()
}

#[test]
fn same_seed_same_report() {
    for k in ["bfs", "spmv", "atax"] {
        assert_eq!(json(k, 42), json(k, 42), "{k}");
    }
}

#[test]
fn another_seed_changes_a_graph_kernel() {
    assert_ne!(json("bfs", 1), json("bfs", 2));
}
