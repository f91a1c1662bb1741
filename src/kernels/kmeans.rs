//! Rodinia `kmeans` assignment kernel (`kmeansPoint`) with the feature-major layout
//! Rodinia transposes its input into.
//!
//! Thread per point p: `for c in 0..nclusters { dist = 0; for f in 0..nfeatures {
//! diff = features[f*npoints + p] - clusters[c*nfeatures + f]; dist += diff*diff }
//! if dist < min { min = dist; index = c } }; membership[p] = index`. The feature
//! loads are coalesced (consecutive points are consecutive floats) and re-read for
//! every cluster; the cluster loads are one address for the whole warp. Blocks have
//! 256 threads. Rodinia reads the clusters through constant memory; here they are
//! ordinary global loads so the cache sees them.
//!
//! Sizes (points, features, clusters; total warp-instructions): tiny 4096, 4, 4
//! (~6.9k), small 32768, 34, 5 (~529k), paper 494020, 34, 5 (Rodinia's kdd_cup;
//! ~8M).

use super::addr::AddrSpace;
use super::builder::{alu, first_thread, in_grid, lanes_below, phase, tail, Access, Phase};
use super::builder::{R0, R1, WORD};
use super::{Grid, Instr, Kernel, Size, StaticLoad};

const BLOCK: u32 = 256;
const CHUNK: u32 = 4;
const LD_FEATURE: Access = Access::load(1, R0);
const LD_CLUSTER: Access = Access::load(2, R1);
const ST_MEMBERSHIP: Access = Access::store(3);

/// (points, features, clusters).
pub fn dims(size: Size) -> (u32, u32, u32) {
    match size {
        Size::Tiny => (4096, 4, 4),
        Size::Small => (30_011, 34, 5),
        Size::Paper => (494_020, 34, 5),
    }
}

struct Kmeans {
    points: u32,
    features: u32,
    clusters: u32,
    feature: u64,
    cluster: u64,
    membership: u64,
}

impl Kernel for Kmeans {
    fn name(&self) -> String {
        "kmeans_point".into()
    }

    fn grid(&self) -> Grid {
        Grid { ctas: self.points.div_ceil(BLOCK), threads_per_cta: BLOCK }
    }

    fn static_loads(&self) -> Vec<StaticLoad> {
        vec![
            LD_FEATURE.info("features", true, false),
            LD_CLUSTER.info("clusters", true, false),
            ST_MEMBERSHIP.info("membership", false, false),
        ]
    }

    fn emit(&self, cta: u32, warp: u32, step: u32, out: &mut Vec<Instr>) -> bool {
        if !in_grid(self.grid(), cta, warp) {
            return false;
        }
        let first = first_thread(cta, warp, BLOCK);
        let mask = lanes_below(first, self.points as u64);
        let nf = self.features as u64;
        let trips = if mask == 0 { 0 } else { self.clusters * self.features };
        match phase(step, &[trips], CHUNK) {
            Phase::Head => {
                alu(out, 1, 0);
                true
            }
            Phase::Loop { from, to, .. } => {
                for it in from as u64..to as u64 {
                    let (c, f) = (it / nf, it % nf);
                    let row = self.feature + WORD * (f * self.points as u64 + first);
                    LD_FEATURE.emit(out, mask, |l| row + WORD * l as u64);
                    LD_CLUSTER.emit(out, mask, |_| self.cluster + WORD * (c * nf + f));
                    alu(out, 1, R0 | R1);
                    if f + 1 == nf {
                        alu(out, 1, 0);
                    }
                }
                true
            }
            Phase::Tail => {
                tail(out, |out| ST_MEMBERSHIP.emit(out, mask, |l| self.membership + WORD * (first + l as u64)))
            }
            Phase::Done => false,
        }
    }
}

pub(super) fn build(size: Size, _seed: u64, mem: &mut AddrSpace) -> Vec<Box<dyn Kernel>> {
    let (points, features, clusters) = dims(size);
    let (p, f, c) = (points as u64, features as u64, clusters as u64);
    let k = Kmeans {
        points,
        features,
        clusters,
        feature: mem.alloc("features", WORD * f * p),
        cluster: mem.alloc("clusters", WORD * c * f),
        membership: mem.alloc("membership", WORD * p),
    };
    vec![Box::new(k)]
}
