//! Config paths renamed when policy parameters moved under their policies' own paths
//! (`<section>.<policy>.<parameter>`, e.g. `medic.rand_share` -> `l2.rand.share`). For one
//! release the readers accept the old paths: a document's old keys move to their new paths
//! before it is parsed, and `apply_set` takes an old path as its new one. The CLI warns
//! (`old_paths_in`, `current_path`). The page moves the keys of an old share link itself,
//! from this table (`renamed_paths` in the wasm layer), before the simulator sees them, so
//! the wasm build leaves the moving out (about 15 KB of the page's download).

use super::ConfigError;
use serde_json::Value;

/// Whether this build's readers take old paths (native builds: the CLI, tests).
const TAKES_OLD_PATHS: bool = cfg!(not(target_arch = "wasm32"));

/// (old path, new path) of every renamed field.
pub const RENAMED: &[(&str, &str)] = &[
    ("core.two_level_group", "core.two_level.group"),
    ("core.swl_limit", "core.swl.limit"),
    ("core.ccws_base_score", "core.ccws.base_score"),
    ("core.ccws_hit_score", "core.ccws.hit_score"),
    ("core.ccws_decay_cycles", "core.ccws.decay_cycles"),
    ("core.iwarp_timeout", "core.iwarp.timeout"),
    ("core.iwarp_quiet_accesses", "core.iwarp.quiet_accesses"),
    ("dram.sbwas_alpha", "dram.sbwas.alpha"),
    ("medic.rand_share", "l2.rand.share"),
    ("medic.pcal_tokens", "l2.pcal.tokens"),
    ("medic.pc_table", "l2.pc_byp.table"),
    ("medic.reuse_filter_bits", "l2.medic_reuse.filter_bits"),
];

/// The path that replaced `path`, if `path` is an old one.
pub fn current_path(path: &str) -> Option<&'static str> {
    if !TAKES_OLD_PATHS {
        return None;
    }
    RENAMED.iter().find(|(old, _)| *old == path).map(|&(_, new)| new)
}

/// The renamed fields a config document gives under their old paths, as (old, new).
pub fn old_paths_in(doc: &Value) -> Vec<(&'static str, &'static str)> {
    if !TAKES_OLD_PATHS {
        return Vec::new();
    }
    RENAMED.iter().copied().filter(|(old, _)| doc.pointer(&pointer(old)).is_some()).collect()
}

/// Moves every old key of `doc` to its new path (sections created as needed). A document
/// that gives a field under both paths is refused: which one it means is unclear.
pub(crate) fn migrate(doc: &mut Value) -> Result<(), ConfigError> {
    for (old, new) in old_paths_in(doc) {
        if doc.pointer(&pointer(new)).is_some() {
            return Err(ConfigError::new(
                old,
                format!("is the old name of {new}, which this config also gives; keep one"),
            ));
        }
        let (section, key) = old.split_once('.').expect("old paths are section.key");
        let value = doc[section].as_object_mut().and_then(|s| s.remove(key)).expect("found above");
        let mut node = &mut *doc;
        for part in new.split('.') {
            if !node.is_object() {
                // A section given as a value: parsing names it.
                return Ok(());
            }
            node =
                node.as_object_mut().expect("checked").entry(part).or_insert_with(|| Value::Object(Default::default()));
        }
        *node = value;
    }
    Ok(())
}

fn pointer(path: &str) -> String {
    format!("/{}", path.replace('.', "/"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn old_keys_move_to_their_new_paths() {
        let mut doc = json!({"medic": {"rand_share": 0.5, "reset_interval": 9}, "l2": {"size_kb": 1}});
        assert_eq!(old_paths_in(&doc), [("medic.rand_share", "l2.rand.share")]);
        migrate(&mut doc).unwrap();
        assert_eq!(doc, json!({"medic": {"reset_interval": 9}, "l2": {"size_kb": 1, "rand": {"share": 0.5}}}));
        assert_eq!(current_path("core.swl_limit"), Some("core.swl.limit"));
        assert_eq!(current_path("core.swl.limit"), None);
    }

    #[test]
    fn a_field_under_both_paths_is_refused() {
        let mut doc = json!({"dram": {"sbwas_alpha": 0.1, "sbwas": {"alpha": 0.2}}});
        let e = migrate(&mut doc).unwrap_err();
        assert_eq!(e.field, "dram.sbwas_alpha");
        assert!(e.message.contains("dram.sbwas.alpha"), "{e}");
    }
}
