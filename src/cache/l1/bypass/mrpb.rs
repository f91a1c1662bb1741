//! MRPB (Jia et al., HPCA 2014): the LD/ST unit keeps one request queue per warp and
//! drains the lowest warp first, which shrinks the working set the L1 sees, and a request
//! the L1 refuses bypasses it instead of stalling the pipeline.

use super::{L1BypassKind, L1BypassPolicy, Route};
use crate::cache::l1::L1Setup;

#[derive(Debug, Clone)]
pub struct Mrpb;

impl L1BypassPolicy for Mrpb {
    const PER_WARP_QUEUES: bool = true;

    fn build(_kind: L1BypassKind, _s: &L1Setup) -> Self {
        Self
    }

    fn route(&self, _warp: usize) -> Route {
        Route::BypassOnFail { assoc_only: false }
    }
}
