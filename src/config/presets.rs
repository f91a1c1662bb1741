//! Built-in presets: plain JSON files under `presets/`, embedded at build time so the
//! wasm build carries them too.

use super::{parse_config, Config};

/// (name, JSON text) of every preset; the first is the default.
pub const PRESETS: &[(&str, &str)] = &[
    ("medic-gtx480", include_str!("../../presets/medic-gtx480.json")),
    ("medic-gtx480-wt", include_str!("../../presets/medic-gtx480-wt.json")),
    ("sc14-gtx480", include_str!("../../presets/sc14-gtx480.json")),
    ("sound-maxwell", include_str!("../../presets/sound-maxwell.json")),
    ("sound-maxwell-enhanced", include_str!("../../presets/sound-maxwell-enhanced.json")),
    ("iwarp-fermi", include_str!("../../presets/iwarp-fermi.json")),
    ("xie-fermi", include_str!("../../presets/xie-fermi.json")),
];

pub fn preset_names() -> Vec<&'static str> {
    PRESETS.iter().map(|(n, _)| *n).collect()
}

/// The parsed preset, or `None` for an unknown name.
pub fn preset(name: &str) -> Option<Config> {
    PRESETS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, text)| parse_config(text).unwrap_or_else(|e| panic!("built-in preset {name} is invalid: {e}")))
}
