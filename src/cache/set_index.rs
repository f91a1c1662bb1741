//! Set-index functions: which set a line address maps to.
//!
//! Formulas follow the sound-baseline paper's public code, with
//! blk = byte address >> log2(line) and n = sets. Every function is built once per
//! tag array with its masks, primes and shifts precomputed, since `set_of` runs on
//! every cache access.

use crate::config::SetIndexKind;
use std::fmt;

/// A set-index function bound to a geometry (enum dispatch: it sits on every access).
#[derive(Debug, Clone)]
pub enum SetIndex {
    /// BMOD, `blk & (n-1)`: the plain bit-select.
    Linear { mask: u64 },
    /// BXOR, `(blk & (n-1)) ^ ((blk >> log2 line) & (n-1))`.
    Bxor { mask: u64, shift: u32 },
    /// PMOD, `blk % p` with p the largest prime below n; sets p..n stay unused.
    Pmod { p: u64 },
    /// A_PRIME, `(blk % p) & (n-1)` with p the smallest prime above n.
    APrime { p: u64, mask: u64 },
    /// D_PRIME, `((blk >> log2 n) * 11 + blk) & (n-1)`.
    DPrime { shift: u32, mask: u64 },
    /// A GF(2) matrix (IPOLY, Fermi): set bit j is the parity of `blk & rows[j]`.
    Matrix { rows: [u64; MAX_MATRIX_BITS] },
}

/// Set bits a `Matrix` function can produce (64 sets).
const MAX_MATRIX_BITS: usize = 6;

/// A set-index function asked to serve a geometry it is not defined for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unsupported {
    pub kind: SetIndexKind,
    /// What was asked for, e.g. `128 sets`.
    pub asked: String,
    /// What works, e.g. `16, 32 or 64 sets`.
    pub valid: &'static str,
}

impl fmt::Display for Unsupported {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}` is not defined for {}; it needs {}", self.kind.as_str(), self.asked, self.valid)
    }
}

impl std::error::Error for Unsupported {}

/// IPOLY's irreducible polynomials (bit i = coefficient of x^i) and how many block bits
/// above the index GPGPU-Sim 4.x's equations use, by log2(sets).
const IPOLY: [(u32, u64, u32); 3] = [(4, 0b1_0011, 13), (5, 0b10_0101, 15), (6, 0b100_0011, 19)];

/// Byte-address bits the Fermi hash XORs into set bits 0..5 (Nugteren et al., HPCA 2014).
const FERMI_UPPER: [u32; 5] = [13, 14, 15, 17, 19];

impl SetIndex {
    /// Binds `kind` to `sets` sets of `line_bytes`-byte lines (both powers of two).
    pub fn new(kind: SetIndexKind, sets: u32, line_bytes: u32) -> Result<Self, Unsupported> {
        let unsupported = |valid| Err(Unsupported { kind, asked: format!("{sets} sets"), valid });
        if sets == 0 || !sets.is_power_of_two() {
            return unsupported("a power-of-two set count");
        }
        let mask = sets as u64 - 1;
        let log_sets = sets.trailing_zeros();
        let log_line = line_bytes.max(1).trailing_zeros();
        Ok(match kind {
            SetIndexKind::Linear => SetIndex::Linear { mask },
            SetIndexKind::Bxor => SetIndex::Bxor { mask, shift: log_line },
            SetIndexKind::Pmod => match (2..sets as u64).rev().find(|&p| is_prime(p)) {
                Some(p) => SetIndex::Pmod { p },
                None => return unsupported("at least 4 sets (a prime below the set count)"),
            },
            SetIndexKind::APrime => {
                let p = (sets as u64 + 1..).find(|&p| is_prime(p)).expect("primes are unbounded");
                SetIndex::APrime { p, mask }
            }
            SetIndexKind::DPrime => SetIndex::DPrime { shift: log_sets, mask },
            SetIndexKind::Ipoly => match IPOLY.iter().find(|&&(k, _, _)| k == log_sets) {
                Some(&(k, poly, width)) => SetIndex::Matrix { rows: ipoly_rows(k, poly, width) },
                None => return unsupported("16, 32 or 64 sets"),
            },
            SetIndexKind::Fermi => {
                if sets != 32 && sets != 64 {
                    return unsupported("32 or 64 sets");
                }
                if log_line > 12 {
                    let asked = format!("{line_bytes} B lines");
                    return Err(Unsupported { kind, asked, valid: "lines of at most 4096 B" });
                }
                SetIndex::Matrix { rows: fermi_rows(log_sets, log_line) }
            }
        })
    }

    /// Set of the block (line address = byte address >> log2(line)).
    #[inline]
    pub fn set_of(&self, block: u64) -> usize {
        match *self {
            SetIndex::Linear { mask } => (block & mask) as usize,
            SetIndex::Bxor { mask, shift } => ((block ^ (block >> shift)) & mask) as usize,
            SetIndex::Pmod { p } => (block % p) as usize,
            SetIndex::APrime { p, mask } => ((block % p) & mask) as usize,
            SetIndex::DPrime { shift, mask } => ((block >> shift).wrapping_mul(11).wrapping_add(block) & mask) as usize,
            SetIndex::Matrix { rows } => {
                rows.iter().enumerate().fold(0, |set, (j, &r)| set | (((block & r).count_ones() as usize & 1) << j))
            }
        }
    }
}

fn is_prime(n: u64) -> bool {
    n >= 2 && (2..).take_while(|d| d * d <= n).all(|d| n % d != 0)
}

/// IPOLY (Rau, ISCA 1991) as GPGPU-Sim 4.x uses it: the set is blk mod P(x) over GF(2),
/// with P of degree k and only the `width` block bits above the index taken into account.
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

/// Fermi hash as GPGPU-Sim 4.x computes it: set bits 0..5 are block bits 0..5 XOR byte-address
/// bits 13, 14, 15, 17, 19; with 64 sets, set bit 5 is byte-address bit 12.
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

#[cfg(test)]
mod tests;
