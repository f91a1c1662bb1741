//! A kernel trace as a `Kernel`. CTAs are dispatched in order, so the trace is read
//! forward a thread block at a time as the SMs ask for them; each warp unpacks its list a
//! chunk at a time and a CTA's entry is dropped once all its warps are through, so memory
//! holds the resident CTAs' (packed) instructions and no more.

use super::blocks::Blocks;
use super::header::{parse_header, Header};
use super::packed::Packed;
use super::source::{open_lines, Source};
use super::translate::OpcodeTable;
use super::TraceError;
use crate::kernels::{Grid, Instr, Kernel, StaticLoad};
use std::any::Any;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

pub struct TraceKernel {
    source: Rc<dyn Source>,
    file: String,
    header: Header,
    /// Bytes the list copies to the device before this launch (not simulated).
    copied: u64,
    state: RefCell<State>,
}

#[derive(Default)]
struct State {
    /// Opened on the first fetch and closed after the last block, so a benchmark of many
    /// launches holds one file open at a time.
    blocks: Option<Blocks>,
    /// Linear id of the next thread block the file may hold.
    next: u32,
    /// Resident CTAs read ahead: per warp, its instructions until the warp takes them.
    ctas: BTreeMap<u32, Cta>,
    table: OpcodeTable,
    /// The first problem reading further: every warp then ends, and the run reports it.
    error: Option<TraceError>,
}

struct Cta {
    /// None once the warp has unpacked them all.
    warps: Vec<Option<Packed>>,
    /// Warps that have not.
    left: usize,
}

/// Instructions a warp unpacks per fetch: few enough that its window stays small.
const CHUNK: usize = 64;

impl TraceKernel {
    /// Reads the header of `file` (the thread blocks wait for the run); `copied` bytes of
    /// host-to-device copies precede it in the list.
    pub fn open(source: Rc<dyn Source>, file: &str, copied: u64) -> Result<Self, TraceError> {
        let header = parse_header(&mut open_lines(source.as_ref(), file)?)?;
        Ok(Self { source, file: file.to_string(), header, copied, state: RefCell::default() })
    }

    pub fn copied_before(&self) -> u64 {
        self.copied
    }

    pub fn header(&self) -> &Header {
        &self.header
    }

    pub fn file(&self) -> &str {
        &self.file
    }

    /// Opcodes read so far with how each was treated.
    pub fn opcodes(&self) -> OpcodeTable {
        self.state.borrow().table.clone()
    }

    /// `kernel` as a replayed trace, if it is one.
    pub fn of(kernel: &dyn Kernel) -> Option<&TraceKernel> {
        (kernel as &dyn Any).downcast_ref()
    }

    /// The error that stopped reading, if one did.
    pub fn error(&self) -> Option<TraceError> {
        self.state.borrow().error.clone()
    }

    /// Reads thread blocks until CTA `cta` is in (or known to be empty).
    fn read_to(&self, st: &mut State, cta: u32) -> Result<(), TraceError> {
        while st.next <= cta {
            let blocks = match &mut st.blocks {
                Some(b) => b,
                None => {
                    let mut lines = open_lines(self.source.as_ref(), &self.file)?;
                    parse_header(&mut lines)?;
                    st.blocks.insert(Blocks::new(lines, &self.header))
                }
            };
            let mut warps = Vec::new();
            match blocks.next(&mut st.table, &mut warps)? {
                None => {
                    // Blocks with no instructions are left out of a trace, but every thread
                    // runs EXIT, so a file that stops before the grid's last block is cut short.
                    let what = format!(
                        "the file ends before thread block {} of the grid's {}: is it truncated?",
                        st.next,
                        self.header.ctas()
                    );
                    return Err(TraceError::in_file(&self.file, what));
                }
                Some(id) if id < st.next => {
                    let what =
                        format!("thread block {id} comes after thread block {} (expected launch order)", st.next - 1);
                    return Err(TraceError::in_file(&self.file, what));
                }
                Some(id) => {
                    let left = warps.len();
                    st.ctas.insert(id, Cta { warps: warps.into_iter().map(Some).collect(), left });
                    st.next = id + 1;
                }
            }
            // The grid's last block is in: close the file, once nothing but comments is left;
            // anything else means a damaged file or a header that does not match it.
            if st.next as u64 >= self.header.ctas() {
                if let Some(b) = st.blocks.as_mut() {
                    if let Some(id) = b.next(&mut st.table, &mut Vec::new())? {
                        let what =
                            format!("thread block {id} follows the last of the grid's {} blocks", self.header.ctas());
                        return Err(TraceError::in_file(&self.file, what));
                    }
                }
                st.next = u32::MAX;
                st.blocks = None;
            }
        }
        Ok(())
    }
}

impl Kernel for TraceKernel {
    fn name(&self) -> String {
        self.header.name.clone()
    }

    fn grid(&self) -> Grid {
        Grid { ctas: self.header.ctas() as u32, threads_per_cta: self.header.threads_per_cta() as u32 }
    }

    /// A trace does not say which array a load reads, so no load is listed; PC-based
    /// policies see the traced PCs as the loads issue.
    fn static_loads(&self) -> Vec<StaticLoad> {
        Vec::new()
    }

    fn read_error(&self) -> Option<String> {
        self.error().map(|e| e.to_string())
    }

    /// Counted from the packed lists: fetching would consume them.
    fn instructions_left(&self, cta: u32, warp: u32, _step: u32) -> u64 {
        let st = self.state.borrow();
        st.ctas.get(&cta).and_then(|c| c.warps.get(warp as usize)?.as_ref()).map_or(0, |w| w.left())
    }

    /// Chunk `step` is the warp's next `CHUNK` instructions; the first fetch of a CTA's
    /// warp reads the trace up to that CTA.
    fn emit(&self, cta: u32, warp: u32, step: u32, out: &mut Vec<Instr>) -> bool {
        let mut st = self.state.borrow_mut();
        if st.error.is_some() {
            return false;
        }
        if step == 0 {
            if let Err(e) = self.read_to(&mut st, cta) {
                st.error = Some(e);
                st.ctas.clear();
                return false;
            }
        }
        let Some(entry) = st.ctas.get_mut(&cta) else {
            return false;
        };
        let Some(list) = entry.warps.get_mut(warp as usize).and_then(Option::as_mut) else {
            return false;
        };
        let n = list.unpack(CHUNK, out);
        if list.is_done() {
            entry.warps[warp as usize] = None;
            entry.left -= 1;
            if entry.left == 0 {
                st.ctas.remove(&cta);
            }
        }
        n > 0
    }
}
