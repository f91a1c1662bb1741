//! A_PRIME, `(blk % p) & (n-1)` with p the smallest prime above n.

use super::{is_prime, Geometry, IndexFunction, Refused};

#[derive(Debug, Clone)]
pub struct APrime {
    p: u64,
    mask: u64,
}

impl IndexFunction for APrime {
    fn build(g: &Geometry) -> Result<Self, Refused> {
        let p = (g.sets as u64 + 1..).find(|&p| is_prime(p)).expect("primes are unbounded");
        Ok(Self { p, mask: g.mask })
    }

    #[inline]
    fn set_of(&self, block: u64) -> usize {
        ((block % self.p) & self.mask) as usize
    }
}
