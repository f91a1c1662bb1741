//! Partition mappings (`mem.partition_mapping`): which memory partition (DRAM channel) an
//! interleave granule of the global address space goes to, and its index among that
//! partition's granules.
//!
//! Contract: `partition` and `local_index` together are a bijection from granules to
//! (partition, index) pairs, and each partition's indices are compact and in address order,
//! so a channel's rows, banks and L2 sets fill as densely under one mapping as under
//! another. A policy is one file implementing `MappingPolicy` and one entry in `registry!`
//! below.

mod modulo;
mod sc14_xor;
mod xor;

pub use modulo::Modulo;
pub use sc14_xor::Sc14Xor;
pub use xor::Xor;

/// One partition mapping over `partitions` partitions.
pub trait MappingPolicy: Sized {
    fn build(partitions: u64) -> Self;

    /// The partition of granule `g`.
    fn partition(&self, g: u64) -> u64;

    /// The index of granule `g` among its partition's granules.
    fn local_index(&self, g: u64) -> u64;
}

/// The family's registry: each entry names the dispatch variant, the policy type it holds
/// and the config values (`PartitionMapping`) it runs, with their names and doc comments.
/// The config enum, the dispatch enum and its constructor follow; the matches are
/// exhaustive, so every config value is registered.
macro_rules! registry {
    ($($var:ident($ty:ty) { $($(#[$m:meta])* $kind:ident = $s:literal,)+ })+) => {
        crate::settings::policy_enum!(
            /// How a line address picks its memory partition (`mem.partition_mapping`).
            PartitionMapping { $($($(#[$m])* $kind => $s,)+)+ }
        );

        /// The configured mapping, dispatched by enum (every request is mapped).
        #[derive(Debug, Clone)]
        pub enum Mapping { $($var($ty)),+ }

        impl Mapping {
            pub fn new(kind: PartitionMapping, partitions: u64) -> Self {
                match kind { $($(PartitionMapping::$kind)|+ => Self::$var(<$ty as MappingPolicy>::build(partitions)),)+ }
            }

            #[inline]
            pub fn partition(&self, g: u64) -> u64 {
                match self { $(Self::$var(p) => p.partition(g)),+ }
            }

            #[inline]
            pub fn local_index(&self, g: u64) -> u64 {
                match self { $(Self::$var(p) => p.local_index(g)),+ }
            }
        }
    };
}

registry! {
    Modulo(Modulo) {
        /// `(addr >> 8) % N`: 256-byte interleaving, GPGPU-Sim style.
        Modulo = "modulo",
    }
    Sc14Xor(Sc14Xor) {
        /// SC'14: `{addr[47:11] : addr[10:8] ^ addr[13:11]} % N`.
        Sc14Xor = "sc14_xor",
    }
    Xor(Xor) {
        /// Sound baseline: `(((addr >> 8) % N) ^ ((addr >> 16) % N)) % N`, so strides that are a
        /// multiple of `256 * N` bytes no longer camp on one partition.
        Xor = "xor",
    }
}
