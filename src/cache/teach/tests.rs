use super::*;

fn args(sets: u32, ways: u32, line: u32) -> CacheArgs<'static> {
    CacheArgs { sets: Some(sets), size: None, ways, line, set_index: "linear", policy: "lru", write: "allocate" }
}

fn run(a: &CacheArgs, trace: &str) -> CacheReport {
    simulate(&a.spec().unwrap(), &parse_trace(trace).unwrap())
}

fn err(a: CacheArgs) -> ConfigError {
    a.spec().unwrap_err()
}

#[test]
fn direct_mapped_textbook_exercise() {
    // 4 sets x 16 B: blocks 0 0 1 4 0 1 4 1 8 0 land in sets 0 0 1 0 0 1 0 1 0 0;
    // blocks 0, 4 and 8 keep evicting each other from set 0.
    let r = run(&args(4, 1, 16), "0x00\n0x04\n0x10\n0x40\n0x00\n0x14\n0x44\n0x10\n0x80\n0x04\n");
    assert_eq!((r.accesses, r.hits, r.misses, r.evictions), (10, 3, 7, 5));
    assert!((r.hit_rate - 0.3).abs() < 1e-12);
    let per_set: Vec<(u64, u64)> = r.sets.iter().map(|s| (s.accesses, s.misses)).collect();
    assert_eq!(per_set, [(7, 6), (3, 1), (0, 0), (0, 0)]);
    assert_eq!(r.sets_used, 2);
}

#[test]
fn two_way_lru_evicts_the_least_recently_used_line() {
    // Set 0 of 2: blocks 0, 2, 4. The hit on 0 makes 2 the LRU line, so 4 evicts 2.
    let r = run(&args(2, 2, 16), "0x00\n0x20\n0x00\n0x40\n0x00\n0x20\n0x40\n0x20\n");
    assert_eq!((r.hits, r.misses, r.evictions), (3, 5, 3));
    assert_eq!((r.sets[0].accesses, r.sets[1].accesses), (8, 0));
}

#[test]
fn write_no_allocate_leaves_the_cache_alone_on_a_write_miss() {
    let trace = "W 0x0\nR 0x0\nW 0x0\nR 0x10\n";
    let alloc = run(&args(1, 1, 16), trace);
    assert_eq!((alloc.misses, alloc.write_misses, alloc.read_misses, alloc.writebacks), (2, 1, 1, 1));
    let no_alloc = run(&CacheArgs { write: "no-allocate", ..args(1, 1, 16) }, trace);
    assert_eq!((no_alloc.misses, no_alloc.write_misses, no_alloc.read_misses), (3, 1, 2));
    assert_eq!((no_alloc.reads, no_alloc.writes, no_alloc.writebacks), (2, 2, 1));
}

#[test]
fn pmod_leaves_the_sets_above_its_prime_unused() {
    let trace: String = (0..64).map(|b| format!("{}\n", b * 16)).collect();
    let r = run(&CacheArgs { set_index: "pmod", ..args(8, 1, 16) }, &trace);
    assert_eq!(r.sets_used, 7);
    assert_eq!(r.sets[7].accesses, 0);
}

#[test]
fn an_empty_trace_is_refused_rather_than_reported_as_zeros() {
    let e = parse_trace("# nothing\n\n").unwrap_err();
    assert_eq!(e.to_string(), "the trace has no accesses (only comments and blank lines)");
}

#[test]
fn the_set_count_can_come_from_the_size() {
    let s = CacheArgs { sets: None, size: Some(16 * 1024), ..args(0, 4, 128) }.spec().unwrap();
    assert_eq!((s.sets, s.size_bytes), (32, 16 * 1024));
    let e = err(CacheArgs { size: Some(16 * 1024), ..args(16, 4, 128) });
    assert_eq!(e.field, "--size");
    assert!(e.message.contains("16 x 4 x 128 = 8192 B"), "{}", e.message);
    assert_eq!(err(CacheArgs { sets: None, size: Some(1000), ..args(0, 4, 128) }).field, "--size");
    assert_eq!(err(CacheArgs { sets: None, ..args(0, 4, 128) }).field, "--sets");
}

#[test]
fn bad_parameters_name_their_flag() {
    let e = err(CacheArgs { set_index: "modulo", ..args(32, 4, 128) });
    assert_eq!(e.field, "--set-index");
    assert!(e.message.contains("linear") && e.message.contains("bxor") && e.message.contains("fermi"), "{}", e.message);
    let e = err(CacheArgs { set_index: "ipoly", ..args(8, 4, 128) });
    assert_eq!(e.field, "--set-index");
    assert!(e.message.contains("16, 32 or 64 sets"), "{}", e.message);
    assert_eq!(err(args(6, 4, 128)).field, "--sets");
    assert_eq!(err(args(1 << 20, 8, 128)).field, "--sets");
    assert_eq!(err(args(4, 0, 128)).field, "--ways");
    assert_eq!(err(args(4, 300, 128)).field, "--ways");
    assert_eq!(err(args(4, 2, 24)).field, "--line");
    assert_eq!(err(args(4, 2, 8192)).field, "--line");
    let e = err(CacheArgs { policy: "fifo", ..args(4, 2, 16) });
    assert!(e.field == "--policy" && e.message.contains("lru"), "{e}");
    let e = err(CacheArgs { write: "through", ..args(4, 2, 16) });
    assert!(e.field == "--write" && e.message.contains("no-allocate"), "{e}");
}
