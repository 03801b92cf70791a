//! Time management: a soft limit (don't start another iteration) and a hard limit (stop now),
//! from the clock, increment and moves to go.

use super::params::SearchParams;
use super::SearchLimits;
use crate::geometry::Color;
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
        self.soft.is_some_and(|s| self.start.elapsed() >= s)
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
