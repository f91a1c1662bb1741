//! Set-index functions: which set a line address maps to.

use crate::config::SetIndexKind;

/// A set-index function bound to a geometry (enum dispatch: it sits on every access).
#[derive(Debug, Clone)]
pub enum SetIndex {
    /// `block % sets` with a power-of-two set count: the plain bit-select.
    Linear { mask: u64 },
}

impl SetIndex {
    pub fn new(kind: SetIndexKind, sets: u32) -> Self {
        match kind {
            SetIndexKind::Linear => SetIndex::Linear { mask: sets as u64 - 1 },
        }
    }

    /// Set of the block (line address = byte address >> log2(line)).
    #[inline]
    pub fn set_of(&self, block: u64) -> usize {
        match *self {
            SetIndex::Linear { mask } => (block & mask) as usize,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linear_selects_low_block_bits() {
        let s = SetIndex::new(SetIndexKind::Linear, 32);
        assert_eq!(s.set_of(0), 0);
        assert_eq!(s.set_of(31), 31);
        assert_eq!(s.set_of(32), 0);
        assert_eq!(s.set_of(0x1234_5678 >> 7), ((0x1234_5678u64 >> 7) & 31) as usize);
    }
}
