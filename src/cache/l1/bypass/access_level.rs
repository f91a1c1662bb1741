//! Access-level bypassing (the comparison of Xie et al., HPCA 2015): a load that meets an
//! associativity stall, every way of its set reserved for a pending fill, bypasses rather
//! than waits; other refusals (MSHRs, miss queue) stall it as usual.

use super::{L1BypassKind, L1BypassPolicy, Route};
use crate::cache::l1::L1Setup;

#[derive(Debug, Clone)]
pub struct AccessLevel;

impl L1BypassPolicy for AccessLevel {
    fn build(_kind: L1BypassKind, _s: &L1Setup) -> Self {
        Self
    }

    fn route(&self, _warp: usize) -> Route {
        Route::BypassOnFail { assoc_only: true }
    }
}
