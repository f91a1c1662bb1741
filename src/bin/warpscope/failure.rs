//! Why a command failed, which decides its exit status: bad input exits 1, a simulation
//! that stopped on a deadlock or the watchdog exits 3 (clap's own argument errors exit 2).

use std::fmt;
use std::process::ExitCode;
use warpscope::{ConfigError, ConfigErrors};

#[derive(Debug)]
pub enum Failure {
    /// A config, flag or file the user gave is wrong.
    Input(ConfigErrors),
    /// A simulation stopped before its kernel finished: `(what ran, why it stopped)`.
    Stopped(String, String),
}

impl Failure {
    pub fn exit_code(&self) -> ExitCode {
        match self {
            Failure::Input(_) => ExitCode::from(1),
            Failure::Stopped(..) => ExitCode::from(3),
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Input(e) => write!(f, "{e}"),
            Failure::Stopped(what, why) => write!(f, "{what} stopped: {why}"),
        }
    }
}

impl From<ConfigErrors> for Failure {
    fn from(e: ConfigErrors) -> Self {
        Failure::Input(e)
    }
}

impl From<ConfigError> for Failure {
    fn from(e: ConfigError) -> Self {
        Failure::Input(e.into())
    }
}
