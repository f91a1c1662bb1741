//! The benchmark table: names, one-line descriptions, and building by name.

use super::addr::AddrSpace;
use super::{atax, bfs, bfs_wl, bicg, conv_separable, gesummv, hotspot, kmeans, mvt, pvc, spmv};
use super::{sssp, streamcluster, syrk};
use super::{Benchmark, Kernel, Size};
use crate::settings::ConfigError;

type Builder = fn(Size, u64, &mut AddrSpace) -> Vec<Box<dyn Kernel>>;

/// Every built-in benchmark: (name, what it is and how it touches memory).
pub const KERNELS: &[(&str, &str)] = &[
    ("atax", "PolyBench A^T(Ax): kernel 1 walks matrix rows per thread (32 lines per warp-load), kernel 2 reads the same matrix coalesced."),
    ("bicg", "PolyBench BiCG: s = A^T r reads the matrix coalesced, q = A p walks rows per thread (32 lines per warp-load)."),
    ("mvt", "PolyBench matrix-vector product and transpose: x1 walks rows per thread (strided), x2 reads columns across lanes (coalesced)."),
    ("gesummv", "PolyBench scalar, vector and matrix multiplication: two row walks per thread per iteration, both 32 lines per warp-load."),
    ("syrk", "PolyBench symmetric rank-k update on 32x8 blocks: one broadcast row and 32 strided rows of A per step, C read and written coalesced."),
    ("bfs", "Rodinia breadth-first search on an R-MAT graph, level by level: frontier flags, per-lane degree divergence and gathers through the edge list."),
    ("bfs_wl", "Lonestar-style breadth-first search on bfs's graph: a resident grid strides over each level's worklist, so warps live long and gather row, col and dist for many nodes."),
    ("sssp", "Lonestar-style topology-driven Bellman-Ford on a weighted R-MAT graph: every reached node relaxes its edges each round, gathering dist[col[e]]."),
    ("spmv", "Scalar CSR sparse matrix-vector product (SHOC/Parboil), thread per row: power-law row lengths and x[col[k]] gathers."),
    ("kmeans", "Rodinia k-means assignment on feature-major data: coalesced feature loads re-read per cluster, cluster centres one address per warp."),
    ("streamcluster", "Rodinia streamcluster pgain: coalesced coordinates against a broadcast candidate, 32-byte point structs, and branch-divergent gathers into work_mem."),
    ("hotspot", "Rodinia thermal stencil: 16x16 shared-memory tiles with halo loaded by unaligned half-row loads, several steps between barriers."),
    ("conv_separable", "CUDA SDK separable convolution: row then column pass, each loading a tile and apron coalesced into shared memory before the taps."),
    ("pvc", "MapReduce page-view count: variable-length URL reads, then hashing into an open-addressing table with scattered and repeated probes."),
];

fn builder(name: &str) -> Option<Builder> {
    Some(match name {
        "atax" => atax::build,
        "bicg" => bicg::build,
        "mvt" => mvt::build,
        "gesummv" => gesummv::build,
        "syrk" => syrk::build,
        "bfs" => bfs::build,
        "bfs_wl" => bfs_wl::build,
        "sssp" => sssp::build,
        "spmv" => spmv::build,
        "kmeans" => kmeans::build,
        "streamcluster" => streamcluster::build,
        "hotspot" => hotspot::build,
        "conv_separable" => conv_separable::build,
        "pvc" => pvc::build,
        _ => return None,
    })
}

/// Builds benchmark `name` at `size` on data generated from `seed`.
pub fn build(name: &str, size: Size, seed: u64) -> Result<Benchmark, ConfigError> {
    build_with_layout(name, size, seed).map(|(b, _)| b)
}

/// Like [`build`], also returning where its global arrays live (for reports and
/// checks that every address falls inside an array).
pub fn build_with_layout(name: &str, size: Size, seed: u64) -> Result<(Benchmark, AddrSpace), ConfigError> {
    let make = builder(name).ok_or_else(|| {
        let names: Vec<&str> = KERNELS.iter().map(|(n, _)| *n).collect();
        ConfigError::new("kernel", format!("unknown kernel `{name}`; valid kernels are: {}", names.join(", ")))
    })?;
    let mut mem = AddrSpace::new();
    let launches = make(size, seed, &mut mem);
    Ok((Benchmark { name: name.to_string(), size: Some(size), launches }, mem))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_kernel_has_a_builder() {
        for (name, about) in KERNELS {
            assert!(builder(name).is_some(), "{name}");
            assert!(about.ends_with('.'), "{name}");
        }
    }
}
