//! Warp schedulers: each SM scheduler slot picks at most one ready warp per cycle. One
//! policy per file, registered once in `registry!` below.
//!
//! Contract: `pick` sees this scheduler's warp slots and two queries — whether a slot
//! can issue now, and its age (dispatch order; `None` for an empty slot) — and returns
//! the slot to issue. `ready` may be costly (it fetches instructions), so policies call
//! it sparingly.
//!
//! Policies that learn from the L1 (CCWS, iWarp) keep their state SM-wide in a
//! [`ThrottlePolicy`]: the L1 queues [`L1Event`]s, the SM hands them over once per cycle,
//! and the throttle answers whether a warp may issue; GTO picks among the warps it allows.

pub mod ccws;
mod gto;
pub mod iwarp;
mod lrr;
pub mod swl;
pub mod two_level;

pub use ccws::Ccws;
pub use gto::Gto;
pub use iwarp::Iwarp;
pub use lrr::Lrr;
pub use swl::Swl;
pub use two_level::TwoLevel;

use super::warp::Warp;
use crate::cache::l1::{Feedback, L1Event};
use crate::core::config::CoreConfig;
use crate::settings::Checker;

/// The per-scheduler half of a policy: picks the warp slot to issue.
pub trait Picker: Sized {
    /// Whether functional warming (sampled runs) stands in for this picker by issuing the
    /// longest-waiting warp first rather than the oldest.
    const ROUND_ROBIN_WARMING: bool = false;

    fn build(c: &CoreConfig) -> Self;

    /// The slot to issue among `slots`, or `None`; `age` is `None` for a slot that may not
    /// be counted as live (empty, or waiting at a barrier).
    fn pick(
        &mut self,
        slots: &[usize],
        ready: impl FnMut(usize) -> bool,
        age: impl Fn(usize) -> Option<u64>,
    ) -> Option<usize>;
}

/// The SM-wide half of a policy that learns from the L1 and holds warps back.
pub trait ThrottlePolicy: Sized {
    /// What the L1 must report to it.
    const FEEDBACK: Feedback;

    fn build(c: &CoreConfig) -> Self;

    /// Takes this cycle's L1 events and brings the state to `now`; true if a warp's
    /// permission changed. `roster_changed`: a warp slot was filled or emptied since the
    /// last call (so a policy may skip work that depends only on which warps are live).
    fn refresh(&mut self, now: u64, events: &[L1Event], warps: &[Warp], roster_changed: bool) -> bool;

    /// Whether the warp in `slot` may issue its next instruction (a load or store if `is_mem`).
    fn allows(&self, slot: usize, is_mem: bool) -> bool;

    /// The next cycle at which time alone changes a permission.
    fn next_event(&self, now: u64) -> Option<u64>;

    /// Warps held back right now.
    fn held(&self) -> usize;
}

/// The family's registry: first the policies with parameters, each as its config name and
/// its file's `Params` (the `core` section gets a field `core.<name>` for each, in this
/// order, through `with_params!`); then each entry names a config value with its doc
/// comment, the `Picker` each scheduler slot runs and, for policies that hold warps back,
/// the SM-wide `ThrottlePolicy`. The config enum, the two dispatch enums, their
/// constructors and the per-kind property follow; the matches are exhaustive, so every
/// config value is registered.
macro_rules! registry {
    (@throttle $c:ident $kind:ident) => { Throttle::None };
    (@throttle $c:ident $kind:ident $t:ty) => { Throttle::$kind(<$t as ThrottlePolicy>::build($c)) };
    (
        params { $($p:ident: $pm:ident::Params,)* }
        $($(#[$m:meta])* $kind:ident = $s:literal: $picker:ty $(, $throttle:ty)?;)+
    ) => {
        crate::settings::policy_enum!(
            /// Warp scheduler of each SM scheduler slot (`core.warp_scheduler`).
            WarpSchedulerKind { $($(#[$m])* $kind => $s,)+ }
        );

        crate::settings::section_macro!(($) with_params $($p: crate::core::sched::$pm::Params),*);

        /// Checks the parameters of every registered policy that has some (`core.<name>`).
        pub(crate) fn check_params(c: &CoreConfig, k: &mut Checker) {
            $(c.$p.check(k);)*
        }

        impl WarpSchedulerKind {
            /// `Picker::ROUND_ROBIN_WARMING` of the policy this value runs.
            pub fn round_robin_warming(self) -> bool {
                match self { $(Self::$kind => <$picker as Picker>::ROUND_ROBIN_WARMING,)+ }
            }
        }

        /// The picker of one scheduler slot, dispatched by enum (it runs every cycle).
        #[derive(Debug, Clone)]
        pub enum WarpScheduler { $($kind($picker)),+ }

        impl WarpScheduler {
            pub fn new(c: &CoreConfig) -> Self {
                match c.warp_scheduler { $(WarpSchedulerKind::$kind => Self::$kind(<$picker as Picker>::build(c)),)+ }
            }

            #[inline]
            pub fn pick(
                &mut self,
                slots: &[usize],
                ready: impl FnMut(usize) -> bool,
                age: impl Fn(usize) -> Option<u64>,
            ) -> Option<usize> {
                match self { $(Self::$kind(p) => p.pick(slots, ready, age)),+ }
            }
        }

        /// SM-wide issue restrictions learnt from the L1: the configured policy's
        /// `ThrottlePolicy`, or `None` for policies without one.
        #[derive(Debug, Clone)]
        pub enum Throttle { None, $($($kind($throttle),)?)+ }

        impl Throttle {
            pub fn new(c: &CoreConfig) -> Self {
                match c.warp_scheduler { $(WarpSchedulerKind::$kind => registry!(@throttle c $kind $($throttle)?),)+ }
            }

            /// Whether the configured policy has an SM-wide throttle (CCWS, iWarp).
            pub fn is_active(&self) -> bool {
                !matches!(self, Self::None)
            }

            /// What the L1 must report.
            pub fn feedback(&self) -> Feedback {
                match self {
                    Self::None => Feedback::None,
                    $($(Self::$kind(_) => <$throttle as ThrottlePolicy>::FEEDBACK,)?)+
                }
            }

            /// `ThrottlePolicy::refresh`.
            pub fn refresh(&mut self, now: u64, events: &[L1Event], warps: &[Warp], roster_changed: bool) -> bool {
                match self {
                    Self::None => false,
                    $($(Self::$kind(t) => <$throttle as ThrottlePolicy>::refresh(t, now, events, warps, roster_changed),)?)+
                }
            }

            #[inline]
            pub fn allows(&self, slot: usize, is_mem: bool) -> bool {
                match self {
                    Self::None => true,
                    $($(Self::$kind(t) => <$throttle as ThrottlePolicy>::allows(t, slot, is_mem),)?)+
                }
            }

            /// `ThrottlePolicy::next_event`.
            pub fn next_event(&self, now: u64) -> Option<u64> {
                match self {
                    Self::None => None,
                    $($(Self::$kind(t) => <$throttle as ThrottlePolicy>::next_event(t, now),)?)+
                }
            }

            /// Warps held back right now.
            pub fn held(&self) -> usize {
                match self {
                    Self::None => 0,
                    $($(Self::$kind(t) => <$throttle as ThrottlePolicy>::held(t),)?)+
                }
            }
        }
    };
}

registry! {
    params {
        two_level: two_level::Params,
        swl: swl::Params,
        ccws: ccws::Params,
        iwarp: iwarp::Params,
    }
    /// Loose round robin: start after the warp that issued last.
    Lrr = "lrr": Lrr;
    /// Greedy-then-oldest: keep issuing the same warp until it stalls, then the oldest ready.
    Gto = "gto": Gto;
    /// Two-level: fetch groups of `core.two_level.group` warps; round robin inside the
    /// active group, the next group only when no warp of the active one can issue.
    TwoLevel = "two_level": TwoLevel;
    /// Static warp limiting: only the `core.swl.limit` oldest warps of each scheduler issue (GTO among them).
    Swl = "swl": Swl;
    /// Cache-conscious wavefront scheduling: lost-locality scores from per-warp L1 victim
    /// tags; warps past the score cutoff may not issue loads (GTO otherwise).
    Ccws = "ccws": Gto, Ccws;
    /// iWarp: a warp whose L1 eviction another warp later misses on is stalled until that
    /// victim finishes, leaves the contended set, or a timeout (GTO otherwise).
    Iwarp = "iwarp": Gto, Iwarp;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sched(kind: WarpSchedulerKind, f: impl FnOnce(&mut CoreConfig)) -> WarpScheduler {
        let mut c = crate::config::preset("medic-gtx480").unwrap().core;
        c.warp_scheduler = kind;
        f(&mut c);
        WarpScheduler::new(&c)
    }

    #[test]
    fn lrr_rotates_and_gto_sticks_with_its_warp() {
        let slots = [0, 2, 4, 6];
        let mut lrr = sched(WarpSchedulerKind::Lrr, |_| {});
        let picks: Vec<_> = (0..5).map(|_| lrr.pick(&slots, |_| true, |s| Some(s as u64)).unwrap()).collect();
        assert_eq!(picks, vec![0, 2, 4, 6, 0]);

        let mut gto = sched(WarpSchedulerKind::Gto, |_| {});
        let age = |s: usize| Some(100 - s as u64); // slot 6 is the oldest
        assert_eq!(gto.pick(&slots, |_| true, age), Some(6));
        assert_eq!(gto.pick(&slots, |_| true, age), Some(6), "greedy: same warp again");
        assert_eq!(gto.pick(&slots, |s| s != 6, age), Some(4), "then the oldest ready");
        assert_eq!(gto.pick(&slots, |_| true, age), Some(4), "and stays there");
        assert_eq!(gto.pick(&slots, |_| false, age), None);
    }

    #[test]
    fn two_level_stays_in_its_group_until_no_warp_there_can_issue() {
        let slots = [0, 1, 2, 3, 4, 5];
        let mut tl = sched(WarpSchedulerKind::TwoLevel, |c| c.two_level.group = 3);
        let age = |s: usize| Some(s as u64);
        let picks: Vec<_> = (0..4).map(|_| tl.pick(&slots, |_| true, age).unwrap()).collect();
        assert_eq!(picks, vec![0, 1, 2, 0], "round robin inside group 0");
        assert_eq!(tl.pick(&slots, |s| s >= 3, age), Some(3), "group 0 stalled: group 1 takes over");
        assert_eq!(tl.pick(&slots, |_| true, age), Some(4), "and keeps the turn");
        assert_eq!(tl.pick(&slots, |s| s == 2, age), Some(2));
    }

    #[test]
    fn swl_issues_only_from_its_oldest_live_warps() {
        let slots = [0, 1, 2, 3];
        let mut swl = sched(WarpSchedulerKind::Swl, |c| c.swl.limit = 2);
        let age = |s: usize| [Some(30), Some(10), None, Some(20)][s];
        assert_eq!(swl.pick(&slots, |_| true, age), Some(1), "oldest first (GTO)");
        assert_eq!(swl.pick(&slots, |s| s != 1, age), Some(3));
        assert_eq!(swl.pick(&slots, |s| s == 0, age), None, "slot 0 is beyond the limit");
        let age = |s: usize| [Some(30), None, None, Some(20)][s];
        assert_eq!(swl.pick(&slots, |s| s == 0, age), Some(0), "an exit lets the next oldest in");
    }
}
