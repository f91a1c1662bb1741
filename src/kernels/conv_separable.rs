//! CUDA SDK `convolutionSeparable` (CONS): a 17-tap row filter then a 17-tap column
//! filter over a W x H float image, each block staging its tile plus halo ("apron")
//! in shared memory.
//!
//! - `conv_rows`: 16 x 4 blocks, 8 result steps and one halo step of 16 pixels each
//!   side. Thread (tx, ty) loads `src[baseY*W + baseX + 16*i]` for i in 0..10 with
//!   `baseX = (bx*8 - 1)*16 + tx`, `baseY = by*4 + ty` (the halo loads only where inside
//!   the image), `__syncthreads()`, then per step runs the taps from shared memory and
//!   stores `buf[...]`.
//! - `conv_cols`: 16 x 8 blocks, 8 result steps and one halo step of 8 rows each side:
//!   loads `buf[(baseY + 8*i)*W + baseX]` with `baseX = bx*16 + tx`,
//!   `baseY = (by*8 - 1)*8 + ty`, and stores `dst`.
//!
//! A warp is two 16-float half-rows, so every global access touches two 64-byte runs.
//! The filter taps live in constant memory and are not modelled.
//!
//! Sizes (W x H; total warp-instructions): tiny 256 x 128 (~13.8k), small
//! 1024 x 1024 (~449k), paper 4096 x 4096 (~7.2M).

use super::addr::AddrSpace;
use super::builder::{alu, in_grid, lanes_where, phase, Access, Phase, WORD};
use super::builder::{R0, R1, R2, R3, R4, R5, R6, R7};
use super::{Grid, Instr, Kernel, RegMask, Size, StaticLoad};

const RESULT_STEPS: u32 = 8;
/// Shared-memory multiply-add bundles per output pixel (17 taps).
const TAP_ALUS: u32 = 4;
const REGS: [RegMask; 8] = [R0, R1, R2, R3, R4, R5, R6, R7];

/// (W, H) in pixels; W is a multiple of 128 and H of 64, as the SDK requires.
pub fn dims(size: Size) -> (u32, u32) {
    match size {
        Size::Tiny => (256, 128),
        Size::Small => (1024, 1024),
        Size::Paper => (4096, 4096),
    }
}

/// One pass; the rows and columns passes differ only in their geometry.
struct Pass {
    rows: bool,
    w: u32,
    h: u32,
    src: (&'static str, u64),
    dst: (&'static str, u64),
    /// PCs: the ten loads (main steps first, then the two halos) and the store.
    pc0: u32,
}

impl Pass {
    /// (block x, block y) in threads.
    fn block(&self) -> (u32, u32) {
        if self.rows {
            (16, 4)
        } else {
            (16, 8)
        }
    }

    fn blocks_x(&self) -> u32 {
        if self.rows {
            self.w / (RESULT_STEPS * 16)
        } else {
            self.w / 16
        }
    }

    fn load(&self, i: u32) -> Access {
        Access::load(self.pc0 + i, REGS[i as usize % 8])
    }

    fn store(&self) -> Access {
        Access::store(self.pc0 + 10)
    }

    /// Element offset of load/store step `i` (0..10, 0 and 9 the halos) for lane l,
    /// or None where a halo falls outside the image.
    fn element(&self, cta: u32, warp: u32, l: usize, i: u32) -> Option<u64> {
        let (bx, by) = ((cta % self.blocks_x()) as i64, (cta / self.blocks_x()) as i64);
        let (tx, ty) = ((l % 16) as i64, 2 * warp as i64 + (l / 16) as i64);
        let (w, h, i) = (self.w as i64, self.h as i64, i as i64);
        let (x, y) = if self.rows {
            ((bx * 8 - 1) * 16 + tx + 16 * i, by * 4 + ty)
        } else {
            (bx * 16 + tx, (by * 8 - 1) * 8 + ty + 8 * i)
        };
        ((0..w).contains(&x) && (0..h).contains(&y)).then_some((y * w + x) as u64)
    }

    fn emit_step(&self, cta: u32, warp: u32, access: Access, arr: u64, i: u32, out: &mut Vec<Instr>) {
        let mask = lanes_where(u32::MAX, |l| self.element(cta, warp, l, i).is_some());
        access.emit(out, mask, |l| arr + WORD * self.element(cta, warp, l, i).unwrap_or(0));
    }
}

impl Kernel for Pass {
    fn name(&self) -> String {
        if self.rows { "conv_rows" } else { "conv_cols" }.into()
    }

    fn grid(&self) -> Grid {
        let (bx, by) = self.block();
        let blocks_y = if self.rows { self.h / by } else { self.h / (RESULT_STEPS * by) };
        Grid { ctas: self.blocks_x() * blocks_y, threads_per_cta: bx * by }
    }

    fn static_loads(&self) -> Vec<StaticLoad> {
        let mut v: Vec<StaticLoad> = (0..10).map(|i| self.load(i).info(self.src.0, false, false)).collect();
        v.push(self.store().info(self.dst.0, true, true));
        v
    }

    fn emit(&self, cta: u32, warp: u32, step: u32, out: &mut Vec<Instr>) -> bool {
        if !in_grid(self.grid(), cta, warp) {
            return false;
        }
        match phase(step, &[RESULT_STEPS], 2) {
            Phase::Head => {
                alu(out, 1, 0);
                for i in 1..=RESULT_STEPS {
                    self.emit_step(cta, warp, self.load(i), self.src.1, i, out);
                }
                alu(out, 2, RegMask::MAX);
                for i in [0, RESULT_STEPS + 1] {
                    self.emit_step(cta, warp, self.load(i), self.src.1, i, out);
                }
                alu(out, 1, REGS[0] | REGS[(RESULT_STEPS as usize + 1) % 8]);
                out.push(Instr::Barrier);
                true
            }
            Phase::Loop { from, to, .. } => {
                for s in from..to {
                    alu(out, TAP_ALUS, 0);
                    self.emit_step(cta, warp, self.store(), self.dst.1, s + 1, out);
                }
                true
            }
            Phase::Tail | Phase::Done => false,
        }
    }
}

pub(super) fn build(size: Size, _seed: u64, mem: &mut AddrSpace) -> Vec<Box<dyn Kernel>> {
    let (w, h) = dims(size);
    let bytes = WORD * w as u64 * h as u64;
    let src = ("src", mem.alloc("src", bytes));
    let buf = ("buffer", mem.alloc("buffer", bytes));
    let dst = ("dst", mem.alloc("dst", bytes));
    vec![
        Box::new(Pass { rows: true, w, h, src, dst: buf, pc0: 1 }),
        Box::new(Pass { rows: false, w, h, src: buf, dst, pc0: 12 }),
    ]
}
