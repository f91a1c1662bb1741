//! Loose round robin: the search starts just after the warp that issued last.

use super::Picker;
use crate::core::config::CoreConfig;

#[derive(Debug, Clone, Default)]
pub struct Lrr {
    next: usize,
}

impl Picker for Lrr {
    const ROUND_ROBIN_WARMING: bool = true;

    fn build(_c: &CoreConfig) -> Self {
        Self::default()
    }

    fn pick(
        &mut self,
        slots: &[usize],
        mut ready: impl FnMut(usize) -> bool,
        _age: impl Fn(usize) -> Option<u64>,
    ) -> Option<usize> {
        let n = slots.len();
        for k in 0..n {
            let i = (self.next + k) % n;
            if ready(slots[i]) {
                self.next = (i + 1) % n;
                return Some(slots[i]);
            }
        }
        None
    }
}
