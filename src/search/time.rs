//! Time management: a soft limit (don't start another iteration) and a hard limit (stop now),
//! from the clock, increment and moves to go.

use super::params::SearchParams;
use super::SearchLimits;
use crate::geometry::Color;
use crate::moves::Move;
use std::time::{Duration, Instant};

/// When the search should stop.
#[derive(Clone, Debug)]
pub struct TimeManager {
    start: Instant,
    soft: Option<Duration>,
    hard: Option<Duration>,
}

impl TimeManager {
    /// Limits for `us` from the GUI's limits and the time constants of `p`; `overhead` is
    /// subtracted for communication lag.
    pub fn new(limits: &SearchLimits, us: Color, overhead: u64, p: &SearchParams) -> TimeManager {
        let start = Instant::now();
        if limits.infinite {
            return TimeManager {
                start,
                soft: None,
                hard: None,
            };
        }
        if let Some(mt) = limits.movetime {
            let t = Duration::from_millis(mt.saturating_sub(overhead).max(1));
            return TimeManager {
                start,
                soft: Some(t),
                hard: Some(t),
            };
        }
        let Some(left) = limits.time[us.index()] else {
            return TimeManager {
                start,
                soft: None,
                hard: None,
            };
        };
        let inc = limits.inc[us.index()];
        let left = left.saturating_sub(overhead).max(1);
        let mtg = limits
            .movestogo
            .map_or(p.time_moves_to_go as u64, |m| m.clamp(1, 50) as u64);
        let base = left / mtg + inc * p.time_inc_percent as u64 / 100;
        // on a low clock a move may use only a share of what is left: with a small increment,
        // any lag beyond the planned time (the answer's way to the GUI, a busy machine) would
        // otherwise drain the clock move after move until a move comes too late
        // (a clock about to be refilled by a time control may be spent more freely)
        let refill = limits.movestogo.is_some_and(|m| m <= 2);
        let (soft_cap, hard_cap) = if refill {
            (left / 2, left * 3 / 4)
        } else {
            (left / 8, left / 3)
        };
        let soft = base.min(soft_cap).max(1);
        let hard = (base * p.time_hard_factor as u64).min(hard_cap).max(soft);
        TimeManager {
            start,
            soft: Some(Duration::from_millis(soft)),
            hard: Some(Duration::from_millis(hard)),
        }
    }

    /// Time since the start.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Milliseconds since the start.
    pub fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    /// Whether the hard limit has passed.
    pub fn hard_expired(&self) -> bool {
        self.hard.is_some_and(|h| self.start.elapsed() >= h)
    }

    /// Whether the soft limit has passed (don't start a new iteration).
    pub fn soft_expired(&self) -> bool {
        self.soft_expired_scaled(1.0)
    }

    /// Whether the soft limit times `scale` has passed ([`Settling::scale`]).
    pub fn soft_expired_scaled(&self, scale: f64) -> bool {
        self.soft.is_some_and(|s| {
            let s = if scale == 1.0 { s } else { s.mul_f64(scale) };
            self.start.elapsed() >= s
        })
    }

    /// The hard limit, if any.
    pub fn hard_limit(&self) -> Option<Duration> {
        self.hard
    }

    /// Whether any time limit applies.
    pub fn limited(&self) -> bool {
        self.hard.is_some()
    }

    /// Drops the limits (pondering: the clock does not run for us).
    pub fn unlimited(&self) -> TimeManager {
        TimeManager {
            start: self.start,
            soft: None,
            hard: None,
        }
    }
}

/// Least and greatest factor [`Settling`] scales the soft limit by.
const SCALE_RANGE: (f64, f64) = (0.25, 4.0);
/// The greatest fall of the score (centipawns) that lengthens the search further.
const MAX_FALL: i32 = 200;

/// How settled the search is after each iteration, as a factor on the soft limit: more time
/// where the best move keeps changing, where it took a small share of the nodes (the others
/// were hard to refute) and where the score fell; less where one move took almost all of
/// them. Each effect has its constant (`TimeBestChange`, `TimeNodeShare`, `TimeScoreFall`);
/// at 0 they leave the soft limit as it is.
#[derive(Clone, Debug)]
pub struct Settling {
    changes: f64,
    last: Option<(Move, i32)>,
    scale: f64,
}

impl Default for Settling {
    fn default() -> Self {
        Settling {
            changes: 0.0,
            last: None,
            scale: 1.0,
        }
    }
}

impl Settling {
    /// An iteration ended with `best` scoring `score`, having taken `share` (0 to 1) of the
    /// thread's nodes so far.
    pub fn after_iteration(&mut self, p: &SearchParams, best: Move, score: i32, share: f64) {
        let (changed, fall) = match self.last {
            Some((m, s)) => (m != best, (s - score).clamp(0, MAX_FALL)),
            None => (false, 0),
        };
        self.changes = self.changes / 2.0 + changed as u8 as f64;
        self.last = Some((best, score));
        let change = 1.0 + p.time_best_change as f64 / 100.0 * self.changes;
        let nodes = 1.0 + p.time_node_share as f64 / 100.0 * (1.0 - 2.0 * share.clamp(0.0, 1.0));
        let fall = 1.0 + p.time_score_fall as f64 / 100.0 * fall as f64 / 100.0;
        self.scale = (change * nodes * fall).clamp(SCALE_RANGE.0, SCALE_RANGE.1);
    }

    /// The factor on the soft limit.
    pub fn scale(&self) -> f64 {
        self.scale
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets() {
        let mut l = SearchLimits {
            time: [Some(60_000), Some(60_000)],
            inc: [1000, 1000],
            ..Default::default()
        };
        let tm = TimeManager::new(&l, Color::White, 10, &SearchParams::default());
        let soft = tm.soft.expect("limited").as_millis();
        assert!((2000..=4000).contains(&soft), "{soft}");
        l.movestogo = Some(1);
        let tm = TimeManager::new(&l, Color::White, 10, &SearchParams::default());
        assert!(tm.hard.expect("limited").as_millis() <= 45_000);
        assert!(tm.hard.expect("limited").as_millis() >= 30_000);
        let l = SearchLimits {
            infinite: true,
            ..Default::default()
        };
        assert!(!TimeManager::new(&l, Color::Black, 0, &SearchParams::default()).limited());
        let l = SearchLimits {
            movetime: Some(100),
            ..Default::default()
        };
        assert_eq!(
            TimeManager::new(&l, Color::Black, 0, &SearchParams::default()).hard,
            Some(Duration::from_millis(100))
        );
    }

    #[test]
    fn the_time_constants_shape_the_budget() {
        let l = SearchLimits {
            time: [Some(60_000), Some(60_000)],
            inc: [1000, 1000],
            ..Default::default()
        };
        let ms = |p: &SearchParams| {
            let tm = TimeManager::new(&l, Color::White, 0, p);
            (tm.soft.unwrap().as_millis(), tm.hard.unwrap().as_millis())
        };
        let default = SearchParams::default();
        // 60 s over 30 moves plus 75 % of the increment; the hard limit four times that
        assert_eq!(ms(&default), (2750, 11000));
        let mut p = default;
        p.set("TimeMovesToGo", "60").unwrap();
        p.set("TimeIncPercent", "100").unwrap();
        p.set("TimeHardFactor", "2").unwrap();
        assert_eq!(ms(&p), (2000, 4000));
        // a GUI's moves to go still decides where it gives one
        let l40 = SearchLimits {
            movestogo: Some(40),
            ..l.clone()
        };
        let tm = TimeManager::new(&l40, Color::White, 0, &p);
        assert_eq!(tm.soft, Some(Duration::from_millis(1500 + 1000)));
    }

    #[test]
    fn settling_leaves_the_limit_alone_by_default_and_scales_it_when_asked() {
        let sq = crate::geometry::Square::new;
        let (a, b) = (Move::normal(sq(12), sq(28)), Move::normal(sq(6), sq(21)));
        let off = SearchParams::default();
        let mut s = Settling::default();
        for (m, score, share) in [(a, 10, 0.9), (b, -150, 0.1), (a, 40, 0.5)] {
            s.after_iteration(&off, m, score, share);
            assert_eq!(s.scale(), 1.0);
        }
        let mut p = SearchParams::default();
        p.set("TimeBestChange", "100").unwrap();
        p.set("TimeNodeShare", "50").unwrap();
        p.set("TimeScoreFall", "100").unwrap();
        let mut s = Settling::default();
        s.after_iteration(&p, a, 30, 0.5);
        assert_eq!(s.scale(), 1.0, "a first iteration, half the nodes");
        s.after_iteration(&p, a, 30, 1.0);
        assert_eq!(s.scale(), 0.5, "one move took every node");
        s.after_iteration(&p, b, -70, 0.5);
        // one change (x2), half the nodes (x1), a fall of 100 cp (x2)
        assert_eq!(s.scale(), 4.0);
        s.after_iteration(&p, b, -70, 0.5);
        assert_eq!(s.scale(), 1.5, "the change counts half an iteration later");
        s.after_iteration(&p, a, -1000, 0.0);
        assert_eq!(s.scale(), SCALE_RANGE.1, "bounded");
        let l = SearchLimits {
            time: [Some(60_000), Some(60_000)],
            ..Default::default()
        };
        let tm = TimeManager::new(&l, Color::White, 0, &SearchParams::default());
        assert!(!tm.soft_expired_scaled(1.0));
        assert!(
            tm.soft_expired_scaled(0.0),
            "a soft limit scaled to nothing has passed"
        );
    }

    #[test]
    fn a_small_increment_never_drains_the_clock() {
        // the worst case: every move uses its whole hard limit and then 30 ms more (the answer's
        // way to the GUI on a busy machine), at 5 s + 0.05 s, for 400 moves
        let (inc, lag) = (50u64, 30u64);
        let mut left = 5_000u64;
        for _ in 0..400 {
            let l = SearchLimits {
                time: [Some(left), Some(left)],
                inc: [inc, inc],
                ..Default::default()
            };
            let hard = TimeManager::new(&l, Color::White, 10, &SearchParams::default())
                .hard
                .expect("limited");
            let used = hard.as_millis() as u64 + lag;
            assert!(used < left, "flagged with {left} ms left, using {used} ms");
            left = left - used + inc;
        }
    }
}
