//! Where trace files come from. The CLI opens them on disk and the page from files the
//! user picked, so the parser only ever sees readers. Natively gzip is recognised by its
//! magic bytes, whatever the file is called; the page inflates gzip files in the browser
//! (`DecompressionStream`) before handing them over, so the wasm build reads text only.

use super::{Lines, TraceError};
#[cfg(not(target_arch = "wasm32"))]
use flate2::read::MultiGzDecoder;
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read};
use std::rc::Rc;

/// Opens the files of one trace folder by the names `kernelslist.g` gives them.
pub trait Source {
    /// A reader of file `name`, or why there is none (e.g. "no such file").
    fn open(&self, name: &str) -> Result<Box<dyn Read>, String>;
}

/// A trace folder held in memory: tests, and files handed over by the page.
#[derive(Debug, Default, Clone)]
pub struct Files(pub BTreeMap<String, Rc<[u8]>>);

impl Files {
    pub fn with(mut self, name: &str, text: impl Into<Vec<u8>>) -> Self {
        self.0.insert(name.to_string(), text.into().into());
        self
    }
}

impl Source for Files {
    fn open(&self, name: &str) -> Result<Box<dyn Read>, String> {
        match self.0.get(name) {
            Some(bytes) => Ok(Box::new(std::io::Cursor::new(Rc::clone(bytes)))),
            None => Err("no such file in the trace".to_string()),
        }
    }
}

/// Bytes read at a time; large enough that line splitting, not I/O calls, dominates.
const BUFFER: usize = 1 << 16;

/// Opens `name` from `source` as numbered lines, inflating gzip data.
#[cfg(not(target_arch = "wasm32"))]
pub fn open_lines(source: &dyn Source, name: &str) -> Result<Lines, TraceError> {
    let raw = source.open(name).map_err(|e| TraceError::in_file(name, format!("cannot open: {e}")))?;
    let mut reader = BufReader::with_capacity(BUFFER, raw);
    let head = reader.fill_buf().map_err(|e| TraceError::in_file(name, format!("cannot read: {e}")))?;
    let inner: Box<dyn BufRead> = if head.starts_with(&[0x1f, 0x8b]) {
        Box::new(BufReader::with_capacity(BUFFER, MultiGzDecoder::new(reader)))
    } else {
        Box::new(reader)
    };
    Ok(Lines::new(name, inner))
}

/// Opens `name` from `source` as numbered lines (the page has inflated gzip files already).
#[cfg(target_arch = "wasm32")]
pub fn open_lines(source: &dyn Source, name: &str) -> Result<Lines, TraceError> {
    let raw = source.open(name).map_err(|e| TraceError::in_file(name, format!("cannot open: {e}")))?;
    let inner: Box<dyn BufRead> = Box::new(BufReader::with_capacity(BUFFER, raw));
    Ok(Lines::new(name, inner))
}
