//! Texel-style tuning of the evaluation's linear weights: positions with known game results
//! (and, from datagen, the search's score), each reduced to its trace (the part of the
//! evaluation outside the weights, the phase, and the count of every feature), and weights
//! fitted by full-batch gradient descent (Adam) on the mean squared error between a target and
//! the expected score `1 / (1 + 10^(-K * eval / 400))`, plus an L2 pull towards the prior
//! weights.
//!
//! The target is `lambda * sigmoid(K, score) + (1 - lambda) * result` ([`Dataset::blend`]).
//! The evaluation is `(mg * phase + eg * (max_phase - phase)) / max_phase` where `mg` and `eg`
//! are each the base plus the sum of count times weight, so its derivative with respect to a
//! weight is the count times the phase share of that weight's half: the gradient is exact and
//! cheap. Everything here is pure: data in, weights out.

use crate::eval::{EvalTrace, Score2};

/// One weight pair as reals: `[middle game, end game]`.
pub type Pair = [f64; 2];

/// One position: the evaluation's fixed part, its middle-game share, the game's result, the
/// search's score (if known), the target the error is measured against, and where its
/// features end in [`Dataset::entries`].
#[derive(Clone, Copy, Debug)]
struct Row {
    base: Pair,
    mg_share: f64,
    result: f64,
    score: Option<f64>,
    target: f64,
    end: usize,
}

/// Positions reduced to sparse traces (only the features with a non-zero count are kept).
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    rows: Vec<Row>,
    /// `(feature, count)` of every position, one position after the other.
    entries: Vec<(usize, f64)>,
}

impl Dataset {
    /// An empty set.
    pub fn new() -> Dataset {
        Dataset::default()
    }

    /// Adds a position: `base` (the part outside the weights), `mg_share` (phase / max phase,
    /// 1 in the middle game, 0 in the end game), its non-zero feature counts, the game's
    /// result from White's point of view (1, 0.5 or 0; any expected score in 0..=1 works) and
    /// the search's score in centipawns for White, if known. The target is the result until
    /// [`Dataset::blend`] says otherwise.
    pub fn push(
        &mut self,
        base: Pair,
        mg_share: f64,
        counts: &[(usize, f64)],
        result: f64,
        score: Option<f64>,
    ) {
        self.entries
            .extend(counts.iter().copied().filter(|&(_, c)| c != 0.0));
        self.rows.push(Row {
            base,
            mg_share,
            result,
            score,
            target: result,
            end: self.entries.len(),
        });
    }

    /// Adds a position from its evaluation trace.
    pub fn push_trace(&mut self, trace: &EvalTrace, result: f64, score: Option<f64>) {
        let counts: Vec<(usize, f64)> = trace
            .counts
            .iter()
            .enumerate()
            .filter(|(_, &c)| c != 0)
            .map(|(f, &c)| (f, c as f64))
            .collect();
        let base = [trace.base.mg as f64, trace.base.eg as f64];
        let share = trace.phase as f64 / trace.max_phase.max(1) as f64;
        self.push(base, share, &counts, result, score);
    }

    /// Number of positions.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Whether there is no position.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// Sets every target to `lambda * sigmoid(k, score) + (1 - lambda) * result`. With
    /// `lambda` > 0 every position needs a score: the error names the first (0-based) that has
    /// none.
    pub fn blend(&mut self, k: f64, lambda: f64) -> Result<(), String> {
        for (i, row) in self.rows.iter_mut().enumerate() {
            row.target = match (row.score, lambda > 0.0) {
                (_, false) => row.result,
                (Some(s), true) => lambda * sigmoid(k, s) + (1.0 - lambda) * row.result,
                (None, true) => return Err(format!("position {i} has no score")),
            };
        }
        Ok(())
    }

    /// Splits off a validation set: the positions are taken in blocks of `block` (positions
    /// of one game are adjacent, so a block holds whole games but at its two ends), and a
    /// share `fraction` of the blocks, spread evenly (for 0.1: blocks 9, 19, 29, ...), is
    /// held out. Returns `(training, validation)`.
    pub fn split(&self, fraction: f64, block: usize) -> (Dataset, Dataset) {
        let (mut train, mut valid) = (Dataset::new(), Dataset::new());
        for (i, (row, features)) in self.iter().enumerate() {
            let b = (i / block.max(1)) as f64;
            // (a hair added so that 30 * 0.1 = 2.9999... still counts as 3)
            let share = |b: f64| (b * fraction + 1e-9).floor();
            let held = share(b + 1.0) > share(b);
            let to = if held { &mut valid } else { &mut train };
            to.entries.extend_from_slice(features);
            to.rows.push(Row {
                end: to.entries.len(),
                ..*row
            });
        }
        (train, valid)
    }

    /// The positions, each with its features.
    fn iter(&self) -> impl Iterator<Item = (&Row, &[(usize, f64)])> {
        let mut start = 0;
        self.rows.iter().map(move |row| {
            let features = &self.entries[start..row.end];
            start = row.end;
            (row, features)
        })
    }
}

/// The evaluation (White's point of view) of a position with `weights`.
fn evaluate(row: &Row, features: &[(usize, f64)], weights: &[Pair]) -> f64 {
    let [mut mg, mut eg] = row.base;
    for &(f, c) in features {
        mg += c * weights[f][0];
        eg += c * weights[f][1];
    }
    mg * row.mg_share + eg * (1.0 - row.mg_share)
}

/// Expected score of an evaluation with scale `k`.
pub fn sigmoid(k: f64, eval: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * eval / 400.0))
}

/// Mean squared difference between `label(row)` and the expected scores.
fn mean_error(data: &Dataset, k: f64, weights: &[Pair], label: impl Fn(&Row) -> f64) -> f64 {
    let sum: f64 = data
        .iter()
        .map(|(row, features)| {
            let d = label(row) - sigmoid(k, evaluate(row, features, weights));
            d * d
        })
        .sum();
    sum / data.len().max(1) as f64
}

/// Mean squared error between the targets and the expected scores (the data's part of the
/// objective, without the L2 penalty).
pub fn mse(data: &Dataset, k: f64, weights: &[Pair]) -> f64 {
    mean_error(data, k, weights, |row| row.target)
}

/// The scale `K` that minimises the error against the game results (not the targets) with
/// `weights`: a scan of 0.02..=4 by 0.02, then a golden-section search around the best point.
pub fn fit_k(data: &Dataset, weights: &[Pair]) -> f64 {
    let err = |k: f64| mean_error(data, k, weights, |row| row.result);
    let step = 0.02;
    let best = (1..=200)
        .map(|i| i as f64 * step)
        .min_by(|a, b| err(*a).total_cmp(&err(*b)))
        .unwrap_or(1.0);
    golden_section(err, (best - step).max(1e-6), best + step, 40)
}

/// Minimum of a unimodal function on `[lo, hi]` by golden-section search.
fn golden_section(f: impl Fn(f64) -> f64, mut lo: f64, mut hi: f64, steps: usize) -> f64 {
    let r = (5f64.sqrt() - 1.0) / 2.0;
    let (mut a, mut b) = (hi - r * (hi - lo), lo + r * (hi - lo));
    let (mut fa, mut fb) = (f(a), f(b));
    for _ in 0..steps {
        if fa < fb {
            hi = b;
            (b, fb) = (a, fa);
            a = hi - r * (hi - lo);
            fa = f(a);
        } else {
            lo = a;
            (a, fa) = (b, fb);
            b = lo + r * (hi - lo);
            fb = f(b);
        }
    }
    (lo + hi) / 2.0
}

/// What is minimised: the mean squared error with scale `k`, plus
/// `l2 * sum((w - prior)^2)` over every weight (both halves).
#[derive(Clone, Copy, Debug)]
pub struct Objective<'a> {
    /// The sigmoid's scale.
    pub k: f64,
    /// The L2 coefficient (0: no penalty).
    pub l2: f64,
    /// The weights the penalty pulls towards (the built-in ones).
    pub prior: &'a [Pair],
}

impl Objective<'_> {
    /// The penalty `l2 * sum((w - prior)^2)`.
    pub fn penalty(&self, weights: &[Pair]) -> f64 {
        let sq: f64 = weights
            .iter()
            .zip(self.prior)
            .map(|(w, p)| (w[0] - p[0]).powi(2) + (w[1] - p[1]).powi(2))
            .sum();
        self.l2 * sq
    }

    /// The whole objective: error plus penalty.
    pub fn value(&self, data: &Dataset, weights: &[Pair]) -> f64 {
        mse(data, self.k, weights) + self.penalty(weights)
    }
}

/// The gradient of the objective (error and penalty) with respect to every weight (`grad` is
/// overwritten); returns the error without the penalty.
pub fn gradient(data: &Dataset, obj: &Objective, weights: &[Pair], grad: &mut [Pair]) -> f64 {
    for ((g, w), p) in grad.iter_mut().zip(weights).zip(obj.prior) {
        *g = [2.0 * obj.l2 * (w[0] - p[0]), 2.0 * obj.l2 * (w[1] - p[1])];
    }
    let k = obj.k;
    let n = data.len().max(1) as f64;
    // d sigmoid / d eval = s (1 - s) k ln(10) / 400
    let scale = k * std::f64::consts::LN_10 / 400.0;
    let mut sum = 0.0;
    for (row, features) in data.iter() {
        let s = sigmoid(k, evaluate(row, features, weights));
        let d = s - row.target;
        sum += d * d;
        let g = 2.0 * d * s * (1.0 - s) * scale / n;
        let (gm, ge) = (g * row.mg_share, g * (1.0 - row.mg_share));
        for &(f, c) in features {
            grad[f][0] += gm * c;
            grad[f][1] += ge * c;
        }
    }
    sum / n
}

/// How the descent runs.
#[derive(Clone, Copy, Debug)]
pub struct Schedule {
    /// Full passes over the data.
    pub epochs: usize,
    /// Adam's step size (centipawns).
    pub rate: f64,
    /// Report the errors every this many epochs (0: only at the end).
    pub report_every: usize,
    /// After each step every weight is clamped to within this of the prior (`None`: free).
    pub max_change: Option<f64>,
}

/// Adam's moment estimates.
struct Adam {
    m: Vec<Pair>,
    v: Vec<Pair>,
    t: i32,
}

impl Adam {
    const BETA1: f64 = 0.9;
    const BETA2: f64 = 0.999;
    const EPSILON: f64 = 1e-8;

    fn new(n: usize) -> Adam {
        Adam {
            m: vec![[0.0; 2]; n],
            v: vec![[0.0; 2]; n],
            t: 0,
        }
    }

    /// One step of `rate` against `grad`.
    fn step(&mut self, weights: &mut [Pair], grad: &[Pair], rate: f64) {
        self.t += 1;
        let c1 = 1.0 - Self::BETA1.powi(self.t);
        let c2 = 1.0 - Self::BETA2.powi(self.t);
        for (((w, g), m), v) in weights
            .iter_mut()
            .zip(grad)
            .zip(&mut self.m)
            .zip(&mut self.v)
        {
            for h in 0..2 {
                m[h] = Self::BETA1 * m[h] + (1.0 - Self::BETA1) * g[h];
                v[h] = Self::BETA2 * v[h] + (1.0 - Self::BETA2) * g[h] * g[h];
                w[h] -= rate * (m[h] / c1) / ((v[h] / c2).sqrt() + Self::EPSILON);
            }
        }
    }
}

/// Clamps every weight to within `d` of the prior.
fn clamp_to_prior(weights: &mut [Pair], prior: &[Pair], d: f64) {
    for (w, p) in weights.iter_mut().zip(prior) {
        for h in 0..2 {
            w[h] = w[h].clamp(p[h] - d, p[h] + d);
        }
    }
}

/// The errors after some epoch: on the training set (without the penalty) and on the
/// validation set (`None` when it is empty).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Progress {
    /// Steps taken (0: the start weights).
    pub epoch: usize,
    /// Mean squared error on the training set.
    pub train: f64,
    /// Mean squared error on the validation set.
    pub validation: Option<f64>,
}

/// What [`tune`] found.
#[derive(Clone, Debug)]
pub struct Tuned {
    /// The weights of the epoch with the best validation error (the last epoch's when there
    /// is no validation set): early stopping.
    pub best: Vec<Pair>,
    /// The errors of that epoch.
    pub best_at: Progress,
    /// The weights after the last epoch.
    pub last: Vec<Pair>,
}

/// Tunes `start` on `train`: `schedule.epochs` full-batch Adam steps on the objective, each
/// followed by the clamp to `schedule.max_change`. The validation error is measured after
/// every step; `report` hears the errors at epoch 0, every `schedule.report_every` epochs
/// and at the last epoch.
pub fn tune(
    train: &Dataset,
    valid: &Dataset,
    obj: &Objective,
    start: &[Pair],
    schedule: Schedule,
    mut report: impl FnMut(Progress),
) -> Tuned {
    let mut weights = start.to_vec();
    let mut grad = vec![[0.0; 2]; start.len()];
    let mut adam = Adam::new(start.len());
    let validate = |w: &[Pair]| (!valid.is_empty()).then(|| mse(valid, obj.k, w));
    let mut best: Option<(Progress, Vec<Pair>)> = None;
    for epoch in 0..=schedule.epochs {
        let train_error = gradient(train, obj, &weights, &mut grad);
        let now = Progress {
            epoch,
            train: train_error,
            validation: validate(&weights),
        };
        let every = schedule.report_every;
        if epoch == schedule.epochs || (every > 0 && epoch % every == 0) {
            report(now);
        }
        if better(&now, best.as_ref().map(|b| &b.0)) {
            best = Some((now, weights.clone()));
        }
        if epoch < schedule.epochs {
            adam.step(&mut weights, &grad, schedule.rate);
            if let Some(d) = schedule.max_change {
                clamp_to_prior(&mut weights, obj.prior, d);
            }
        }
    }
    let (best_at, best) = best.expect("epoch 0 is always seen");
    Tuned {
        best,
        best_at,
        last: weights,
    }
}

/// Whether `now` beats the best so far: a lower validation error, or, without validation
/// data, a later epoch.
fn better(now: &Progress, best: Option<&Progress>) -> bool {
    match (best, now.validation) {
        (None, _) => true,
        (Some(b), Some(v)) => v < b.validation.unwrap_or(f64::INFINITY),
        (Some(_), None) => true,
    }
}

/// Integer weights as reals.
pub fn to_pairs(weights: &[Score2]) -> Vec<Pair> {
    weights.iter().map(|w| [w.mg as f64, w.eg as f64]).collect()
}

/// Real weights rounded to integers.
pub fn to_scores(weights: &[Pair]) -> Vec<Score2> {
    weights
        .iter()
        .map(|w| Score2 {
            mg: w[0].round() as i32,
            eg: w[1].round() as i32,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::openings::Rng;

    fn unit(rng: &mut Rng) -> f64 {
        (rng.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    fn range(rng: &mut Rng, lo: i64, hi: i64) -> i64 {
        lo + (rng.next() % (hi - lo + 1) as u64) as i64
    }

    const TRUE: [Pair; 5] = [
        [20.0, 60.0],
        [-15.0, 5.0],
        [40.0, -10.0],
        [8.0, 30.0],
        [0.0, -25.0],
    ];
    const K: f64 = 1.2;

    /// How a synthetic position is labelled, from its evaluation by `TRUE`.
    #[derive(Clone, Copy)]
    enum Labels {
        /// Result = the expected score, no search score.
        Exact,
        /// Result = a win, draw or loss drawn from the expected score; score = the evaluation.
        Noisy,
    }

    /// Positions labelled from the known weights `TRUE`.
    fn synthetic(n: usize, seed: u64, labels: Labels) -> Dataset {
        let mut rng = Rng(seed);
        let mut data = Dataset::new();
        for _ in 0..n {
            let mut counts = Vec::new();
            for f in 0..TRUE.len() {
                if unit(&mut rng) < 0.6 {
                    counts.push((f, range(&mut rng, -3, 3) as f64));
                }
            }
            let base = [
                range(&mut rng, -150, 150) as f64,
                range(&mut rng, -150, 150) as f64,
            ];
            let share = unit(&mut rng);
            let row = Row {
                base,
                mg_share: share,
                result: 0.0,
                score: None,
                target: 0.0,
                end: 0,
            };
            let eval = evaluate(&row, &counts, &TRUE);
            let p = sigmoid(K, eval);
            match labels {
                Labels::Exact => data.push(base, share, &counts, p, None),
                Labels::Noisy => {
                    let u = unit(&mut rng);
                    let result = [0.0, 0.5, 1.0][(u < p) as usize * 2];
                    data.push(base, share, &counts, result, Some(eval));
                }
            }
        }
        data
    }

    fn schedule(epochs: usize, max_change: Option<f64>) -> Schedule {
        Schedule {
            epochs,
            rate: 1.0,
            report_every: 500,
            max_change,
        }
    }

    /// No penalty and no validation set.
    fn plain_tune(data: &Dataset, start: &[Pair], epochs: usize) -> Vec<Pair> {
        let prior = vec![[0.0; 2]; TRUE.len()];
        let obj = Objective {
            k: K,
            l2: 0.0,
            prior: &prior,
        };
        tune(
            data,
            &Dataset::new(),
            &obj,
            start,
            schedule(epochs, None),
            |_| {},
        )
        .best
    }

    fn assert_near(got: &[Pair], want: &[Pair], tolerance: f64) {
        for (f, (g, w)) in got.iter().zip(want).enumerate() {
            for h in 0..2 {
                assert!(
                    (g[h] - w[h]).abs() < tolerance,
                    "feature {f}: got {g:?}, want {w:?} (within {tolerance})"
                );
            }
        }
    }

    #[test]
    fn gradient_matches_finite_differences_with_the_penalty_and_blended_targets() {
        let mut data = synthetic(500, 7, Labels::Noisy);
        data.blend(K, 0.5).expect("scores");
        let w: Vec<Pair> = TRUE
            .iter()
            .map(|p| [p[0] * 0.5 + 3.0, p[1] - 7.0])
            .collect();
        let prior: Vec<Pair> = TRUE.iter().map(|p| [p[1], -p[0] + 11.0]).collect();
        for l2 in [0.0, 1e-5, 3e-4] {
            let obj = Objective {
                k: K,
                l2,
                prior: &prior,
            };
            let mut grad = vec![[0.0; 2]; w.len()];
            let err = gradient(&data, &obj, &w, &mut grad);
            assert!((err - mse(&data, K, &w)).abs() < 1e-12);
            let h = 1e-4;
            for f in 0..w.len() {
                for half in 0..2 {
                    let (mut up, mut down) = (w.clone(), w.clone());
                    up[f][half] += h;
                    down[f][half] -= h;
                    let numeric = (obj.value(&data, &up) - obj.value(&data, &down)) / (2.0 * h);
                    let analytic = grad[f][half];
                    assert!(
                        (numeric - analytic).abs() <= 1e-6 * numeric.abs().max(1e-6),
                        "l2 {l2} feature {f} half {half}: analytic {analytic}, numeric {numeric}"
                    );
                }
            }
        }
    }

    #[test]
    fn tuning_without_a_penalty_recovers_known_weights() {
        let data = synthetic(3000, 7, Labels::Exact);
        let start = vec![[0.0; 2]; TRUE.len()];
        let prior = vec![[-50.0, 50.0]; TRUE.len()];
        let obj = Objective {
            k: K,
            l2: 0.0,
            prior: &prior,
        };
        let mut seen = Vec::new();
        let tuned = tune(
            &data,
            &Dataset::new(),
            &obj,
            &start,
            schedule(3000, None),
            |p| seen.push(p),
        );
        assert_near(&tuned.best, &TRUE, 0.5);
        assert_eq!(tuned.best, tuned.last, "no validation set: the last epoch");
        let epochs: Vec<usize> = seen.iter().map(|p| p.epoch).collect();
        assert_eq!(epochs, [0, 500, 1000, 1500, 2000, 2500, 3000]);
        assert!(seen.iter().all(|p| p.validation.is_none()));
        assert!(
            seen.windows(2).all(|w| w[1].train <= w[0].train),
            "{seen:?}"
        );
        assert!(seen.last().expect("final").train < 1e-6);
    }

    #[test]
    fn a_huge_penalty_keeps_the_prior_and_a_moderate_one_shrinks_towards_it() {
        let data = synthetic(3000, 7, Labels::Exact);
        let prior: Vec<Pair> = TRUE.iter().map(|p| [p[0] + 30.0, p[1] - 20.0]).collect();
        let distance = |w: &[Pair]| -> f64 {
            w.iter()
                .zip(&prior)
                .map(|(a, b)| (a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2))
                .sum::<f64>()
                .sqrt()
        };
        let run = |l2: f64| {
            let obj = Objective {
                k: K,
                l2,
                prior: &prior,
            };
            tune(
                &data,
                &Dataset::new(),
                &obj,
                &prior,
                schedule(3000, None),
                |_| {},
            )
            .best
        };
        assert_near(&run(1e3), &prior, 0.5);
        let free = run(0.0);
        assert_near(&free, &TRUE, 0.5);
        let shrunk = run(1e-6);
        let (d_free, d_shrunk) = (distance(&free), distance(&shrunk));
        assert!(
            d_shrunk > 1.0 && d_shrunk < d_free - 1.0,
            "distance from the prior: free {d_free}, with the penalty {d_shrunk}"
        );
    }

    #[test]
    fn max_change_clamps_every_weight_to_the_prior() {
        let data = synthetic(3000, 7, Labels::Exact);
        let prior = vec![[0.0; 2]; TRUE.len()];
        let obj = Objective {
            k: K,
            l2: 0.0,
            prior: &prior,
        };
        let d = 6.0;
        let start = prior.clone();
        let tuned = tune(
            &data,
            &Dataset::new(),
            &obj,
            &start,
            schedule(2000, Some(d)),
            |_| {},
        );
        for (f, (w, t)) in tuned.best.iter().zip(&TRUE).enumerate() {
            for h in 0..2 {
                assert!(w[h].abs() <= d + 1e-9, "feature {f}: {w:?}");
                if t[h].abs() >= 2.0 * d {
                    assert!(
                        (w[h] - d * t[h].signum()).abs() < 1e-6,
                        "feature {f}: {w:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn score_labels_blend_into_the_target() {
        let mut data = synthetic(3000, 11, Labels::Noisy);
        let start = vec![[0.0; 2]; TRUE.len()];
        // the results alone are noisy: the fit misses by more than a centipawn somewhere
        let from_results = plain_tune(&data, &start, 3000);
        let misses = from_results
            .iter()
            .zip(&TRUE)
            .any(|(g, w)| (g[0] - w[0]).abs() > 1.0 || (g[1] - w[1]).abs() > 1.0);
        assert!(misses, "{from_results:?}");
        // the scores are the true evaluations: lambda 1 recovers the weights
        data.blend(K, 1.0).expect("scores");
        assert_near(&plain_tune(&data, &start, 3000), &TRUE, 0.5);
        // the target itself
        let row = data.rows[0];
        for lambda in [0.0, 0.3, 1.0] {
            data.blend(K, lambda).expect("scores");
            let s = sigmoid(K, row.score.expect("score"));
            let want = lambda * s + (1.0 - lambda) * row.result;
            assert!((data.rows[0].target - want).abs() < 1e-15);
        }
        // K is fitted on the results whatever the targets
        let k = fit_k(&data, &TRUE);
        data.blend(K, 0.0).expect("scores");
        assert_eq!(k, fit_k(&data, &TRUE));
    }

    #[test]
    fn blending_needs_scores() {
        let mut data = synthetic(10, 7, Labels::Noisy);
        data.push([0.0; 2], 0.5, &[], 1.0, None);
        assert!(data.blend(K, 0.0).is_ok());
        assert_eq!(data.blend(K, 0.5), Err("position 10 has no score".into()));
    }

    #[test]
    fn the_validation_split_holds_out_whole_blocks() {
        let data = synthetic(100, 7, Labels::Noisy);
        let results: Vec<f64> = data.rows.iter().map(|r| r.result).collect();
        let (train, valid) = data.split(0.1, 5);
        assert_eq!((train.len(), valid.len()), (90, 10));
        let kept = |d: &Dataset| d.rows.iter().map(|r| r.result).collect::<Vec<_>>();
        let held: Vec<usize> = (45..50).chain(95..100).collect();
        let want: Vec<f64> = held.iter().map(|&i| results[i]).collect();
        assert_eq!(kept(&valid), want);
        // every position's features travel with it
        let (i, j) = (held[0], 0);
        let a: Vec<_> = data.iter().nth(i).expect("row").1.to_vec();
        assert_eq!(valid.iter().nth(j).expect("row").1, &a[..]);
        assert_eq!(
            train.iter().nth(50).expect("row").1,
            data.iter().nth(55).expect("row").1
        );
        let (all, none) = data.split(0.0, 5);
        assert_eq!((all.len(), none.len()), (100, 0));
        assert_eq!(data.split(1.0, 5).1.len(), 100);
        assert_eq!(data.split(0.5, 1).1.len(), 50);
        assert_eq!(data.split(0.3, 1).1.len(), 30);
    }

    #[test]
    fn early_stopping_keeps_the_epoch_with_the_best_validation_error() {
        let train = synthetic(2000, 7, Labels::Exact);
        // validation positions labelled by other weights (the start): any step is worse
        let start: Vec<Pair> = TRUE.iter().map(|p| [p[0] - 20.0, p[1] + 20.0]).collect();
        let mut valid = Dataset::new();
        for (row, features) in synthetic(300, 9, Labels::Exact).iter() {
            let r = sigmoid(K, evaluate(row, features, &start));
            valid.push(row.base, row.mg_share, features, r, None);
        }
        let obj = Objective {
            k: K,
            l2: 0.0,
            prior: &start,
        };
        let mut seen = Vec::new();
        let tuned = tune(&train, &valid, &obj, &start, schedule(200, None), |p| {
            seen.push(p)
        });
        assert_eq!(tuned.best_at.epoch, 0);
        assert_eq!(tuned.best, start);
        assert_ne!(tuned.last, start);
        assert!(seen.iter().all(|p| p.validation.is_some()));
        assert!(seen.last().expect("last").train < seen[0].train);
        // with validation positions labelled by the true weights, the best is the last
        let valid = synthetic(300, 9, Labels::Exact);
        let tuned = tune(&train, &valid, &obj, &start, schedule(200, None), |_| {});
        assert!(tuned.best_at.epoch > 190, "{:?}", tuned.best_at);
    }

    #[test]
    fn k_fit_finds_the_scale_of_the_data() {
        let data = synthetic(2000, 7, Labels::Exact);
        let k = fit_k(&data, &TRUE);
        assert!((k - K).abs() < 1e-3, "fitted K {k}");
    }
}
