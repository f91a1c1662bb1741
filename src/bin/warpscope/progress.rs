//! Progress of long commands on stderr, never stdout, so pipes and golden outputs stay as
//! they are: bars on a terminal (one for the whole command and one per running simulation,
//! drawn together so parallel jobs do not garble each other), a line every few seconds
//! otherwise (CI logs), nothing with `--quiet`.

use super::interrupt;
#[cfg(not(target_arch = "wasm32"))]
use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Milliseconds between progress lines when stderr is not a terminal (tests shorten it).
pub const INTERVAL_VAR: &str = "WARPSCOPE_PROGRESS_INTERVAL_MS";
const DEFAULT_INTERVAL: Duration = Duration::from_secs(5);

/// Bars count CTAs in thousandths, fine enough for a smooth bar and its own estimate.
#[cfg(not(target_arch = "wasm32"))]
const STEPS: u64 = 1000;

/// The progress of one command's simulations, shared by the threads running them.
pub struct Tracker {
    /// What the lines and bars are prefixed with, e.g. `sweep` or `run bfs`.
    what: String,
    total: usize,
    start: Instant,
    state: Mutex<State>,
}

struct State {
    display: Display,
    done: usize,
    /// Cycles simulated by the finished runs, for the overall rate.
    done_cycles: u64,
    running: Vec<Running>,
    next_id: usize,
    told_interrupt: bool,
}

enum Display {
    Off,
    Lines {
        every: Duration,
        last: Instant,
    },
    #[cfg(not(target_arch = "wasm32"))]
    Bars {
        multi: MultiProgress,
        /// The whole command's bar when it runs more than one simulation.
        total: Option<ProgressBar>,
    },
}

struct Running {
    id: usize,
    label: String,
    cycle: u64,
    fraction: f64,
    /// Runs it stands for: more than one where runs share a warming and advance together.
    runs: usize,
    #[cfg(not(target_arch = "wasm32"))]
    bar: Option<ProgressBar>,
}

/// One simulation being tracked; dropping it unfinished (interrupted or failed) takes it
/// off the display without counting it as done.
pub struct Tracked<'a> {
    tracker: &'a Tracker,
    id: usize,
}

impl Tracker {
    /// Progress of `total` simulations; bars when stderr is a terminal, lines otherwise.
    pub fn new(what: impl AsRef<str>, total: usize, quiet: bool) -> Self {
        let display = if quiet {
            Display::Off
        } else if std::io::stderr().is_terminal() {
            bars(total, what.as_ref())
        } else {
            let every = std::env::var(INTERVAL_VAR)
                .ok()
                .and_then(|v| v.parse().ok())
                .map_or(DEFAULT_INTERVAL, Duration::from_millis);
            Display::Lines { every, last: Instant::now() }
        };
        let state = State { display, done: 0, done_cycles: 0, running: Vec::new(), next_id: 0, told_interrupt: false };
        Self { what: what.as_ref().to_string(), total, start: Instant::now(), state: Mutex::new(state) }
    }

    /// Starts tracking the simulation named `label`.
    pub fn start(&self, label: String) -> Tracked<'_> {
        self.start_runs(label, 1)
    }

    /// Starts tracking `runs` runs that advance together, named `label`.
    pub fn start_runs(&self, label: String, runs: usize) -> Tracked<'_> {
        let mut s = self.lock();
        let id = s.next_id;
        s.next_id += 1;
        #[cfg(not(target_arch = "wasm32"))]
        let bar = match &s.display {
            Display::Bars { multi, .. } => Some(multi.add(job_bar(self.total, &self.what, &label))),
            _ => None,
        };
        s.running.push(Running {
            id,
            label,
            cycle: 0,
            fraction: 0.0,
            runs,
            #[cfg(not(target_arch = "wasm32"))]
            bar,
        });
        Tracked { tracker: self, id }
    }

    /// Clears the bars and writes the closing line: how much was done, in how long.
    pub fn finish(&self) {
        let mut s = self.lock();
        let elapsed = self.start.elapsed();
        let cycles = s.done_cycles + s.running.iter().map(|r| r.cycle).sum::<u64>();
        let line = if interrupt::requested() {
            format!("{}: interrupted after {}, {}/{} runs done", self.what, secs(elapsed), s.done, self.total)
        } else if self.total == 1 {
            format!("{}: {} cycles in {}, {} cycles/s", self.what, cycles, secs(elapsed), rate(cycles, elapsed))
        } else {
            let (done, total, took, r) = (s.done, self.total, secs(elapsed), rate(cycles, elapsed));
            format!("{}: {done}/{total} runs done in {took}, {r} cycles/s", self.what)
        };
        match &mut s.display {
            Display::Off => {}
            Display::Lines { .. } => eprintln!("{line}"),
            #[cfg(not(target_arch = "wasm32"))]
            Display::Bars { multi, total } => {
                if let Some(t) = total.take() {
                    t.finish_and_clear();
                }
                let _ = multi.clear();
                eprintln!("{line}");
            }
        }
        s.display = Display::Off;
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Redraws the bars, or writes a line when one is due.
    fn show(&self, s: &mut State) {
        let elapsed = self.start.elapsed();
        let cycles = s.done_cycles + s.running.iter().map(|r| r.cycle).sum::<u64>();
        let work = s.done as f64 + s.running.iter().map(|r| r.fraction * r.runs as f64).sum::<f64>();
        let left = if work > 0.0 {
            format!("~{} left", secs(elapsed.mul_f64((self.total as f64 - work).max(0.0) / work)))
        } else {
            "time left unknown".into()
        };
        let (el, r) = (secs(elapsed), rate(cycles, elapsed));
        let summary = match (self.total, s.running.first()) {
            (1, Some(run)) => {
                format!("{:.0}% of CTAs, cycle {}, {r} cycles/s, {el} elapsed, {left}", run.fraction * 100.0, run.cycle)
            }
            _ => format!(
                "{}/{} runs done, {} running, {r} cycles/s, {el} elapsed, {left}",
                s.done,
                self.total,
                s.running.len()
            ),
        };
        let notice = (interrupt::requested() && !s.told_interrupt)
            .then(|| format!("{}: Ctrl-C: stopping after the current chunk; Ctrl-C again stops at once", self.what));
        s.told_interrupt |= notice.is_some();
        match &mut s.display {
            Display::Off => {}
            Display::Lines { every, last } => {
                if let Some(n) = notice {
                    eprintln!("{n}");
                }
                if last.elapsed() >= *every {
                    *last = Instant::now();
                    let mut line = format!("{}: {summary}", self.what);
                    if self.total > 1 && !s.running.is_empty() {
                        let each: Vec<String> =
                            s.running.iter().map(|r| format!("{} {:.0}%", r.label, r.fraction * 100.0)).collect();
                        line += &format!(" ({})", each.join("; "));
                    }
                    eprintln!("{line}");
                }
            }
            #[cfg(not(target_arch = "wasm32"))]
            Display::Bars { multi, total } => {
                if let Some(n) = notice {
                    let _ = multi.println(n);
                }
                if let Some(t) = total {
                    t.set_position((work * STEPS as f64) as u64);
                    t.set_message(summary.clone());
                }
                for run in &s.running {
                    if let Some(bar) = &run.bar {
                        bar.set_position((run.fraction * STEPS as f64) as u64);
                        if self.total == 1 {
                            bar.set_message(summary.clone());
                        } else {
                            bar.set_message(format!("{:.0}% of CTAs, cycle {}", run.fraction * 100.0, run.cycle));
                        }
                    }
                }
            }
        }
    }
}

impl Tracked<'_> {
    /// Records how far the simulation got (after each chunk).
    pub fn update(&self, p: &warpscope::Progress) {
        let mut s = self.tracker.lock();
        if let Some(run) = s.running.iter_mut().find(|r| r.id == self.id) {
            run.cycle = p.cycle;
            run.fraction = p.fraction;
        }
        self.tracker.show(&mut s);
    }

    /// Counts the simulation as finished.
    pub fn done(self) {
        let mut s = self.tracker.lock();
        if let Some(run) = remove(&mut s, self.id) {
            s.done += run.runs;
            s.done_cycles += run.cycle;
        }
        // A single run's last chunk was just shown; the count of runs done is news otherwise.
        if self.tracker.total > 1 {
            self.tracker.show(&mut s);
        }
    }
}

impl Drop for Tracked<'_> {
    fn drop(&mut self) {
        remove(&mut self.tracker.lock(), self.id);
    }
}

/// Takes a run off the display.
fn remove(s: &mut State, id: usize) -> Option<Running> {
    let i = s.running.iter().position(|r| r.id == id)?;
    let run = s.running.remove(i);
    #[cfg(not(target_arch = "wasm32"))]
    if let (Some(bar), Display::Bars { multi, .. }) = (&run.bar, &s.display) {
        bar.finish_and_clear();
        multi.remove(bar);
    }
    Some(run)
}

#[cfg(not(target_arch = "wasm32"))]
fn bars(total: usize, what: &str) -> Display {
    let multi = MultiProgress::with_draw_target(ProgressDrawTarget::stderr());
    let total = (total > 1).then(|| {
        let style = ProgressStyle::with_template("{prefix:.bold} [{bar:30.cyan/blue}] {msg}")
            .expect("the template is valid")
            .progress_chars("=> ");
        multi.add(ProgressBar::new(total as u64 * STEPS).with_style(style).with_prefix(what.to_string()))
    });
    Display::Bars { multi, total }
}

/// The CLI never runs as wasm (the test build of that target still compiles it).
#[cfg(target_arch = "wasm32")]
fn bars(_: usize, _: &str) -> Display {
    Display::Off
}

/// One simulation's bar: the whole display of a single run, else a line under the total.
#[cfg(not(target_arch = "wasm32"))]
fn job_bar(total: usize, what: &str, label: &str) -> ProgressBar {
    let (template, prefix) = if total == 1 {
        ("{prefix:.bold} [{bar:30.cyan/blue}] {msg}", what.to_string())
    } else {
        ("  {prefix} [{bar:20}] {msg}", label.to_string())
    };
    let style = ProgressStyle::with_template(template).expect("the template is valid").progress_chars("=> ");
    ProgressBar::new(STEPS).with_style(style).with_prefix(prefix)
}

/// Cycles per second with a metric prefix, e.g. `2.35M`.
fn rate(cycles: u64, elapsed: Duration) -> String {
    let r = cycles as f64 / elapsed.as_secs_f64().max(1e-3);
    match r {
        r if r >= 1e9 => format!("{:.2}G", r / 1e9),
        r if r >= 1e6 => format!("{:.2}M", r / 1e6),
        r if r >= 1e3 => format!("{:.1}k", r / 1e3),
        r => format!("{r:.0}"),
    }
}

/// A duration for people: `42s`, `3m 05s`, `1h 02m`.
fn secs(d: Duration) -> String {
    let s = d.as_secs();
    match s {
        s if s >= 3600 => format!("{}h {:02}m", s / 3600, s % 3600 / 60),
        s if s >= 60 => format!("{}m {:02}s", s / 60, s % 60),
        _ => format!("{:.1}s", d.as_secs_f64()),
    }
}
