use super::*;
use rand::{Rng, SeedableRng};
use std::collections::HashSet;

/// Every registered function.
fn all() -> impl Iterator<Item = SetIndexKind> {
    SetIndexKind::NAMES.iter().map(|n| SetIndexKind::parse(n).expect("a registered name"))
}

fn idx(kind: SetIndexKind, sets: u32) -> SetIndex {
    SetIndex::new(kind, sets, 128).unwrap()
}

/// Sets of `blocks` under `s`, in order.
fn sets_of(s: &SetIndex, blocks: &[u64]) -> Vec<usize> {
    blocks.iter().map(|&b| s.set_of(b)).collect()
}

#[test]
fn linear_selects_low_block_bits() {
    let s = idx(SetIndexKind::Linear, 32);
    assert_eq!(sets_of(&s, &[0, 31, 32, 0x1234_5678 >> 7]), [0, 31, 0, ((0x1234_5678u64 >> 7) & 31) as usize]);
}

#[test]
fn bxor_folds_in_the_bits_log2_line_higher() {
    let s = idx(SetIndexKind::Bxor, 32);
    // 389 = 3 << 7 | 5: 5 ^ 3; byte 0x4080 is block 129 = 1 << 7 | 1: 1 ^ 1.
    assert_eq!(sets_of(&s, &[5, 389, 0x4080 >> 7, (1 << 12) | 1]), [5, 6, 0, 1]);
    let s = SetIndex::new(SetIndexKind::Bxor, 32, 32).unwrap();
    assert_eq!(s.set_of((3 << 5) | 5), 5 ^ 3, "32 B lines: partner bits 5 block bits up");
}

#[test]
fn pmod_uses_the_largest_prime_below_the_set_count() {
    assert_eq!(sets_of(&idx(SetIndexKind::Pmod, 32), &[30, 31, 62, 100]), [30, 0, 0, 7]);
    assert_eq!(sets_of(&idx(SetIndexKind::Pmod, 64), &[60, 61, 100]), [60, 0, 39]);
    assert_eq!(sets_of(&idx(SetIndexKind::Pmod, 16), &[12, 13, 27]), [12, 0, 1]);
    assert_eq!(sets_of(&idx(SetIndexKind::Pmod, 4), &[2, 3, 7]), [2, 0, 1]);
    for sets in [1, 2] {
        let e = SetIndex::new(SetIndexKind::Pmod, sets, 128).unwrap_err();
        assert!(e.to_string().contains("at least 4 sets"), "{e}");
    }
}

#[test]
fn a_prime_masks_the_block_modulo_the_next_prime() {
    assert_eq!(sets_of(&idx(SetIndexKind::APrime, 32), &[36, 40, 100]), [4, 3, 26]);
    assert_eq!(sets_of(&idx(SetIndexKind::APrime, 64), &[66, 70, 130]), [2, 3, 63]);
    assert_eq!(idx(SetIndexKind::APrime, 1).set_of(12345), 0);
}

#[test]
fn d_prime_adds_eleven_times_the_upper_bits() {
    // 33: 1 * 11 + 33 = 44 -> 12; 64: 2 * 11 + 64 = 86 -> 22.
    assert_eq!(sets_of(&idx(SetIndexKind::DPrime, 32), &[5, 33, 64]), [5, 12, 22]);
    assert_eq!(idx(SetIndexKind::DPrime, 64).set_of(65), (11 + 65) & 63);
}

#[test]
fn ipoly_reduces_modulo_its_polynomial() {
    // x^5 mod (x^5 + x^2 + 1) = x^2 + 1; x^6 = x^3 + x; index bits pass through.
    let s = idx(SetIndexKind::Ipoly, 32);
    assert_eq!(sets_of(&s, &[7, 1 << 5, 1 << 6, 33]), [7, 0b101, 0b1010, 0b100]);
    assert_eq!(s.set_of(1 << 20), 0, "GPGPU-Sim's equations stop at a14");
    // x^4 mod (x^4 + x + 1) = x + 1, x^5 = x^2 + x; x^6 mod (x^6 + x + 1) = x + 1.
    assert_eq!(sets_of(&idx(SetIndexKind::Ipoly, 16), &[1 << 4, 1 << 5]), [0b11, 0b110]);
    assert_eq!(idx(SetIndexKind::Ipoly, 64).set_of(1 << 6), 0b11);
    for sets in [8, 128] {
        let e = SetIndex::new(SetIndexKind::Ipoly, sets, 128).unwrap_err();
        assert!(e.to_string().contains("16, 32 or 64 sets"), "{e}");
    }
}

#[test]
fn ipoly_32_matches_the_equations_of_architecture_md() {
    // n_j = b_j ^ XOR of these a bits (a = block bits above the 5 index bits).
    let eqs: [&[u32]; 5] = [
        &[13, 12, 11, 10, 9, 6, 5, 3, 0],
        &[14, 13, 12, 11, 10, 7, 6, 4, 1],
        &[14, 10, 9, 8, 7, 6, 3, 2, 0],
        &[11, 10, 9, 8, 7, 4, 3, 1],
        &[12, 11, 10, 9, 8, 5, 4, 2],
    ];
    let SetIndex::Ipoly(Ipoly(matrix::Matrix { rows })) = idx(SetIndexKind::Ipoly, 32) else { panic!("ipoly") };
    for (j, a_bits) in eqs.iter().enumerate() {
        let want = a_bits.iter().fold(1u64 << j, |m, &a| m | 1 << (a + 5));
        assert_eq!(rows[j], want, "n{j}");
    }
}

#[test]
fn ipoly_never_conflicts_on_power_of_two_strides() {
    for sets in [16u32, 32, 64] {
        let s = idx(SetIndexKind::Ipoly, sets);
        for shift in 0..=12 {
            let blocks: Vec<u64> = (0..sets as u64).map(|i| i << shift).collect();
            let distinct: HashSet<_> = sets_of(&s, &blocks).into_iter().collect();
            assert_eq!(distinct.len(), sets as usize, "{sets} sets, stride 2^{shift}");
        }
    }
}

#[test]
fn fermi_xors_address_bits_13_to_19_into_the_index() {
    let s = idx(SetIndexKind::Fermi, 32);
    // Byte addresses: bit 13 -> set bit 0, bit 19 -> set bit 4, block 1 ^ bit 17 (set bit 3).
    assert_eq!(sets_of(&s, &[0x2000 >> 7, 0x80000 >> 7, 0x20080 >> 7, 0x10000 >> 7]), [1, 16, 9, 0]);
    assert_eq!(idx(SetIndexKind::Fermi, 64).set_of(0x1000 >> 7), 32, "bit 12 is set bit 5");
    let s = SetIndex::new(SetIndexKind::Fermi, 32, 64).unwrap();
    assert_eq!(sets_of(&s, &[0x2000 >> 6, 0x40 >> 6]), [1, 1], "the upper bits stay byte-address bits");
    let e = SetIndex::new(SetIndexKind::Fermi, 16, 128).unwrap_err();
    assert!(e.to_string().contains("32 or 64 sets"), "{e}");
}

#[test]
fn every_function_returns_a_set_below_the_set_count() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    for kind in all() {
        for sets in (0..=10).map(|k| 1u32 << k) {
            for line in [4, 16, 128, 4096] {
                let Ok(s) = SetIndex::new(kind, sets, line) else { continue };
                for _ in 0..2000 {
                    let block = rng.gen::<u64>() >> rng.gen_range(0..64);
                    assert!(s.set_of(block) < sets as usize, "{kind:?} {sets} sets {line} B: block {block}");
                }
            }
        }
    }
}

#[test]
fn non_power_of_two_set_counts_are_refused() {
    for kind in all() {
        assert!(SetIndex::new(kind, 48, 128).is_err(), "{kind:?}");
        assert!(SetIndex::new(kind, 0, 128).is_err(), "{kind:?}");
    }
}

/// Blocks of one warp reading one column of a row-major 2048-float matrix: 32 rows 8 KB apart.
fn column_major_warp() -> Vec<u64> {
    let base = 0x4000_0000u64 + 4 * 5;
    (0..32).map(|r| (base + r * 2048 * 4) >> 7).collect()
}

#[test]
fn a_column_major_warp_access_camps_on_one_set_under_linear_and_spreads_under_bxor() {
    // 16 KB and 32 KB, 4-way, 128 B lines: 32 and 64 sets.
    for sets in [32, 64] {
        let distinct = |kind| sets_of(&idx(kind, sets), &column_major_warp()).into_iter().collect::<HashSet<_>>().len();
        assert_eq!(distinct(SetIndexKind::Linear), 1, "{sets} sets");
        assert!(distinct(SetIndexKind::Bxor) >= 16, "{sets} sets: bxor uses {}", distinct(SetIndexKind::Bxor));
        // The hashed functions of the sound-baseline paper and the GPUs.
        let hashed =
            [SetIndexKind::Pmod, SetIndexKind::APrime, SetIndexKind::DPrime, SetIndexKind::Ipoly, SetIndexKind::Fermi];
        for kind in hashed {
            assert!(distinct(kind) >= 16, "{kind:?} {sets} sets: {}", distinct(kind));
        }
    }
}
