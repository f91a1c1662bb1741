//! Turning a figure's runs into bars: one group per category, one bar per series, in the order
//! the plan lists them, with the normalizations and means the papers use.

use super::{Metrics, RunSpec};
use crate::plot::{BarFigure, BarSeries};

/// Bars by category and series; `values[s][c]` is NaN where no run filled the cell.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Grid {
    pub categories: Vec<String>,
    pub series: Vec<String>,
    pub values: Vec<Vec<f64>>,
}

fn index_of(list: &mut Vec<String>, name: &str) -> usize {
    list.iter().position(|x| x == name).unwrap_or_else(|| {
        list.push(name.to_string());
        list.len() - 1
    })
}

impl Grid {
    /// Each run's `value` at its (category, series) cell.
    pub fn of(runs: &[(RunSpec, Metrics)], value: impl Fn(&Metrics) -> f64) -> Self {
        let (mut categories, mut series) = (Vec::new(), Vec::new());
        let cells: Vec<(usize, usize, f64)> = runs
            .iter()
            .map(|(spec, m)| (index_of(&mut categories, &spec.category), index_of(&mut series, &spec.series), value(m)))
            .collect();
        let mut values = vec![vec![f64::NAN; categories.len()]; series.len()];
        for (c, s, v) in cells {
            values[s][c] = v;
        }
        Self { categories, series, values }
    }

    /// The bar of `series` in `category` (NaN when absent).
    pub fn get(&self, series: &str, category: &str) -> f64 {
        let s = self.series.iter().position(|x| x == series);
        let c = self.categories.iter().position(|x| x == category);
        match (s, c) {
            (Some(s), Some(c)) => self.values[s][c],
            _ => f64::NAN,
        }
    }

    /// A whole series (empty when absent).
    pub fn row(&self, series: &str) -> Vec<f64> {
        self.series.iter().position(|x| x == series).map(|s| self.values[s].clone()).unwrap_or_default()
    }

    /// Every value divided by `base`'s in its category; `base` itself leaves the figure.
    pub fn relative_to(mut self, base: &str) -> Self {
        let Some(b) = self.series.iter().position(|x| x == base) else { return self };
        let base_row = self.values.remove(b);
        self.series.remove(b);
        for row in &mut self.values {
            for (v, d) in row.iter_mut().zip(&base_row) {
                *v = if *d > 0.0 { *v / d } else { f64::NAN };
            }
        }
        self
    }

    /// Appends a category `label` holding each series' mean over the categories.
    pub fn with_mean(mut self, label: &str, mean: fn(&[f64]) -> f64) -> Self {
        for row in &mut self.values {
            let m = mean(row);
            row.push(m);
        }
        self.categories.push(label.to_string());
        self
    }

    pub fn figure(self, title: &str, x_label: &str, y_label: &str, reference: Option<f64>) -> BarFigure {
        BarFigure {
            title: title.to_string(),
            x_label: x_label.to_string(),
            y_label: y_label.to_string(),
            categories: self.categories,
            series: self
                .series
                .into_iter()
                .zip(self.values)
                .map(|(label, values)| BarSeries { label, values, ..BarSeries::default() })
                .collect(),
            reference,
        }
    }
}

/// The harmonic mean of speedups (`crate::speedup`), NaN where there is none: a failed run
/// leaves its mean bar out and its figure's checks unmet.
pub(crate) fn hmean(xs: &[f64]) -> f64 {
    crate::speedup::harmonic_mean(xs).unwrap_or(f64::NAN)
}

/// Geometric mean of the finite positive values (NaN when there are none).
pub(crate) fn gmean(xs: &[f64]) -> f64 {
    let v: Vec<f64> = xs.iter().copied().filter(|x| x.is_finite() && *x > 0.0).collect();
    if v.is_empty() {
        f64::NAN
    } else {
        (v.iter().map(|x| x.ln()).sum::<f64>() / v.len() as f64).exp()
    }
}

/// Arithmetic mean of the finite values (NaN when there are none).
pub(crate) fn amean(xs: &[f64]) -> f64 {
    let v: Vec<f64> = xs.iter().copied().filter(|x| x.is_finite()).collect();
    if v.is_empty() {
        f64::NAN
    } else {
        v.iter().sum::<f64>() / v.len() as f64
    }
}

/// `x` as a signed percentage change from 1 ("+12 %", "−3 %").
pub(crate) fn change(x: f64) -> String {
    if !x.is_finite() {
        return "n/a".into();
    }
    let p = (x - 1.0) * 100.0;
    if p >= 0.0 {
        format!("+{p:.1} %")
    } else {
        format!("−{:.1} %", -p)
    }
}
