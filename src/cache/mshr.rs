//! Miss status holding registers: one entry per outstanding block, holding the
//! requests merged into it until the fill arrives.

/// Why an MSHR could not take a request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MshrFull {
    /// No free entry for a new block.
    Entries,
    /// The block's entry already holds `max_merge` requests.
    Merge,
}

#[derive(Debug, Clone)]
struct Entry<T> {
    block: u64,
    waiting: Vec<T>,
}

/// A bounded MSHR table; entries are few (tens), so a linear scan beats hashing.
#[derive(Debug, Clone)]
pub struct MshrTable<T> {
    entries: Vec<Entry<T>>,
    /// Emptied request lists of closed entries, reused by the next ones: every miss opens
    /// and closes an entry, and its list need not be allocated afresh each time.
    spare: Vec<Vec<T>>,
    capacity: usize,
    max_merge: usize,
}

impl<T> MshrTable<T> {
    pub fn new(capacity: u32, max_merge: u32) -> Self {
        Self {
            entries: Vec::with_capacity(capacity.min(64) as usize),
            spare: Vec::new(),
            capacity: capacity as usize,
            max_merge: max_merge as usize,
        }
    }

    pub fn contains(&self, block: u64) -> bool {
        self.entries.iter().any(|e| e.block == block)
    }

    /// Whether `add(block, _)` would succeed.
    pub fn check(&self, block: u64) -> Result<(), MshrFull> {
        match self.entries.iter().find(|e| e.block == block) {
            Some(e) if e.waiting.len() >= self.max_merge => Err(MshrFull::Merge),
            Some(_) => Ok(()),
            None if self.entries.len() >= self.capacity => Err(MshrFull::Entries),
            None => Ok(()),
        }
    }

    /// Adds a request: merges into the block's entry or opens a new one. Returns true
    /// when a new entry was opened (the caller must send the miss downstream).
    pub fn add(&mut self, block: u64, item: T) -> Result<bool, (MshrFull, T)> {
        if let Err(e) = self.check(block) {
            return Err((e, item));
        }
        if let Some(e) = self.entries.iter_mut().find(|e| e.block == block) {
            e.waiting.push(item);
            return Ok(false);
        }
        let mut waiting = self.spare.pop().unwrap_or_default();
        waiting.push(item);
        self.entries.push(Entry { block, waiting });
        Ok(true)
    }

    /// Closes the block's entry on fill, handing its requests to `each` in arrival order
    /// (none when the block has no entry).
    pub fn take(&mut self, block: u64, each: impl FnMut(T)) {
        if let Some(i) = self.entries.iter().position(|e| e.block == block) {
            let mut waiting = self.entries.swap_remove(i).waiting;
            waiting.drain(..).for_each(each);
            self.spare.push(waiting);
        }
    }

    /// Requests waiting on the block's entry (0 when it has none).
    pub fn waiting(&self, block: u64) -> usize {
        self.entries.iter().find(|e| e.block == block).map_or(0, |e| e.waiting.len())
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merges_up_to_the_limit_then_refuses() {
        let mut m = MshrTable::new(2, 2);
        assert_eq!(m.add(5, 'a'), Ok(true));
        assert_eq!(m.add(5, 'b'), Ok(false));
        assert_eq!(m.add(5, 'c'), Err((MshrFull::Merge, 'c')));
        assert_eq!(m.add(6, 'd'), Ok(true));
        assert_eq!(m.add(7, 'e'), Err((MshrFull::Entries, 'e')));
        let mut got = Vec::new();
        m.take(5, |c| got.push(c));
        assert_eq!(got, ['a', 'b']);
        assert_eq!(m.add(7, 'e'), Ok(true));
        assert_eq!(m.len(), 2);
    }

    #[test]
    fn take_of_unknown_block_is_empty() {
        let mut m: MshrTable<u8> = MshrTable::new(1, 1);
        m.take(3, |_| panic!("no requests"));
        assert!(m.is_empty());
    }
}
