//! DRAM commands and the optional command log that timing tests observe.

use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum DramCommand {
    /// Activate: open a row.
    Act,
    /// Precharge: close the open row.
    Pre,
    /// Column read.
    Rd,
    /// Column write.
    Wr,
    /// Refresh of all banks.
    Ref,
}

/// One issued command.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct CommandRecord {
    /// DRAM cycle it issued at.
    pub at: u64,
    pub cmd: DramCommand,
    /// `None` for REF (all banks).
    pub bank: Option<u32>,
    /// The row opened, closed or accessed (0 for REF).
    pub row: u32,
    /// The request a column command serves.
    pub req: Option<u64>,
    /// For RD and WR: the cycle after its last data beat (a read is done then).
    pub data_done: Option<u64>,
}
