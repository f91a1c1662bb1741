//! A drawing backend that passes everything through and notes where each piece of text went,
//! so tests can check a chart's words for overlaps and for falling off the canvas.

use super::text::WIDTH_SLACK;
use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::{BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind};
use std::cell::RefCell;
use std::rc::Rc;

/// One drawn text and the rectangle it covers (left, top, right, bottom).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct TextBox {
    pub text: String,
    pub rect: (i32, i32, i32, i32),
}

pub(crate) struct Recorder<DB> {
    inner: DB,
    pub texts: Rc<RefCell<Vec<TextBox>>>,
}

impl<DB> Recorder<DB> {
    pub fn new(inner: DB) -> (Self, Rc<RefCell<Vec<TextBox>>>) {
        let texts = Rc::new(RefCell::new(Vec::new()));
        (Recorder { inner, texts: texts.clone() }, texts)
    }
}

impl<DB: DrawingBackend> DrawingBackend for Recorder<DB> {
    type ErrorType = DB::ErrorType;

    fn get_size(&self) -> (u32, u32) {
        self.inner.get_size()
    }
    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.inner.ensure_prepared()
    }
    fn present(&mut self) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.inner.present()
    }
    fn draw_pixel(&mut self, p: BackendCoord, c: BackendColor) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.inner.draw_pixel(p, c)
    }
    fn draw_line<S: BackendStyle>(
        &mut self,
        a: BackendCoord,
        b: BackendCoord,
        s: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.inner.draw_line(a, b, s)
    }
    fn draw_rect<S: BackendStyle>(
        &mut self,
        a: BackendCoord,
        b: BackendCoord,
        s: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.inner.draw_rect(a, b, s, fill)
    }
    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        s: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.inner.draw_path(path, s)
    }
    fn draw_circle<S: BackendStyle>(
        &mut self,
        c: BackendCoord,
        r: u32,
        s: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.inner.draw_circle(c, r, s, fill)
    }
    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        s: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.inner.fill_polygon(vert, s)
    }
    fn estimate_text_size<S: BackendTextStyle>(
        &self,
        text: &str,
        s: &S,
    ) -> Result<(u32, u32), DrawingErrorKind<Self::ErrorType>> {
        self.inner.estimate_text_size(text, s)
    }

    /// Notes the text's box as plotters lays it out (anchor, then rotation about the anchor
    /// point), widened by the slack viewers' fonts need, then draws it.
    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        s: &S,
        pos: BackendCoord,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        if !text.trim().is_empty() {
            let ((x0, y0), (x1, y1)) = s.layout_box(text).map_err(|e| DrawingErrorKind::FontError(Box::new(e)))?;
            let w = ((x1 - x0) as f64 * WIDTH_SLACK).ceil() as i32;
            let h = y1 - y0;
            let dx = match s.anchor().h_pos {
                HPos::Left => 0,
                HPos::Right => -w,
                HPos::Center => -w / 2,
            };
            let dy = match s.anchor().v_pos {
                VPos::Top => 0,
                VPos::Center => -h / 2,
                VPos::Bottom => -h,
            };
            let t = s.transform();
            let (ax, ay) = t.transform(dx, dy);
            let (bx, by) = t.transform(dx + w, dy + h);
            let rect = (pos.0 + ax.min(bx), pos.1 + ay.min(by), pos.0 + ax.max(bx), pos.1 + ay.max(by));
            self.texts.borrow_mut().push(TextBox { text: text.to_string(), rect });
        }
        self.inner.draw_text(text, s, pos)
    }
}
