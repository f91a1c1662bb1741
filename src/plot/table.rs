//! Each chart's numbers as a table: the text alternative beside a plot and its CSV export.

use super::model::{model, Model};
use super::{Chart, ChartRun};

/// A chart's plotted numbers: bar charts have one row per bar group (category) and one column
/// per run; the timeline has one row per run and sample window.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct Table {
    pub headers: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

impl Table {
    /// RFC 4180 CSV: fields with a comma, quote or line break are quoted.
    pub fn to_csv(&self) -> String {
        let mut out = String::new();
        for row in std::iter::once(&self.headers).chain(&self.rows) {
            let fields: Vec<String> = row.iter().map(|f| csv_field(f)).collect();
            out.push_str(&fields.join(","));
            out.push_str("\r\n");
        }
        out
    }
}

fn csv_field(f: &str) -> String {
    if f.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", f.replace('"', "\"\""))
    } else {
        f.to_string()
    }
}

/// Percentages to 0.01 %, IPC to 0.001: finer than any plot shows.
fn pct(v: f64) -> String {
    format!("{v:.2}")
}

/// The numbers `draw` plots for `chart`, with headers naming each column's unit.
pub fn table(chart: Chart, runs: &[ChartRun]) -> Table {
    match model(chart, runs) {
        Model::Bars(b) => {
            let mut headers = vec![chart.x_label().to_string()];
            headers.extend(b.runs.iter().map(|r| format!("{}: {}", r.label, chart.y_label())));
            let rows = b
                .categories
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    let mut row = vec![c.name.clone()];
                    row.extend(b.runs.iter().map(|r| pct(r.values[i])));
                    row
                })
                .collect();
            Table { headers, rows }
        }
        Model::Lines(lines) if chart.y2_label().is_none() => {
            let headers = vec!["run".to_string(), chart.x_label().to_string(), chart.y_label().to_string()];
            // TB_bg counts thread blocks: whole numbers.
            let value = |v: f64| if chart == Chart::TbBg { format!("{v:.0}") } else { pct(v) };
            let rows = lines
                .iter()
                .flat_map(|l| {
                    (0..l.cycle.len()).map(move |i| vec![l.label.clone(), l.cycle[i].to_string(), value(l.y[i])])
                })
                .collect();
            Table { headers, rows }
        }
        Model::Lines(lines) => {
            let headers = vec![
                "run".to_string(),
                chart.x_label().to_string(),
                chart.y_label().to_string(),
                chart.y2_label().unwrap_or_default().to_string(),
            ];
            let rows = lines
                .iter()
                .flat_map(|l| {
                    (0..l.cycle.len()).map(move |i| {
                        vec![l.label.clone(), l.cycle[i].to_string(), format!("{:.3}", l.ipc[i]), pct(l.y[i])]
                    })
                })
                .collect();
            Table { headers, rows }
        }
    }
}
