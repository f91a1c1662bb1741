//! The sound baseline's XOR mapping: granule `g` goes to `((g % N) ^ ((g >> 8) % N)) % N`,
//! so strides that are a multiple of `256 * N` bytes no longer camp on one partition.

use super::MappingPolicy;

/// The granule index is XORed with the granule index this many bits up (`addr >> 8` with
/// `addr >> 16` for 256 B granules).
const XOR_SHIFT: u32 = 8;

#[derive(Debug, Clone)]
pub struct Xor {
    partitions: u64,
    /// Local index of each granule within one period, when the partition count is not a
    /// power of two (see [`XorRanks`]).
    ranks: Option<XorRanks>,
}

/// With N partitions not a power of two, `((g % N) ^ ((g >> 8) % N)) % N` is not a
/// bijection on N consecutive granules, so `g / N` would give two granules of one
/// partition the same local index. The chip depends only on `g % T` with
/// `T = 256 * N` (both operands repeat with it), so each granule's local index is its
/// rank among the granules of its partition in the same period, plus `cap` (the most
/// any partition gets in a period) per earlier period: distinct, and in address order.
/// The table holds 256 * N entries (6 KB for 6 partitions).
#[derive(Debug, Clone)]
struct XorRanks {
    rank: Vec<u32>,
    cap: u64,
}

impl XorRanks {
    fn new(partitions: u64) -> Self {
        let period = partitions << XOR_SHIFT;
        let mut count = vec![0u32; partitions as usize];
        let rank = (0..period)
            .map(|g| {
                let c = &mut count[xor_chip(g, partitions) as usize];
                *c += 1;
                *c - 1
            })
            .collect();
        let cap = count.into_iter().max().unwrap_or(0) as u64;
        Self { rank, cap }
    }

    fn local_index(&self, g: u64) -> u64 {
        let period = self.rank.len() as u64;
        (g / period) * self.cap + self.rank[(g % period) as usize] as u64
    }
}

/// The partition of granule `g` among `n` partitions.
fn xor_chip(g: u64, n: u64) -> u64 {
    ((g % n) ^ ((g >> XOR_SHIFT) % n)) % n
}

impl MappingPolicy for Xor {
    fn build(partitions: u64) -> Self {
        // A power of two up to 2^8 only XORs the low log2(N) bits with bits that `g / N`
        // keeps, so `g / N` stays a bijection and needs no table.
        let bijective = partitions.is_power_of_two() && partitions <= 1 << XOR_SHIFT;
        Self { partitions, ranks: (!bijective).then(|| XorRanks::new(partitions)) }
    }

    fn partition(&self, g: u64) -> u64 {
        xor_chip(g, self.partitions)
    }

    fn local_index(&self, g: u64) -> u64 {
        match &self.ranks {
            Some(ranks) => ranks.local_index(g),
            None => g / self.partitions,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locals_are_compact_and_in_address_order() {
        for parts in [6u64, 7, 12] {
            let m = Xor::build(parts);
            let ranks = m.ranks.as_ref().expect("a rank table for a non-power-of-two count");
            let period = ranks.rank.len() as u64;
            assert_eq!(period, 256 * parts);
            let mut last = vec![None; parts as usize];
            for g in 0..3 * period {
                let (p, local) = (m.partition(g) as usize, m.local_index(g));
                assert!(last[p].is_none_or(|l| l < local), "{parts}: granule {g} goes backwards");
                assert!(local < 3 * ranks.cap, "{parts}: granule {g} beyond three periods");
                last[p] = Some(local);
            }
            // The busiest partition fills its local space without holes.
            assert!(last.iter().any(|l| *l == Some(3 * ranks.cap - 1)));
        }
    }
}
