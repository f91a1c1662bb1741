//! Measuring, wrapping and shortening text so that it fits the room the layout gives it:
//! a chart never clips or overlaps its words, it wraps or shortens them.

use super::style::err;
use plotters::coord::Shift;
use plotters::prelude::*;

/// Natively, plotters measures Noto Sans at its nominal size, while an SVG viewer draws its own
/// sans-serif at that size / 1.24: DejaVu Sans comes out about 20 % wider than measured. On
/// wasm32 the browser measures the font it draws with.
#[cfg(not(target_arch = "wasm32"))]
pub(super) const WIDTH_SLACK: f64 = 1.2;
#[cfg(target_arch = "wasm32")]
pub(super) const WIDTH_SLACK: f64 = 1.0;

/// The width `text` takes, erring wide so neighbours never overlap.
#[cfg(not(target_arch = "wasm32"))]
pub(super) fn width<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    text: &str,
    style: &TextStyle,
) -> Result<i32, String> {
    if text.is_empty() {
        return Ok(0);
    }
    let (w, _) = area.estimate_text_size(text, style).map_err(err)?;
    Ok((w as f64 * WIDTH_SLACK).ceil() as i32)
}

/// On the page, plotters measures text by adding a span to the document and reading its
/// width, a forced layout of the whole page per word; the layout measures a few hundred
/// words per chart, so it asks a detached canvas instead, which lays nothing out.
#[cfg(target_arch = "wasm32")]
pub(super) fn width<DB: DrawingBackend>(
    _area: &DrawingArea<DB, Shift>,
    text: &str,
    style: &TextStyle,
) -> Result<i32, String> {
    use wasm_bindgen::JsCast;
    use web_sys::CanvasRenderingContext2d;
    thread_local! {
        static MEASURE: Option<CanvasRenderingContext2d> = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.create_element("canvas").ok())
            .and_then(|c| c.dyn_into::<web_sys::HtmlCanvasElement>().ok())
            .and_then(|c| c.get_context("2d").ok().flatten())
            .and_then(|c| c.dyn_into::<CanvasRenderingContext2d>().ok());
    }
    if text.is_empty() {
        return Ok(0);
    }
    let font = &style.font;
    let css = format!("{} {}px {}", font.get_style().as_str(), font.get_size(), font.get_family().as_str());
    MEASURE.with(|ctx| {
        let ctx = ctx.as_ref().ok_or_else(|| err("no canvas to measure text with"))?;
        ctx.set_font(&css);
        let m = ctx.measure_text(text).map_err(|_| err("measuring text failed"))?;
        Ok((m.width() * WIDTH_SLACK).ceil() as i32)
    })
}

/// `text` in at most `max_lines` lines of at most `max_w` pixels, broken between words; what
/// does not fit ends the last line in an ellipsis.
pub(super) fn wrap<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    text: &str,
    style: &TextStyle,
    max_w: i32,
    max_lines: usize,
) -> Result<Vec<String>, String> {
    let mut lines: Vec<String> = Vec::new();
    let mut words = text.split_whitespace().peekable();
    while let Some(word) = words.next() {
        let mut line = word.to_string();
        while let Some(next) = words.peek() {
            let longer = format!("{line} {next}");
            if width(area, &longer, style)? > max_w {
                break;
            }
            line = longer;
            words.next();
        }
        if lines.len() + 1 == max_lines && words.peek().is_some() {
            let rest: Vec<&str> = words.collect();
            line = format!("{line} {}", rest.join(" "));
            lines.push(shorten(area, &line, style, max_w)?);
            return Ok(lines);
        }
        lines.push(shorten(area, &line, style, max_w)?);
    }
    Ok(lines)
}

/// `text` if it fits in `max_w` pixels, else its start and end around an ellipsis (run labels
/// differ at the end as often as at the start).
pub(super) fn shorten<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    text: &str,
    style: &TextStyle,
    max_w: i32,
) -> Result<String, String> {
    if width(area, text, style)? <= max_w {
        return Ok(text.to_string());
    }
    let chars: Vec<char> = text.chars().collect();
    // The longest cut that fits: keep `k` characters, the first half of them before the "…".
    let cut = |k: usize| -> String {
        let head = k.div_ceil(2);
        let tail = k - head;
        let mut s: String = chars[..head].iter().collect();
        s.push('…');
        s.extend(&chars[chars.len() - tail..]);
        s
    };
    let (mut lo, mut hi) = (0usize, chars.len());
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        if width(area, &cut(mid), style)? <= max_w {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    Ok(cut(lo))
}
