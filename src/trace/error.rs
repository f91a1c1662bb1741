//! Errors of reading a trace: each names its file and, where it has one, the line, so a
//! bad trace is fixed at the place that is wrong.

use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TraceError {
    pub file: String,
    /// 1-based line number, when the problem is on one line.
    pub line: Option<u64>,
    pub what: String,
}

impl TraceError {
    pub fn in_file(file: &str, what: impl Into<String>) -> Self {
        Self { file: file.to_string(), line: None, what: what.into() }
    }

    pub fn at(file: &str, line: u64, what: impl Into<String>) -> Self {
        Self { file: file.to_string(), line: Some(line), what: what.into() }
    }
}

impl fmt::Display for TraceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{line}: {}", self.file, self.what),
            None => write!(f, "{}: {}", self.file, self.what),
        }
    }
}

impl std::error::Error for TraceError {}
