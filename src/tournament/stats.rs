//! Match statistics from wins, draws and losses: score, Elo difference with a 95% error margin,
//! likelihood of superiority, and the sequential probability ratio test.
//!
//! Elo is the logistic model: a score `s` means `-400 log10(1/s - 1)`. The error margin comes
//! from the per-game variance of the trinomial (win 1, draw 1/2, loss 0) and the normal
//! approximation. LOS is `P(true score > 1/2)` from wins and losses alone. The SPRT is the
//! generalised SPRT of fishtest: the log-likelihood ratio of the two hypotheses (logistic
//! Elo `elo0` against `elo1`), each the most likely win/draw/loss distribution whose mean is
//! the score the hypothesis predicts, compared with `ln(beta / (1 - alpha))` and
//! `ln((1 - beta) / alpha)`. For many games it equals the normal approximation
//! `N (s1 - s0) (2 m - s0 - s1) / (2 v)` (`m`, `v`: mean and variance of one game's score)
//! that cutechess-cli prints; unlike it, it stays finite while every game has the same result.

/// Wins, draws and losses of the first engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

/// The 97.5% quantile of the standard normal distribution.
const Z95: f64 = 1.959_963_984_540_054;

/// The error function (Abramowitz and Stegun 7.1.26; error below 1.5e-7).
fn erf(x: f64) -> f64 {
    let sign = if x < 0.0 { -1.0 } else { 1.0 };
    let x = x.abs();
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    sign * (1.0 - poly * (-x * x).exp())
}

/// Elo difference of a score fraction.
pub fn elo_of_score(s: f64) -> f64 {
    -400.0 * (1.0 / s - 1.0).log10()
}

/// Expected score of an Elo difference.
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

impl Wdl {
    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Score fraction (0.5 with no games).
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.5;
        }
        (self.wins as f64 + 0.5 * self.draws as f64) / n as f64
    }

    /// Mean and per-game variance of the score.
    fn mean_variance(&self) -> (f64, f64) {
        let n = self.games() as f64;
        let m = self.score();
        let (w, d, l) = (
            self.wins as f64 / n,
            self.draws as f64 / n,
            self.losses as f64 / n,
        );
        let v = w * (1.0 - m).powi(2) + d * (0.5 - m).powi(2) + l * m.powi(2);
        (m, v)
    }

    /// Elo difference and its 95% error margin (infinite while the interval reaches a score
    /// of 0 or 1); `None` while the score itself is 0 or 1.
    pub fn elo(&self) -> Option<(f64, f64)> {
        let n = self.games();
        let s = self.score();
        if n == 0 || s <= 0.0 || s >= 1.0 {
            return None;
        }
        let (_, v) = self.mean_variance();
        let dev = (v / n as f64).sqrt();
        let (lo, hi) = (s - Z95 * dev, s + Z95 * dev);
        // an interval reaching a score of 0 or 1 reaches infinite Elo
        let margin = if lo <= 0.0 || hi >= 1.0 {
            f64::INFINITY
        } else {
            (elo_of_score(hi) - elo_of_score(lo)) / 2.0
        };
        Some((elo_of_score(s), margin))
    }

    /// Likelihood of superiority in percent.
    pub fn los(&self) -> f64 {
        let (w, l) = (self.wins as f64, self.losses as f64);
        if w + l == 0.0 {
            return 50.0;
        }
        50.0 * (1.0 + erf((w - l) / (2.0 * (w + l)).sqrt()))
    }

    /// Draw ratio in percent.
    pub fn draw_ratio(&self) -> f64 {
        match self.games() {
            0 => 0.0,
            n => 100.0 * self.draws as f64 / n as f64,
        }
    }
}

/// Scores of a loss, a draw and a win.
const RESULT_SCORE: [f64; 3] = [0.0, 0.5, 1.0];

/// A pair's score as a fraction of its two points: 0, 1/2, 1, 3/2 or 2 points.
const PAIR_SCORE: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// The result probabilities (loss, draw, win) that make `counts` most likely among those whose
/// expected score is `s` (0 < s < 1), found by a Lagrange multiplier as for any set of outcomes.
pub fn constrained_mle(counts: &[f64; 3], s: f64) -> [f64; 3] {
    constrained_mle_of(counts, &RESULT_SCORE, s)
}

/// The probabilities of outcomes scored `scores` (from 0 to 1) that make `counts` most likely
/// among those whose expected score is `s` (0 < s < 1). With a Lagrange multiplier the answer
/// is `p_i = f_i / (1 + l (x_i - s))`, `f_i` the observed frequencies and `x_i` the scores,
/// where `l` solves `sum f_i (x_i - s) / (1 + l (x_i - s)) = 0`; the sum falls as `l` grows,
/// so bisection finds it. Zero counts are raised to a tiny value (as fishtest does) so that
/// every outcome keeps some probability.
fn constrained_mle_of<const N: usize>(counts: &[f64; N], scores: &[f64; N], s: f64) -> [f64; N] {
    const EPS: f64 = 1e-3;
    let c = counts.map(|n| n.max(EPS));
    let total: f64 = c.iter().sum();
    let f = c.map(|n| n / total);
    let g = |l: f64| -> f64 {
        (0..N)
            .map(|i| f[i] * (scores[i] - s) / (1.0 + l * (scores[i] - s)))
            .sum()
    };
    // the multiplier keeps 1 + l (x - s) > 0 for x = 0 and x = 1
    let (mut lo, mut hi) = (-1.0 / (1.0 - s), 1.0 / s);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if g(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let l = 0.5 * (lo + hi);
    let p: [f64; N] = std::array::from_fn(|i| f[i] / (1.0 + l * (scores[i] - s)));
    let sum: f64 = p.iter().sum();
    p.map(|x| x / sum)
}

/// Game pairs (one opening, colours reversed) by the first engine's points in the pair: 0, 1/2,
/// 1, 3/2 and 2. The two games of a pair are not independent (an opening that favours one
/// colour gives a win and a loss), so the pairs measure the score's variance better than the
/// games do, and the SPRT on them decides sooner where openings are unbalanced.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial(pub [u32; 5]);

impl Pentanomial {
    /// Counts a pair from the first engine's score in each of its games.
    pub fn add(&mut self, first: f64, second: f64) {
        let half_points = (2.0 * (first + second)).round().clamp(0.0, 4.0);
        self.0[half_points as usize] += 1;
    }

    /// Pairs counted.
    pub fn pairs(&self) -> u32 {
        self.0.iter().sum()
    }

    /// Mean and variance of a pair's score (as a fraction of its two points).
    fn mean_variance(&self) -> (f64, f64) {
        let n = self.pairs() as f64;
        let m: f64 = (0..5)
            .map(|i| self.0[i] as f64 * PAIR_SCORE[i])
            .sum::<f64>()
            / n;
        let v = (0..5)
            .map(|i| self.0[i] as f64 * (PAIR_SCORE[i] - m).powi(2))
            .sum::<f64>()
            / n;
        (m, v)
    }

    /// The 95% error margin in Elo of the score over these pairs (infinite while the interval
    /// reaches a score of 0 or 1); `None` while there is no pair or the score is 0 or 1.
    pub fn elo_margin(&self) -> Option<f64> {
        if self.pairs() == 0 {
            return None;
        }
        let (m, v) = self.mean_variance();
        if m <= 0.0 || m >= 1.0 {
            return None;
        }
        let dev = (v / self.pairs() as f64).sqrt();
        let (lo, hi) = (m - Z95 * dev, m + Z95 * dev);
        Some(if lo <= 0.0 || hi >= 1.0 {
            f64::INFINITY
        } else {
            (elo_of_score(hi) - elo_of_score(lo)) / 2.0
        })
    }
}

/// The SPRT's hypotheses and error rates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1.
    pub elo1: f64,
    /// False positive rate.
    pub alpha: f64,
    /// False negative rate.
    pub beta: f64,
}

/// What the SPRT says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtState {
    /// Keep playing.
    Continue,
    /// H0 (`elo0`) accepted.
    H0,
    /// H1 (`elo1`) accepted.
    H1,
}

impl Sprt {
    /// Lower and upper bounds of the log-likelihood ratio.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 for these results: `sum N_i ln(p1_i / p0_i)`
    /// over the three results, where `p0`, `p1` are the most likely result probabilities
    /// whose mean score is `s0`, `s1` ([`constrained_mle`]). A run of one result gives a finite
    /// ratio (`n ln(s1 / s0)` for wins).
    pub fn llr(&self, r: &Wdl) -> f64 {
        let counts = [r.losses, r.draws, r.wins].map(f64::from);
        self.gsprt(&counts, &RESULT_SCORE)
    }

    /// The log-likelihood ratio over game pairs: the same test on the five outcomes of a pair
    /// (fishtest's pentanomial model), each hypothesis the distribution of pair scores whose
    /// mean is the score its Elo predicts.
    pub fn llr_pairs(&self, p: &Pentanomial) -> f64 {
        self.gsprt(&p.0.map(f64::from), &PAIR_SCORE)
    }

    fn gsprt<const N: usize>(&self, counts: &[f64; N], scores: &[f64; N]) -> f64 {
        if counts.iter().sum::<f64>() == 0.0 {
            return 0.0;
        }
        let (s0, s1) = (score_of_elo(self.elo0), score_of_elo(self.elo1));
        let p0 = constrained_mle_of(counts, scores, s0);
        let p1 = constrained_mle_of(counts, scores, s1);
        (0..N)
            .filter(|&i| counts[i] > 0.0)
            .map(|i| counts[i] * (p1[i] / p0[i]).ln())
            .sum()
    }

    /// The decision for a log-likelihood ratio.
    pub fn decide(&self, llr: f64) -> SprtState {
        let (lo, hi) = self.bounds();
        if llr >= hi {
            SprtState::H1
        } else if llr <= lo {
            SprtState::H0
        } else {
            SprtState::Continue
        }
    }

    /// The decision for these results.
    pub fn state(&self, r: &Wdl) -> SprtState {
        self.decide(self.llr(r))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_and_margin() {
        let r = Wdl {
            wins: 60,
            draws: 20,
            losses: 20,
        };
        assert!((r.score() - 0.7).abs() < 1e-12);
        let (elo, margin) = r.elo().expect("finite");
        assert!((elo - 147.19).abs() < 0.01, "{elo}");
        // variance 0.6*0.09 + 0.2*0.04 + 0.2*0.49 = 0.16; sd of mean 0.04
        let lo = elo_of_score(0.7 - Z95 * 0.04);
        let hi = elo_of_score(0.7 + Z95 * 0.04);
        assert!((margin - (hi - lo) / 2.0).abs() < 1e-9);
        assert!(margin > 60.0 && margin < 80.0, "{margin}");
        let lopsided = Wdl {
            wins: 26,
            draws: 0,
            losses: 3,
        };
        assert_eq!(lopsided.elo().map(|e| e.1), Some(f64::INFINITY));
        assert!(Wdl {
            wins: 3,
            draws: 0,
            losses: 0
        }
        .elo()
        .is_none());
        assert_eq!(Wdl::default().score(), 0.5);
    }

    #[test]
    fn los_values() {
        assert_eq!(Wdl::default().los(), 50.0);
        let even = Wdl {
            wins: 10,
            draws: 5,
            losses: 10,
        };
        assert!((even.los() - 50.0).abs() < 1e-6);
        // (w - l) / sqrt(2 (w + l)) = 10 / sqrt(60); Phi(10/sqrt(30)) = 0.96605
        let ahead = Wdl {
            wins: 20,
            draws: 0,
            losses: 10,
        };
        assert!((ahead.los() - 96.605).abs() < 0.01, "{}", ahead.los());
        assert!((erf(1.0) - 0.842_700_79).abs() < 2e-7);
    }

    #[test]
    fn sprt_bounds_and_decisions() {
        let t = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let (lo, hi) = t.bounds();
        assert!((lo + 2.944_438_98).abs() < 1e-6 && (hi - 2.944_438_98).abs() < 1e-6);
        assert_eq!(t.llr(&Wdl::default()), 0.0);
        // a published GSPRT figure (jw1912/SPRT's README): W 4307 L 4063 D 8620, [0, 3] -> 2.99
        let t3 = Sprt { elo1: 3.0, ..t };
        let r = Wdl {
            wins: 4307,
            draws: 8620,
            losses: 4063,
        };
        assert!((t3.llr(&r) - 2.99).abs() < 0.01, "{}", t3.llr(&r));
        // a run of wins: n ln(s1 / s0) in the limit, finite
        let wins = Wdl {
            wins: 20,
            draws: 0,
            losses: 0,
        };
        let expect = 20.0 * (score_of_elo(10.0) / 0.5).ln();
        assert!((t.llr(&wins) - expect).abs() < 0.01, "{}", t.llr(&wins));
        let even = Wdl {
            wins: 100,
            draws: 200,
            losses: 100,
        };
        assert!(t.llr(&even) < 0.0);
        let strong = Wdl {
            wins: 600,
            draws: 200,
            losses: 400,
        };
        assert_eq!(t.state(&strong), SprtState::H1);
        let weak = Wdl {
            wins: 400,
            draws: 200,
            losses: 600,
        };
        assert_eq!(t.state(&weak), SprtState::H0);
        let few = Wdl {
            wins: 3,
            draws: 2,
            losses: 2,
        };
        assert_eq!(t.state(&few), SprtState::Continue);
        // for many games the ratio approaches the normal approximation
        let m: f64 = 700.0 / 1200.0;
        let v =
            (600.0 * (1.0 - m).powi(2) + 200.0 * (0.5 - m).powi(2) + 400.0 * m.powi(2)) / 1200.0;
        let (s0, s1) = (0.5, score_of_elo(10.0));
        let approx = 1200.0 * (s1 - s0) * (2.0 * m - s0 - s1) / (2.0 * v);
        assert!(
            (t.llr(&strong) - approx).abs() < 0.05 * approx,
            "{} {approx}",
            t.llr(&strong)
        );
    }

    #[test]
    fn pairs_are_counted_by_their_points() {
        let mut p = Pentanomial::default();
        for (a, b) in [
            (1.0, 1.0),
            (1.0, 0.0),
            (0.5, 0.5),
            (0.5, 1.0),
            (0.0, 0.5),
            (0.0, 1.0),
        ] {
            p.add(a, b);
        }
        assert_eq!(p.0, [0, 1, 3, 1, 1]);
        assert_eq!(p.pairs(), 6);
        assert_eq!(Pentanomial::default().elo_margin(), None);
        assert_eq!(Pentanomial([0, 0, 0, 0, 5]).elo_margin(), None);
    }

    #[test]
    fn the_sprt_over_pairs_sees_what_the_colours_did() {
        let t = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        assert_eq!(t.llr_pairs(&Pentanomial::default()), 0.0);
        // fishtest's LLRcalc.LLR_logistic(0, 10, pairs) on two learn gates' pairs (computed
        // with fishtest's own code): 2.968277 and 1.758781
        for (pairs, expect) in [
            ([1, 0, 39, 8, 60], 2.968_277),
            ([0, 1, 8, 6, 47], 1.758_781),
        ] {
            let llr = t.llr_pairs(&Pentanomial(pairs));
            assert!((llr - expect).abs() < 1e-4, "{pairs:?}: {llr}");
        }
        // 200 openings that each side won with White: as games, 200 wins and 200 losses, a
        // score of 1/2 whose variance says nothing yet; as pairs, 200 even pairs, which
        // rule out +10 Elo
        let games = Wdl {
            wins: 200,
            draws: 0,
            losses: 200,
        };
        let pairs = Pentanomial([0, 0, 200, 0, 0]);
        assert_eq!(t.state(&games), SprtState::Continue);
        assert_eq!(t.decide(t.llr_pairs(&pairs)), SprtState::H0);
        // for many pairs the ratio approaches the normal approximation with the pairs'
        // variance: N (s1 - s0) (2m - s0 - s1) / (2v)
        let counts = [100.0, 400.0, 1000.0, 600.0, 200.0];
        let pairs = Pentanomial(counts.map(|c| c as u32));
        let n: f64 = counts.iter().sum();
        let m = (0..5).map(|i| counts[i] * PAIR_SCORE[i]).sum::<f64>() / n;
        let v = (0..5)
            .map(|i| counts[i] * (PAIR_SCORE[i] - m).powi(2))
            .sum::<f64>()
            / n;
        let (s0, s1) = (0.5, score_of_elo(10.0));
        let approx = n * (s1 - s0) * (2.0 * m - s0 - s1) / (2.0 * v);
        let llr = t.llr_pairs(&pairs);
        assert!((llr - approx).abs() < 0.03 * approx, "{llr} {approx}");
        assert_eq!(t.decide(llr), SprtState::H1);
        // the margin: half the width of the pairs' 95% interval, in Elo
        let dev = (v / n).sqrt();
        let expect = (elo_of_score(m + Z95 * dev) - elo_of_score(m - Z95 * dev)) / 2.0;
        let margin = pairs.elo_margin().expect("finite");
        assert!((margin - expect).abs() < 1e-9, "{margin} {expect}");
    }

    #[test]
    fn constrained_mle_has_the_asked_mean() {
        for (counts, s) in [
            ([10.0, 5.0, 20.0], 0.5),
            ([0.0, 0.0, 7.0], 0.6),
            ([3.0, 0.0, 0.0], 0.4),
        ] {
            let p = constrained_mle(&counts, s);
            let mean = 0.5 * p[1] + p[2];
            assert!((mean - s).abs() < 1e-9, "{p:?}");
            assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-9);
            assert!(p.iter().all(|&x| x >= 0.0));
        }
        let p = constrained_mle_of(&[3.0, 0.0, 5.0, 9.0, 1.0], &PAIR_SCORE, 0.6);
        let mean: f64 = (0..5).map(|i| p[i] * PAIR_SCORE[i]).sum();
        assert!((mean - 0.6).abs() < 1e-9, "{p:?}");
    }
}
