//! WByp (MeDiC §4.2): once a warp is profiled as mostly-miss or all-miss, its reads skip
//! the L2 queues and go straight to DRAM, turning it into an all-miss warp and leaving
//! the banks to warps that hit. MeDiC-reuse (§6.4) keeps a Bloom filter of lines the L2
//! evicted: a bypass candidate found there has been reused and looks up the L2 after all.

use super::{BypassPolicy, L2BypassKind, RouteCtx};
use crate::cache::l2::bloom::Bloom;
use crate::cache::l2::config::{L2Config, MedicConfig};
use crate::mem::{L2Route, MemReq};
use crate::settings::Checker;

crate::settings::params! {
    /// `l2.medic_reuse` (plain `medic` has none).
    pub struct Params {
        /// Bits of the Bloom filter of recently evicted lines.
        pub filter_bits: u32 = 16_384,
    }
}

impl Params {
    pub(crate) fn check(&self, k: &mut Checker) {
        k.pow2("l2.medic_reuse.filter_bits", self.filter_bits as u64);
        k.at_most("l2.medic_reuse.filter_bits", self.filter_bits as u64, 1 << 24, "simulator limit");
    }
}

#[derive(Debug, Clone)]
pub struct MedicBypass {
    reuse: Option<Bloom>,
}

impl MedicBypass {
    /// `reuse_bits`: size of the high-reuse filter, or `None` for plain WByp.
    pub fn new(reuse_bits: Option<u32>) -> Self {
        Self { reuse: reuse_bits.map(|b| Bloom::new(b, b / 8)) }
    }
}

impl BypassPolicy for MedicBypass {
    const SENDS_READS_TO_DRAM: bool = true;

    /// `medic_reuse` adds the filter of `l2.medic_reuse.filter_bits`.
    fn build(kind: L2BypassKind, l2: &L2Config, _medic: &MedicConfig, _seed: u64) -> Self {
        Self::new((kind == L2BypassKind::MedicReuse).then_some(l2.medic_reuse.filter_bits))
    }

    fn route(&mut self, req: &MemReq, ctx: &RouteCtx<'_>) -> L2Route {
        if ctx.warp.profiling || !ctx.warp.wtype.mostly_miss() {
            return L2Route::Cache;
        }
        if self.reuse.as_ref().is_some_and(|f| f.contains(ctx.line)) {
            return L2Route::Cache;
        }
        L2Route::skip(req)
    }

    fn on_evict(&mut self, line: u64) {
        if let Some(f) = &mut self.reuse {
            f.insert(line);
        }
    }
}
