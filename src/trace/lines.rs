//! Numbered lines of one trace file, read one at a time so a file of any size streams.

use super::TraceError;
use std::io::BufRead;

pub struct Lines {
    file: String,
    inner: Box<dyn BufRead>,
    buf: String,
    line: u64,
    /// The current line is handed out again by the next `next` (a reader looked one ahead).
    held: bool,
}

impl Lines {
    pub fn new(file: &str, inner: Box<dyn BufRead>) -> Self {
        Self { file: file.to_string(), inner, buf: String::new(), line: 0, held: false }
    }

    pub fn file(&self) -> &str {
        &self.file
    }

    /// The next line without its line ending, or None at the end of the file.
    pub fn next(&mut self) -> Result<Option<&str>, TraceError> {
        if self.held {
            self.held = false;
            return Ok(Some(self.buf.trim_end_matches(['\n', '\r'])));
        }
        self.buf.clear();
        self.line += 1;
        match self.inner.read_line(&mut self.buf) {
            Ok(0) => Ok(None),
            Ok(_) => Ok(Some(self.buf.trim_end_matches(['\n', '\r']))),
            Err(e) => Err(self.error(format!("cannot read: {e}"))),
        }
    }

    /// The next line that is not blank, trimmed.
    pub fn next_nonblank(&mut self) -> Result<Option<&str>, TraceError> {
        loop {
            match self.next()? {
                None => return Ok(None),
                Some(l) if l.trim().is_empty() => continue,
                Some(_) => return Ok(Some(self.buf.trim())),
            }
        }
    }

    /// Hands the current line out again on the next call.
    pub fn hold(&mut self) {
        self.held = true;
    }

    /// An error on the current line.
    pub fn error(&self, what: impl Into<String>) -> TraceError {
        TraceError::at(&self.file, self.line, what)
    }
}
