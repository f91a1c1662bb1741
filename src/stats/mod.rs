//! Statistics: typed counters and histograms collected during a run, and the JSON
//! report built from them at the end (ratios are computed only there). The counters the
//! parts keep are theirs (`crate::histogram`, `crate::core::latency`); the report re-exports
//! them.

mod report;
pub(crate) mod text;
mod warps;

pub use crate::core::latency::{LoadStats, TripReport, TRIP_STAGES};
pub use crate::histogram::Histogram;
pub use report::{build_report, MissClassMpki, Report};
pub use text::render_text;
pub use warps::{warp_report, ReadsByType, WarpReport, WarpTypes};
