//! Speedups and their harmonic mean, defined once for `warpscope compare`, the gallery's
//! figures and (through the wasm layer) the page, so the three never disagree on the same runs.

/// `ipc` over `base`: `None` when either is not a finite number or the base ran nothing, since
/// a ratio over a failed run says nothing.
pub fn speedup(ipc: f64, base: f64) -> Option<f64> {
    (ipc.is_finite() && base.is_finite() && base > 0.0).then(|| ipc / base)
}

/// The harmonic mean of speedups, MeDiC's and SC'14's average: `None` for no values, or when
/// any is zero, negative or not a number. A failed run leaves no mean, not a flattering one
/// over the runs that worked.
pub fn harmonic_mean(xs: &[f64]) -> Option<f64> {
    if xs.is_empty() || xs.iter().any(|&x| !x.is_finite() || x <= 0.0) {
        return None;
    }
    Some(xs.len() as f64 / xs.iter().map(|x| 1.0 / x).sum::<f64>())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn speedups_need_a_base_that_ran() {
        assert_eq!(speedup(3.0, 2.0), Some(1.5));
        assert_eq!(speedup(0.0, 2.0), Some(0.0));
        assert_eq!(speedup(3.0, 0.0), None);
        assert_eq!(speedup(f64::NAN, 2.0), None);
    }

    #[test]
    fn the_harmonic_mean_weights_slow_runs_and_refuses_a_failed_one() {
        let h = harmonic_mean(&[1.5, 0.5]).unwrap();
        assert!((h - 0.75).abs() < 1e-12);
        assert_eq!(harmonic_mean(&[]), None);
        assert_eq!(harmonic_mean(&[1.5, 0.0]), None);
        assert_eq!(harmonic_mean(&[1.5, f64::NAN]), None);
        assert_eq!(harmonic_mean(&[1.5, -1.0]), None);
    }
}
