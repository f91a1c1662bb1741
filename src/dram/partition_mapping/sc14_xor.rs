//! SC'14's mapping: `{addr[47:11] : addr[10:8] ^ addr[13:11]}` with 256 B granules, then
//! modulo. The XOR permutes the granule index, so modulo's compact locals carry over.

use super::MappingPolicy;

#[derive(Debug, Clone)]
pub struct Sc14Xor {
    partitions: u64,
}

impl Sc14Xor {
    fn permute(g: u64) -> u64 {
        let hi = g >> 3;
        (hi << 3) | ((g ^ hi) & 7)
    }
}

impl MappingPolicy for Sc14Xor {
    fn build(partitions: u64) -> Self {
        Self { partitions }
    }

    fn partition(&self, g: u64) -> u64 {
        Self::permute(g) % self.partitions
    }

    fn local_index(&self, g: u64) -> u64 {
        Self::permute(g) / self.partitions
    }
}
