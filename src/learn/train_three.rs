//! Training Foreign Policy's three-player net ([`crate::eval::nnue::three`]) on the lines of
//! [`super::datagen_three`].
//!
//! For each position the net gives a logit per player still in the game (the head of that
//! player and the player to move); their softmax over a scale K predicts each player's share
//! of the points. The target mixes the softmax of the searched line's utilities (weight λ)
//! with the game's FP-12 points, the loss is the cross-entropy, and K is fitted first so that
//! the softmax of the utilities best predicts the points. Adam, the same rate schedule and
//! held-out share as the two-colour trainer ([`super::train`]); the net of the best
//! validation epoch is kept.

use super::datagen_three::parse_line;
use super::train::{Adam, EpochReport, TrainConfig, OUTPUT_SCALE};
use crate::eval::nnue::three::{features, ThreeNet, HEADS, INPUTS, MAX_HIDDEN};
use crate::eval::nnue::{QA, QB};
use crate::foreignpolicy::FpPosition;
use rayon::prelude::*;
use std::time::Instant;

/// Largest feature weight (the accumulator holds them at scale QA in i16).
const MAX_FT: f32 = 8.0;
/// Largest head weight (stored at scale QB within ±127).
const MAX_HEAD: f32 = crate::eval::nnue::file::MAX_OUTPUT_WEIGHT as f32 / QB as f32;
/// Parts a batch is split into for the threads.
const CHUNKS: usize = 8;

/// One position ready for the net.
#[derive(Clone, Debug)]
pub struct Sample {
    feats: [u16; 48],
    men: u8,
    mover: u8,
    alive: [bool; 3],
    points: [f32; 3],
    utilities: [f32; 3],
}

/// Reads data files of [`super::datagen_three`]'s lines; the error names the file and line.
pub fn load(paths: &[String]) -> Result<Vec<Sample>, String> {
    crate::geometry::attacks::init();
    let mut out = Vec::new();
    for path in paths {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
        for (n, line) in text.lines().enumerate() {
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let at = |e: String| format!("{path}, line {}: {e}", n + 1);
            let l = parse_line(line).map_err(at)?;
            let pos = FpPosition::from_fen(l.fen).map_err(|e| at(format!("bad FP-FEN: {e}")))?;
            let mut feats = [0u16; 48];
            let men = features(&pos, &mut feats) as u8;
            let alive = crate::foreignpolicy::Player::ALL.map(|p| pos.alive().has(p));
            out.push(Sample {
                feats,
                men,
                mover: pos.side_to_move().index() as u8,
                alive,
                points: l.points.map(|p| p as f32),
                utilities: l.utilities.map(|u| u as f32),
            });
        }
    }
    if out.is_empty() {
        return Err(format!("no positions in {}", paths.join(", ")));
    }
    Ok(out)
}

/// The softmax of `z` over the players in `alive` (0 for the others).
fn softmax(z: [f32; 3], alive: [bool; 3]) -> [f32; 3] {
    let max = (0..3)
        .filter(|&p| alive[p])
        .map(|p| z[p])
        .fold(f32::MIN, f32::max);
    let mut e = [0.0; 3];
    let mut sum = 0.0;
    for p in 0..3 {
        if alive[p] {
            e[p] = (z[p] - max).exp();
            sum += e[p];
        }
    }
    e.map(|x| x / sum.max(1e-30))
}

/// The cross-entropy of `pred` against `target`.
fn cross_entropy(pred: [f32; 3], target: [f32; 3]) -> f32 {
    (0..3)
        .filter(|&p| target[p] > 0.0)
        .map(|p| -target[p] * pred[p].max(1e-7).ln())
        .sum()
}

/// The scale K (centipawns) whose softmax of the utilities best predicts the points.
pub fn fit_scale(samples: &[Sample]) -> f32 {
    let loss = |k: f32| -> f64 {
        samples
            .iter()
            .map(|s| cross_entropy(softmax(s.utilities.map(|u| u / k), s.alive), s.points) as f64)
            .sum()
    };
    // golden section on ln K over 20..5000 cp
    let (mut a, mut b) = (20f32.ln(), 5000f32.ln());
    let g = 0.618_034_f32;
    for _ in 0..40 {
        let (c, d) = (b - g * (b - a), a + g * (b - a));
        if loss(c.exp()) < loss(d.exp()) {
            b = d;
        } else {
            a = c;
        }
    }
    ((a + b) / 2.0).exp()
}

/// The float weights.
#[derive(Clone)]
struct Params {
    hidden: usize,
    ft_w: Vec<f32>,
    ft_b: Vec<f32>,
    head_w: Vec<f32>,
    head_b: Vec<f32>,
}

impl Params {
    fn zeros(hidden: usize) -> Params {
        Params {
            hidden,
            ft_w: vec![0.0; INPUTS * hidden],
            ft_b: vec![0.0; hidden],
            head_w: vec![0.0; HEADS * hidden],
            head_b: vec![0.0; HEADS],
        }
    }

    fn random(hidden: usize, seed: u64) -> Params {
        let mut rng = crate::openings::Rng(seed);
        let mut uniform =
            |limit: f32| (rng.next() >> 11) as f32 / (1u64 << 53) as f32 * 2.0 * limit - limit;
        let mut p = Params::zeros(hidden);
        for w in &mut p.ft_w {
            *w = uniform(0.5 / 28f32.sqrt());
        }
        for b in &mut p.ft_b {
            *b = uniform(0.1) + 0.1;
        }
        for w in &mut p.head_w {
            *w = uniform(1.0 / (hidden as f32).sqrt());
        }
        p
    }

    fn parts_mut(&mut self) -> [(&mut Vec<f32>, f32); 4] {
        [
            (&mut self.ft_w, MAX_FT),
            (&mut self.ft_b, MAX_FT),
            (&mut self.head_w, MAX_HEAD),
            (&mut self.head_b, f32::MAX),
        ]
    }

    fn parts(&self) -> [&Vec<f32>; 4] {
        [&self.ft_w, &self.ft_b, &self.head_w, &self.head_b]
    }

    fn clear(&mut self) {
        for (v, _) in self.parts_mut() {
            v.iter_mut().for_each(|x| *x = 0.0);
        }
    }

    fn add(&mut self, other: &Params) {
        for ((v, _), o) in self.parts_mut().into_iter().zip(other.parts()) {
            v.iter_mut().zip(o).for_each(|(x, y)| *x += y);
        }
    }
}

/// The accumulator's activations for `s` into `act` (and the clipped values into `clip`).
fn accumulate(p: &Params, s: &Sample, acc: &mut [f32]) {
    let h = p.hidden;
    acc.copy_from_slice(&p.ft_b);
    for &f in &s.feats[..s.men as usize] {
        let row = &p.ft_w[f as usize * h..(f as usize + 1) * h];
        acc.iter_mut().zip(row).for_each(|(a, w)| *a += w);
    }
}

/// Each alive player's logit (in units of K) for `s`, from the accumulator `acc`.
fn logits(p: &Params, s: &Sample, acc: &[f32], k: f32) -> [f32; 3] {
    let h = p.hidden;
    let mut z = [0.0; 3];
    for (q, zq) in z.iter_mut().enumerate() {
        if !s.alive[q] {
            continue;
        }
        let head = q * 3 + s.mover as usize;
        let w = &p.head_w[head * h..(head + 1) * h];
        let o = p.head_b[head]
            + acc
                .iter()
                .zip(w)
                .map(|(&a, &w)| {
                    let c = a.clamp(0.0, 1.0);
                    c * c * w
                })
                .sum::<f32>();
        *zq = o * OUTPUT_SCALE as f32 / k;
    }
    z
}

/// The target of `s`.
fn target(s: &Sample, lambda: f32, k: f32) -> [f32; 3] {
    let searched = softmax(s.utilities.map(|u| u / k), s.alive);
    [0, 1, 2].map(|q| lambda * searched[q] + (1.0 - lambda) * s.points[q])
}

/// Adds the gradient of one sample to `grad`; returns its loss.
fn backward(
    p: &Params,
    s: &Sample,
    lambda: f32,
    k: f32,
    acc: &mut [f32],
    grad: &mut Params,
) -> f32 {
    let h = p.hidden;
    accumulate(p, s, acc);
    let z = logits(p, s, acc, k);
    let pred = softmax(z, s.alive);
    let t = target(s, lambda, k);
    let mut dacc = [0f32; MAX_HIDDEN];
    let dacc = &mut dacc[..h];
    for q in 0..3 {
        if !s.alive[q] {
            continue;
        }
        let g = (pred[q] - t[q]) * OUTPUT_SCALE as f32 / k;
        let head = q * 3 + s.mover as usize;
        grad.head_b[head] += g;
        let w = &p.head_w[head * h..(head + 1) * h];
        let gw = &mut grad.head_w[head * h..(head + 1) * h];
        for i in 0..h {
            let c = acc[i].clamp(0.0, 1.0);
            gw[i] += g * c * c;
            if acc[i] > 0.0 && acc[i] < 1.0 {
                dacc[i] += g * w[i] * 2.0 * c;
            }
        }
    }
    grad.ft_b
        .iter_mut()
        .zip(dacc.iter())
        .for_each(|(g, d)| *g += d);
    for &f in &s.feats[..s.men as usize] {
        let row = &mut grad.ft_w[f as usize * h..(f as usize + 1) * h];
        row.iter_mut().zip(dacc.iter()).for_each(|(g, d)| *g += d);
    }
    cross_entropy(pred, t)
}

/// The loss of `s` under `p`.
fn loss(p: &Params, s: &Sample, lambda: f32, k: f32, acc: &mut [f32]) -> f32 {
    accumulate(p, s, acc);
    cross_entropy(softmax(logits(p, s, acc, k), s.alive), target(s, lambda, k))
}

/// The quantised net of `p`.
fn quantise(p: &Params) -> ThreeNet {
    let q16 = |x: f32, s: i32| (x * s as f32).round().clamp(-32767.0, 32767.0) as i16;
    ThreeNet {
        hidden: p.hidden,
        scale: OUTPUT_SCALE,
        ft_weights: p.ft_w.iter().map(|&w| q16(w, QA)).collect(),
        ft_bias: p.ft_b.iter().map(|&w| q16(w, QA)).collect(),
        head_weights: p.head_w.iter().map(|&w| q16(w, QB)).collect(),
        head_bias: p
            .head_b
            .iter()
            .map(|&b| (b * (QA * QB) as f32).round() as i32)
            .collect(),
    }
}

/// Fits a three-player net to `data` under `cfg` (hidden, epochs, batch, rates, lambda,
/// scale, validation, seed, threads); `on_epoch` sees each epoch's report, the best net so
/// far and K. Returns the best validation epoch's net.
pub fn train(
    data: &[Sample],
    cfg: &TrainConfig,
    mut on_epoch: impl FnMut(&EpochReport, &ThreeNet, f32),
) -> Result<ThreeNet, String> {
    if cfg.hidden == 0 || !cfg.hidden.is_multiple_of(16) || cfg.hidden > MAX_HIDDEN {
        return Err(format!(
            "--hidden must be a multiple of 16 up to {MAX_HIDDEN}, not {}",
            cfg.hidden
        ));
    }
    let mut rng = crate::openings::Rng(cfg.seed ^ 0x3EED);
    let (mut train_idx, mut valid_idx) = (Vec::new(), Vec::new());
    // neighbours (mostly of one game) stay on one side: positions come in game order
    let block = (data.len() / 100).clamp(1, 256);
    for i in 0..data.len() {
        let mut r = crate::openings::Rng(cfg.seed ^ (i / block) as u64);
        if (r.next() % 10_000) as f64 / 10_000.0 < cfg.validation {
            valid_idx.push(i);
        } else {
            train_idx.push(i);
        }
    }
    if train_idx.is_empty() || valid_idx.is_empty() {
        return Err(format!(
            "{} positions leave no training or no validation set (validation share {})",
            data.len(),
            cfg.validation
        ));
    }
    let k = cfg.scale.unwrap_or_else(|| fit_scale(data));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(cfg.threads.max(1))
        .build()
        .map_err(|e| e.to_string())?;
    let h = cfg.hidden;
    let mut p = Params::random(h, cfg.seed);
    let size = p.parts().iter().map(|v| v.len()).sum();
    let mut adam = Adam::new(size);
    let mut grads: Vec<(Params, Vec<f32>, f64)> = (0..CHUNKS)
        .map(|_| (Params::zeros(h), vec![0.0; h], 0.0))
        .collect();
    let mut total = Params::zeros(h);
    let mut best: Option<(f64, ThreeNet)> = None;
    for epoch in 0..cfg.epochs {
        let start = Instant::now();
        let rate = cfg.rate
            * cfg
                .final_rate
                .powf(epoch as f32 / (cfg.epochs.max(2) - 1) as f32);
        for i in (1..train_idx.len()).rev() {
            train_idx.swap(i, rng.below(i + 1));
        }
        let mut train_loss = 0.0;
        for batch in train_idx.chunks(cfg.batch.max(CHUNKS)) {
            let per = batch.len().div_ceil(CHUNKS);
            pool.install(|| {
                grads
                    .par_iter_mut()
                    .enumerate()
                    .for_each(|(c, (g, acc, l))| {
                        g.clear();
                        *l = 0.0;
                        let part = batch.get(c * per..((c + 1) * per).min(batch.len()));
                        for &i in part.unwrap_or(&[]) {
                            *l += backward(&p, &data[i], cfg.lambda, k, acc, g) as f64;
                        }
                    });
            });
            total.clear();
            for (g, _, l) in &grads {
                total.add(g);
                train_loss += l;
            }
            adam.begin();
            let mut offset = 0;
            for ((values, limit), grads) in p.parts_mut().into_iter().zip(total.parts()) {
                adam.update(
                    offset,
                    values,
                    grads,
                    (rate, 1.0 / batch.len() as f32),
                    limit,
                );
                offset += values.len();
            }
        }
        let validation = pool.install(|| {
            valid_idx
                .par_chunks(4096)
                .map(|part| {
                    let mut acc = vec![0.0; h];
                    part.iter()
                        .map(|&i| loss(&p, &data[i], cfg.lambda, k, &mut acc) as f64)
                        .sum::<f64>()
                })
                .sum::<f64>()
                / valid_idx.len() as f64
        });
        let improved = best.as_ref().is_none_or(|(b, _)| validation < *b);
        if improved {
            best = Some((validation, quantise(&p)));
        }
        let report = EpochReport {
            epoch: epoch + 1,
            train: train_loss / train_idx.len() as f64,
            validation,
            rate,
            seconds: start.elapsed().as_secs_f64(),
            best: improved,
        };
        on_epoch(&report, &best.as_ref().expect("set above").1, k);
    }
    best.map(|(_, net)| net)
        .ok_or_else(|| "no epoch was run (--epochs 0)".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::MoveList;

    /// Positions of random games with the rules-derived utilities as both the searched
    /// utilities and (through a softmax over 200 cp) the points: a target the net can learn
    /// from material alone.
    fn material_games(games: u64) -> Vec<(FpPosition, Sample)> {
        crate::geometry::attacks::init();
        let mut out = Vec::new();
        for g in 0..games {
            let mut rng = crate::openings::Rng(g);
            let mut pos = FpPosition::startpos();
            let mut list = MoveList::new();
            for ply in 0..60 {
                if pos.outcome().is_some() {
                    break;
                }
                list.clear();
                pos.legal_moves(&mut list);
                let m = list.iter().nth(rng.below(list.len())).copied().unwrap();
                pos.make(m);
                if ply % 3 != 2 || pos.outcome().is_some() || pos.alive().count() < 3 {
                    continue;
                }
                let u = crate::foreignpolicy::eval::utilities(&pos).map(|u| u as f32);
                let mut feats = [0u16; 48];
                let men = features(&pos, &mut feats) as u8;
                let alive = [true; 3];
                out.push((
                    pos.clone(),
                    Sample {
                        feats,
                        men,
                        mover: pos.side_to_move().index() as u8,
                        alive,
                        points: softmax(u.map(|x| x / 200.0), alive),
                        utilities: u,
                    },
                ));
            }
        }
        out
    }

    #[test]
    fn learns_material_and_the_quantised_net_agrees() {
        let data = material_games(600);
        let (test, train_set) = data.split_at(500);
        let samples: Vec<Sample> = train_set.iter().map(|(_, s)| s.clone()).collect();
        let cfg = TrainConfig {
            hidden: 32,
            epochs: 30,
            batch: 256,
            rate: 0.01,
            validation: 0.1,
            threads: 2,
            scale: Some(200.0),
            ..TrainConfig::default()
        };
        let net = train(&samples, &cfg, |_, _, _| {}).unwrap();
        // who leads, where the rules-derived evaluation says so clearly
        let leader = |u: [f32; 3]| -> (usize, f32) {
            let mut order = [0, 1, 2];
            order.sort_by(|&a, &b| u[b].total_cmp(&u[a]));
            (order[0], u[order[0]] - u[order[1]])
        };
        let (mut agree, mut asked) = (0, 0);
        for (pos, s) in test {
            let (first, margin) = leader(s.utilities);
            if margin < 300.0 {
                continue;
            }
            asked += 1;
            agree += usize::from(leader(net.utilities(pos).map(|x| x as f32)).0 == first);
        }
        assert!(asked > 50, "{asked}");
        assert!(agree * 10 >= asked * 9, "{agree} of {asked}");
    }

    #[test]
    fn the_quantised_net_computes_the_float_one() {
        let data = material_games(5);
        let p = Params::random(32, 9);
        let net = quantise(&p);
        let mut acc = vec![0.0; 32];
        for (pos, s) in &data {
            accumulate(&p, s, &mut acc);
            let z = logits(&p, s, &acc, 1.0);
            let mean = z.iter().sum::<f32>() / 3.0;
            let u = net.utilities(pos);
            for q in 0..3 {
                assert!((u[q] as f32 - (z[q] - mean)).abs() < 8.0, "{u:?} {z:?}");
            }
        }
    }

    #[test]
    fn gradients_match_finite_differences() {
        let data = material_games(2);
        let s = &data[3].1;
        let p = Params::random(16, 3);
        let mut g = Params::zeros(16);
        let mut acc = vec![0.0; 16];
        backward(&p, s, 0.5, 200.0, &mut acc, &mut g);
        let f = s.feats[0] as usize;
        // a feature weight, a feature bias, a head weight and a head bias of the mover's heads
        let head = s.mover as usize;
        for (part, i) in [(0, f * 16 + 3), (1, 5), (2, head * 16 + 4), (3, head)] {
            let analytic = g.parts()[part][i];
            let at = |d: f32| {
                let mut q = p.clone();
                q.parts_mut()[part].0[i] += d;
                loss(&q, s, 0.5, 200.0, &mut [0.0; 16])
            };
            let numeric = (at(1e-3) - at(-1e-3)) / 2e-3;
            assert!(
                (analytic - numeric).abs() < 1e-3 + 0.02 * numeric.abs(),
                "part {part}: {analytic} against {numeric}"
            );
        }
    }

    #[test]
    fn bad_data_is_named() {
        let dir = std::env::temp_dir().join(format!("chimera-t3-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("bad.txt");
        let fen = FpPosition::startpos().to_fen();
        std::fs::write(&path, format!("{fen} | 1 0 0 | 0 0 0\nnot a line\n")).unwrap();
        let e = load(&[path.display().to_string()]).unwrap_err();
        assert!(e.contains("bad.txt, line 2"), "{e}");
        std::fs::write(&path, "x | 1 0 0 | 0 0 0\n").unwrap();
        let e = load(&[path.display().to_string()]).unwrap_err();
        assert!(e.contains("line 1: bad FP-FEN"), "{e}");
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn fitted_scale_recovers_the_one_that_made_the_points() {
        // points drawn as the softmax of the utilities over 250 cp
        let mut data: Vec<Sample> = material_games(20).into_iter().map(|(_, s)| s).collect();
        for s in &mut data {
            s.points = softmax(s.utilities.map(|u| u / 250.0), s.alive);
        }
        let k = fit_scale(&data);
        assert!((k - 250.0).abs() < 5.0, "{k}");
    }
}
