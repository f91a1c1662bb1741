//! Every parser of user input, fed random and mangled input: config documents, `--set`
//! overrides, cache traces and DRAM traces. None may panic, and every refusal must say where
//! (a field or a line) and what, in words. The case count and the seed are fixed, so CI runs
//! the same bounded cases every time (change `SEED` to explore others); a failure prints the
//! input that caused it, and proptest keeps it in `fuzz_parsers.proptest-regressions`.

use proptest::prelude::*;
use serde_json::Value;
use warpscope::cache::teach::parse_trace as parse_cache_trace;
use warpscope::config::{apply_set, parse_config, parse_config_value, preset};
use warpscope::dram::trace::parse_trace as parse_dram_trace;
use warpscope::dram::AddressMap;

const CASES: u32 = 400;
const SEED: u64 = 20261125;

fn preset_doc() -> Value {
    serde_json::to_value(preset("medic-gtx480").unwrap()).unwrap()
}

/// Every leaf path of the preset, to aim `--set` at real fields as well as made-up ones.
fn paths() -> Vec<String> {
    fn walk(v: &Value, prefix: &str, out: &mut Vec<String>) {
        match v.as_object() {
            Some(o) => o.iter().for_each(|(k, sub)| {
                walk(sub, &if prefix.is_empty() { k.clone() } else { format!("{prefix}.{k}") }, out)
            }),
            None => out.push(prefix.to_string()),
        }
    }
    let mut out = Vec::new();
    walk(&preset_doc(), "", &mut out);
    out
}

/// Text a user might type as a value: numbers of every size and sign, names, junk.
fn value_text() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<i64>().prop_map(|n| n.to_string()),
        any::<u64>().prop_map(|n| n.to_string()),
        any::<f64>().prop_map(|x| x.to_string()),
        "[a-z_]{0,12}",
        "[ -~]{0,20}",
        Just("true".to_string()),
        Just("null".to_string()),
        Just("{}".to_string()),
        Just("[1,2]".to_string()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: CASES,
        rng_seed: proptest::test_runner::RngSeed::Fixed(SEED),
        ..ProptestConfig::default()
    })]

    #[test]
    fn set_on_any_field_with_any_value_is_a_config_or_a_named_error(
        pick in any::<prop::sample::Index>(),
        value in value_text(),
        made_up in "[a-z_.]{0,16}",
        real in any::<bool>(),
    ) {
        let all = paths();
        let path = if real { all[pick.index(all.len())].clone() } else { made_up };
        let mut doc = preset_doc();
        let result = apply_set(&mut doc, &path, &value).map_err(|e| vec![e]).and_then(|_| parse_config_value(doc).map_err(|e| e.0));
        if let Err(errors) = result {
            prop_assert!(!errors.is_empty());
            for e in errors {
                prop_assert!(!e.field.is_empty() && !e.message.is_empty(), "{path}={value}: {e}");
                prop_assert!(!e.message.contains(" at line "), "{path}={value}: {e}");
            }
        }
    }

    #[test]
    fn a_mangled_config_document_is_a_config_or_a_named_error(
        cut in any::<prop::sample::Index>(),
        junk in "[ -~]{0,8}",
    ) {
        let text = serde_json::to_string(&preset_doc()).unwrap();
        let at = cut.index(text.len());
        let at = (0..=at).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0);
        let mangled = format!("{}{}{}", &text[..at], junk, &text[at..]);
        if let Err(errors) = parse_config(&mangled) {
            for e in errors.0 {
                prop_assert!(!e.field.is_empty() && !e.message.is_empty(), "{e}");
            }
        }
    }

    #[test]
    fn any_text_as_a_cache_trace_is_accesses_or_a_line_error(text in "([RrWwx]? ?(0x)?[0-9a-fA-F_ -]{0,20}( #[ -~]{0,6})?\n){0,8}") {
        match parse_cache_trace(&text) {
            Ok(accesses) => prop_assert!(!accesses.is_empty()),
            Err(e) => prop_assert!(!e.message.is_empty() && e.line <= text.lines().count()),
        }
    }

    #[test]
    fn any_text_as_a_dram_trace_is_ordered_requests_or_a_line_error(
        text in "([0-9]{0,6} (R|W|READ|WRITE|x) (0x)?[0-9a-fA-F]{0,16}( #c)?\n){0,8}",
    ) {
        let cfg = preset("sc14-gtx480").unwrap();
        match parse_dram_trace(&text, &AddressMap::new(&cfg.mem, &cfg.dram, cfg.l2.line_bytes)) {
            Ok(reqs) => {
                prop_assert!(!reqs.is_empty());
                prop_assert!(reqs.windows(2).all(|w| w[0].cycle <= w[1].cycle));
            }
            Err(e) => prop_assert!(!e.message.is_empty() && e.line <= text.lines().count()),
        }
    }
}
