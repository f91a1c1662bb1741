//! The teaching mode's trace format: one access per line, `[R|W] ADDRESS`, the address
//! in hex with `0x` (`0x1f40`) or decimal (`8000`), as in `warpscope dram`'s traces; `#`
//! starts a comment; blank lines are ignored.

use crate::mem::AccessKind;
use crate::trace_text::{address, lines};
use std::fmt;

/// One access of a trace.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Access {
    pub addr: u64,
    pub kind: AccessKind,
}

/// A line that is not an access, by its 1-based line number (comments and blank lines count).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TraceError {
    pub line: usize,
    /// The offending text: the address token, or the whole line when its shape is wrong.
    pub text: String,
    pub message: String,
}

impl fmt::Display for TraceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            0 => write!(f, "{}", self.message),
            n => write!(f, "line {n}: \"{}\" {}", self.text, self.message),
        }
    }
}

impl std::error::Error for TraceError {}

/// Every access of `text`, or the first malformed line; nothing is skipped silently, and a
/// trace with no access is an error rather than a report of nothing.
pub fn parse_trace(text: &str) -> Result<Vec<Access>, TraceError> {
    let mut out = Vec::new();
    for line in lines(text) {
        let err =
            |text: &str, message: &str| TraceError { line: line.number, text: text.into(), message: message.into() };
        let (kind, token) = match line.tokens[..] {
            [addr] => (AccessKind::Read, addr),
            [op, addr] if op.eq_ignore_ascii_case("r") => (AccessKind::Read, addr),
            [op, addr] if op.eq_ignore_ascii_case("w") => (AccessKind::Write, addr),
            [op, _] => return Err(err(op, "is not an access kind (R or W)")),
            _ => return Err(err(line.body, "is not one access (`[R|W] ADDRESS`)")),
        };
        let addr = address(token).map_err(|m| err(token, m))?;
        out.push(Access { addr, kind });
    }
    if out.is_empty() {
        return Err(TraceError {
            line: 0,
            text: String::new(),
            message: "the trace has no accesses (only comments and blank lines)".into(),
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefixes_comments_and_blank_lines() {
        let t = "# header\n\n0x10\nr 32  # a read\n  W\t0X1F\nR 7\n";
        let got = parse_trace(t).unwrap();
        let want = [(16, AccessKind::Read), (32, AccessKind::Read), (31, AccessKind::Write), (7, AccessKind::Read)];
        assert_eq!(got, want.map(|(addr, kind)| Access { addr, kind }));
    }

    #[test]
    fn malformed_lines_are_reported_by_number() {
        let e = parse_trace("0x0\n# c\n\n0xZZ\n").unwrap_err();
        assert_eq!((e.line, e.text.as_str()), (4, "0xZZ"));
        assert!(e.to_string().starts_with("line 4: \"0xZZ\" is not an address"), "{e}");
        assert_eq!(parse_trace("X 0x10").unwrap_err().text, "X");
        assert_eq!(parse_trace("1\nR 1 2").unwrap_err().line, 2);
        assert_eq!(parse_trace("-5").unwrap_err().text, "-5");
        assert_eq!(parse_trace("0x").unwrap_err().text, "0x");
        assert!(parse_trace("0x1_0000_0000_0000_0000").is_err());
        assert!(parse_trace("18446744073709551616").unwrap_err().message.contains("64 bits"));
        assert_eq!(parse_trace("R").unwrap_err().text, "R");
        assert_eq!(
            parse_trace("# only a comment\n\n").unwrap_err().to_string(),
            "the trace has no accesses (only comments and blank lines)"
        );
    }
}
