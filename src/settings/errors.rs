//! Errors that name the config field at fault, and the checks that find them: the config's
//! own validation and each policy's `Params::check` use the same ones.

use serde::Serialize;
use std::fmt;

/// One problem with one field, e.g. `l1d.size_kb: 16 KB is not sets x ways x line ...`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ConfigError {
    /// Dotted path of the offending field (`l1d.ways`), or `config` for the whole document.
    pub field: String,
    pub message: String,
}

impl ConfigError {
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        Self { field: field.into(), message: message.into() }
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

/// All problems found in one config; never empty.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ConfigErrors(pub Vec<ConfigError>);

impl fmt::Display for ConfigErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self.0.iter().map(|e| e.to_string()).collect();
        write!(f, "{}", parts.join("; "))
    }
}

impl std::error::Error for ConfigErrors {}

impl From<ConfigError> for ConfigErrors {
    fn from(e: ConfigError) -> Self {
        Self(vec![e])
    }
}

/// The errors found so far; policies' parameter checks (`Params::check` in each policy's
/// file) add theirs through it.
pub(crate) struct Checker(pub(crate) Vec<ConfigError>);

impl Checker {
    pub(crate) fn positive(&mut self, field: &str, v: u64) {
        if v == 0 {
            self.0.push(ConfigError::new(field, "must be at least 1"));
        }
    }
    pub(crate) fn pow2(&mut self, field: &str, v: u64) {
        if v == 0 || !v.is_power_of_two() {
            self.0.push(ConfigError::new(field, format!("{v} is not a power of two")));
        }
    }
    pub(crate) fn at_most(&mut self, field: &str, v: u64, max: u64, why: &str) {
        if v > max {
            self.0.push(ConfigError::new(field, format!("{v} exceeds {max} ({why})")));
        }
    }
    /// A share, e.g. of warps or of hits.
    pub(crate) fn fraction(&mut self, field: &str, v: f64) {
        if !(0.0..=1.0).contains(&v) {
            self.0.push(ConfigError::new(field, format!("{v} is not a fraction in 0..=1")));
        }
    }
}
