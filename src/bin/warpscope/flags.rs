//! Checking flags and turning them into configs: names, paths and sizes the user gave, and
//! the config a preset, bundle, files and `--set` overrides resolve to.

use super::*;

/// Errors when `names` (given to `flag`) repeats one or has one outside `valid`: a repeat
/// would run twice and show twice, and an unknown one would fail only after other runs.
pub(crate) fn check_names(flag: &str, what: &str, names: &[String], valid: &[&str]) -> Result<(), ConfigError> {
    for (i, name) in names.iter().enumerate() {
        if !valid.contains(&name.as_str()) {
            let msg = format!("unknown {what} `{name}`; valid {what}s are: {}", valid.join(", "));
            return Err(ConfigError::new(flag, msg));
        }
        if names[..i].contains(name) {
            return Err(ConfigError::new(flag, format!("`{name}` is given twice")));
        }
    }
    Ok(())
}

/// Checks the path of `given` (`PATH=...`, described by `form`): `apply_set` would report an
/// empty path or segment (`=1`, `.l1d.size_kb=16`) as an unknown field with an empty name.
pub(crate) fn check_path(flag: &str, given: &str, path: &str, form: &str) -> Result<(), ConfigError> {
    let why = if path.is_empty() {
        "the path is empty".to_string()
    } else if path.split('.').any(str::is_empty) {
        format!("`{path}` has an empty field name between its dots")
    } else {
        return Ok(());
    };
    Err(ConfigError::new(flag, format!("`{given}` is not {form}: {why}")))
}

/// `path` given to `flag`, or the path that replaced it, with a warning: old paths of
/// renamed fields are accepted until the next release.
pub(crate) fn current_path(flag: &str, path: &str) -> String {
    match config::current_path(path) {
        Some(new) => {
            eprintln!("warning: {flag} {path}: renamed {new}; the old name stops working in the next release");
            new.to_string()
        }
        None => path.to_string(),
    }
}

/// Charts larger than this (per side, and in all) take gigabytes or crash the drawing library.
const MAX_SIDE: u32 = 16_384;
const MAX_PIXELS: u64 = 100_000_000;

/// Checks a chart's `--width`/`--height` before any work is done.
pub(crate) fn check_size(width: u32, height: u32) -> Result<(), ConfigError> {
    let (min_w, min_h) = plot::MIN_SIZE;
    let why = if width < min_w || height < min_h {
        format!("a chart needs at least {min_w}x{min_h} pixels")
    } else if width > MAX_SIDE || height > MAX_SIDE {
        format!("each side is at most {MAX_SIDE} pixels")
    } else if width as u64 * height as u64 > MAX_PIXELS {
        format!("a chart has at most {MAX_PIXELS} pixels in all")
    } else {
        return Ok(());
    };
    Err(ConfigError::new("--width/--height", format!("{width}x{height}: {why}")))
}

/// The text of `path`, or of standard input for `-`.
pub(crate) fn read_input(path: &Path) -> Result<String, String> {
    use std::io::Read;
    let read = if path.as_os_str() == "-" {
        let mut s = String::new();
        std::io::stdin().read_to_string(&mut s).map(|_| s)
    } else {
        std::fs::read_to_string(path)
    };
    read.map_err(|e| format!("cannot read {}: {e}", path.display()))
}

/// The starting document (preset or file), then the policy bundle, then every `--set`, validated.
pub(crate) fn resolve_with(m: &BaseArgs, bundle: Option<&str>) -> Result<Config, ConfigErrors> {
    parse_config_value(resolve_doc(m, bundle)?)
}

/// The starting document with the bundle and every `--set` applied, not yet validated.
pub(crate) fn resolve_doc(m: &BaseArgs, bundle: Option<&str>) -> Result<Value, ConfigErrors> {
    let mut doc: Value = match &m.config {
        Some(path) => config_file(path)?,
        None => {
            let cfg = preset(&m.preset).ok_or_else(|| {
                ConfigError::new(
                    "--preset",
                    format!("unknown preset `{}`; valid presets are: {}", m.preset, preset_names().join(", ")),
                )
            })?;
            serde_json::to_value(cfg).expect("configs serialize")
        }
    };
    if let Some(b) = bundle {
        apply_bundle(&mut doc, b)?;
    }
    // The `sample` section is left out of documents while off; `--set` may still reach it.
    if let Some(o) = doc.as_object_mut() {
        o.entry("sample").or_insert_with(|| config::SampleConfig::default().document());
    }
    for s in &m.sets {
        const FORM: &str = "PATH=VALUE (e.g. l1d.size_kb=32)";
        let (path, value) =
            s.split_once('=').ok_or_else(|| ConfigError::new("--set", format!("`{s}` is not {FORM}")))?;
        check_path("--set", s, path.trim(), FORM)?;
        apply_set(&mut doc, &current_path("--set", path.trim()), value.trim())?;
    }
    Ok(doc)
}

/// A config file as a complete document: read strictly (no key twice), its left-out
/// fields filled with their defaults so `--set` can reach them, and named once on stderr.
fn config_file(path: &Path) -> Result<Value, ConfigError> {
    static NOTED: AtomicBool = AtomicBool::new(false);
    let shown = path.display();
    let text =
        std::fs::read_to_string(path).map_err(|e| ConfigError::new("--config", format!("cannot read {shown}: {e}")))?;
    let (cfg, given, renamed) = config::read_config_text(&text).map_err(|e| match e.field.as_str() {
        "config" => ConfigError::new("--config", format!("{shown}: {}", e.message)),
        _ => e,
    })?;
    for (old, new) in renamed {
        eprintln!("warning: {shown}: {old} is renamed {new}; the old name stops working in the next release");
    }
    let full = serde_json::to_value(cfg).expect("configs serialize");
    let left_out = config::left_out_fields(&given, &full);
    if !left_out.is_empty() && !NOTED.swap(true, Ordering::Relaxed) {
        eprintln!(
            "note: {shown} leaves out {}; they take their defaults (`warpscope config --config {shown}` shows them)",
            left_out.join(", ")
        );
    }
    Ok(full)
}
