//! The three ways an instruction line gives its lanes' addresses: every active lane's
//! address (format 0), a base and a stride (1), or a base and the difference of each
//! active lane's address from the previous one's (2).

use crate::kernels::WARP_SIZE;

/// Address format numbers as traces write them.
pub const LIST: u32 = 0;
pub const BASE_STRIDE: u32 = 1;
pub const BASE_DELTAS: u32 = 2;

/// Fills `addrs` for the active lanes of `mask` from `tokens` in `format`; inactive lanes
/// get 0. Every token must be used: extra ones mean more addresses than active lanes.
pub fn decode<'a>(
    format: u32,
    mask: u32,
    mut tokens: impl Iterator<Item = &'a str>,
    addrs: &mut [u64; WARP_SIZE],
) -> Result<(), String> {
    *addrs = [0; WARP_SIZE];
    let active = mask.count_ones();
    let mut lanes = (0..WARP_SIZE).filter(|l| mask & (1 << l) != 0);
    let missing = |n: u32, what: &str| format!("expected {what} for {active} active lanes, found {n}");
    match format {
        LIST => {
            for (i, lane) in (0..active).zip(&mut lanes) {
                addrs[lane] = hex(tokens.next().ok_or_else(|| missing(i, "one address"))?)?;
            }
        }
        BASE_STRIDE => {
            let base = hex(tokens.next().ok_or("expected a base address after address format 1")?)?;
            let stride: i64 = signed(tokens.next().ok_or("expected a stride after the base address")?)?;
            for (k, lane) in lanes.enumerate() {
                addrs[lane] = base.wrapping_add_signed(stride.wrapping_mul(k as i64));
            }
        }
        BASE_DELTAS => {
            let mut addr = hex(tokens.next().ok_or("expected a base address after address format 2")?)?;
            for (i, lane) in lanes.enumerate() {
                if i > 0 {
                    let delta = tokens
                        .next()
                        .ok_or_else(|| missing(i as u32 - 1, "a delta per active lane after the first"))?;
                    addr = addr.wrapping_add_signed(signed(delta)?);
                }
                addrs[lane] = addr;
            }
        }
        f => return Err(format!("unknown address format {f} (expected 0 list, 1 base+stride or 2 base+deltas)")),
    }
    match tokens.next() {
        Some(extra) => {
            Err(format!("more addresses than the {active} active lanes of mask {mask:08x} (`{extra}` is one too many)"))
        }
        None => Ok(()),
    }
}

/// A hexadecimal number, with or without `0x`.
pub fn hex(token: &str) -> Result<u64, String> {
    let digits = token.strip_prefix("0x").unwrap_or(token);
    u64::from_str_radix(digits, 16).map_err(|_| format!("expected a hexadecimal number, found `{token}`"))
}

fn signed(token: &str) -> Result<i64, String> {
    token.parse().map_err(|_| format!("expected a signed decimal number, found `{token}`"))
}

/// Writes `addrs` of the lanes in `mask` as the tracer does: base + stride when the active
/// lanes are contiguous with one stride, base + deltas otherwise; or every address.
pub fn encode(mask: u32, addrs: &[u64; WARP_SIZE], compress: bool, out: &mut String) {
    use std::fmt::Write;
    let active: Vec<u64> = (0..WARP_SIZE).filter(|l| mask & (1 << l) != 0).map(|l| addrs[l]).collect();
    if !compress || active.is_empty() {
        let _ = write!(out, "{LIST}");
        for a in &active {
            let _ = write!(out, " 0x{a:016x}");
        }
        return;
    }
    let contiguous = (mask >> mask.trailing_zeros()).trailing_ones() == active.len() as u32;
    let stride = active.get(1).map(|b| b.wrapping_sub(active[0]) as i64);
    let strided =
        stride.filter(|&s| i32::try_from(s).is_ok() && active.windows(2).all(|w| w[1].wrapping_sub(w[0]) as i64 == s));
    match strided {
        Some(s) if contiguous => {
            let _ = write!(out, "{BASE_STRIDE} 0x{:x} {s}", active[0]);
        }
        _ => {
            let _ = write!(out, "{BASE_DELTAS} 0x{:x}", active[0]);
            for w in active.windows(2) {
                let _ = write!(out, " {}", w[1].wrapping_sub(w[0]) as i64);
            }
        }
    }
}
