//! The Fermi L1's XOR hash (Nugteren et al., HPCA 2014) as GPGPU-Sim 4.x computes it: set
//! bits 0..5 are block bits 0..5 XOR byte-address bits 13, 14, 15, 17, 19; with 64 sets, set
//! bit 5 is byte-address bit 12.

use super::matrix::{Matrix, MAX_MATRIX_BITS};
use super::{Geometry, IndexFunction, Refused};

/// Byte-address bits the Fermi hash XORs into set bits 0..5.
const FERMI_UPPER: [u32; 5] = [13, 14, 15, 17, 19];

#[derive(Debug, Clone)]
pub struct Fermi(Matrix);

impl IndexFunction for Fermi {
    fn build(g: &Geometry) -> Result<Self, Refused> {
        if g.sets != 32 && g.sets != 64 {
            return Err(g.refuse_sets("32 or 64 sets"));
        }
        if g.log_line > 12 {
            return Err(g.refuse_lines("lines of at most 4096 B"));
        }
        Ok(Self(Matrix { rows: fermi_rows(g.log_sets, g.log_line) }))
    }

    #[inline]
    fn set_of(&self, block: u64) -> usize {
        self.0.set_of(block)
    }
}

fn fermi_rows(log_sets: u32, log_line: u32) -> [u64; MAX_MATRIX_BITS] {
    let mut rows = [0; MAX_MATRIX_BITS];
    for (j, &bit) in FERMI_UPPER.iter().enumerate() {
        rows[j] = (1 << j) ^ (1 << (bit - log_line));
    }
    if log_sets == 6 {
        rows[5] = 1 << (12 - log_line);
    }
    rows
}
