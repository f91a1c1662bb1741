//! Statistics: typed counters and histograms collected during a run, and the JSON
//! report built from them at the end (ratios are computed only there).

mod histogram;
mod latency;
mod report;
pub(crate) mod text;
mod warps;

pub use histogram::Histogram;
pub use latency::{LoadStats, TripReport, TRIP_STAGES};
pub use report::{build_report, MissClassMpki, Report};
pub use text::render_text;
pub use warps::{warp_report, ReadsByType, WarpReport, WarpTypes};
