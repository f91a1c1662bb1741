//! The library's layering (docs/architecture.md, "Layers"): which top-level module of `src/`
//! may import which. It reads every `crate::` path of `src/**/*.rs`, builds the graph among
//! top-level modules and fails on an import that goes up a layer or closes a circle, naming
//! it. Unit-test modules (`#[cfg(test)] mod ...`) are left out: they are compiled into tests
//! only, and a component's tests may build a whole machine from a preset. The binary
//! (`src/bin/`) sits above everything and is not read.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The layers, bottom first. A module may import its own layer and those below.
const LAYERS: &[(&str, &[&str])] = &[
    // Plain types and machinery every layer uses; they import nothing of the crate above them.
    ("ground", &["clock", "queue", "mem", "histogram", "settings", "trace_text"]),
    // The machine's parts: each owns its policy families, their names and parameters.
    ("parts", &["icnt", "kernels", "dram", "cache", "core"]),
    // The whole machine's description, composed of the parts' sections.
    ("config", &["config"]),
    // Building and running a machine.
    ("machine", &["partition", "sim", "trace"]),
    // What runs produce: reports, charts, figures, sampled estimates.
    ("results", &["stats", "speedup", "plot", "figures", "sample"]),
    // The browser's entry points.
    ("wasm", &["wasm"]),
];

/// Top-level module -> module it imports -> where (file:line), among the library's modules.
type Graph = BTreeMap<String, BTreeMap<String, Vec<String>>>;

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The files of modules declared `#[cfg(test)] mod name;` (test-only, out of line).
fn test_module_files(files: &[PathBuf]) -> BTreeSet<PathBuf> {
    let mut out = BTreeSet::new();
    for f in files {
        let text = fs::read_to_string(f).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        for w in lines.windows(2) {
            let decl = w[1].trim();
            if w[0].trim() != "#[cfg(test)]" || !decl.ends_with(';') {
                continue;
            }
            let Some(name) = decl.trim_end_matches(';').split_whitespace().last() else { continue };
            // `a/mod.rs` and `a.rs` both keep their children in `a/`.
            let dir = match f.file_name().and_then(|n| n.to_str()) {
                Some("mod.rs") | Some("lib.rs") => f.parent().unwrap().to_path_buf(),
                _ => f.with_extension(""),
            };
            out.insert(dir.join(format!("{name}.rs")));
            out.insert(dir.join(name));
        }
    }
    out
}

/// The code of a file up to its inline test module, without comments.
fn code_lines(text: &str) -> Vec<(usize, String)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let next = lines.get(i + 1).map_or("", |l| l.trim());
        if line.trim() == "#[cfg(test)]" && next.contains("mod ") && next.ends_with('{') {
            break;
        }
        let code = line.split("//").next().unwrap_or("");
        out.push((i + 1, code.to_string()));
    }
    out
}

/// The names `lib.rs` re-exports at the crate root, with the module each comes from
/// (`crate::Config` is `config`'s).
fn root_names() -> BTreeMap<String, String> {
    let lib = fs::read_to_string(src().join("lib.rs")).unwrap();
    let mut out = BTreeMap::new();
    for (_, line) in code_lines(&lib) {
        let Some(rest) = line.trim().strip_prefix("pub use ") else { continue };
        let Some((module, names)) = rest.split_once("::") else { continue };
        for name in names.trim_end_matches(';').trim_matches(['{', '}']).split(',') {
            let name = name.trim().rsplit("::").next().unwrap_or("").to_string();
            out.insert(name, module.to_string());
        }
    }
    out
}

/// The first path segments after each `crate::` on a line: `crate::a::b` gives `a`,
/// `crate::{a::b, c}` gives `a` and `c`.
fn crate_paths(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(i) = rest.find("crate::") {
        let before = rest[..i].chars().last();
        rest = &rest[i + "crate::".len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$') {
            continue; // `$crate::` in a macro, or part of a longer name
        }
        if let Some(group) = rest.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            for item in group[..end].split(',') {
                out.push(item.trim().split("::").next().unwrap_or("").to_string());
            }
        } else {
            let end = rest.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(rest.len());
            out.push(rest[..end].to_string());
        }
    }
    out
}

fn graph() -> (Graph, BTreeSet<String>) {
    let root = src();
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    let tests = test_module_files(&files);
    let modules: BTreeSet<String> = files
        .iter()
        .filter_map(|f| f.strip_prefix(&root).unwrap().components().next())
        .map(|c| c.as_os_str().to_str().unwrap().trim_end_matches(".rs").to_string())
        .filter(|m| m != "lib" && m != "bin")
        .collect();
    let names = root_names();
    let mut g = Graph::new();
    for f in &files {
        let rel = f.strip_prefix(&root).unwrap();
        let top = rel.components().next().unwrap().as_os_str().to_str().unwrap().trim_end_matches(".rs");
        if !modules.contains(top) || tests.iter().any(|t| f.starts_with(t)) {
            continue;
        }
        for (n, line) in code_lines(&fs::read_to_string(f).unwrap()) {
            for first in crate_paths(&line) {
                let to = names.get(&first).cloned().unwrap_or(first);
                if to != top && modules.contains(&to) {
                    let at = format!("src/{}:{n}", rel.display());
                    g.entry(top.to_string()).or_default().entry(to).or_default().push(at);
                }
            }
        }
    }
    (g, modules)
}

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|(_, ms)| ms.contains(&module))
}

/// A path of imports from `from` to `to`, if there is one.
fn path(g: &Graph, from: &str, to: &str) -> Option<Vec<String>> {
    let mut seen = BTreeSet::new();
    let mut stack = vec![vec![from.to_string()]];
    while let Some(p) = stack.pop() {
        let last = p.last().unwrap().clone();
        if last == to {
            return Some(p);
        }
        if !seen.insert(last.clone()) {
            continue;
        }
        for next in g.get(&last).into_iter().flat_map(|m| m.keys()) {
            let mut q = p.clone();
            q.push(next.clone());
            stack.push(q);
        }
    }
    None
}

#[test]
fn every_module_has_a_layer() {
    let (_, modules) = graph();
    let missing: Vec<&String> = modules.iter().filter(|m| layer_of(m).is_none()).collect();
    assert!(missing.is_empty(), "give these modules a layer in LAYERS and docs/architecture.md: {missing:?}");
}

#[test]
fn imports_go_down_the_layers_and_never_round_a_circle() {
    let (g, _) = graph();
    let mut problems = Vec::new();
    for (from, tos) in &g {
        for (to, at) in tos {
            let (Some(a), Some(b)) = (layer_of(from), layer_of(to)) else { continue };
            let circle = path(&g, to, from).map(|p| format!("; it closes the circle {from} -> {}", p.join(" -> ")));
            if a < b || circle.is_some() {
                problems.push(format!(
                    "{from} ({}) imports {to} ({}) at {}{}",
                    LAYERS[a].0,
                    LAYERS[b].0,
                    at.join(", "),
                    circle.unwrap_or_default()
                ));
            }
        }
    }
    assert!(problems.is_empty(), "imports against the layering:\n{}", problems.join("\n"));
}

#[test]
fn paths_are_read_from_use_lines_groups_and_the_root() {
    assert_eq!(crate_paths("use crate::config::{Checker, Config};"), ["config"]);
    assert_eq!(crate_paths("use crate::{cache::l1::L1, ConfigError};"), ["cache", "ConfigError"]);
    assert_eq!(crate_paths("$crate::settings::params::serialize(x); crate::mem::WARP_SIZE"), ["mem"]);
    assert_eq!(
        code_lines("use crate::a; // crate::b\n#[cfg(test)]\nmod tests {\nuse crate::c;")[0].1,
        "use crate::a; "
    );
    assert_eq!(root_names().get("Config").map(String::as_str), Some("config"));
}
