//! `warpscope figure`: every paper figure runs at the tiny size and is written as SVG; PNG
//! and CSV by extension; bad names and formats are refused before anything is simulated.

use std::path::PathBuf;
use std::process::{Command, Output};

fn warpscope(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_warpscope")).args(args).output().expect("the binary runs")
}

fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("warpscope-figure-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn names() -> Vec<String> {
    let o = warpscope(&["figure", "--list"]);
    assert!(o.status.success());
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .filter(|l| !l.starts_with(' '))
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .collect()
}

#[test]
fn the_list_names_every_figure_of_the_issue() {
    let expected = [
        "medic-fig3",
        "medic-fig11",
        "medic-fig14",
        "sound-fig3",
        "sound-fig6",
        "sound-fig10",
        "sound-fig12",
        "iwarp-fig2",
        "iwarp-fig10",
        "xie-fig7",
        "sc14-fig9",
        "sc14-fig10",
        "sc14-fig11",
    ];
    assert_eq!(names(), expected);
}

#[test]
fn every_figure_is_written_as_svg_with_a_verdict() {
    let dir = temp_dir("svg");
    for name in names() {
        let path = dir.join(format!("{name}.svg"));
        let o = warpscope(&["figure", &name, "--size", "tiny", "--out", path.to_str().unwrap()]);
        let stdout = String::from_utf8_lossy(&o.stdout);
        assert!(o.status.success(), "{name}: {}", String::from_utf8_lossy(&o.stderr));
        assert!(stdout.contains("paper:") && stdout.contains("ours:"), "{name}: {stdout}");
        assert!(["agrees", "partly agrees", "differs"].iter().any(|w| stdout.contains(&format!("ours:   {w} — "))));
        let svg = std::fs::read_to_string(&path).unwrap();
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"), "{name}");
        assert!(svg.matches("<rect").count() > 4, "{name} has too few bars");
    }
}

#[test]
fn png_and_csv_are_chosen_by_extension_and_match_the_runs() {
    let dir = temp_dir("png");
    let png = dir.join("f.png");
    let o = warpscope(&["figure", "sc14-fig11", "--size", "tiny", "--out", png.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    let csv = dir.join("f.csv");
    let o = warpscope(&["figure", "sc14-fig11", "--size", "tiny", "--out", csv.to_str().unwrap()]);
    assert!(o.status.success());
    let text = std::fs::read_to_string(&csv).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("kernel,GMC: data bus busy (%),WG:"), "{}", lines[0]);
    assert_eq!(lines.len(), 6, "a header and five kernels: {text}");
    assert!(lines[1].starts_with("bfs,"));
}

#[test]
fn a_bad_name_or_format_fails_with_the_valid_choices() {
    let o = warpscope(&["figure", "medic-fig99", "--size", "tiny"]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("unknown figure `medic-fig99`") && err.contains("sc14-fig11"), "{err}");
    let o = warpscope(&["figure", "xie-fig7", "--out", "/nonexistent/f.pdf"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("end the name in .svg, .png or .csv"));
    let o = warpscope(&["figure"]);
    assert!(!o.status.success());
}

#[test]
fn a_bad_size_fails_before_simulating_and_writes_nothing() {
    let dir = temp_dir("size");
    for (w, h) in [("100000", "100000"), ("1", "1"), ("16384", "16384")] {
        let png = dir.join(format!("{w}x{h}.png"));
        let args = ["figure", "medic-fig3", "--size", "tiny", "--width", w, "--height", h, "--out"];
        let o = warpscope(&[&args[..], &[png.to_str().unwrap()]].concat());
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{w}x{h}: {err}");
        assert!(err.starts_with("error: --width/--height: "), "{w}x{h}: {err}");
        assert!(!png.exists(), "{w}x{h} left {}", png.display());
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn an_unknown_name_fails_even_with_list() {
    let o = warpscope(&["figure", "nope", "--list"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("unknown figure `nope`"));
    let o = warpscope(&["figure", "medic-fig3", "--list"]);
    let listing = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success() && listing.starts_with("medic-fig3 "), "{listing}");
    assert_eq!(listing.lines().count(), 2, "only the named figure: {listing}");
    assert_eq!(warpscope(&["figure", "medic-fig3", "--jobs", "0"]).status.code(), Some(2));
}

#[test]
fn a_sampled_figure_simulates_its_cycle_window_runs_whole() {
    // sound-fig10 looks at the first 20 000 cycles of each run, less than one window's
    // warm-up and measurement: sampled, it must give the full figure, marked estimated.
    let args = ["figure", "sound-fig10", "--size", "tiny", "--quiet"];
    let whole = warpscope(&args);
    let sampled = warpscope(&[&args[..], &["--sample", "5"]].concat());
    assert!(whole.status.success() && sampled.status.success(), "{}", String::from_utf8_lossy(&sampled.stderr));
    let sampled = String::from_utf8_lossy(&sampled.stdout);
    let (first, rest) = sampled.split_once('\n').unwrap();
    assert!(first.starts_with("ESTIMATED:") && first.contains("cycle window"), "{first}");
    assert_eq!(rest, String::from_utf8_lossy(&whole.stdout));
}

#[test]
fn one_sampled_window_is_refused_before_anything_runs() {
    let o = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .args(["figure", "medic-fig3", "--size", "tiny", "--sample", "1"])
        .output()
        .expect("the binary runs");
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.starts_with("error: --sample: 1 window gives estimates with no interval"), "{err}");
}
