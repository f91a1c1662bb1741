//! What the two trace formats (`warpscope cache`'s accesses and `warpscope dram`'s requests)
//! share, so that a number means the same in both: `#` starts a comment, blank lines are
//! skipped, an address is hex with `0x` (`0x1f40`) or decimal without (`8000`), a cycle is
//! decimal. Line numbers count every line of the file, from 1.

/// A line with something on it: its number and its whitespace-separated tokens.
pub(crate) struct Line<'a> {
    pub number: usize,
    pub body: &'a str,
    pub tokens: Vec<&'a str>,
}

/// The lines of `text` that hold more than a comment.
pub(crate) fn lines(text: &str) -> impl Iterator<Item = Line<'_>> {
    text.lines().enumerate().filter_map(|(i, raw)| {
        let body = raw.split('#').next().unwrap_or_default().trim();
        (!body.is_empty()).then(|| Line { number: i + 1, body, tokens: body.split_whitespace().collect() })
    })
}

/// An address: `0x` and hex digits, or decimal digits.
pub(crate) fn address(token: &str) -> Result<u64, &'static str> {
    let parsed = match token.strip_prefix("0x").or_else(|| token.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16),
        None => token.parse(),
    };
    parsed.map_err(|e| match e.kind() {
        std::num::IntErrorKind::PosOverflow => "is not an address: it does not fit in 64 bits",
        _ => "is not an address (hex with 0x, like 0x1f40, or decimal, like 8000)",
    })
}

/// A cycle number: decimal digits.
pub(crate) fn cycle(token: &str) -> Result<u64, &'static str> {
    token.parse().map_err(|_| "is not a cycle number (decimal digits, like 120)")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_blank_lines_and_numbers() {
        let got: Vec<(usize, Vec<&str>)> =
            lines("# head\n\n  R 0x10 # c\nW 7\n").map(|l| (l.number, l.tokens)).collect();
        assert_eq!(got, vec![(3, vec!["R", "0x10"]), (4, vec!["W", "7"])]);
        assert_eq!(address("0x10"), Ok(16));
        assert_eq!(address("0X1F"), Ok(31));
        assert_eq!(address("10"), Ok(10));
        assert!(address("1f").is_err() && address("-5").is_err() && address("0x").is_err());
        assert!(address("18446744073709551616").unwrap_err().contains("64 bits"));
        assert_eq!(cycle("120"), Ok(120));
        assert!(cycle("0x10").is_err());
    }
}
