//! One instruction line: `PC mask ndst [Rd..] OPCODE nsrc [Rs..] width [format addresses..]`
//! (tracer versions before 3 put the thread block and warp ids first).

use super::addrs::{decode, hex};
use crate::kernels::WARP_SIZE;

/// A parsed line; the buffers are reused from line to line.
#[derive(Debug, Clone)]
pub struct Inst {
    pub pc: u32,
    pub mask: u32,
    /// General-purpose registers written (`R<n>`; `RZ` and other register files are dropped).
    pub dsts: Vec<u8>,
    pub opcode: String,
    pub srcs: Vec<u8>,
    /// Bytes per lane as the tracer wrote it; 0 for instructions that touch no memory.
    pub mem_width: u32,
    /// Per lane; meaningful for the active lanes of memory instructions.
    pub addrs: [u64; WARP_SIZE],
}

impl Default for Inst {
    fn default() -> Self {
        Self {
            pc: 0,
            mask: 0,
            dsts: Vec::new(),
            opcode: String::new(),
            srcs: Vec::new(),
            mem_width: 0,
            addrs: [0; WARP_SIZE],
        }
    }
}

/// The zero register as the tracer numbers it.
const RZ: u32 = 255;

/// Parses `line` into `inst`; the error says what was expected where.
pub fn parse_inst(line: &str, version: u32, inst: &mut Inst) -> Result<(), String> {
    let mut t = line.split_ascii_whitespace();
    if version < 3 {
        for what in ["thread block x", "thread block y", "thread block z", "warp id"] {
            let token = t.next().ok_or_else(|| format!("expected the {what} first (tracer version {version})"))?;
            token.parse::<u32>().map_err(|_| format!("expected the {what} first, found `{token}`"))?;
        }
    }
    let pc = hex(t.next().ok_or("expected a PC")?).map_err(|e| format!("PC: {e}"))?;
    inst.pc = u32::try_from(pc).map_err(|_| format!("PC {pc:x} does not fit 32 bits"))?;
    let mask = hex(t.next().ok_or("expected an active mask after the PC")?).map_err(|e| format!("active mask: {e}"))?;
    inst.mask = u32::try_from(mask).map_err(|_| format!("active mask {mask:x} is wider than a warp"))?;
    registers(&mut t, "destination", &mut inst.dsts)?;
    let opcode = t.next().ok_or("expected an opcode after the destination registers")?;
    if !opcode.starts_with(|c: char| c.is_ascii_uppercase()) {
        return Err(format!("expected an opcode (e.g. LDG.E), found `{opcode}`"));
    }
    inst.opcode.clear();
    inst.opcode.push_str(opcode);
    registers(&mut t, "source", &mut inst.srcs)?;
    let width = t.next().ok_or("expected the memory width after the source registers")?;
    inst.mem_width = width.parse().map_err(|_| format!("expected the memory width (a number), found `{width}`"))?;
    if inst.mem_width == 0 {
        return match t.next() {
            Some(extra) => Err(format!("unexpected `{extra}` after memory width 0")),
            None => Ok(()),
        };
    }
    let format = t.next().ok_or("expected an address format (0, 1 or 2) after the memory width")?;
    let format = format.parse().map_err(|_| format!("expected an address format (0, 1 or 2), found `{format}`"))?;
    decode(format, inst.mask, t, &mut inst.addrs)
}

/// `n R.. R..`: a count, then that many register names.
fn registers<'a>(t: &mut impl Iterator<Item = &'a str>, what: &str, out: &mut Vec<u8>) -> Result<(), String> {
    let count = t.next().ok_or_else(|| format!("expected the number of {what} registers"))?;
    let n: u32 = count.parse().map_err(|_| format!("expected the number of {what} registers, found `{count}`"))?;
    out.clear();
    for i in 0..n {
        let name = t.next().ok_or_else(|| format!("expected {n} {what} registers, found {i}"))?;
        let digits = name.trim_start_matches(|c: char| c.is_ascii_alphabetic());
        let number: u32 = match digits.parse() {
            Ok(r) => r,
            Err(_) if name == "RZ" => RZ,
            Err(_) => return Err(format!("expected a {what} register (e.g. R4), found `{name}`")),
        };
        if name.starts_with('R') && number < RZ {
            out.push(number as u8);
        }
    }
    Ok(())
}
