//! Parsing config documents and applying `PATH=VALUE` overrides, with errors that
//! name the field and its valid choices.

use super::renamed::{current_path, migrate, old_paths_in};
use super::validate::validate;
use super::Config;
use crate::settings::{ConfigError, ConfigErrors};
use serde_json::Value;

/// Parses a JSON config document the program handed over (a preset, the page's form) and
/// validates it. Its errors drop serde's position: a place in text the user never saw.
pub fn parse_config(text: &str) -> Result<Config, ConfigErrors> {
    let (config, _, _) = read_document(text, false)?;
    validate(&config)?;
    Ok(config)
}

/// A config document as read: the config, the document as written (renamed fields moved
/// to their new paths), and the (old, new) paths of the renamed fields it gave.
pub type ReadConfig = (Config, Value, Vec<(&'static str, &'static str)>);

/// Reads a config document's text without validating it. A key given twice is an error
/// naming its path (a JSON `Value` would silently keep the last); left-out fields that
/// have defaults take them.
pub fn read_config_text(text: &str) -> Result<ReadConfig, ConfigError> {
    read_document(text, true)
}

fn read_document(text: &str, position: bool) -> Result<ReadConfig, ConfigError> {
    let mut given: Value = serde_json::from_str(text).map_err(|e| {
        let message = e.to_string();
        let (what, at) = super::words::split_position(&message);
        ConfigError::new("config", format!("malformed JSON: {what}{}", if position { at } else { "" }))
    })?;
    let renamed = old_paths_in(&given);
    if renamed.is_empty() {
        return Ok((read(text, position)?, given, renamed));
    }
    // Positions would point into the moved document, not the text the user wrote.
    migrate(&mut given)?;
    Ok((read(&given.to_string(), false)?, given, renamed))
}

/// The one reader of config documents. A value is read through its text too, so the wasm
/// build carries serde's path tracking for one deserializer, not two (about 100 KB).
/// `position` keeps serde_json's "at line L column C", which only a file the user wrote has.
fn read(text: &str, position: bool) -> Result<Config, ConfigError> {
    let mut de = serde_json::Deserializer::from_str(text);
    serde_path_to_error::deserialize(&mut de).map_err(|e| path_error(e, position))
}

/// A config as a document for `apply_set`. It goes through its JSON text, as documents are
/// read through theirs: the wasm build then carries one serializer for configs, not two.
pub fn config_document(cfg: &Config) -> Value {
    serde_json::from_str(&serde_json::to_string(cfg).expect("configs serialize")).expect("and read back")
}

/// A config value as a config, unvalidated, with renamed fields moved to their new paths;
/// serde errors carry the field path.
fn from_value(mut value: Value) -> Result<Config, ConfigError> {
    migrate(&mut value)?;
    read(&value.to_string(), false)
}

/// Deserializes a JSON value into a validated config; serde errors carry the field path.
pub fn parse_config_value(value: Value) -> Result<Config, ConfigErrors> {
    let config = from_value(value)?;
    validate(&config)?;
    Ok(config)
}

/// The fields DRAM-only mode reads: the DRAM, the memory partitions, the clocks and the
/// line size each request moves.
const DRAM_MODE_FIELDS: [&str; 4] = ["dram.", "mem.", "clocks.", "l2.line_bytes"];

/// A config for DRAM-only mode (`warpscope dram`): read whole, but validated only where that
/// mode looks, so an L2 geometry that a changed partition count no longer divides does not
/// refuse a trace that never reaches an L2.
pub fn parse_dram_config_value(value: Value) -> Result<Config, ConfigErrors> {
    let config = from_value(value)?;
    if let Err(ConfigErrors(errors)) = validate(&config) {
        let used: Vec<ConfigError> =
            errors.into_iter().filter(|e| DRAM_MODE_FIELDS.iter().any(|f| e.field.starts_with(f))).collect();
        if !used.is_empty() {
            return Err(ConfigErrors(used));
        }
    }
    Ok(config)
}

fn path_error<E: std::fmt::Display>(e: serde_path_to_error::Error<E>, position: bool) -> ConfigError {
    let path = e.path().to_string();
    let field = if path == "." || path.is_empty() { "config".to_string() } else { path };
    ConfigError::new(field, super::words::plain(&e.into_inner().to_string(), position))
}

/// Dotted paths of `full` (a resolved config) that `given` (the document as written)
/// leaves out; a section left out whole is named once.
pub fn left_out_fields(given: &Value, full: &Value) -> Vec<String> {
    fn walk(given: &Value, full: &Value, prefix: &str, out: &mut Vec<String>) {
        let (Some(g), Some(f)) = (given.as_object(), full.as_object()) else { return };
        for (key, value) in f {
            let path = if prefix.is_empty() { key.clone() } else { format!("{prefix}.{key}") };
            match g.get(key) {
                None => out.push(path),
                Some(sub) => walk(sub, value, &path, out),
            }
        }
    }
    let mut out = Vec::new();
    walk(given, full, "", &mut out);
    out
}

/// Sets the field at dotted `path` in a resolved config document to `raw`.
///
/// The path must name an existing leaf (an old path of a renamed field sets its new one);
/// numbers and booleans are parsed as JSON, and a string field takes `raw` verbatim. Type
/// and policy-name checks happen when the document is parsed, so their messages list the
/// valid choices.
pub fn apply_set(doc: &mut Value, path: &str, raw: &str) -> Result<(), ConfigError> {
    let path = current_path(path).unwrap_or(path);
    if path.split('.').any(str::is_empty) {
        let field = if path.is_empty() { "config" } else { path };
        return Err(ConfigError::new(
            field,
            "is not a field path: sections and a field joined by dots, like l1d.size_kb",
        ));
    }
    let mut node = doc;
    let mut walked = Vec::new();
    for key in path.split('.') {
        let here = if walked.is_empty() { "config".to_string() } else { walked.join(".") };
        let obj = node.as_object_mut().ok_or_else(|| {
            ConfigError::new(here.clone(), format!("is a value, not a section; `{path}` goes too deep"))
        })?;
        if !obj.contains_key(key) {
            let mut valid: Vec<&str> = obj.keys().map(String::as_str).collect();
            valid.sort_unstable();
            walked.push(key);
            return Err(ConfigError::new(
                walked.join("."),
                format!("unknown field; valid fields of {here} are: {}", valid.join(", ")),
            ));
        }
        walked.push(key);
        node = obj.get_mut(key).expect("checked above");
    }
    if node.is_object() {
        let keys: Vec<&str> = node.as_object().map(|o| o.keys().map(String::as_str).collect()).unwrap_or_default();
        return Err(ConfigError::new(path, format!("is a section; set one of its fields: {}", keys.join(", "))));
    }
    *node = match node {
        Value::String(_) => Value::String(raw.to_string()),
        _ => serde_json::from_str(raw).unwrap_or_else(|_| Value::String(raw.to_string())),
    };
    Ok(())
}
