//! Judging moves: how much of the expected score a move gave away, the mark that earns
//! (inaccuracy, mistake, blunder) and an accuracy per move and per player.
//!
//! Everything is in expected score (win 1, draw 1/2, from the mover's view), read from the
//! engine's scores through the variant's win/draw/loss model, so a centipawn counts for what
//! it is worth in that game. The accuracy of a move falls exponentially with the share given
//! away, on the curve lichess publishes (100 % for none, about 65 % for a tenth, 30 % for a
//! quarter); a player's accuracy averages the arithmetic and harmonic means of its moves, so
//! one blunder weighs more than in a plain mean.

use crate::engine::{ReportedScore, WdlModel};

/// A mark for a move that gave away a share of the expected score.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Mark {
    /// `?!`
    Inaccuracy,
    /// `?`
    Mistake,
    /// `??`
    Blunder,
}

impl Mark {
    /// The numeric annotation glyph (`$6`, `$2`, `$4`).
    pub fn nag(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "$6",
            Mark::Mistake => "$2",
            Mark::Blunder => "$4",
        }
    }

    /// The word, capitalised.
    pub fn word(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "Inaccuracy",
            Mark::Mistake => "Mistake",
            Mark::Blunder => "Blunder",
        }
    }

    /// The symbol players write.
    pub fn symbol(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "?!",
            Mark::Mistake => "?",
            Mark::Blunder => "??",
        }
    }
}

/// The smallest losses of expected score that earn each mark.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Thresholds {
    /// An inaccuracy from this loss on.
    pub inaccuracy: f64,
    /// A mistake.
    pub mistake: f64,
    /// A blunder.
    pub blunder: f64,
}

impl Default for Thresholds {
    /// 5, 10 and 15 points of expected score in a hundred (lichess's 0.1, 0.2 and 0.3 of
    /// winning chances on its -1..1 scale).
    fn default() -> Thresholds {
        Thresholds {
            inaccuracy: 0.05,
            mistake: 0.10,
            blunder: 0.15,
        }
    }
}

impl Thresholds {
    /// Reads `I,M,B` (three rising shares of the expected score, each in 0..1).
    pub fn parse(text: &str) -> Result<Thresholds, String> {
        let parts: Vec<f64> = text
            .split(',')
            .map(|t| {
                t.trim()
                    .parse::<f64>()
                    .map_err(|_| format!("'{t}' is not a number"))
            })
            .collect::<Result<_, _>>()?;
        let [inaccuracy, mistake, blunder] = parts[..] else {
            return Err(format!("expected three numbers I,M,B, found '{text}'"));
        };
        let ok = 0.0 < inaccuracy && inaccuracy <= mistake && mistake <= blunder && blunder <= 1.0;
        if !ok {
            return Err(format!(
                "the thresholds must rise within 0..1 (0 < I <= M <= B <= 1), not '{text}'"
            ));
        }
        Ok(Thresholds {
            inaccuracy,
            mistake,
            blunder,
        })
    }

    /// The mark a loss of expected score earns, if any.
    pub fn mark(&self, loss: f64) -> Option<Mark> {
        if loss >= self.blunder {
            Some(Mark::Blunder)
        } else if loss >= self.mistake {
            Some(Mark::Mistake)
        } else if loss >= self.inaccuracy {
            Some(Mark::Inaccuracy)
        } else {
            None
        }
    }
}

/// The expected score of a reported score for the side it is reported for.
pub fn expected(score: ReportedScore, model: &WdlModel) -> f64 {
    match score {
        ReportedScore::Mate(m) if m > 0 => 1.0,
        ReportedScore::Mate(_) => 0.0,
        ReportedScore::Cp(cp) => model.expected(cp as f64),
    }
}

/// The accuracy (0..100) of a move that gave away `loss` of the expected score.
pub fn move_accuracy(loss: f64) -> f64 {
    let points = 100.0 * loss.max(0.0);
    (103.1668 * (-0.04354 * points).exp() - 3.1669).clamp(0.0, 100.0)
}

/// What one player did in a game.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PlayerSummary {
    /// Moves judged.
    pub moves: usize,
    /// Accuracy of the game, 0..100 (`None` without a move).
    pub accuracy: Option<f64>,
    /// Inaccuracies, mistakes and blunders.
    pub inaccuracies: usize,
    /// Mistakes.
    pub mistakes: usize,
    /// Blunders.
    pub blunders: usize,
    /// Mean loss of expected score a move, in hundredths (lichess's "average centipawn
    /// loss" in the currency of expected score).
    pub mean_loss: f64,
}

/// Sums up a player's moves: `(loss, mark)` each.
pub fn summarise(moves: &[(f64, Option<Mark>)]) -> PlayerSummary {
    let n = moves.len();
    if n == 0 {
        return PlayerSummary::default();
    }
    let accuracies: Vec<f64> = moves.iter().map(|&(l, _)| move_accuracy(l)).collect();
    let mean = accuracies.iter().sum::<f64>() / n as f64;
    // a move of 0 % accuracy would make the harmonic mean 0: floor each at 1 %
    let harmonic = n as f64 / accuracies.iter().map(|a| 1.0 / a.max(1.0)).sum::<f64>();
    let count = |m: Mark| moves.iter().filter(|&&(_, k)| k == Some(m)).count();
    PlayerSummary {
        moves: n,
        accuracy: Some((mean + harmonic) / 2.0),
        inaccuracies: count(Mark::Inaccuracy),
        mistakes: count(Mark::Mistake),
        blunders: count(Mark::Blunder),
        mean_loss: 100.0 * moves.iter().map(|&(l, _)| l.max(0.0)).sum::<f64>() / n as f64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_follow_the_thresholds() {
        let t = Thresholds::default();
        assert_eq!(t.mark(0.0), None);
        assert_eq!(t.mark(0.049), None);
        assert_eq!(t.mark(0.05), Some(Mark::Inaccuracy));
        assert_eq!(t.mark(0.12), Some(Mark::Mistake));
        assert_eq!(t.mark(0.4), Some(Mark::Blunder));
        let strict = Thresholds::parse("0.02, 0.04,0.08").expect("parses");
        assert_eq!(strict.mark(0.05), Some(Mark::Mistake));
        for bad in [
            "",
            "0.1,0.2",
            "0.3,0.2,0.4",
            "0,0.1,0.2",
            "0.1,0.2,1.5",
            "a,b,c",
        ] {
            assert!(Thresholds::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn accuracy_falls_with_the_loss() {
        assert!((move_accuracy(0.0) - 100.0).abs() < 0.01);
        assert!(move_accuracy(0.1) < 70.0 && move_accuracy(0.1) > 60.0);
        assert_eq!(move_accuracy(1.0), 0.0);
        let clean = summarise(&[(0.0, None); 20]);
        assert!((clean.accuracy.expect("moves") - 100.0).abs() < 0.01);
        let mut one_blunder = vec![(0.0, None); 19];
        one_blunder.push((0.5, Some(Mark::Blunder)));
        let s = summarise(&one_blunder);
        assert_eq!((s.blunders, s.mistakes, s.moves), (1, 0, 20));
        let plain_mean = (19.0 * 100.0 + move_accuracy(0.5)) / 20.0;
        assert!(s.accuracy.expect("moves") < plain_mean, "{s:?}");
        assert_eq!(summarise(&[]).accuracy, None);
    }

    #[test]
    fn mates_are_certain() {
        let m = WdlModel::DEFAULT;
        assert_eq!(expected(ReportedScore::Mate(3), &m), 1.0);
        assert_eq!(expected(ReportedScore::Mate(-2), &m), 0.0);
        assert!((expected(ReportedScore::Cp(0), &m) - 0.5).abs() < 1e-12);
    }
}
