//! Writing a kernel as an Accel-Sim trace (`warpscope trace export`): the format the
//! reader takes, so a built-in kernel replays as a trace and other simulators can run it.
//! Memory instructions keep their PCs, masks, registers and addresses; the model's ALU
//! instructions have no PC or opcode of their own and are written as `IMAD` at PC 0.

use super::addrs::encode;
use super::header::VERSIONS;
use super::opcode::width_suffix;
use crate::kernels::{Instr, Kernel, MemInstr, RegMask, WARP_SIZE};
use crate::mem::{AccessKind, CacheOp};
use std::fmt::Write as _;
use std::io::Write;

/// The list naming `files` (kernel trace files) in launch order.
pub fn write_list(files: &[String], out: &mut dyn Write) -> std::io::Result<()> {
    for f in files {
        writeln!(out, "{f}")?;
    }
    Ok(())
}

/// Writes `kernel` as kernel trace number `id`; returns the warp instructions written.
/// `compress` writes addresses as the tracer does by default (base + stride or base +
/// deltas); without it every active lane's address is listed.
pub fn write_kernel(kernel: &dyn Kernel, id: u32, compress: bool, out: &mut dyn Write) -> Result<u64, String> {
    let io = |e: std::io::Error| format!("cannot write the trace: {e}");
    let grid = kernel.grid();
    let version = VERSIONS.end();
    write!(
        out,
        "-kernel name = {}\n-kernel id = {id}\n-grid dim = ({},1,1)\n-block dim = ({},1,1)\n-shmem = 0\n\
         -nregs = {}\n-cuda stream id = 0\n-accelsim tracer version = {version}\n\n\
         #traces format = PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width [adrrescompress?] [mem_addresses]\n",
        kernel.name(),
        grid.ctas,
        grid.threads_per_cta,
        RegMask::BITS
    )
    .map_err(io)?;
    let (mut instrs, mut line, mut written) = (Vec::new(), String::new(), 0);
    for cta in 0..grid.ctas {
        write!(out, "\n#BEGIN_TB\n\nthread block = {cta},0,0\n").map_err(io)?;
        for warp in 0..grid.warps_per_cta() {
            instrs.clear();
            let mut step = 0;
            while kernel.emit(cta, warp, step, &mut instrs) {
                step += 1;
            }
            let lanes = grid.threads_per_cta.saturating_sub(warp * WARP_SIZE as u32).min(WARP_SIZE as u32);
            let mask = if lanes == 32 { u32::MAX } else { (1 << lanes) - 1 };
            write!(out, "\nwarp = {warp}\ninsts = {}\n", instrs.len() + 1).map_err(io)?;
            for i in &instrs {
                line.clear();
                match i {
                    Instr::Alu { srcs } => {
                        let _ = write!(line, "0000 {mask:08x} 0 IMAD {}", regs(*srcs));
                        line.push_str(" 0");
                    }
                    Instr::Barrier => {
                        let _ = write!(line, "0000 {mask:08x} 0 BAR.SYNC 0 0");
                    }
                    Instr::Mem(m) => memory(m, compress, &mut line)?,
                }
                line.push('\n');
                out.write_all(line.as_bytes()).map_err(io)?;
            }
            writeln!(out, "0000 {mask:08x} 0 EXIT 0 0").map_err(io)?;
            written += instrs.len() as u64 + 1;
        }
        write!(out, "\n#END_TB\n").map_err(io)?;
    }
    Ok(written)
}

/// `n R.. R..` for the registers of `mask`.
fn regs(mask: RegMask) -> String {
    let mut s = mask.count_ones().to_string();
    for r in (0..RegMask::BITS).filter(|r| mask & (1 << r) != 0) {
        let _ = write!(s, " R{r}");
    }
    s
}

fn memory(m: &MemInstr, compress: bool, line: &mut String) -> Result<(), String> {
    let width = width_suffix(m.width).ok_or_else(|| format!("a {}-byte access has no SASS opcode", m.width))?;
    let op = match m.op {
        CacheOp::Ca => "",
        CacheOp::Cg => ".CG",
        CacheOp::Cm => return Err("a `cm` load (a bypass policy's tag) has no SASS opcode".to_string()),
    };
    let (opcode, dst) = match m.kind {
        AccessKind::Read => ("LDG.E", m.dst),
        AccessKind::Write => ("STG.E", 0),
    };
    let _ = write!(line, "{:04x} {:08x} {} {opcode}{op}{width} {} {} ", m.pc, m.mask, regs(dst), regs(m.srcs), m.width);
    encode(m.mask, &m.addrs, compress, line);
    Ok(())
}
