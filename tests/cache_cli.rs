//! `warpscope cache`, the single-cache teaching mode, as a student runs it.

use serde_json::Value;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

/// Writes `trace` to a file of its own under the target directory's temp dir.
fn trace_file(name: &str, trace: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cache_cli");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{name}.trace"));
    std::fs::write(&path, trace).unwrap();
    path
}

fn cache(args: &[&str], trace: &str, name: &str) -> Output {
    let path = trace_file(name, trace);
    Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .arg("cache")
        .args(args)
        .arg("--trace")
        .arg(&path)
        .output()
        .expect("the binary runs")
}

fn report(args: &[&str], trace: &str, name: &str) -> Value {
    let o = cache(args, trace, name);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).expect("the report is JSON")
}

fn error(args: &[&str], trace: &str, name: &str) -> String {
    let o = cache(args, trace, name);
    assert!(!o.status.success(), "expected a failure: {}", String::from_utf8_lossy(&o.stdout));
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Per set: (accesses, misses).
fn per_set(r: &Value) -> Vec<(u64, u64)> {
    let sets = r["sets"].as_array().unwrap();
    for (i, s) in sets.iter().enumerate() {
        assert_eq!(s["set"], i as u64);
    }
    sets.iter().map(|s| (s["accesses"].as_u64().unwrap(), s["misses"].as_u64().unwrap())).collect()
}

const DIRECT_MAPPED: &str = "0x00\n0x04\n0x10\n0x40\n0x00\n0x14\n0x44\n0x10\n0x80\n0x04\n";

#[test]
fn direct_mapped_textbook_exercise() {
    // 4 sets x 16 B lines: blocks 0 0 1 4 0 1 4 1 8 0 in sets 0 0 1 0 0 1 0 1 0 0.
    // Hits: 0x04 (block 0 just loaded), 0x14 and 0x10 (block 1 never leaves set 1).
    let r = report(&["--sets", "4", "--ways", "1", "--line", "16"], DIRECT_MAPPED, "direct");
    assert_eq!((r["accesses"].as_u64(), r["hits"].as_u64(), r["misses"].as_u64()), (Some(10), Some(3), Some(7)));
    assert_eq!(r["hit_rate"].as_f64(), Some(0.3));
    assert_eq!(per_set(&r), [(7, 6), (3, 1), (0, 0), (0, 0)]);
    assert_eq!(r["evictions"], 5);
    // The same cache given by its size.
    let by_size = report(&["--size", "64", "--ways", "1", "--line", "16"], DIRECT_MAPPED, "direct-size");
    assert_eq!(by_size["misses"], 7);
}

#[test]
fn two_way_lru_set() {
    // One set of interest (set 0 of 2): A=0x00, B=0x20, C=0x40.
    // A B A C A B C B: M M H M(evicts B, the LRU) H M(evicts C) M(evicts A) H.
    let trace = "0x00\n0x20\n0x00\n0x40\n0x00\n0x20\n0x40\n0x20\n";
    let r = report(&["--sets", "2", "--ways", "2", "--line", "16", "--policy", "lru"], trace, "lru");
    assert_eq!((r["hits"].as_u64(), r["misses"].as_u64(), r["evictions"].as_u64()), (Some(3), Some(5), Some(3)));
    assert_eq!(per_set(&r), [(8, 5), (0, 0)]);
}

#[test]
fn comments_blank_lines_and_access_kinds() {
    let trace = "# a trace\n\nR 0x100\nr 256   # same line, decimal\n  W\t0x104\nw 0X200\n\n4096\n";
    let r = report(&["--sets", "4", "--ways", "2", "--line", "64"], trace, "kinds");
    assert_eq!((r["reads"].as_u64(), r["writes"].as_u64()), (Some(3), Some(2)));
    assert_eq!((r["hits"].as_u64(), r["misses"].as_u64()), (Some(2), Some(3)));
    let no_alloc =
        report(&["--sets", "4", "--ways", "2", "--line", "64", "--write", "no-allocate"], "W 0\nR 0\n", "na");
    assert_eq!((no_alloc["write_misses"].as_u64(), no_alloc["read_misses"].as_u64()), (Some(1), Some(1)));
}

#[test]
fn the_report_has_every_documented_key() {
    let r = report(&["--sets", "4", "--ways", "1", "--line", "16"], DIRECT_MAPPED, "keys");
    for key in [
        "accesses",
        "hits",
        "misses",
        "hit_rate",
        "miss_rate",
        "reads",
        "read_misses",
        "writes",
        "write_misses",
        "evictions",
        "writebacks",
        "sets_used",
        "sets",
    ] {
        assert!(r.get(key).is_some(), "missing {key}");
    }
    for key in ["sets", "ways", "line_bytes", "size_bytes", "set_index", "policy", "write"] {
        assert!(r["cache"].get(key).is_some(), "missing cache.{key}");
    }
}

#[test]
fn bxor_spreads_a_column_walk_that_linear_puts_in_one_set() {
    // 32 rows of a 2048-float row-major matrix, one column: 8 KB apart.
    let trace: String = (0..32u64).map(|r| format!("{:#x}\n", 0x4000_0000 + r * 8192)).collect();
    let geometry = ["--size", "16384", "--ways", "4", "--line", "128", "--set-index"];
    let used = |name: &str| {
        let args: Vec<&str> = geometry.iter().copied().chain([name]).collect();
        report(&args, &trace, &format!("column-{name}"))["sets_used"].as_u64().unwrap()
    };
    assert_eq!(used("linear"), 1);
    assert!(used("bxor") >= 16);
}

#[test]
fn a_malformed_line_is_reported_with_its_number() {
    let e = error(&["--sets", "4", "--ways", "1", "--line", "16"], "0x0\n# fine\n\nR 0x10\n0xZZ\n", "bad");
    assert!(e.contains("--trace: line 5: \"0xZZ\" is not an address"), "{e}");
    let e = error(&["--sets", "4", "--ways", "1", "--line", "16"], "0x0\nread 0x10\n", "bad-kind");
    assert!(e.contains("line 2") && e.contains("\"read\""), "{e}");
}

#[test]
fn bad_geometry_names_the_flag() {
    let cases: [(&[&str], &str); 8] = [
        (&["--sets", "6", "--ways", "1", "--line", "16"], "--sets"),
        (&["--sets", "4", "--ways", "1", "--line", "24"], "--line"),
        (&["--sets", "4", "--ways", "0", "--line", "16"], "--ways"),
        (&["--sets", "4", "--size", "128", "--ways", "1", "--line", "16"], "--size"),
        (&["--ways", "1", "--line", "16"], "--sets"),
        (&["--size", "48", "--ways", "4", "--line", "4"], "--size"),
        (&["--sets", "8", "--ways", "1", "--line", "16", "--set-index", "ipoly"], "--set-index"),
        (&["--sets", "4", "--ways", "1", "--line", "16", "--policy", "fifo"], "--policy"),
    ];
    for (args, flag) in cases {
        let e = error(args, "0x0\n", "geometry");
        assert!(e.starts_with(&format!("error: {flag}: ")), "{args:?}: {e}");
    }
    let e = error(&["--sets", "4", "--ways", "1", "--line", "16", "--set-index", "xor"], "0x0\n", "name");
    for name in ["linear", "bxor", "pmod", "a_prime", "d_prime", "ipoly", "fermi"] {
        assert!(e.contains(name), "{e}");
    }
}

#[test]
fn a_dash_reads_the_trace_from_stdin() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .args(["cache", "--sets", "4", "--ways", "1", "--line", "16", "--trace", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(DIRECT_MAPPED.as_bytes()).unwrap();
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success());
    let r: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(r["misses"], 7);
}

/// The text of the first fenced block after `marker` in the CLI guide (docs/cli.md).
fn readme_block(readme: &str, marker: &str) -> String {
    let after = &readme[readme.find(marker).unwrap_or_else(|| panic!("docs/cli.md lost {marker:?}"))..];
    let body = &after[after.find("```").unwrap()..];
    let body = &body[body.find('\n').unwrap() + 1..];
    body[..body.find("```").unwrap()].to_string()
}

#[test]
fn the_documented_example_prints_what_the_docs_show() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/cli.md")).unwrap();
    let trace = readme_block(&readme, "For example, `textbook.trace`:");
    let shown: Value = serde_json::from_str(&readme_block(&readme, "--trace textbook.trace` prints")).unwrap();
    assert_eq!(report(&["--sets", "4", "--ways", "1", "--line", "16"], &trace, "readme"), shown);
}
