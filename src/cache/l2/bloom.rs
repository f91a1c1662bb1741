//! A Bloom filter of line addresses that clears itself once it has taken as many
//! insertions as it was sized for, as the Evicted-Address Filter does (Seshadri et al.,
//! PACT 2012). Used by EAF insertion and by MeDiC-reuse. False positives are real:
//! unrelated lines that hash to set bits look "recently evicted".

#[derive(Debug, Clone)]
pub struct Bloom {
    bits: Vec<u64>,
    mask: u64,
    inserted: u32,
    capacity: u32,
}

const HASHES: u32 = 2;

fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl Bloom {
    /// `nbits` (a power of two) bits, cleared after `capacity` insertions.
    pub fn new(nbits: u32, capacity: u32) -> Self {
        let nbits = nbits.max(64).next_power_of_two();
        Self { bits: vec![0; (nbits / 64) as usize], mask: nbits as u64 - 1, inserted: 0, capacity: capacity.max(1) }
    }

    fn positions(&self, key: u64) -> impl Iterator<Item = u64> + '_ {
        let h = mix(key);
        (0..HASHES as u64).map(move |i| (h >> (i * 32)).wrapping_add(i.wrapping_mul(h)) & self.mask)
    }

    pub fn insert(&mut self, key: u64) {
        if self.inserted >= self.capacity {
            self.bits.iter_mut().for_each(|w| *w = 0);
            self.inserted = 0;
        }
        let pos: Vec<u64> = self.positions(key).collect();
        for p in pos {
            self.bits[(p / 64) as usize] |= 1 << (p % 64);
        }
        self.inserted += 1;
    }

    pub fn contains(&self, key: u64) -> bool {
        self.positions(key).all(|p| self.bits[(p / 64) as usize] & (1 << (p % 64)) != 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remembers_until_full_then_clears() {
        let mut b = Bloom::new(1024, 4);
        for k in 0..4 {
            b.insert(k * 977);
        }
        assert!((0..4).all(|k| b.contains(k * 977)));
        b.insert(123_456);
        assert!(b.contains(123_456));
        assert!(!(0..4).all(|k| b.contains(k * 977)));
    }
}
