//! `warpscope list` and `warpscope inspect`: what the simulator offers, and a benchmark's
//! shape without simulating it.

use super::{write_out, Listing};
use std::fmt::Write;
use warpscope::config::{self, preset, preset_names};
use warpscope::kernels::KERNELS;

macro_rules! w {
    ($out:expr, $($arg:tt)*) => { let _ = writeln!($out, $($arg)*); };
}

pub fn list(what: Listing) {
    let mut out = String::new();
    match what {
        Listing::Presets => {
            for name in preset_names() {
                let desc = preset(name).map(|c| c.description).unwrap_or_default();
                w!(out, "{name:<16} {desc}");
            }
        }
        Listing::Kernels => {
            for (name, desc) in KERNELS {
                w!(out, "{name:<16} {desc}");
            }
        }
        Listing::Policies => {
            for (field, names) in config::policy_families() {
                w!(out, "{field:<24} {}", names.join(" | "));
            }
        }
        Listing::Bundles => {
            for b in config::BUNDLES {
                let sets: Vec<String> = b.sets.iter().map(|(p, v)| format!("{p}={v}")).collect();
                w!(out, "{:<14} {} [{}]", b.name, b.description, sets.join(" "));
            }
        }
    }
    write_out(&out);
}

pub fn print_inspection(name: &str, launches: &[warpscope::kernels::inspect::LaunchSummary]) {
    let mut out = String::new();
    let total: u64 = launches.iter().map(|l| l.warp_instructions).sum();
    w!(out, "{name}: {} launches, {total} warp instructions", launches.len());
    for l in launches {
        w!(
            out,
            "  {:<16} {} CTAs x {} threads, {} warps, {} warp instructions ({} memory)",
            l.name,
            l.ctas,
            l.threads_per_cta,
            l.warps,
            l.warp_instructions,
            l.memory_instructions
        );
        for s in &l.static_loads {
            w!(
                out,
                "      pc {:<3} {:?} {:<14} .{:?}{}{}",
                s.pc,
                s.kind,
                s.array,
                s.op,
                if s.in_loop { " in loop" } else { "" },
                if s.after_barrier { " after barrier" } else { "" }
            );
        }
    }
    write_out(&out);
}
