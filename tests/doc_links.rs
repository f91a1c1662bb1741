//! Every relative link in the README, the changelog and `docs/` names a file that exists, so
//! moving a page cannot leave a reader at a dead link.

use std::fs;
use std::path::{Path, PathBuf};

fn pages(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            pages(&p, out);
        } else if p.extension().is_some_and(|x| x == "md") {
            out.push(p);
        }
    }
}

/// The targets of a page's Markdown links `[text](target)`, without their `#anchor`.
fn link_targets(text: &str) -> Vec<&str> {
    text.match_indices("](")
        .filter_map(|(i, _)| {
            let rest = &text[i + 2..];
            let end = rest.find([')', ' ', '\n'])?;
            rest[..end].split('#').next()
        })
        .filter(|t| !t.is_empty() && !t.contains("://") && !t.starts_with("mailto:"))
        .collect()
}

#[test]
fn every_relative_link_in_the_docs_names_a_file_that_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![root.join("README.md"), root.join("CHANGELOG.md")];
    pages(&root.join("docs"), &mut files);
    let mut dead = Vec::new();
    for f in &files {
        let text = fs::read_to_string(f).unwrap();
        for t in link_targets(&text) {
            if !f.parent().unwrap().join(t).exists() {
                dead.push(format!("{}: {t}", f.strip_prefix(root).unwrap().display()));
            }
        }
    }
    assert!(files.len() > 10, "the docs were not found: {files:?}");
    assert!(dead.is_empty(), "links to files that do not exist:\n{}", dead.join("\n"));
}

#[test]
fn link_targets_drop_anchors_and_web_addresses() {
    let text = "see [a](docs/a.md#x), [b](https://x.org/b.md) and ![c](figures/c.svg)";
    assert_eq!(link_targets(text), ["docs/a.md", "figures/c.svg"]);
}
