//! A GF(2) matrix, the form of the XOR hashes (IPOLY, Fermi): set bit j is the parity of
//! `blk & rows[j]`.

/// Set bits a matrix can produce (64 sets).
pub const MAX_MATRIX_BITS: usize = 6;

#[derive(Debug, Clone)]
pub struct Matrix {
    pub(super) rows: [u64; MAX_MATRIX_BITS],
}

impl Matrix {
    #[inline]
    pub fn set_of(&self, block: u64) -> usize {
        self.rows.iter().enumerate().fold(0, |set, (j, &r)| set | (((block & r).count_ones() as usize & 1) << j))
    }
}
