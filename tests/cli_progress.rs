//! The CLI on long work: progress goes to stderr only, so stdout stays byte-identical to the
//! goldens in tests/golden/cli (written before progress existed), and Ctrl-C stops a run or a
//! sweep cleanly with exit status 130, keeping what finished.
//!
//! After an intended change to the simulator or the tables, rewrite the goldens with
//! `UPDATE_GOLDEN=1 cargo test --release --test cli_progress` and review the diff.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc;
use std::time::Duration;

fn warpscope(args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_warpscope"));
    // A line after every chunk, so even tiny runs show progress lines.
    c.args(args).env("WARPSCOPE_PROGRESS_INTERVAL_MS", "0").stdin(Stdio::null());
    c
}

fn golden(name: &str, stdout: &str) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden/cli").join(name);
    if std::env::var_os("UPDATE_GOLDEN").is_some_and(|v| v == "1") {
        std::fs::write(&path, stdout).expect("write golden");
        return;
    }
    let want = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert!(stdout == want, "stdout differs from {}:\n{stdout}", path.display());
}

/// Runs a command with stderr a pipe (not a terminal): stdout matches its golden, stderr has
/// progress lines prefixed with `what` and its closing line; `--quiet` gives the same stdout
/// and no stderr.
fn check(name: &str, what: &str, args: &[&str]) {
    let o = warpscope(args).output().expect("the binary runs");
    let (stdout, stderr) = (String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    assert!(o.status.success(), "{stderr}");
    golden(name, &stdout);
    let lines: Vec<&str> = stderr.lines().collect();
    assert!(lines.len() >= 2, "progress lines and a closing line on stderr:\n{stderr}");
    assert!(lines.iter().all(|l| l.starts_with(&format!("{what}: "))), "{stderr}");
    assert!(lines.iter().any(|l| l.contains("cycles/s") && l.contains("elapsed") && l.contains("left")), "{stderr}");
    assert!(lines.last().unwrap().contains(" in "), "a closing line says how long it took:\n{stderr}");
    let quiet = warpscope(&[args, &["--quiet"]].concat()).output().expect("the binary runs");
    assert_eq!(String::from_utf8_lossy(&quiet.stdout), stdout);
    assert_eq!(String::from_utf8_lossy(&quiet.stderr), "", "--quiet shows no progress");
}

#[test]
fn run_keeps_stdout_and_shows_progress_on_stderr() {
    check("run.txt", "run bfs", &["run", "--kernel", "bfs", "--size", "tiny", "--seed", "5"]);
}

#[test]
fn sweep_keeps_stdout_and_shows_progress_on_stderr() {
    let args = ["sweep", "--kernel", "bfs,atax", "--size", "tiny", "--set", "l1d.size_kb=16,32", "--jobs", "2"];
    check("sweep.txt", "sweep", &args);
}

#[test]
fn compare_keeps_stdout_and_shows_progress_on_stderr() {
    let args = ["compare", "--size", "tiny", "--kernels", "bfs,atax", "--policies", "medic,wip", "--jobs", "2"];
    check("compare.txt", "compare", &args);
}

#[test]
fn figure_keeps_stdout_and_shows_progress_on_stderr() {
    check("figure.txt", "figure medic-fig11", &["figure", "medic-fig11", "--size", "tiny", "--jobs", "2"]);
}

/// Starts `args` with a progress line every 100 ms and sends it SIGINT once a stderr line
/// passes `ready`; returns its output, stderr included.
fn interrupt_when(args: &[&str], ready: impl Fn(&str) -> bool) -> Output {
    let mut child: Child = warpscope(args)
        .env("WARPSCOPE_PROGRESS_INTERVAL_MS", "100")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let (tx, rx) = mpsc::channel();
    let stderr = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut all = String::new();
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            let _ = tx.send(line.clone());
            all += &line;
            all += "\n";
        }
        all
    });
    loop {
        match rx.recv_timeout(Duration::from_secs(30)) {
            Ok(line) if ready(&line) => break,
            Ok(_) => {}
            Err(e) => {
                let _ = child.kill();
                panic!("no progress line was ready ({e}); stderr so far:\n{}", reader.join().unwrap());
            }
        }
    }
    let sent = Command::new("kill").args(["-INT", &child.id().to_string()]).status().expect("kill runs");
    assert!(sent.success());
    let mut o = child.wait_with_output().expect("the binary ends");
    o.stderr = reader.join().unwrap().into_bytes();
    o
}

#[test]
fn ctrl_c_stops_a_sweep_keeping_the_finished_rows() {
    let dir = std::env::temp_dir().join(format!("warpscope-progress-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let csv = dir.join("sweep.csv");
    let sizes = ["16", "32", "64", "128"];
    let points = format!("l1d.size_kb={}", sizes.join(","));
    let args = ["sweep", "--kernel", "bfs", "--size", "small", "--set", &points, "--jobs", "1", "--metrics", "cycles"];
    let o = interrupt_when(&[&args[..], &["--out", csv.to_str().unwrap()]].concat(), |l| {
        l.starts_with("sweep: ") && !l.starts_with("sweep: 0/")
    });
    let (stdout, stderr) = (String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    assert_eq!(o.status.code(), Some(130), "interrupted exit status\n{stderr}");
    // The finished points are in the table and the CSV, the others named on stderr; each
    // point is in exactly one of the two.
    let rows: Vec<&str> = stdout.lines().skip(1).collect();
    let csv_rows = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(csv_rows.lines().count(), rows.len() + 1, "{csv_rows}");
    let unfinished = stderr.lines().find(|l| l.contains("did not finish:")).unwrap_or_else(|| panic!("{stderr}"));
    for size in sizes {
        let label = format!("bfs at l1d.size_kb={size}");
        let done = rows.iter().any(|r| r.split_whitespace().take(2).eq(["bfs", size]));
        assert!(done != unfinished.contains(&label), "{label}: finished {done}\n{stdout}\n{stderr}");
    }
    assert!(!rows.is_empty() && rows.len() < sizes.len(), "{stdout}\n{stderr}");
    // A finished row is the row an uninterrupted run gives.
    let first = csv_rows.lines().nth(1).unwrap();
    let whole = warpscope(&["sweep", "--kernel", "bfs", "--size", "small", "--set", "l1d.size_kb=16", "--quiet"])
        .args(["--metrics", "cycles", "--out", dir.join("one.csv").to_str().unwrap()])
        .output()
        .unwrap();
    assert!(whole.status.success());
    assert_eq!(std::fs::read_to_string(dir.join("one.csv")).unwrap().lines().nth(1), Some(first));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn ctrl_c_stops_a_run_with_its_report_so_far() {
    let args = ["run", "--kernel", "bfs", "--size", "small", "--format", "json"];
    let o = interrupt_when(&args, |l| l.starts_with("run bfs: ") && l.contains("% of CTAs"));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(130), "{stderr}");
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).expect("a JSON report");
    assert_eq!(report["interrupted"], true);
    assert_eq!(report["completed"], false);
    assert!(report["cycles"].as_u64().unwrap() > 0);
    assert!(stderr.contains("did not finish: bfs"), "{stderr}");
}
