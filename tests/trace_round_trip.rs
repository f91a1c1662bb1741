//! Every built-in kernel at `tiny`, written as an Accel-Sim trace and replayed, gives the
//! built-in run's report byte for byte, but for the two fields that say it is a trace:
//! `size` is `trace` and a `trace` section lists the files and opcodes read.

use flate2::write::GzEncoder;
use std::io::Write;
use std::rc::Rc;
use warpscope::config::preset;
use warpscope::kernels::{build, Size, KERNELS};
use warpscope::sample::run_sampled;
use warpscope::stats::build_report;
use warpscope::trace::{self, export, Files, TraceInput, Treatment};
use warpscope::{Config, Report, Simulator};

/// `kernel` at tiny as a trace folder in memory, optionally gzipped file by file.
fn exported(kernel: &str, compress: bool, gzip: bool) -> Files {
    exported_at(kernel, Size::Tiny, 1, compress, gzip)
}

fn exported_at(kernel: &str, size: Size, seed: u64, compress: bool, gzip: bool) -> Files {
    let bench = build(kernel, size, seed).unwrap();
    let (mut files, mut names) = (Files::default(), Vec::new());
    for (i, k) in bench.launches.iter().enumerate() {
        let mut text = Vec::new();
        export::write_kernel(k.as_ref(), i as u32 + 1, compress, &mut text).unwrap();
        if gzip {
            let mut z = GzEncoder::new(Vec::new(), flate2::Compression::fast());
            z.write_all(&text).unwrap();
            text = z.finish().unwrap();
        }
        let name = format!("kernel-{}.traceg", i + 1);
        files = files.with(&name, text);
        names.push(name);
    }
    let mut list = Vec::new();
    export::write_list(&names, &mut list).unwrap();
    files.with("kernelslist.g", list)
}

fn builtin(kernel: &str) -> Report {
    warpscope::run(preset("medic-gtx480").unwrap(), kernel, Size::Tiny, 1, None).unwrap()
}

/// `files` as a trace named `name`.
fn input(name: &str, files: Files) -> TraceInput {
    TraceInput { source: Rc::new(files), list: "kernelslist.g".into(), name: name.into(), select: None }
}

fn replayed(kernel: &str, files: Files) -> Report {
    replayed_on(preset("medic-gtx480").unwrap(), &input(kernel, files), None)
}

/// A replay on `cfg` whose profiling pass reads `profile` (the replayed trace without one).
fn replayed_on(cfg: Config, run: &TraceInput, profile: Option<&TraceInput>) -> Report {
    let mut sim = trace::simulator(cfg, run.open().unwrap(), 1, profile.unwrap_or(run)).unwrap();
    sim.run_until(u64::MAX);
    build_report(&sim)
}

/// The replay's report with its trace fields set as the built-in run has them.
fn as_builtin(mut r: Report) -> String {
    let t = r.trace.take().expect("a replay reports its trace");
    assert_eq!(t.error, None);
    assert_eq!(r.size, "trace");
    r.size = "tiny";
    serde_json::to_string_pretty(&r).unwrap()
}

#[test]
fn every_builtin_kernel_replays_to_its_own_report() {
    for (kernel, _) in KERNELS {
        let want = builtin(kernel);
        let got = replayed(kernel, exported(kernel, true, false));
        let t = got.trace.clone().unwrap();
        // Every warp ends in an EXIT, which issues nothing; the rest are the run's instructions.
        let exits: u64 = t.opcodes.iter().filter(|o| o.treatment == Treatment::Exit).map(|o| o.count).sum();
        assert_eq!(t.instructions - exits, want.warp_instructions, "{kernel}");
        assert_eq!(as_builtin(got), serde_json::to_string_pretty(&want).unwrap(), "{kernel}");
    }
}

#[test]
fn listed_addresses_and_gzip_replay_the_same() {
    let want = serde_json::to_string_pretty(&builtin("bfs")).unwrap();
    assert_eq!(as_builtin(replayed("bfs", exported("bfs", false, false))), want);
    assert_eq!(as_builtin(replayed("bfs", exported("bfs", true, true))), want);
}

#[test]
fn a_replay_runs_every_launch_in_order() {
    let bench = build("bfs", Size::Tiny, 1).unwrap();
    let replay = trace::open(Rc::new(exported("bfs", true, false)), "kernelslist.g", "bfs", None).unwrap();
    let names: Vec<String> = replay.launches.iter().map(|k| k.name()).collect();
    assert_eq!(names, bench.launches.iter().map(|k| k.name()).collect::<Vec<_>>());
    assert!(names.len() > 1);
    let sim = Simulator::with_benchmark(preset("medic-gtx480").unwrap(), replay, 1);
    assert_eq!(sim.benchmark().size_name(), "trace");
}

#[test]
fn a_sampled_replay_places_its_tail_windows_as_the_builtin_run_does() {
    // atax at small is one wave per launch, so its tails get windows, placed by counting
    // the instructions the warps have left: a trace must count them without using them up.
    let mut cfg = preset("medic-gtx480").unwrap();
    cfg.sample.windows = 8;
    let sim = Simulator::new(cfg.clone(), "atax", Size::Small, 1).unwrap();
    let want = run_sampled(sim, |_, _| {}, || false).0;
    let atax = input("atax", exported_at("atax", Size::Small, 1, true, false));
    let got = run_sampled(trace::simulator(cfg, atax.open().unwrap(), 1, &atax).unwrap(), |_, _| {}, || false).0;
    assert!(got.windows.iter().filter(|w| !w.exact).count() >= 8, "windows inside the tails");
    assert_eq!(serde_json::to_string(&got.windows).unwrap(), serde_json::to_string(&want.windows).unwrap());
    assert_eq!(got.estimate, want.estimate);
}

/// Coordinated bypassing (and its variants) on a trace profiles a second trace by traced PC:
/// with the built-in run's profiling input (the kernel at `coordinated.profile_size`, next
/// seed) exported as that trace, the replay gives the built-in run's report, for every
/// built-in kernel. The trace's loads, groups and their arrays are read from its
/// instructions and addresses, the built-in kernel's from its static description.
#[test]
fn coordinated_bypassing_on_a_trace_profiles_a_second_trace_as_the_builtin_run_profiles_its_kernel() {
    use warpscope::config::L1BypassKind as K;
    let mut differ = Vec::new();
    for (kind, (kernel, _)) in [K::Coordinated, K::StaticOnly, K::DynamicOnly, K::InstructionLevel]
        .into_iter()
        .flat_map(|k| KERNELS.iter().map(move |e| (k, e)))
    {
        let mut cfg = preset("xie-fermi").unwrap();
        cfg.l1d.bypass = kind;
        let want = warpscope::run(cfg.clone(), kernel, Size::Tiny, 1, None).unwrap();
        let run = input(kernel, exported(kernel, true, false));
        let profile = input("profile", exported_at(kernel, cfg.coordinated.profile_size, 2, true, false));
        let got = as_builtin(replayed_on(cfg.clone(), &run, Some(&profile)));
        if got != serde_json::to_string_pretty(&want).unwrap() {
            let b = want.bypass.as_ref().unwrap();
            let g: serde_json::Value = serde_json::from_str(&got).unwrap();
            eprintln!("{kind:?} {kernel}: want {:?} got {}", b.load_tags, g["bypass"]["load_tags"]);
            differ.push((kind, *kernel));
        }
    }
    assert!(differ.is_empty(), "{differ:?}");
}

/// A profiling trace the replay cannot read (the page's files, as the CLI's) stops the run
/// before it starts, naming the profiling trace, the file and the line.
#[test]
fn a_malformed_profiling_trace_is_an_error_with_its_file_and_line() {
    let mut cfg = preset("xie-fermi").unwrap();
    cfg.l1d.bypass = warpscope::config::L1BypassKind::Coordinated;
    let run = input("spmv", exported("spmv", true, false));
    let mut bad = exported_at("spmv", Size::Tiny, 2, true, false);
    let text = String::from_utf8(bad.0["kernel-1.traceg"].to_vec()).unwrap();
    let at = text.lines().position(|l| l.contains("LDG")).unwrap();
    let lines: Vec<&str> =
        text.lines().enumerate().map(|(i, l)| if i == at { "0003 ffffffff zz" } else { l }).collect();
    bad = bad.with("kernel-1.traceg", lines.join("\n"));
    let e = trace::simulator(cfg, run.open().unwrap(), 1, &input("spmv-profile", bad)).err().expect("refused");
    assert_eq!(e.0[0].field, "l1d.bypass");
    let want = format!("the profiling pass cannot read spmv-profile: kernel-1.traceg:{}: ", at + 1);
    assert!(e.0[0].message.starts_with(&want), "{e:?}");
}
