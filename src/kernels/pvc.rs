//! MapReduce PageViewCount (Mars `pvc`): count the views of each URL in a web log.
//!
//! The log is Mars-style: a packed buffer of variable-length URL strings and an index
//! of `int2 {offset, length}` per entry. Thread per entry: load its index entry, read
//! its URL word by word hashing it (lanes with shorter URLs drop out early), then probe
//! an open-addressing (linear probing) table of `{key, count}` slots from `hash & (T-1)`
//! until the key matches (a second or later probe for URLs displaced by a collision),
//! and write the slot's count (an atomic add, modelled as a store).
//!
//! URL popularity is Zipf (s = 1), so hot slots are shared across lanes while the rest
//! scatter; URL lengths are 16 to 64 bytes. The table holds every URL, inserted in id
//! order at about 0.7 load. Blocks have 256 threads.
//!
//! Sizes (log entries, distinct URLs, table slots; total warp-instructions):
//! tiny 4096, 700, 1024 (~6.3k), small 131072, 11000, 16384 (~188k),
//! paper 6000000, 45000, 65536 (~8.5M).

use super::addr::AddrSpace;
use super::builder::{alu, first_thread, in_grid, lanes_below, lanes_where, max_over, phase};
use super::builder::{tail, Access, Phase, R0, R1, R2, WORD};
use super::{Grid, Instr, Kernel, Size, StaticLoad};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const BLOCK: u32 = 256;
const CHUNK: u32 = 4;
/// URL lengths in 4-byte words.
const MIN_WORDS: u32 = 4;
const MAX_WORDS: u32 = 16;
/// Bytes of one table slot `{key, count}`.
const SLOT: u64 = 8;
const LD_INDEX: Access = Access::load(1, R0).width(8);
const LD_WORD: Access = Access::load(2, R1);
const LD_KEY: Access = Access::load(3, R2);
const ST_COUNT: Access = Access::store(4);

/// (log entries, distinct URLs).
pub fn dims(size: Size) -> (u32, u32) {
    match size {
        Size::Tiny => (4096, 700),
        Size::Small => (131_072, 11_000),
        Size::Paper => (6_000_000, 45_000),
    }
}

/// The generated log and the table built from it.
pub struct Log {
    /// URL id of each entry.
    pub entry_url: Vec<u32>,
    /// Length in words of each URL.
    pub words: Vec<u32>,
    /// Home slot (`hash & (T-1)`) of each URL.
    pub home: Vec<u32>,
    /// Probes each URL's lookup takes (1 if it sits in its home slot).
    pub probes: Vec<u32>,
    /// Table slots T (a power of two).
    pub slots: u32,
}

/// The benchmark's log for `seed`.
pub fn log(size: Size, seed: u64) -> Log {
    let (entries, urls) = dims(size);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let words: Vec<u32> = (0..urls).map(|_| rng.gen_range(MIN_WORDS..=MAX_WORDS)).collect();
    let slots = urls.max(1).next_power_of_two();
    let salt: u64 = rng.gen();
    let home: Vec<u32> = (0..urls).map(|u| (mix(u as u64 ^ salt) as u32) & (slots - 1)).collect();
    let mut taken = vec![false; slots as usize];
    let mut probes = Vec::with_capacity(urls as usize);
    for &h in &home {
        let mut p = 0;
        while taken[((h + p) & (slots - 1)) as usize] {
            p += 1;
        }
        taken[((h + p) & (slots - 1)) as usize] = true;
        probes.push(p + 1);
    }
    let mut cdf = Vec::with_capacity(urls as usize);
    let mut total = 0.0;
    for u in 0..urls {
        total += 1.0 / (u as f64 + 1.0);
        cdf.push(total);
    }
    let entry_url = (0..entries)
        .map(|_| {
            let r = rng.gen::<f64>() * total;
            (cdf.partition_point(|&c| c <= r) as u32).min(urls - 1)
        })
        .collect();
    Log { entry_url, words, home, probes, slots }
}

/// splitmix64's finaliser: stands in for hashing the URL's characters.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

struct Pvc {
    log: Log,
    /// Byte offset in `urls` of each warp's first entry.
    warp_offset: Vec<u64>,
    index: u64,
    text: u64,
    table: u64,
}

impl Kernel for Pvc {
    fn name(&self) -> String {
        "pvc_map".into()
    }

    fn grid(&self) -> Grid {
        let n = self.log.entry_url.len() as u32;
        Grid { ctas: n.div_ceil(BLOCK).max(1), threads_per_cta: BLOCK }
    }

    fn static_loads(&self) -> Vec<StaticLoad> {
        vec![
            LD_INDEX.info("index", false, false),
            LD_WORD.info("urls", true, false),
            LD_KEY.info("table", true, false),
            ST_COUNT.info("table", false, false),
        ]
    }

    fn emit(&self, cta: u32, warp: u32, step: u32, out: &mut Vec<Instr>) -> bool {
        if !in_grid(self.grid(), cta, warp) {
            return false;
        }
        let lg = &self.log;
        let first = first_thread(cta, warp, BLOCK);
        let all = lanes_below(first, lg.entry_url.len() as u64);
        let url = |l: usize| lg.entry_url[first as usize + l] as usize;
        let words = max_over(all, |l| lg.words[url(l)]);
        let probes = max_over(all, |l| lg.probes[url(l)]);
        let slot = |l: usize, p: u32| (lg.home[url(l)] + p) & (lg.slots - 1);
        match phase(step, &[words, probes], CHUNK) {
            Phase::Head => {
                alu(out, 1, 0);
                LD_INDEX.emit(out, all, |l| self.index + SLOT * (first + l as u64));
                alu(out, 1, R0);
                true
            }
            Phase::Loop { which: 0, from, to } => {
                let base = self.warp_offset.get(first as usize / 32).copied().unwrap_or(0);
                let mut offset = [0u64; 32];
                let mut at = base;
                for (l, o) in offset.iter_mut().enumerate() {
                    *o = at;
                    if all >> l & 1 == 1 {
                        at += WORD * lg.words[url(l)] as u64;
                    }
                }
                for w in from..to {
                    let live = lanes_where(all, |l| w < lg.words[url(l)]);
                    LD_WORD.emit(out, live, |l| self.text + offset[l] + WORD * w as u64);
                    alu(out, 1, R1);
                }
                true
            }
            Phase::Loop { from, to, .. } => {
                for p in from..to {
                    if p == 0 {
                        alu(out, 1, 0);
                    }
                    let live = lanes_where(all, |l| p < lg.probes[url(l)]);
                    LD_KEY.emit(out, live, |l| self.table + SLOT * slot(l, p) as u64);
                    alu(out, 1, R2);
                }
                true
            }
            Phase::Tail => tail(out, |out| {
                let found = |l: usize| slot(l, lg.probes[url(l)] - 1) as u64;
                ST_COUNT.emit(out, all, |l| self.table + SLOT * found(l) + WORD);
            }),
            Phase::Done => false,
        }
    }
}

pub(super) fn build(size: Size, seed: u64, mem: &mut AddrSpace) -> Vec<Box<dyn Kernel>> {
    let log = log(size, seed);
    let mut warp_offset = Vec::with_capacity(log.entry_url.len() / 32 + 1);
    let mut bytes = 0u64;
    for (i, &u) in log.entry_url.iter().enumerate() {
        if i % 32 == 0 {
            warp_offset.push(bytes);
        }
        bytes += WORD * log.words[u as usize] as u64;
    }
    let n = log.entry_url.len() as u64;
    let k = Pvc {
        index: mem.alloc("index", SLOT * n),
        text: mem.alloc("urls", bytes),
        table: mem.alloc("table", SLOT * log.slots as u64),
        warp_offset,
        log,
    };
    vec![Box::new(k)]
}
