//! The page's demos say what their runs show; this runs every demo's runs exactly as
//! `www/demos.json` gives them (the file the page loads) and checks each claim a demo
//! makes about its own numbers, so a sentence cannot outlive the simulator it describes.
//!
//! A claim is `{a: [run, path], op, b: [run, path] | number, by?}`: the report value at
//! `path` (dotted, list indices as numbers) of run `a` is `op` (`>`, `<`, `>=`, `<=`) that
//! of run `b` (or the number), by a factor `by` (`a > by * b`, `a * by < b`) when given.

use serde::Deserialize;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use warpscope::config::{apply_set, parse_config_value, preset};
use warpscope::{run, Size};

#[derive(Deserialize)]
struct Group {
    title: String,
    demos: Vec<Demo>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Demo {
    id: String,
    title: String,
    seconds: u32,
    text: String,
    runs: Vec<Run>,
    claims: Vec<Claim>,
}

#[derive(Deserialize, Clone, PartialEq, Eq, PartialOrd, Ord)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Run {
    preset: String,
    kernel: String,
    size: String,
    seed: u64,
    max_cycles: Option<u64>,
    #[serde(deserialize_with = "as_text")]
    sets: BTreeMap<String, String>,
}

/// A set's value as the CLI's `--set path=value` takes it (the page writes numbers bare).
fn as_text<'de, D: serde::Deserializer<'de>>(d: D) -> Result<BTreeMap<String, String>, D::Error> {
    let sets = BTreeMap::<String, Value>::deserialize(d)?;
    Ok(sets.into_iter().map(|(k, v)| (k, v.as_str().map_or_else(|| v.to_string(), str::to_string))).collect())
}

impl Run {
    fn report(&self) -> Value {
        let mut doc = serde_json::to_value(preset(&self.preset).expect("a preset")).unwrap();
        for (path, raw) in &self.sets {
            apply_set(&mut doc, path, raw).unwrap_or_else(|e| panic!("{path}={raw}: {e:?}"));
        }
        let cfg = parse_config_value(doc).expect("a valid config");
        let size = Size::parse(&self.size).expect("a size");
        serde_json::to_value(run(cfg, &self.kernel, size, self.seed, self.max_cycles).expect("the run starts")).unwrap()
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Claim {
    a: (usize, String),
    op: String,
    b: Operand,
    by: Option<f64>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum Operand {
    Run(usize, String),
    Number(f64),
}

fn demos() -> Vec<(String, Demo)> {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/www/demos.json")).unwrap();
    let groups: Vec<Group> = serde_json::from_str(&text).expect("www/demos.json parses");
    groups.into_iter().flat_map(|g| g.demos.into_iter().map(move |d| (g.title.clone(), d))).collect()
}

fn value(report: &Value, path: &str) -> f64 {
    let pointer = format!("/{}", path.replace('.', "/"));
    report.pointer(&pointer).and_then(Value::as_f64).unwrap_or_else(|| panic!("no number at {path}"))
}

#[test]
fn the_demos_are_well_formed_and_none_repeats_a_run() {
    let demos = demos();
    let mut ids = BTreeSet::new();
    let mut run_lists = BTreeMap::new();
    for (group, d) in &demos {
        assert!(ids.insert(d.id.clone()), "demo id {} twice", d.id);
        assert!(!group.is_empty() && !d.title.is_empty() && d.text.ends_with('.'), "{}", d.id);
        assert!(d.seconds > 0, "{} says how long it takes", d.id);
        let unique: BTreeSet<&Run> = d.runs.iter().collect();
        assert_eq!(unique.len(), d.runs.len(), "{} runs one simulation twice", d.id);
        if let Some(other) = run_lists.insert(d.runs.clone(), d.id.clone()) {
            panic!("{} and {other} run the same simulations", d.id);
        }
        for c in &d.claims {
            assert!([">", "<", ">=", "<="].contains(&c.op.as_str()), "{}: op {}", d.id, c.op);
            let b_run = match c.b {
                Operand::Run(i, _) => i,
                Operand::Number(_) => 0,
            };
            assert!(c.a.0 < d.runs.len() && b_run < d.runs.len(), "{}: a claim names a run it lacks", d.id);
        }
    }
}

#[test]
fn every_demo_claim_holds_on_its_own_runs() {
    let demos = demos();
    // Demos share runs (bfs on the MeDiC machine is in four): each runs once.
    let unique: BTreeSet<Run> = demos.iter().flat_map(|(_, d)| d.runs.iter().cloned()).collect();
    let unique: Vec<Run> = unique.into_iter().collect();
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get()).min(unique.len());
    let reports: BTreeMap<Run, Value> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let mine: Vec<&Run> = unique.iter().skip(t).step_by(threads).collect();
                s.spawn(move || mine.into_iter().map(|r| (r.clone(), r.report())).collect::<Vec<_>>())
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().unwrap()).collect()
    });
    let mut failed = Vec::new();
    for (_, d) in &demos {
        let of = |i: usize, path: &str| value(&reports[&d.runs[i]], path);
        for c in &d.claims {
            let a = of(c.a.0, &c.a.1);
            let b = match &c.b {
                Operand::Run(i, path) => of(*i, path),
                Operand::Number(x) => *x,
            };
            let by = c.by.unwrap_or(1.0);
            let holds = match c.op.as_str() {
                ">" => a > by * b,
                ">=" => a >= by * b,
                "<" => a * by < b,
                _ => a * by <= b,
            };
            if !holds {
                failed.push(format!("{}: run {} {} = {a} is not {} {b} (by {by})", d.id, c.a.0, c.a.1, c.op));
            }
        }
    }
    assert!(failed.is_empty(), "claims that do not hold:\n{}", failed.join("\n"));
}
