//! PMOD, `blk % p` with p the largest prime below n; sets p..n stay unused.

use super::{is_prime, Geometry, IndexFunction, Refused};

#[derive(Debug, Clone)]
pub struct Pmod {
    p: u64,
}

impl IndexFunction for Pmod {
    fn build(g: &Geometry) -> Result<Self, Refused> {
        match (2..g.sets as u64).rev().find(|&p| is_prime(p)) {
            Some(p) => Ok(Self { p }),
            None => Err(g.refuse_sets("at least 4 sets (a prime below the set count)")),
        }
    }

    #[inline]
    fn set_of(&self, block: u64) -> usize {
        (block % self.p) as usize
    }
}
