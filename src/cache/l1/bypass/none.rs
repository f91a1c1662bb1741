//! None: only `.cg` loads (the kernel's, or a trace's `LDG.E.CG`) skip the L1.

use super::{L1BypassKind, L1BypassPolicy};
use crate::cache::l1::L1Setup;

#[derive(Debug, Clone)]
pub struct NoBypass;

impl L1BypassPolicy for NoBypass {
    fn build(_kind: L1BypassKind, _s: &L1Setup) -> Self {
        Self
    }
}
