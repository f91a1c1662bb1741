//! serde's messages about a config value, said in the user's words: the value as written and
//! what the field takes ("a whole number from 0 to 4294967295", "one of: lru, fifo"), never a
//! Rust type. A position ("at line 3 column 18") is kept only for a config file the user wrote
//! (the page, presets and `--set` hand over documents whose text the user never saw).

/// What a field of each Rust type takes, in words.
const TYPES: [(&str, &str); 14] = [
    ("u8", "a whole number from 0 to 255"),
    ("u16", "a whole number from 0 to 65535"),
    ("u32", "a whole number from 0 to 4294967295"),
    ("u64", "a whole number from 0 to 18446744073709551615"),
    ("usize", "a whole number from 0 to 18446744073709551615"),
    ("i8", "a whole number from -128 to 127"),
    ("i16", "a whole number from -32768 to 32767"),
    ("i32", "a whole number from -2147483648 to 2147483647"),
    ("i64", "a whole number"),
    ("f32", "a number"),
    ("f64", "a number"),
    ("a boolean", "true or false"),
    ("a string", "text"),
    ("a sequence", "a list"),
];

/// `message` (serde's, for one field) in plain words, with its position if `keep_position`;
/// messages serde did not write pass as they are.
pub(super) fn plain(message: &str, keep_position: bool) -> String {
    let (message, position) = split_position(message);
    let position = if keep_position { position } else { "" };
    match words(message) {
        Some(said) => format!("{said}{position}"),
        None => format!("{message}{position}"),
    }
}

fn words(message: &str) -> Option<String> {
    Some(if let Some(rest) = message.strip_prefix("unknown variant ") {
        let (value, expected) = split_expected(rest);
        format!("\"{}\" is not one of: {}", unquote(value), choices(expected))
    } else if let Some(rest) = message.strip_prefix("unknown field ") {
        let (value, expected) = split_expected(rest);
        format!("\"{}\" is not a field here; valid fields are: {}", unquote(value), choices(expected))
    } else if let Some(field) = message.strip_prefix("missing field ") {
        format!("the field \"{}\" is missing", unquote(field))
    } else {
        let rest =
            ["invalid value: ", "invalid type: ", "invalid length "].iter().find_map(|p| message.strip_prefix(p))?;
        let (value, expected) = split_expected(rest);
        format!("{} is not {}", written(value), what_it_takes(expected))
    })
}

/// serde_json's " at line L column C" suffix, split off to be kept after the words.
pub(super) fn split_position(message: &str) -> (&str, &str) {
    match message.rfind(" at line ") {
        Some(i) if message[i..].contains(" column ") => message.split_at(i),
        _ => (message, ""),
    }
}

/// "`foo`, expected one of `a`, `b`" -> ("`foo`", "one of `a`, `b`").
fn split_expected(rest: &str) -> (&str, &str) {
    match rest.split_once(", expected ") {
        Some((value, expected)) => (value, expected),
        None => (rest, ""),
    }
}

fn unquote(s: &str) -> &str {
    s.trim().trim_matches('`').trim_matches('"')
}

/// "one of `a`, `b`, `c`" or "`a` or `b`" -> "a, b, c".
fn choices(expected: &str) -> String {
    let list = expected.strip_prefix("one of ").unwrap_or(expected);
    let names: Vec<&str> = list.split([',', ' ']).map(unquote).filter(|s| !s.is_empty() && *s != "or").collect();
    if names.is_empty() {
        "(none)".to_string()
    } else {
        names.join(", ")
    }
}

/// The value serde saw, as the user wrote it: "integer `-16`" -> "-16", "string \"abc\"" ->
/// "\"abc\"", "null" -> "null", "map" -> "a section".
fn written(value: &str) -> String {
    let v = value.trim();
    for kind in ["integer ", "floating point ", "boolean "] {
        if let Some(x) = v.strip_prefix(kind) {
            return x.trim_matches('`').to_string();
        }
    }
    if let Some(s) = v.strip_prefix("string ") {
        return s.to_string();
    }
    match v {
        "map" => "a section".to_string(),
        "sequence" => "a list".to_string(),
        "unit value" => "an empty value".to_string(),
        other => other.to_string(),
    }
}

/// "u32" -> "a whole number from 0 to 4294967295"; "struct X" -> "a section of fields".
fn what_it_takes(expected: &str) -> String {
    let e = expected.trim();
    if let Some((_, words)) = TYPES.iter().find(|(t, _)| *t == e) {
        return words.to_string();
    }
    if e.starts_with("struct ") || e.starts_with("a map") {
        return "a section of fields".to_string();
    }
    if e.starts_with("one of ") || e.contains("` or `") {
        return format!("one of: {}", choices(e));
    }
    e.to_string()
}

#[cfg(test)]
mod tests {
    use super::plain;

    #[test]
    fn serde_messages_become_the_users_words() {
        let cases = [
            ("invalid value: integer `-16`, expected u32", "-16 is not a whole number from 0 to 4294967295"),
            (
                "invalid value: integer `-16`, expected u32 at line 3 column 18",
                "-16 is not a whole number from 0 to 4294967295 at line 3 column 18",
            ),
            ("duplicate field `size_kb` at line 12 column 5", "duplicate field `size_kb` at line 12 column 5"),
            ("invalid type: string \"abc\", expected u32", "\"abc\" is not a whole number from 0 to 4294967295"),
            (
                "invalid type: floating point `1.5`, expected u64",
                "1.5 is not a whole number from 0 to 18446744073709551615",
            ),
            ("invalid type: boolean `true`, expected f64", "true is not a number"),
            ("invalid type: null, expected a string", "null is not text"),
            ("invalid type: map, expected u32", "a section is not a whole number from 0 to 4294967295"),
            ("invalid type: integer `3`, expected a boolean", "3 is not true or false"),
            (
                "unknown variant `foo`, expected one of `lrr`, `gto`, `two_level`",
                "\"foo\" is not one of: lrr, gto, two_level",
            ),
            ("unknown variant `true`, expected `line` or `burst`", "\"true\" is not one of: line, burst"),
            ("missing field `ways`", "the field \"ways\" is missing"),
            ("expected one of: none, bypassed, all", "expected one of: none, bypassed, all"),
        ];
        for (serde, ours) in cases {
            assert_eq!(plain(serde, true), ours, "{serde}");
        }
    }
}
