//! The machinery every config section shares, below both the parts of the machine, which
//! declare their policy families and parameters with it, and `config`, which composes their
//! sections: policy names (`policy_enum!`), parameter structs (`params!`, `section_macro!`),
//! and the checks and errors that name a field (`Checker`, `ConfigError`).

mod errors;
mod names;
pub(crate) mod params;

pub(crate) use errors::Checker;
pub use errors::{ConfigError, ConfigErrors};
pub(crate) use names::policy_enum;
pub use names::Named;
pub(crate) use params::{params, section_macro};
