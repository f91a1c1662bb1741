//! A small hand-written Accel-Sim trace, with every address encoding, read and replayed:
//! each memory instruction carries the addresses, width, cache operator and registers the
//! lines say.

use std::rc::Rc;
use warpscope::kernels::{Instr, Kernel, MemInstr};
use warpscope::mem::{AccessKind, CacheOp};
use warpscope::trace::{parse_inst, Files, Inst, TraceKernel, Treatment};

const HEADER: &str = "-kernel name = hand
-kernel id = 1
-grid dim = (3,1,1)
-block dim = (64,1,1)
-shmem = 512
-nregs = 16
-shmem base_addr = 0x00007f0000000000
-nvbit version = 1.5.5
-accelsim tracer version = 3

#traces format = threadblock_x threadblock_y threadblock_z warpid_tb PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width [adrrescompress?] [mem_addresses]
";

const BLOCKS: &str = "
#BEGIN_TB

thread block = 0,0,0

warp = 0
insts = 6
0010 0000000f 1 R4 LDG.E.64 1 R2 8 0 0x00007f0000001000 0x00007f0000001008 0x00007f0000001010 0x00007f0000001100
0020 ffffffff 1 R36 LDG.E.CG 1 R2 4 1 0x1000 4
0030 0000f00f 1 R5 LDG.E.U8 0 1 2 0x2000 1 -1 16 0 0 0 100
0040 ffffffff 1 R6 FADD 2 R4 R36 0
0048 ffffffff 0 LDS 1 R5 0
0050 ffffffff 0 EXIT 0 0

warp = 1
insts = 3
0060 80000001 0 STG.E 2 R0 R1 4 1 0xff00 -8
0070 ffffffff 0 BAR.SYNC.DEFER_BLOCKING 0 0
0080 ffffffff 0 EXIT 0 0

#END_TB

#BEGIN_TB

thread block = 2,0,0

warp = 1
insts = 1
0090 00000001 1 R8 ATOMG.E.ADD.STRONG.GPU 1 R3 4 0 0x3000

#END_TB
";

fn kernel() -> TraceKernel {
    let files = Files::default().with("kernel-1.traceg", format!("{HEADER}{BLOCKS}"));
    TraceKernel::open(Rc::new(files), "kernel-1.traceg", 0).unwrap()
}

fn warp(k: &TraceKernel, cta: u32, warp: u32) -> Option<Vec<Instr>> {
    let mut out = Vec::new();
    k.emit(cta, warp, 0, &mut out).then_some(out)
}

fn mem(i: &Instr) -> &MemInstr {
    match i {
        Instr::Mem(m) => m,
        other => panic!("expected a memory instruction, got {other:?}"),
    }
}

fn lanes(m: &MemInstr) -> Vec<(usize, u64)> {
    (0..32).filter(|l| m.mask & (1 << l) != 0).map(|l| (l, m.addrs[l])).collect()
}

#[test]
fn the_header_gives_the_launch() {
    let k = kernel();
    assert_eq!(k.name(), "hand");
    assert_eq!(k.grid().ctas, 3);
    assert_eq!(k.grid().threads_per_cta, 64);
    assert_eq!((k.header().shmem, k.header().nregs, k.header().version), (512, 16, 3));
}

#[test]
fn every_address_encoding_decodes_to_its_lanes() {
    let k = kernel();
    let w = warp(&k, 0, 0).unwrap();
    assert_eq!(w.len(), 5, "EXIT issues nothing");
    let listed = mem(&w[0]);
    assert_eq!(lanes(listed), vec![(0, 0x7f0000001000), (1, 0x7f0000001008), (2, 0x7f0000001010), (3, 0x7f0000001100)]);
    assert_eq!((listed.pc, listed.width, listed.op, listed.kind), (0x10, 8, CacheOp::Ca, AccessKind::Read));
    let strided = mem(&w[1]);
    assert_eq!(lanes(strided), (0..32).map(|l| (l, 0x1000 + 4 * l as u64)).collect::<Vec<_>>());
    assert_eq!((strided.width, strided.op), (4, CacheOp::Cg));
    let deltas = mem(&w[2]);
    let want =
        [(0, 0x2000), (1, 0x2001), (2, 0x2000), (3, 0x2010), (12, 0x2010), (13, 0x2010), (14, 0x2010), (15, 0x2074)];
    assert_eq!(lanes(deltas), want);
    assert_eq!(deltas.width, 1);
    let second = warp(&k, 0, 1).unwrap();
    let store = mem(&second[0]);
    assert_eq!(lanes(store), vec![(0, 0xff00), (31, 0xfef8)], "base+stride over the active lanes in order");
    assert_eq!((store.kind, store.dst), (AccessKind::Write, 0));
}

#[test]
fn registers_written_by_loads_carry_dependencies() {
    let k = kernel();
    let w = warp(&k, 0, 0).unwrap();
    // R4 and R36 share bit 4 (32 apart); R5 is bit 5; R2 was never loaded, so the loads wait for nothing.
    assert_eq!((mem(&w[0]).dst, mem(&w[0]).srcs), (1 << 4, 0));
    assert_eq!(mem(&w[1]).dst, 1 << 4);
    assert_eq!(mem(&w[2]).dst, 1 << 5);
    assert_eq!(w[3], Instr::Alu { srcs: 1 << 4 });
    assert_eq!(w[4], Instr::Alu { srcs: 1 << 5 }, "shared memory takes an ALU slot");
}

#[test]
fn barriers_atomics_and_missing_blocks() {
    let k = kernel();
    assert_eq!(warp(&k, 0, 1).unwrap()[1], Instr::Barrier);
    assert_eq!(warp(&k, 1, 0), None, "thread block 1 is not in the trace: its warps end at once");
    assert_eq!(warp(&k, 2, 0), None, "warp 0 of block 2 has no section");
    let atomic = warp(&k, 2, 1).unwrap();
    let m = mem(&atomic[0]);
    assert_eq!((m.kind, m.op, m.dst, lanes(m)), (AccessKind::Read, CacheOp::Cg, 1 << 8, vec![(0, 0x3000)]));
    assert_eq!(warp(&k, 0, 1), None, "a warp takes its instructions once");
    let rows = k.opcodes().rows();
    let treated = |op: &str| rows.iter().find(|r| r.opcode == op).map(|r| (r.treatment, r.count));
    assert_eq!(treated("LDS"), Some((Treatment::SharedMemory, 1)));
    assert_eq!(treated("BAR.SYNC.DEFER_BLOCKING"), Some((Treatment::Barrier, 1)));
    assert_eq!(treated("ATOMG.E.ADD.STRONG.GPU"), Some((Treatment::Atomic, 1)));
    assert_eq!(treated("EXIT"), Some((Treatment::Exit, 2)));
    assert_eq!(k.error(), None);
}

#[test]
fn old_tracer_lines_start_with_their_ids() {
    let mut inst = Inst::default();
    parse_inst("1 0 0 3 0010 00000003 1 R1 LDG.E 1 R0 4 0 0x10 0x20", 2, &mut inst).unwrap();
    assert_eq!((inst.pc, inst.mask, inst.dsts.clone(), inst.srcs.clone()), (0x10, 3, vec![1], vec![0]));
    assert_eq!(&inst.addrs[..3], &[0x10, 0x20, 0]);
    assert!(parse_inst("0010 00000003 1 R1 LDG.E 1 R0 4 0 0x10 0x20", 2, &mut inst).is_err());
}

#[test]
fn bad_lines_say_what_was_expected() {
    let mut inst = Inst::default();
    let mut err = |line: &str| parse_inst(line, 3, &mut inst).unwrap_err();
    assert!(err("0010 00000003 0 LDG.E 0 4 0 0x10 0x20 0x30").contains("more addresses than the 2 active lanes"));
    assert!(err("0010 00000003 0 LDG.E 0 4 0 0x10").contains("expected one address for 2 active lanes, found 1"));
    assert!(err("0010 00000007 0 LDG.E 0 4 2 0x10 4 4 4").contains("more addresses"));
    assert!(err("0010 00000003 0 LDG.E 0 4 7 0x10").contains("unknown address format 7"));
    assert!(err("0010 xyz 0 IMAD 0 0").contains("active mask"));
    assert!(err("0010 ffffffff 2 R1 IMAD 0 0").contains("expected a destination register"));
    assert!(err("0010 ffffffff 0 IMAD 0").contains("memory width"));
}
