//! What a score means in a variant: its win/draw/loss model (`wdlModel` in variants.ini).
//!
//! A centipawn means very different odds from game to game (a pawn up decides more in chess
//! than in Espionage), so each variant carries the model fitted to its own self-play: with the
//! side to move's score `s`, `P(win) = σ((s − a) / b)`, `P(loss) = σ((−s − a) / b)` and the
//! draw takes the rest. `a` is where a win becomes as likely as not; `b` how fast the odds
//! grow around it. `chimera fitwdl` fits both to a variant's data by maximum likelihood.

/// A variant's win/draw/loss model; scores are centipawns from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WdlModel {
    /// The score at which a win is as likely as not (centipawns, at least 0).
    pub a: f64,
    /// The logistic's scale (centipawns, positive).
    pub b: f64,
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

impl WdlModel {
    /// The model of a variant that names none: the curve the engine used for every variant
    /// before the fits (a pawn and a half for even odds of a win).
    pub const DEFAULT: WdlModel = WdlModel { a: 150.0, b: 70.0 };

    /// Win, draw and loss probabilities of a score.
    pub fn probabilities(&self, cp: f64) -> (f64, f64, f64) {
        let w = sigmoid((cp - self.a) / self.b);
        let l = sigmoid((-cp - self.a) / self.b);
        (w, (1.0 - w - l).max(0.0), l)
    }

    /// The expected score (win 1, draw 1/2) of a score, in 0..=1.
    pub fn expected(&self, cp: f64) -> f64 {
        let (w, d, _) = self.probabilities(cp);
        (w + d / 2.0).clamp(0.0, 1.0)
    }

    /// Win, draw and loss per mille (summing to 1000), as UCI's `wdl` reports them.
    pub fn per_mille(&self, cp: i32) -> (u32, u32, u32) {
        let (w, _, l) = self.probabilities(cp as f64);
        let wi = (w * 1000.0).round() as u32;
        let li = ((l * 1000.0).round() as u32).min(1000 - wi);
        (wi, 1000 - wi - li, li)
    }

    /// Reads `A B` (two numbers, `A` at least 0 and `B` positive, centipawns).
    pub fn parse(text: &str) -> Result<WdlModel, String> {
        let numbers: Vec<&str> = text.split_whitespace().collect();
        let [a, b] = numbers[..] else {
            return Err(format!(
                "expected two numbers 'A B' (centipawns), found '{text}'"
            ));
        };
        let number = |t: &str| {
            t.parse::<f64>()
                .ok()
                .filter(|x| x.is_finite())
                .ok_or_else(|| format!("'{t}' is not a number"))
        };
        let (a, b) = (number(a)?, number(b)?);
        if !(0.0..=100_000.0).contains(&a) {
            return Err(format!("A must be 0..100000 centipawns, not {a}"));
        }
        if !(b > 0.0 && b <= 100_000.0) {
            return Err(format!("B must be above 0 and at most 100000, not {b}"));
        }
        Ok(WdlModel { a, b })
    }
}

impl Default for WdlModel {
    fn default() -> WdlModel {
        WdlModel::DEFAULT
    }
}

impl std::fmt::Display for WdlModel {
    /// As variants.ini writes it: `A B`, whole centipawns.
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "{:.0} {:.0}", self.a, self.b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn level_scores_are_even_and_odds_grow_with_the_score() {
        let m = WdlModel { a: 200.0, b: 80.0 };
        let (w, d, l) = m.probabilities(0.0);
        assert!((w - l).abs() < 1e-12 && d > 0.8, "{w} {d} {l}");
        assert!((m.expected(0.0) - 0.5).abs() < 1e-12);
        assert!((m.probabilities(200.0).0 - 0.5).abs() < 1e-12);
        let mut last = 0.0;
        for cp in (-1000..=1000).step_by(50) {
            let e = m.expected(cp as f64);
            assert!(e > last, "{cp}: {e} after {last}");
            assert!((e + m.expected(-cp as f64) - 1.0).abs() < 1e-9);
            last = e;
        }
    }

    #[test]
    fn per_mille_sums_to_a_thousand() {
        for m in [WdlModel::DEFAULT, WdlModel { a: 0.0, b: 5.0 }] {
            for cp in [-5000, -300, -1, 0, 7, 149, 150, 151, 900, 30000] {
                let (w, d, l) = m.per_mille(cp);
                assert_eq!(w + d + l, 1000, "{m:?} {cp}");
            }
        }
        assert_eq!(WdlModel::DEFAULT.per_mille(10_000), (1000, 0, 0));
    }

    #[test]
    fn parses_and_refuses() {
        assert_eq!(
            WdlModel::parse(" 120 85.5 "),
            Ok(WdlModel { a: 120.0, b: 85.5 })
        );
        assert_eq!(
            WdlModel::parse("0 1").map(|m| m.to_string()),
            Ok("0 1".into())
        );
        for bad in [
            "", "1", "1 2 3", "x 2", "1 0", "-1 5", "1 -5", "NaN 3", "1 inf",
        ] {
            assert!(WdlModel::parse(bad).is_err(), "{bad}");
        }
    }
}
