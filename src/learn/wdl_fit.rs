//! Fitting a variant's win/draw/loss model ([`WdlModel`]) to its self-play: the `A B` of
//! `wdlModel` that make the games' results most likely given the search scores (maximum
//! likelihood), and a calibration table to judge the fit by.

use super::packed;
use super::train::Data;
use crate::variant::WdlModel;

/// One position: the search score and the game's result, both from White's view (the model
/// is symmetric, so either side's view gives the same fit).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Outcome {
    /// Centipawns.
    pub score: f64,
    /// Half points: 0 loss, 1 draw, 2 win.
    pub half_points: u8,
}

/// Scores beyond this say the game is decided; they tell the model nothing about the middle.
const DECIDED_CP: f64 = 3000.0;

/// The positions of `data` as outcomes (decided scores left out).
pub fn outcomes(data: &Data) -> Vec<Outcome> {
    let types = data.layout.letters.len();
    data.records
        .iter()
        .filter_map(|r| packed::unpack(r, types).ok())
        .map(|u| Outcome {
            score: u.white_score as f64,
            half_points: u.white_half_points,
        })
        .filter(|o| o.score.abs() < DECIDED_CP)
        .collect()
}

/// Mean negative log-likelihood of `outcomes` under `model` (lower is better).
pub fn mean_loss(model: &WdlModel, outcomes: &[Outcome]) -> f64 {
    const FLOOR: f64 = 1e-9;
    let total: f64 = outcomes
        .iter()
        .map(|o| {
            let (w, d, l) = model.probabilities(o.score);
            let p = match o.half_points {
                2 => w,
                1 => d,
                _ => l,
            };
            -p.max(FLOOR).ln()
        })
        .sum();
    total / outcomes.len().max(1) as f64
}

/// Minimises `f` over `lo..=hi` by golden-section search (`f` unimodal there).
fn golden(lo: f64, hi: f64, f: impl Fn(f64) -> f64) -> f64 {
    const PHI: f64 = 0.618_033_988_749_895;
    let (mut lo, mut hi) = (lo, hi);
    for _ in 0..80 {
        let x1 = hi - PHI * (hi - lo);
        let x2 = lo + PHI * (hi - lo);
        if f(x1) < f(x2) {
            hi = x2;
        } else {
            lo = x1;
        }
    }
    (lo + hi) / 2.0
}

/// The model that makes `outcomes` most likely: `A` in 0..5000 cp, `B` in 1..10000 cp,
/// fitted a coordinate at a time (the likelihood is smooth and has one peak there).
pub fn fit(outcomes: &[Outcome]) -> Result<WdlModel, String> {
    if outcomes.len() < 100 {
        return Err(format!(
            "{} positions with a score below {DECIDED_CP} cp: too few to fit (at least 100)",
            outcomes.len()
        ));
    }
    let decisive = |h: u8| outcomes.iter().filter(|o| o.half_points == h).count();
    if decisive(2) + decisive(0) == 0 {
        return Err("every game was drawn: no score predicts a win".into());
    }
    let mut m = WdlModel::DEFAULT;
    for _ in 0..30 {
        let before = m;
        let log_b = golden(0.0, 10_000f64.ln(), |x| {
            mean_loss(&WdlModel { a: m.a, b: x.exp() }, outcomes)
        });
        m.b = log_b.exp();
        m.a = golden(0.0, 5000.0, |a| {
            mean_loss(&WdlModel { a, b: m.b }, outcomes)
        });
        if (m.a - before.a).abs() < 0.01 && (m.b - before.b).abs() < 0.01 {
            break;
        }
    }
    Ok(m)
}

/// One row of a calibration table: the positions whose score falls in `from..to`, the score
/// the model expects of them and the score they made (White's view).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Band {
    /// Lower bound of the band (centipawns, inclusive).
    pub from: f64,
    /// Upper bound (exclusive).
    pub to: f64,
    /// Positions in the band.
    pub positions: usize,
    /// Mean expected score under the model.
    pub expected: f64,
    /// Mean score the games made.
    pub scored: f64,
}

/// The calibration of `model` on `outcomes` in bands of scores.
pub fn calibration(model: &WdlModel, outcomes: &[Outcome]) -> Vec<Band> {
    const EDGES: [f64; 10] = [
        -DECIDED_CP,
        -600.0,
        -300.0,
        -150.0,
        -50.0,
        50.0,
        150.0,
        300.0,
        600.0,
        DECIDED_CP,
    ];
    EDGES
        .windows(2)
        .map(|w| {
            let inside: Vec<&Outcome> = outcomes
                .iter()
                .filter(|o| o.score >= w[0] && o.score < w[1])
                .collect();
            let n = inside.len().max(1) as f64;
            Band {
                from: w[0],
                to: w[1],
                positions: inside.len(),
                expected: inside.iter().map(|o| model.expected(o.score)).sum::<f64>() / n,
                scored: inside
                    .iter()
                    .map(|o| o.half_points as f64 / 2.0)
                    .sum::<f64>()
                    / n,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Outcomes drawn from a known model (a deterministic quasi-random sequence) give back that
    /// model.
    #[test]
    fn the_fit_recovers_the_model_that_made_the_results() {
        let truth = WdlModel { a: 240.0, b: 110.0 };
        let mut outcomes = Vec::new();
        let mut u = 0.5f64;
        for i in 0..40_000 {
            let score = ((i * 7919) % 1601) as f64 - 800.0;
            u = (u + 0.618_033_988_749_895).fract();
            let (w, d, _) = truth.probabilities(score);
            let half_points = if u < w {
                2
            } else if u < w + d {
                1
            } else {
                0
            };
            outcomes.push(Outcome { score, half_points });
        }
        let m = fit(&outcomes).expect("fits");
        assert!((m.a - truth.a).abs() < 15.0, "{m:?}");
        assert!((m.b - truth.b).abs() < 10.0, "{m:?}");
        assert!(mean_loss(&m, &outcomes) <= mean_loss(&truth, &outcomes) + 1e-9);
        for band in calibration(&m, &outcomes)
            .iter()
            .filter(|b| b.positions > 1000)
        {
            assert!((band.expected - band.scored).abs() < 0.03, "{band:?}");
        }
    }

    #[test]
    fn too_little_or_only_draws_is_refused() {
        let few = vec![
            Outcome {
                score: 10.0,
                half_points: 2
            };
            99
        ];
        assert!(fit(&few).unwrap_err().contains("too few"));
        let drawn = vec![
            Outcome {
                score: 10.0,
                half_points: 1
            };
            500
        ];
        assert!(fit(&drawn).unwrap_err().contains("drawn"));
    }
}
