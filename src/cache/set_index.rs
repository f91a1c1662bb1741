//! Set-index functions: which set a line address maps to.
//!
//! Formulas follow the sound-baseline paper's public code, with
//! blk = byte address >> log2(line) and n = sets. Every function is built once per
//! tag array with its masks, primes and shifts precomputed, since `set_of` runs on
//! every cache access. A function is one file implementing `IndexFunction` and one entry
//! in `registry!` below.

mod a_prime;
mod bxor;
mod d_prime;
mod fermi;
mod ipoly;
mod linear;
mod matrix;
mod pmod;

pub use a_prime::APrime;
pub use bxor::Bxor;
pub use d_prime::DPrime;
pub use fermi::Fermi;
pub use ipoly::Ipoly;
pub use linear::Linear;
pub use pmod::Pmod;

use std::fmt;

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

/// A function's refusal of a geometry, before the registry names the function.
#[derive(Debug)]
pub struct Refused {
    asked: String,
    valid: &'static str,
}

/// The geometry a function is bound to: a power-of-two set count and line size.
#[derive(Debug)]
pub struct Geometry {
    pub sets: u32,
    pub line_bytes: u32,
    /// `sets - 1`.
    pub mask: u64,
    pub log_sets: u32,
    pub log_line: u32,
}

impl Geometry {
    fn new(sets: u32, line_bytes: u32) -> Result<Self, Refused> {
        let g = Self {
            sets,
            line_bytes,
            mask: (sets as u64).wrapping_sub(1),
            log_sets: sets.trailing_zeros(),
            log_line: line_bytes.max(1).trailing_zeros(),
        };
        if sets == 0 || !sets.is_power_of_two() {
            return Err(g.refuse_sets("a power-of-two set count"));
        }
        Ok(g)
    }

    /// The function does not serve this set count; it needs `valid`.
    pub fn refuse_sets(&self, valid: &'static str) -> Refused {
        Refused { asked: format!("{} sets", self.sets), valid }
    }

    /// The function does not serve this line size; it needs `valid`.
    pub fn refuse_lines(&self, valid: &'static str) -> Refused {
        Refused { asked: format!("{} B lines", self.line_bytes), valid }
    }
}

/// One set-index function.
pub trait IndexFunction: Sized {
    /// The function bound to `g`, or what it needs instead.
    fn build(g: &Geometry) -> Result<Self, Refused>;

    /// Set of the block (line address = byte address >> log2(line)), below `g.sets`.
    fn set_of(&self, block: u64) -> usize;
}

/// The family's registry: each entry names the dispatch variant, the function type it holds
/// and the config values (`SetIndexKind`) it runs, with their names and doc comments. The
/// config enum, the dispatch enum and its constructor follow; the matches are exhaustive,
/// so every config value is registered.
macro_rules! registry {
    ($($var:ident($ty:ty) { $($(#[$m:meta])* $kind:ident = $s:literal,)+ })+) => {
        crate::settings::policy_enum!(
            /// Set-index function of a cache (`l1d.set_index`, `l2.set_index`).
            SetIndexKind { $($($(#[$m])* $kind => $s,)+)+ }
        );

        /// A set-index function bound to a geometry (enum dispatch: it sits on every access).
        #[derive(Debug, Clone)]
        pub enum SetIndex { $($var($ty)),+ }

        impl SetIndex {
            /// Binds `kind` to `sets` sets of `line_bytes`-byte lines (both powers of two).
            pub fn new(kind: SetIndexKind, sets: u32, line_bytes: u32) -> Result<Self, Unsupported> {
                let named = move |r: Refused| Unsupported { kind, asked: r.asked, valid: r.valid };
                let g = Geometry::new(sets, line_bytes).map_err(named)?;
                match kind {
                    $($(SetIndexKind::$kind)|+ => <$ty as IndexFunction>::build(&g).map(Self::$var).map_err(named),)+
                }
            }

            /// Set of the block (line address = byte address >> log2(line)).
            #[inline]
            pub fn set_of(&self, block: u64) -> usize {
                match self { $(Self::$var(f) => f.set_of(block)),+ }
            }
        }
    };
}

registry! {
    Linear(Linear) {
        /// Block address modulo the set count (the sound-baseline paper's BMOD).
        Linear = "linear",
    }
    Bxor(Bxor) {
        /// Index bits XOR the block bits log2(line) higher.
        Bxor = "bxor",
    }
    Pmod(Pmod) {
        /// Block modulo the largest prime below the set count.
        Pmod = "pmod",
    }
    APrime(APrime) {
        /// Block modulo the smallest prime above the set count, then the index bits.
        APrime = "a_prime",
    }
    DPrime(DPrime) {
        /// Prime displacement: index bits plus 11 x the bits above them.
        DPrime = "d_prime",
    }
    Ipoly(Ipoly) {
        /// Irreducible-polynomial hashing over GF(2), as in GPGPU-Sim 4.x (16, 32, 64 sets).
        Ipoly = "ipoly",
    }
    Fermi(Fermi) {
        /// The Fermi L1's XOR hash measured by Nugteren et al. (32, 64 sets).
        Fermi = "fermi",
    }
}

fn is_prime(n: u64) -> bool {
    n >= 2 && (2..).take_while(|d| d * d <= n).all(|d| n % d != 0)
}

#[cfg(test)]
mod tests;
