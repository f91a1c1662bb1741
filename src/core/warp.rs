//! One warp's architectural state: its instruction window, scoreboard and waits.

use crate::kernels::{reg_bits, Instr, Kernel, RegMask};

#[derive(Clone, Debug, Default)]
pub struct Warp {
    pub active: bool,
    /// CTA slot within the SM.
    pub cta_slot: usize,
    pub cta: u32,
    pub warp_in_cta: u32,
    /// Dynamic warp id within the run.
    pub gid: u32,
    /// Dispatch order: smaller is older (GTO's "oldest").
    pub age: u64,
    /// Fetched instructions in reverse order (next one last), so issuing is a `pop`.
    buf: Vec<Instr>,
    step: u32,
    exhausted: bool,
    /// Registers with loads in flight.
    pub pending: RegMask,
    pending_loads: [u16; RegMask::BITS as usize],
    /// Earliest core cycle the warp may issue again (ALU latency).
    pub ready_at: u64,
    pub at_barrier: bool,
    /// Stores sent but not yet acknowledged by the L2.
    pub stores_out: u32,
    /// Memory instructions issued to the LD/ST unit and not yet fully sent.
    pub in_ldst: u32,
}

impl Warp {
    pub fn launch(cta_slot: usize, cta: u32, warp_in_cta: u32, gid: u32, age: u64) -> Self {
        Self { active: true, cta_slot, cta, warp_in_cta, gid, age, ..Default::default() }
    }

    /// The next instruction, fetching the kernel's next chunk when the window is empty.
    pub fn peek(&mut self, kernel: &dyn Kernel) -> Option<&Instr> {
        if self.buf.is_empty() && !self.exhausted {
            if kernel.emit(self.cta, self.warp_in_cta, self.step, &mut self.buf) {
                self.buf.reverse();
                self.step += 1;
            } else {
                self.exhausted = true;
            }
        }
        self.buf.last()
    }

    /// Instructions the warp has yet to issue: what a sampled run spreads windows over in
    /// a long launch tail.
    pub fn instructions_left(&self, kernel: &dyn Kernel) -> u64 {
        let later = if self.exhausted { 0 } else { kernel.instructions_left(self.cta, self.warp_in_cta, self.step) };
        self.buf.len() as u64 + later
    }

    pub fn pop(&mut self) -> Option<Instr> {
        self.buf.pop()
    }

    /// Whether nothing is left to issue (the warp may still wait for memory).
    pub fn finished_issuing(&self) -> bool {
        self.exhausted && self.buf.is_empty()
    }

    /// Whether the warp can retire: nothing to issue and nothing outstanding.
    pub fn can_exit(&self) -> bool {
        self.finished_issuing() && self.pending == 0 && self.stores_out == 0 && self.in_ldst == 0
    }

    pub fn add_pending(&mut self, dst: RegMask) {
        for r in reg_bits(dst) {
            self.pending_loads[r] += 1;
            self.pending |= 1 << r;
        }
    }

    /// One load writing `dst` has all its data back.
    pub fn complete_load(&mut self, dst: RegMask) {
        for r in reg_bits(dst) {
            self.pending_loads[r] -= 1;
            if self.pending_loads[r] == 0 {
                self.pending &= !(1 << r);
            }
        }
    }
}
