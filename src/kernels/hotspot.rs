//! Rodinia `hotspot` (`calculate_temp`): a 2D thermal stencil on a square grid with
//! 16 x 16 blocks, each computing `iteration` time steps in shared memory (the
//! "pyramid") before writing back.
//!
//! Thread (tx, ty) of block (bx, by) loads `temp_src[index]` and `power[index]` at
//! `index = grid_cols*(blkY + ty) + blkX + tx` with `blkX = (16 - 2*iteration)*bx -
//! border` (guarded by IN_RANGE) into shared tiles, `__syncthreads()`, then for each
//! step computes the five-point update in shared memory for the lanes still inside
//! the shrinking valid region, `__syncthreads()`, copies back, `__syncthreads()`,
//! and finally stores `temp_dst[index]` for the lanes that computed. A warp is two
//! 16-float half-rows at an offset that is not line-aligned, so its loads touch two
//! to four lines. Launches alternate between the two temperature buffers.
//!
//! Sizes (grid side, pyramid height, time steps; total warp-instructions):
//! tiny 64, 2, 4 (~10.6k), small 512, 2, 4 (~594k), paper 1024, 2, 20 (~11.9M).

use super::addr::AddrSpace;
use super::builder::{alu, in_grid, lanes_where, phase, tail, Access, Phase, R0, R1, WORD};
use super::{Grid, Instr, Kernel, Size, StaticLoad};

const BLOCK: i64 = 16;
/// Instructions of one five-point update (six shared loads and a dozen flops, in the
/// bundles a warp issues them).
const COMPUTE_ALUS: u32 = 6;
const LD_TEMP: Access = Access::load(1, R0);
const LD_POWER: Access = Access::load(2, R1);
const ST_TEMP: Access = Access::store(3);

/// (grid side, pyramid height, total time steps).
pub fn dims(size: Size) -> (u32, u32, u32) {
    match size {
        Size::Tiny => (64, 2, 4),
        Size::Small => (512, 2, 4),
        Size::Paper => (1024, 2, 20),
    }
}

struct Hotspot {
    /// Time steps this launch computes.
    iteration: i64,
    side: i64,
    pyramid: i64,
    power: u64,
    src: (&'static str, u64),
    dst: (&'static str, u64),
}

impl Hotspot {
    fn blocks_per_side(&self) -> u32 {
        let small = (BLOCK - 2 * self.pyramid).max(1);
        (self.side as u32).div_ceil(small as u32)
    }

    /// Whether thread (tx, ty) computes in step i, with the block's valid region.
    fn computes(&self, i: i64, tx: i64, ty: i64, valid: (i64, i64, i64, i64)) -> bool {
        let inr = |x: i64, lo: i64, hi: i64| x >= lo && x <= hi;
        let (xmin, xmax, ymin, ymax) = valid;
        inr(tx, i + 1, BLOCK - i - 2) && inr(ty, i + 1, BLOCK - i - 2) && inr(tx, xmin, xmax) && inr(ty, ymin, ymax)
    }
}

impl Kernel for Hotspot {
    fn name(&self) -> String {
        format!("hotspot_{}_to_{}", self.src.0, self.dst.0)
    }

    fn grid(&self) -> Grid {
        let b = self.blocks_per_side();
        Grid { ctas: b * b, threads_per_cta: (BLOCK * BLOCK) as u32 }
    }

    fn static_loads(&self) -> Vec<StaticLoad> {
        vec![
            LD_TEMP.info(self.src.0, false, false),
            LD_POWER.info("power", false, false),
            ST_TEMP.info(self.dst.0, false, true),
        ]
    }

    fn emit(&self, cta: u32, warp: u32, step: u32, out: &mut Vec<Instr>) -> bool {
        if !in_grid(self.grid(), cta, warp) {
            return false;
        }
        let blocks = self.blocks_per_side();
        let (bx, by) = ((cta % blocks) as i64, (cta / blocks) as i64);
        let small = BLOCK - 2 * self.iteration;
        let (blk_x, blk_y) = (small * bx - self.pyramid, small * by - self.pyramid);
        let last = self.side - 1;
        let valid = (
            (-blk_x).max(0),
            BLOCK - 1 - (blk_x + BLOCK - 1 - last).max(0),
            (-blk_y).max(0),
            BLOCK - 1 - (blk_y + BLOCK - 1 - last).max(0),
        );
        let tx = |l: usize| (l % 16) as i64;
        let ty = |l: usize| 2 * warp as i64 + (l / 16) as i64;
        let (x, y) = (|l| blk_x + tx(l), |l| blk_y + ty(l));
        let index = |l: usize| WORD * (self.side * y(l) + x(l)) as u64;
        let computing = |i: i64| lanes_where(u32::MAX, |l| self.computes(i, tx(l), ty(l), valid));
        match phase(step, &[self.iteration as u32], 1) {
            Phase::Head => {
                alu(out, 1, 0);
                let inside = lanes_where(u32::MAX, |l| (0..=last).contains(&x(l)) && (0..=last).contains(&y(l)));
                LD_TEMP.emit(out, inside, |l| self.src.1 + index(l));
                LD_POWER.emit(out, inside, |l| self.power + index(l));
                if inside != 0 {
                    alu(out, 1, R0 | R1);
                }
                out.push(Instr::Barrier);
                true
            }
            Phase::Loop { from, .. } => {
                let i = from as i64;
                let active = computing(i) != 0;
                if active {
                    alu(out, COMPUTE_ALUS, 0);
                }
                out.push(Instr::Barrier);
                if i + 1 < self.iteration {
                    if active {
                        alu(out, 1, 0);
                    }
                    out.push(Instr::Barrier);
                }
                true
            }
            Phase::Tail => tail(out, |out| {
                let done = if self.iteration > 0 { computing(self.iteration - 1) } else { 0 };
                ST_TEMP.emit(out, done, |l| self.dst.1 + index(l));
            }),
            Phase::Done => false,
        }
    }
}

pub(super) fn build(size: Size, _seed: u64, mem: &mut AddrSpace) -> Vec<Box<dyn Kernel>> {
    let (side, pyramid, steps) = dims(size);
    let cells = side as u64 * side as u64;
    let power = mem.alloc("power", WORD * cells);
    let temp = [("temp0", mem.alloc("temp0", WORD * cells)), ("temp1", mem.alloc("temp1", WORD * cells))];
    let mut launches: Vec<Box<dyn Kernel>> = Vec::new();
    let mut t = 0;
    while t < steps {
        let k = launches.len();
        launches.push(Box::new(Hotspot {
            iteration: pyramid.min(steps - t) as i64,
            side: side as i64,
            pyramid: pyramid as i64,
            power,
            src: temp[k % 2],
            dst: temp[(k + 1) % 2],
        }));
        t += pyramid.max(1);
    }
    launches
}
