//! No bypassing: every request looks up the L2 and read misses allocate.

use super::{BypassPolicy, L2BypassKind, RouteCtx};
use crate::cache::l2::config::{L2Config, MedicConfig};
use crate::mem::{L2Route, MemReq};

#[derive(Debug, Clone)]
pub struct NoBypass;

impl BypassPolicy for NoBypass {
    const SENDS_READS_TO_DRAM: bool = false;

    fn build(_kind: L2BypassKind, _l2: &L2Config, _medic: &MedicConfig, _seed: u64) -> Self {
        Self
    }

    fn route(&mut self, _req: &MemReq, _ctx: &RouteCtx<'_>) -> L2Route {
        L2Route::Cache
    }
}
