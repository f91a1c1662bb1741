//! Loose round robin: the search starts just after the warp that issued last.

#[derive(Debug, Clone, Default)]
pub struct Lrr {
    next: usize,
}

impl Lrr {
    pub fn pick(&mut self, slots: &[usize], mut ready: impl FnMut(usize) -> bool) -> Option<usize> {
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
