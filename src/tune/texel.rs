//! Texel-style tuning of the evaluation's linear weights: positions with known game results,
//! each reduced to its trace (the part of the evaluation outside the weights, the phase, and
//! the count of every feature), and weights fitted by full-batch gradient descent (Adam) on
//! the mean squared error between the result and the expected score
//! `1 / (1 + 10^(-K * eval / 400))`.
//!
//! The evaluation is `(mg * phase + eg * (max_phase - phase)) / max_phase` where `mg` and `eg`
//! are each the base plus the sum of count times weight, so its derivative with respect to a
//! weight is the count times the phase share of that weight's half: the gradient is exact and
//! cheap. Everything here is pure: data in, weights out.

use crate::eval::{EvalTrace, Score2};

/// One weight pair as reals: `[middle game, end game]`.
pub type Pair = [f64; 2];

/// One position: the evaluation's fixed part, its middle-game share, the result, and where its
/// features end in [`Dataset::entries`].
#[derive(Clone, Copy, Debug)]
struct Row {
    base: Pair,
    mg_share: f64,
    result: f64,
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
    /// 1 in the middle game, 0 in the end game), its non-zero feature counts, and the game's
    /// result from White's point of view (1, 0.5 or 0; any expected score in 0..=1 works).
    pub fn push(&mut self, base: Pair, mg_share: f64, counts: &[(usize, f64)], result: f64) {
        self.entries
            .extend(counts.iter().copied().filter(|&(_, c)| c != 0.0));
        self.rows.push(Row {
            base,
            mg_share,
            result,
            end: self.entries.len(),
        });
    }

    /// Adds a position from its evaluation trace.
    pub fn push_trace(&mut self, trace: &EvalTrace, result: f64) {
        let counts: Vec<(usize, f64)> = trace
            .counts
            .iter()
            .enumerate()
            .filter(|(_, &c)| c != 0)
            .map(|(f, &c)| (f, c as f64))
            .collect();
        let base = [trace.base.mg as f64, trace.base.eg as f64];
        let share = trace.phase as f64 / trace.max_phase.max(1) as f64;
        self.push(base, share, &counts, result);
    }

    /// Number of positions.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Whether there is no position.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
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

/// Mean squared error between results and expected scores.
pub fn mse(data: &Dataset, k: f64, weights: &[Pair]) -> f64 {
    let sum: f64 = data
        .iter()
        .map(|(row, features)| {
            let d = row.result - sigmoid(k, evaluate(row, features, weights));
            d * d
        })
        .sum();
    sum / data.len().max(1) as f64
}

/// The scale `K` that minimises the error with `weights`: a scan of 0.02..=4 by 0.02, then a
/// golden-section search around the best point.
pub fn fit_k(data: &Dataset, weights: &[Pair]) -> f64 {
    let err = |k: f64| mse(data, k, weights);
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

/// The error and its gradient with respect to every weight (`grad` is overwritten).
pub fn gradient(data: &Dataset, k: f64, weights: &[Pair], grad: &mut [Pair]) -> f64 {
    grad.iter_mut().for_each(|g| *g = [0.0; 2]);
    let n = data.len().max(1) as f64;
    // d sigmoid / d eval = s (1 - s) k ln(10) / 400
    let scale = k * std::f64::consts::LN_10 / 400.0;
    let mut sum = 0.0;
    for (row, features) in data.iter() {
        let s = sigmoid(k, evaluate(row, features, weights));
        let d = s - row.result;
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
    /// Report the error every this many epochs (0: never).
    pub report_every: usize,
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

/// Tunes `start` on `data` with scale `k`: `schedule.epochs` full-batch Adam steps on the mean
/// squared error. `report(epoch, error)` hears the error before each reported epoch's step and
/// once at the end (epoch = `schedule.epochs`). Returns the new weights.
pub fn tune(
    data: &Dataset,
    k: f64,
    start: &[Pair],
    schedule: Schedule,
    mut report: impl FnMut(usize, f64),
) -> Vec<Pair> {
    let mut weights = start.to_vec();
    let mut grad = vec![[0.0; 2]; start.len()];
    let mut adam = Adam::new(start.len());
    for epoch in 0..schedule.epochs {
        let err = gradient(data, k, &weights, &mut grad);
        if schedule.report_every > 0 && epoch % schedule.report_every == 0 {
            report(epoch, err);
        }
        adam.step(&mut weights, &grad, schedule.rate);
    }
    report(schedule.epochs, mse(data, k, &weights));
    weights
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

    /// A small deterministic generator (splitmix64) for the synthetic data.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        }
        fn unit(&mut self) -> f64 {
            (self.next() >> 11) as f64 / (1u64 << 53) as f64
        }
        fn range(&mut self, lo: i64, hi: i64) -> i64 {
            lo + (self.next() % (hi - lo + 1) as u64) as i64
        }
    }

    const TRUE: [Pair; 5] = [
        [20.0, 60.0],
        [-15.0, 5.0],
        [40.0, -10.0],
        [8.0, 30.0],
        [0.0, -25.0],
    ];
    const K: f64 = 1.2;

    /// Positions whose results are the expected scores of the known weights `TRUE`.
    fn synthetic(n: usize) -> Dataset {
        let mut rng = Rng(7);
        let mut data = Dataset::new();
        for _ in 0..n {
            let mut counts = Vec::new();
            for f in 0..TRUE.len() {
                if rng.unit() < 0.6 {
                    counts.push((f, rng.range(-3, 3) as f64));
                }
            }
            let base = [rng.range(-150, 150) as f64, rng.range(-150, 150) as f64];
            let share = rng.unit();
            let row = Row {
                base,
                mg_share: share,
                result: 0.0,
                end: 0,
            };
            let result = sigmoid(K, evaluate(&row, &counts, &TRUE));
            data.push(base, share, &counts, result);
        }
        data
    }

    #[test]
    fn gradient_matches_finite_differences() {
        let data = synthetic(500);
        let w: Vec<Pair> = TRUE
            .iter()
            .map(|p| [p[0] * 0.5 + 3.0, p[1] - 7.0])
            .collect();
        let mut grad = vec![[0.0; 2]; w.len()];
        gradient(&data, K, &w, &mut grad);
        let h = 1e-4;
        for f in 0..w.len() {
            for half in 0..2 {
                let (mut up, mut down) = (w.clone(), w.clone());
                up[f][half] += h;
                down[f][half] -= h;
                let numeric = (mse(&data, K, &up) - mse(&data, K, &down)) / (2.0 * h);
                let analytic = grad[f][half];
                assert!(
                    (numeric - analytic).abs() <= 1e-6 * numeric.abs().max(1e-6),
                    "feature {f} half {half}: analytic {analytic}, numeric {numeric}"
                );
            }
        }
    }

    #[test]
    fn tuning_recovers_known_weights() {
        let data = synthetic(3000);
        let start = vec![[0.0; 2]; TRUE.len()];
        let schedule = Schedule {
            epochs: 3000,
            rate: 1.0,
            report_every: 500,
        };
        let mut errors = Vec::new();
        let tuned = tune(&data, K, &start, schedule, |e, err| errors.push((e, err)));
        for (f, (got, want)) in tuned.iter().zip(&TRUE).enumerate() {
            for h in 0..2 {
                assert!(
                    (got[h] - want[h]).abs() < 0.5,
                    "feature {f}: tuned {got:?}, true {want:?}"
                );
            }
        }
        assert!(errors.windows(2).all(|w| w[1].1 <= w[0].1), "{errors:?}");
        assert!(errors.last().expect("final").1 < 1e-6);
    }

    #[test]
    fn k_fit_finds_the_scale_of_the_data() {
        let data = synthetic(2000);
        let k = fit_k(&data, &TRUE);
        assert!((k - K).abs() < 1e-3, "fitted K {k}");
    }
}
