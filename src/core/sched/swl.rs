//! Static warp limiting (SWL, the static baseline of Rogers et al., MICRO 2012): only the
//! `core.swl.limit` oldest live warps of each scheduler may issue; GTO chooses among
//! them. A warp that exits lets the next oldest in, so the limit holds for the whole run.
//! Warps waiting at a barrier have no age here (the SM leaves them out), so the warps they
//! wait for get their slots.

use super::{Gto, Picker};
use crate::core::config::CoreConfig;
use crate::settings::Checker;

crate::settings::params! {
    /// `core.swl`.
    pub struct Params {
        /// Warps each scheduler may issue from (its oldest live ones).
        pub limit: u32 = 4,
    }
}

impl Params {
    pub(crate) fn check(&self, k: &mut Checker) {
        k.positive("core.swl.limit", self.limit as u64);
    }
}

#[derive(Debug, Clone)]
pub struct Swl {
    limit: usize,
    gto: Gto,
    /// Scratch: (age, slot) of the live warps, oldest first.
    live: Vec<(u64, usize)>,
    allowed: Vec<usize>,
}

impl Picker for Swl {
    fn build(c: &CoreConfig) -> Self {
        Self { limit: c.swl.limit.max(1) as usize, gto: Gto::default(), live: Vec::new(), allowed: Vec::new() }
    }

    fn pick(
        &mut self,
        slots: &[usize],
        ready: impl FnMut(usize) -> bool,
        age: impl Fn(usize) -> Option<u64>,
    ) -> Option<usize> {
        self.live.clear();
        self.live.extend(slots.iter().filter_map(|&s| age(s).map(|a| (a, s))));
        self.live.sort_unstable();
        self.allowed.clear();
        self.allowed.extend(self.live.iter().take(self.limit).map(|&(_, s)| s));
        self.allowed.sort_unstable();
        self.gto.pick(&self.allowed, ready, age)
    }
}
