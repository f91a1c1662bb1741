//! The policy-family names accepted in config. Each family is an enum whose
//! snake_case variant names are the stable config values.

use serde::{Deserialize, Serialize};

macro_rules! policy_enum {
    ($(#[$m:meta])* $name:ident { $($(#[$vm:meta])* $var:ident => $s:literal),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
        #[serde(rename_all = "snake_case")]
        pub enum $name { $($(#[$vm])* $var),+ }

        impl $name {
            /// Every valid config name of this family, in declaration order.
            pub const NAMES: &'static [&'static str] = &[$($s),+];
            pub fn as_str(self) -> &'static str {
                match self { $(Self::$var => $s),+ }
            }
            /// The variant with config name `name`, for inputs that are not config documents.
            pub fn from_name(name: &str) -> Option<Self> {
                match name { $($s => Some(Self::$var),)+ _ => None }
            }
        }
    };
}

policy_enum!(
    /// Warp scheduler of each SM scheduler slot (`core.warp_scheduler`).
    WarpSchedulerKind {
        /// Loose round robin: start after the warp that issued last.
        Lrr => "lrr",
        /// Greedy-then-oldest: keep issuing the same warp until it stalls, then the oldest ready.
        Gto => "gto",
    }
);

policy_enum!(
    /// Set-index function of a cache (`l1d.set_index`, `l2.set_index`).
    SetIndexKind {
        /// Block address modulo the set count (the sound-baseline paper's BMOD).
        Linear => "linear",
        /// Index bits XOR the block bits log2(line) higher.
        Bxor => "bxor",
        /// Block modulo the largest prime below the set count.
        Pmod => "pmod",
        /// Block modulo the smallest prime above the set count, then the index bits.
        APrime => "a_prime",
        /// Prime displacement: index bits plus 11 x the bits above them.
        DPrime => "d_prime",
        /// Irreducible-polynomial hashing over GF(2), as in GPGPU-Sim 4.x (16, 32, 64 sets).
        Ipoly => "ipoly",
        /// The Fermi L1's XOR hash measured by Nugteren et al. (32, 64 sets).
        Fermi => "fermi",
    }
);

policy_enum!(
    /// Victim choice within a set.
    ReplacementKind {
        Lru => "lru",
    }
);

policy_enum!(
    /// When an L1 miss reserves its line (`l1d.allocation`).
    AllocationKind {
        /// Reserve the victim line at miss time (Fermi-style).
        OnMiss => "on_miss",
        /// Reserve only an MSHR and a miss-queue entry; pick the victim when the data returns.
        OnFill => "on_fill",
    }
);

policy_enum!(
    /// Which loads skip the L1 (`l1d.bypass`).
    L1BypassKind {
        /// Only `.cg` loads.
        None => "none",
        /// MRPB: per-warp request queues drained lowest warp first; a request refused by
        /// the L1 bypasses it instead of stalling.
        Mrpb => "mrpb",
        /// MDB: shadow tags per warp prefix pick how many warps keep the L1; the others bypass.
        Mdb => "mdb",
    }
);

policy_enum!(
    /// L2 handling of stores (`l2.write_policy`).
    WritePolicy {
        WriteBack => "write_back",
        WriteThrough => "write_through",
    }
);

policy_enum!(
    /// How a line address picks its memory partition (`mem.partition_mapping`).
    PartitionMapping {
        /// `(addr >> 8) % N`: 256-byte interleaving, GPGPU-Sim style.
        Modulo => "modulo",
        /// SC'14: `{addr[47:11] : addr[10:8] ^ addr[13:11]} % N`.
        Sc14Xor => "sc14_xor",
        /// Sound baseline: `(((addr >> 8) % N) ^ ((addr >> 16) % N)) % N`, so strides that are a
        /// multiple of `256 * N` bytes no longer camp on one partition.
        Xor => "xor",
    }
);

policy_enum!(
    /// DRAM transaction scheduler (`dram.scheduler`).
    DramSchedulerKind {
        /// Oldest request first.
        Fcfs => "fcfs",
        /// Row hits first, then oldest.
        FrFcfs => "fr_fcfs",
        /// GPU memory controller baseline (SC'14 §II-C): row-hit streams per bank with an
        /// age threshold and a maximum row-hit streak.
        Gmc => "gmc",
        /// Warp-groups, shortest expected completion first (SC'14 §IV-B).
        Wg => "wg",
        /// WG plus scores exchanged between channels over a coordination network (§IV-C).
        WgM => "wg_m",
        /// WG-M plus MERB: row misses wait until their bank served its minimum efficient row burst (§IV-D).
        WgBw => "wg_bw",
        /// WG-Bw plus warp-aware write drain: single-request warp-groups first near the high watermark (§IV-E).
        WgW => "wg_w",
        /// SIMT-aware potential function of Lakshminarayana et al.: row hit vs. fewest remaining requests.
        Sbwas => "sbwas",
        /// Warp-groups first-come first-served.
        Wafcfs => "wafcfs",
    }
);

policy_enum!(
    /// Idealized DRAM upper bounds (`dram.ideal`, SC'14 fig. 4).
    DramIdealKind {
        /// The real controller.
        None => "none",
        /// Once a warp-load's first DRAM read is served, its other DRAM reads return right
        /// behind it (each still takes its data-bus cycles).
        ZeroLatencyDivergence => "zero_latency_divergence",
    }
);

/// Name and valid values of every policy family, for `warpscope list policies`.
pub fn policy_families() -> Vec<(&'static str, &'static [&'static str])> {
    vec![
        ("core.warp_scheduler", WarpSchedulerKind::NAMES),
        ("l1d.set_index", SetIndexKind::NAMES),
        ("l1d.replacement", ReplacementKind::NAMES),
        ("l1d.allocation", AllocationKind::NAMES),
        ("l1d.bypass", L1BypassKind::NAMES),
        ("l2.set_index", SetIndexKind::NAMES),
        ("l2.replacement", ReplacementKind::NAMES),
        ("l2.write_policy", WritePolicy::NAMES),
        ("mem.partition_mapping", PartitionMapping::NAMES),
        ("dram.scheduler", DramSchedulerKind::NAMES),
        ("dram.ideal", DramIdealKind::NAMES),
    ]
}
