//! Time controls and the clocks the referee keeps for each player.
//!
//! A player's limits combine, as in cutechess-cli: a clock (`tc=[moves/]time[+inc]` or
//! `tc=inf`), a fixed time per move (`st=`), a node limit (`nodes=`) and a depth limit
//! (`depth=`). The referee, not the engine, measures the time: from sending `go` to reading the
//! move. Only clock time and `st=` can be forfeited; node and depth limits are guarded by a
//! stall timeout instead.

use std::fmt;
use std::time::Duration;

/// A chess clock's rules: base time, increment, and moves per period (0: the whole game).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockRules {
    /// Moves per period; the base time is added again after each period (0: sudden death).
    pub moves: u32,
    /// Time per period in ms.
    pub base_ms: u64,
    /// Increment per move in ms.
    pub inc_ms: u64,
}

/// Everything that limits one engine's thinking.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// The clock, if the engine plays on one (`None`: `tc=inf` or no `tc=`).
    pub clock: Option<ClockRules>,
    /// Fixed time per move in ms.
    pub movetime_ms: Option<u64>,
    /// Nodes per move.
    pub nodes: Option<u64>,
    /// Depth per move.
    pub depth: Option<u32>,
    /// Whether `tc=inf` was given (an explicit "no clock").
    pub infinite: bool,
    /// Extra time an engine may overrun its clock or fixed time before it forfeits, in ms.
    pub margin_ms: u64,
}

impl Limits {
    /// Whether anything limits the search; an engine told nothing would think forever.
    pub fn is_bounded(&self) -> bool {
        self.clock.is_some()
            || self.movetime_ms.is_some()
            || self.nodes.is_some()
            || self.depth.is_some()
    }

    /// The PGN `TimeControl` tag value (PGN standard: `moves/seconds`, `seconds+inc`,
    /// `*seconds` for fixed time, `-` otherwise).
    pub fn pgn_tag(&self) -> String {
        let secs = |ms: u64| {
            if ms.is_multiple_of(1000) {
                format!("{}", ms / 1000)
            } else {
                format!("{}", ms as f64 / 1000.0)
            }
        };
        if let Some(c) = self.clock {
            let mut s = String::new();
            if c.moves > 0 {
                s.push_str(&format!("{}/", c.moves));
            }
            s.push_str(&secs(c.base_ms));
            if c.inc_ms > 0 {
                s.push_str(&format!("+{}", secs(c.inc_ms)));
            }
            s
        } else if let Some(st) = self.movetime_ms {
            format!("*{}", secs(st))
        } else {
            "-".into()
        }
    }
}

impl fmt::Display for Limits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if self.clock.is_some() {
            parts.push(format!("tc={}", self.pgn_tag()));
        }
        if let Some(st) = self.movetime_ms {
            parts.push(format!("st={}", st as f64 / 1000.0));
        }
        if let Some(n) = self.nodes {
            parts.push(format!("nodes={n}"));
        }
        if let Some(d) = self.depth {
            parts.push(format!("depth={d}"));
        }
        if parts.is_empty() {
            parts.push("tc=inf".into());
        }
        f.write_str(&parts.join(" "))
    }
}

/// Parses seconds (`10`, `0.5`) or minutes and seconds (`1:30`) into ms.
fn parse_seconds(s: &str) -> Option<u64> {
    let ms = match s.split_once(':') {
        Some((m, sec)) => {
            let m: u64 = m.parse().ok()?;
            let sec: f64 = sec.parse().ok()?;
            if !(0.0..60.0).contains(&sec) {
                return None;
            }
            m as f64 * 60_000.0 + sec * 1000.0
        }
        None => s.parse::<f64>().ok()? * 1000.0,
    };
    (ms.is_finite() && (0.0..=1e12).contains(&ms)).then_some(ms.round() as u64)
}

/// Parses a `tc=` value: `inf`, `[moves/]time[+inc]` with time as seconds or `m:ss`.
pub fn parse_tc(s: &str) -> Result<Option<ClockRules>, String> {
    let bad = || {
        format!(
            "bad time control '{s}' (expected e.g. 40/60, 10+0.1, 2:00+1 or inf; times in seconds)"
        )
    };
    if s == "inf" {
        return Ok(None);
    }
    let (moves, rest) = match s.split_once('/') {
        Some((m, r)) => (m.parse::<u32>().map_err(|_| bad())?, r),
        None => (0, s),
    };
    let (base, inc) = match rest.split_once('+') {
        Some((b, i)) => (b, Some(i)),
        None => (rest, None),
    };
    let base_ms = parse_seconds(base).ok_or_else(bad)?;
    let inc_ms = match inc {
        Some(i) => parse_seconds(i).ok_or_else(bad)?,
        None => 0,
    };
    if base_ms == 0 && inc_ms == 0 {
        return Err(format!("time control '{s}' gives no time at all"));
    }
    Ok(Some(ClockRules {
        moves,
        base_ms,
        inc_ms,
    }))
}

/// Parses a positive number of seconds (`st=`, `timemargin=`) into ms.
pub fn parse_positive_seconds(key: &str, s: &str) -> Result<u64, String> {
    parse_seconds(s)
        .filter(|&ms| ms > 0)
        .ok_or_else(|| format!("{key} takes a positive number of seconds, not '{s}'"))
}

/// One player's clock during a game.
#[derive(Clone, Debug)]
pub struct Clock {
    rules: Option<ClockRules>,
    /// Time left in ms (negative once overrun).
    left_ms: i64,
    /// Moves made in the current period.
    moves_in_period: u32,
}

impl Clock {
    /// A full clock.
    pub fn new(rules: Option<ClockRules>) -> Clock {
        Clock {
            rules,
            left_ms: rules.map_or(0, |r| r.base_ms as i64),
            moves_in_period: 0,
        }
    }

    /// Time left in ms, never below zero (what the engine is told).
    pub fn left_ms(&self) -> u64 {
        self.left_ms.max(0) as u64
    }

    /// Whether a clock is running at all.
    pub fn is_running(&self) -> bool {
        self.rules.is_some()
    }

    /// The increment in ms.
    pub fn inc_ms(&self) -> u64 {
        self.rules.map_or(0, |r| r.inc_ms)
    }

    /// Moves until the next period, if periods are used.
    pub fn moves_to_go(&self) -> Option<u32> {
        self.rules
            .filter(|r| r.moves > 0)
            .map(|r| r.moves - self.moves_in_period)
    }

    /// Charges a move that took `used`; returns false if the time ran out (beyond `margin`).
    /// The increment and a new period's time are added only after a move in time.
    pub fn charge(&mut self, used: Duration, margin_ms: u64) -> bool {
        let Some(r) = self.rules else { return true };
        self.left_ms -= used.as_millis().min(i64::MAX as u128) as i64;
        if self.left_ms + (margin_ms as i64) < 0 {
            return false;
        }
        self.left_ms = self.left_ms.max(0) + r.inc_ms as i64;
        if r.moves > 0 {
            self.moves_in_period += 1;
            if self.moves_in_period == r.moves {
                self.moves_in_period = 0;
                self.left_ms += r.base_ms as i64;
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_cutechess_time_controls() {
        let c = |s| parse_tc(s).expect("valid").expect("a clock");
        assert_eq!(
            c("40/60+0.5"),
            ClockRules {
                moves: 40,
                base_ms: 60_000,
                inc_ms: 500
            }
        );
        assert_eq!(c("2:30").base_ms, 150_000);
        assert_eq!(c("0.2+0.01").inc_ms, 10);
        assert_eq!(parse_tc("inf"), Ok(None));
        for bad in ["", "x", "40/", "1:75", "-3", "10+x", "0", "nan", "1e300"] {
            assert!(parse_tc(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn clock_periods_increment_and_forfeit() {
        let mut c = Clock::new(Some(ClockRules {
            moves: 2,
            base_ms: 1000,
            inc_ms: 100,
        }));
        assert_eq!(c.moves_to_go(), Some(2));
        assert!(c.charge(Duration::from_millis(600), 0));
        assert_eq!(c.left_ms(), 500);
        assert!(c.charge(Duration::from_millis(100), 0));
        // second move ends the period: 500 - 100 + 100 + 1000
        assert_eq!(c.left_ms(), 1500);
        assert_eq!(c.moves_to_go(), Some(2));
        assert!(
            c.charge(Duration::from_millis(1540), 50),
            "inside the margin"
        );
        assert_eq!(c.left_ms(), 100);
        assert!(!c.charge(Duration::from_millis(200), 50));
    }
}
