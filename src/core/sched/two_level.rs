//! Two-level warp scheduling (Narasiman et al., MICRO 2011): a scheduler's warps are
//! split into fetch groups of `core.two_level.group`; only the active group issues,
//! round robin inside it. When no warp of the active group can issue (all wait on
//! memory, a barrier or the pipeline) the next group in order that can becomes active,
//! so the groups reach their long-latency loads at different times.

use super::Picker;
use crate::core::config::CoreConfig;
use crate::settings::Checker;

crate::settings::params! {
    /// `core.two_level`.
    pub struct Params {
        /// Warps per fetch group (within one scheduler's warps).
        pub group: u32 = 8,
    }
}

impl Params {
    pub(crate) fn check(&self, k: &mut Checker) {
        k.positive("core.two_level.group", self.group as u64);
    }
}

#[derive(Debug, Clone)]
pub struct TwoLevel {
    group: usize,
    active: usize,
    /// Round-robin position inside each group.
    next: Vec<usize>,
}

impl Picker for TwoLevel {
    fn build(c: &CoreConfig) -> Self {
        Self { group: c.two_level.group.max(1) as usize, active: 0, next: Vec::new() }
    }

    fn pick(
        &mut self,
        slots: &[usize],
        mut ready: impl FnMut(usize) -> bool,
        _age: impl Fn(usize) -> Option<u64>,
    ) -> Option<usize> {
        let groups = slots.len().div_ceil(self.group);
        if groups == 0 {
            return None;
        }
        self.next.resize(groups, 0);
        for g in 0..groups {
            let gi = (self.active + g) % groups;
            let members = &slots[gi * self.group..((gi + 1) * self.group).min(slots.len())];
            let n = members.len();
            for k in 0..n {
                let i = (self.next[gi] + k) % n;
                if ready(members[i]) {
                    self.next[gi] = (i + 1) % n;
                    self.active = gi;
                    return Some(members[i]);
                }
            }
        }
        None
    }
}
