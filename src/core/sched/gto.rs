//! Greedy-then-oldest: keep issuing from the last warp until it cannot issue, then
//! switch to the oldest ready warp.

use super::Picker;
use crate::core::config::CoreConfig;

#[derive(Debug, Clone, Default)]
pub struct Gto {
    last: Option<usize>,
}

impl Picker for Gto {
    fn build(_c: &CoreConfig) -> Self {
        Self::default()
    }

    /// A slot without an age counts as the youngest.
    fn pick(
        &mut self,
        slots: &[usize],
        mut ready: impl FnMut(usize) -> bool,
        age: impl Fn(usize) -> Option<u64>,
    ) -> Option<usize> {
        if let Some(l) = self.last {
            if slots.contains(&l) && ready(l) {
                return Some(l);
            }
        }
        let mut best: Option<(u64, usize)> = None;
        for &s in slots {
            if Some(s) == self.last {
                continue;
            }
            let a = age(s).unwrap_or(u64::MAX);
            if best.is_none_or(|(ba, _)| a < ba) && ready(s) {
                best = Some((a, s));
            }
        }
        self.last = best.map(|(_, s)| s).or(self.last);
        best.map(|(_, s)| s)
    }
}
