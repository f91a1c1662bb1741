//! Modulo: granule `g` goes to partition `g % N` as its `g / N`-th granule (GPGPU-Sim's
//! 256-byte interleaving).

use super::MappingPolicy;

#[derive(Debug, Clone)]
pub struct Modulo {
    partitions: u64,
}

impl MappingPolicy for Modulo {
    fn build(partitions: u64) -> Self {
        Self { partitions }
    }

    fn partition(&self, g: u64) -> u64 {
        g % self.partitions
    }

    fn local_index(&self, g: u64) -> u64 {
        g / self.partitions
    }
}
