//! IPOLY (Rau, ISCA 1991) as GPGPU-Sim 4.x uses it: the set is blk mod P(x) over GF(2),
//! with P of degree k and only the `width` block bits above the index taken into account.

use super::matrix::{Matrix, MAX_MATRIX_BITS};
use super::{Geometry, IndexFunction, Refused};

/// IPOLY's irreducible polynomials (bit i = coefficient of x^i) and how many block bits
/// above the index GPGPU-Sim 4.x's equations use, by log2(sets).
const IPOLY: [(u32, u64, u32); 3] = [(4, 0b1_0011, 13), (5, 0b10_0101, 15), (6, 0b100_0011, 19)];

#[derive(Debug, Clone)]
pub struct Ipoly(pub(super) Matrix);

impl IndexFunction for Ipoly {
    fn build(g: &Geometry) -> Result<Self, Refused> {
        match IPOLY.iter().find(|&&(k, _, _)| k == g.log_sets) {
            Some(&(k, poly, width)) => Ok(Self(Matrix { rows: ipoly_rows(k, poly, width) })),
            None => Err(g.refuse_sets("16, 32 or 64 sets")),
        }
    }

    #[inline]
    fn set_of(&self, block: u64) -> usize {
        self.0.set_of(block)
    }
}

/// Column i of the matrix is x^i mod P, so row j collects the block bits whose residue has bit j.
fn ipoly_rows(k: u32, poly: u64, width: u32) -> [u64; MAX_MATRIX_BITS] {
    let mut rows = [0; MAX_MATRIX_BITS];
    for i in 0..k + width {
        let mut r = 1u64 << i;
        for d in (k..=i).rev() {
            if r >> d & 1 == 1 {
                r ^= poly << (d - k);
            }
        }
        for (j, row) in rows.iter_mut().enumerate().take(k as usize) {
            *row |= (r >> j & 1) << i;
        }
    }
    rows
}
