//! The results of a tournament of many engines: the table of results between every pair, an
//! Elo estimate for every engine with a 95% error margin, the crosstable.
//!
//! The estimate is the maximum of the likelihood of all games under the logistic model
//! (`P(a scores against b) = 1 / (1 + 10^((R_b - R_a) / 400))`, a draw half a win), one
//! engine held at 0 (the anchor). The margins come from the inverse of the likelihood's
//! curvature (the Fisher information), scaled by the games' own dispersion: draws make a
//! score less variable than wins and losses alone would, so the same games with many draws
//! give a narrower margin. Where the results leave a rating unbounded (an engine, or a group,
//! won or lost every game against the rest), each pair that met across such a divide gets one
//! virtual draw, the smallest prior that keeps every rating finite; pairs within a group that
//! took points from each other both ways are left as they played, and the table says so.

use super::stats::Wdl;

/// The 97.5% quantile of the standard normal distribution.
const Z95: f64 = 1.959_963_984_540_054;

/// Elo points per natural logistic unit.
const ELO_PER_UNIT: f64 = 400.0 / std::f64::consts::LN_10;

/// Results between every pair of `n` engines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    n: usize,
    /// `wdl[a * n + b]`: engine `a`'s wins, draws and losses against `b`.
    wdl: Vec<Wdl>,
}

/// One engine's rating.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// Elo relative to the anchor.
    pub elo: f64,
    /// The 95% error margin (0 for the anchor).
    pub margin: f64,
}

/// The ratings of a field, `None` for an engine with no game linking it to the anchor.
#[derive(Clone, Debug, PartialEq)]
pub struct Ratings {
    /// By engine.
    pub of: Vec<Option<Rating>>,
    /// Whether the virtual draws were needed.
    pub prior: bool,
}

impl Table {
    /// No games yet between `n` engines.
    pub fn new(n: usize) -> Table {
        Table {
            n,
            wdl: vec![Wdl::default(); n * n],
        }
    }

    /// The number of engines.
    pub fn engines(&self) -> usize {
        self.n
    }

    /// Adds a game: `white` scored `white_score` (1, 1/2 or 0) against `black`.
    pub fn add(&mut self, white: usize, black: usize, white_score: f64) {
        let (n, (w, b)) = (self.n, (white, black));
        if white_score > 0.75 {
            self.wdl[w * n + b].wins += 1;
            self.wdl[b * n + w].losses += 1;
        } else if white_score < 0.25 {
            self.wdl[w * n + b].losses += 1;
            self.wdl[b * n + w].wins += 1;
        } else {
            self.wdl[w * n + b].draws += 1;
            self.wdl[b * n + w].draws += 1;
        }
    }

    /// `a`'s results against `b`.
    pub fn pair(&self, a: usize, b: usize) -> Wdl {
        self.wdl[a * self.n + b]
    }

    /// `a`'s results against the whole field.
    pub fn total(&self, a: usize) -> Wdl {
        (0..self.n).fold(Wdl::default(), |t, b| {
            let p = self.pair(a, b);
            Wdl {
                wins: t.wins + p.wins,
                draws: t.draws + p.draws,
                losses: t.losses + p.losses,
            }
        })
    }

    /// `a`'s points.
    pub fn points(&self, a: usize) -> f64 {
        let t = self.total(a);
        t.wins as f64 + 0.5 * t.draws as f64
    }

    /// Games finished.
    pub fn games(&self) -> u32 {
        (0..self.n).map(|a| self.total(a).games()).sum::<u32>() / 2
    }

    /// Games and points of `a` against `b`, with `prior[a * n + b]` virtual draws where they
    /// met.
    fn games_points(&self, a: usize, b: usize, prior: &[f64]) -> (f64, f64) {
        let p = self.pair(a, b);
        let prior = prior[a * self.n + b];
        let g = p.games() as f64;
        if g == 0.0 {
            return (0.0, 0.0);
        }
        (
            g + prior,
            p.wins as f64 + 0.5 * p.draws as f64 + 0.5 * prior,
        )
    }

    /// Engines reachable from `from` along the edges `a -> b` where `edge(a, b)`.
    fn reach(&self, from: usize, edge: impl Fn(usize, usize) -> bool) -> Vec<bool> {
        let mut seen = vec![false; self.n];
        let mut stack = vec![from];
        seen[from] = true;
        while let Some(a) = stack.pop() {
            let fresh: Vec<usize> = (0..self.n).filter(|&b| !seen[b] && edge(a, b)).collect();
            for b in fresh {
                seen[b] = true;
                stack.push(b);
            }
        }
        seen
    }

    /// The maximum-likelihood Elo of every engine, `anchor` at 0.
    pub fn ratings(&self, anchor: usize) -> Ratings {
        let linked = self.reach(anchor, |a, b| self.pair(a, b).games() > 0);
        let prior = self.prior();
        let free: Vec<usize> = (0..self.n).filter(|&a| linked[a] && a != anchor).collect();
        let mut x = vec![0.0f64; self.n];
        let mut info = Vec::new();
        for _ in 0..100 {
            let (grad, hess) = self.derivatives(&x, &free, &prior);
            info = hess.clone();
            let Some(step) = solve(hess, grad) else { break };
            let mut largest = 0.0f64;
            for (k, &a) in free.iter().enumerate() {
                // a damped Newton step: no more than 2 units (about 350 Elo) at once
                let s = step[k].clamp(-2.0, 2.0);
                x[a] += s;
                largest = largest.max(s.abs());
            }
            if largest < 1e-10 {
                break;
            }
        }
        let dispersion = self.dispersion(&x, &prior);
        let variance = invert(info).map(|inv| {
            (0..free.len())
                .map(|k| inv[k][k] * dispersion)
                .collect::<Vec<_>>()
        });
        let of = (0..self.n)
            .map(|a| {
                if a == anchor {
                    return Some(Rating {
                        elo: 0.0,
                        margin: 0.0,
                    });
                }
                let k = free.iter().position(|&f| f == a)?;
                let v = variance.as_ref().map_or(f64::INFINITY, |v| v[k]);
                Some(Rating {
                    elo: x[a] * ELO_PER_UNIT,
                    margin: Z95 * v.max(0.0).sqrt() * ELO_PER_UNIT,
                })
            })
            .collect();
        Ratings {
            of,
            prior: prior.iter().any(|&p| p > 0.0),
        }
    }

    /// One virtual draw for each pair that met but lies in two different groups of engines
    /// joined both ways by points taken (a chain of engines each scoring against the next):
    /// without it, the likelihood would grow forever as the groups drift apart.
    fn prior(&self) -> Vec<f64> {
        let took = |a: usize, b: usize| {
            let p = self.pair(a, b);
            p.wins + p.draws > 0
        };
        let reaches: Vec<Vec<bool>> = (0..self.n).map(|a| self.reach(a, took)).collect();
        let mut prior = vec![0.0; self.n * self.n];
        for a in 0..self.n {
            for b in 0..self.n {
                let same_group = reaches[a][b] && reaches[b][a];
                if a != b && !same_group && self.pair(a, b).games() > 0 {
                    prior[a * self.n + b] = 1.0;
                }
            }
        }
        prior
    }

    /// The log-likelihood's gradient and negated Hessian over the `free` engines.
    fn derivatives(&self, x: &[f64], free: &[usize], prior: &[f64]) -> (Vec<f64>, Vec<Vec<f64>>) {
        let m = free.len();
        let mut grad = vec![0.0; m];
        let mut hess = vec![vec![0.0; m]; m];
        for (i, &a) in free.iter().enumerate() {
            for b in 0..self.n {
                let (g, s) = self.games_points(a, b, prior);
                if g == 0.0 {
                    continue;
                }
                let p = 1.0 / (1.0 + (x[b] - x[a]).exp());
                grad[i] += s - g * p;
                let w = g * p * (1.0 - p);
                hess[i][i] += w;
                if let Some(j) = free.iter().position(|&f| f == b) {
                    hess[i][j] -= w;
                }
            }
        }
        (grad, hess)
    }

    /// The games' score variance over the model's (1 with no games): below 1 where draws
    /// are common.
    fn dispersion(&self, x: &[f64], prior: &[f64]) -> f64 {
        let (mut seen, mut model) = (0.0, 0.0);
        for a in 0..self.n {
            for b in a + 1..self.n {
                let r = self.pair(a, b);
                let p = 1.0 / (1.0 + (x[b] - x[a]).exp());
                let (g, _) = self.games_points(a, b, prior);
                seen += r.wins as f64 * (1.0 - p).powi(2)
                    + r.draws as f64 * (0.5 - p).powi(2)
                    + r.losses as f64 * p * p
                    + prior[a * self.n + b] * (0.5 - p).powi(2);
                model += g * p * (1.0 - p);
            }
        }
        if model > 0.0 && seen > 0.0 {
            seen / model
        } else {
            1.0
        }
    }

    /// The ratings table and the crosstable, engines by points.
    pub fn report(&self, names: &[String], anchor: usize) -> Vec<String> {
        let ratings = self.ratings(anchor);
        let mut order: Vec<usize> = (0..self.n).collect();
        order.sort_by(|&a, &b| {
            let elo = |e: usize| ratings.of[e].map_or(f64::NEG_INFINITY, |r| r.elo);
            self.points(b)
                .total_cmp(&self.points(a))
                .then(elo(b).total_cmp(&elo(a)))
                .then(a.cmp(&b))
        });
        let width = names.iter().map(String::len).max().unwrap_or(4).max(4);
        let mut out = vec![format!(
            "Rank {:<width$} {:>8} {:>7} {:>6} {:>7} {:>6} {:>6}",
            "Name", "Elo", "+/-", "Games", "Points", "Score", "Draw"
        )];
        for (rank, &e) in order.iter().enumerate() {
            let t = self.total(e);
            let (elo, margin) = match ratings.of[e] {
                Some(r) if e == anchor => (format!("{:.1}", r.elo), "anchor".to_string()),
                Some(r) => (
                    format!("{:.1}", (r.elo * 10.0).round() / 10.0 + 0.0),
                    format!("{:.1}", r.margin),
                ),
                None => ("-".into(), "-".into()),
            };
            out.push(format!(
                "{:>4} {:<width$} {:>8} {:>7} {:>6} {:>7.1} {:>5.1}% {:>5.1}%",
                rank + 1,
                names[e],
                elo,
                margin,
                t.games(),
                self.points(e),
                100.0 * t.score(),
                t.draw_ratio()
            ));
        }
        if ratings.prior {
            out.push(
                "(a perfect score between groups of engines: one virtual draw for each pair across them keeps the ratings finite)".into(),
            );
        }
        out.push(format!(
            "Crosstable after {} games (points/games against each opponent, by rank):",
            self.games()
        ));
        let header: Vec<String> = (1..=self.n).map(|r| format!("{r:>8}")).collect();
        out.push(format!("Rank {:<width$} {}", "Name", header.join("")));
        for (rank, &a) in order.iter().enumerate() {
            let cells: Vec<String> = order
                .iter()
                .map(|&b| {
                    let p = self.pair(a, b);
                    let cell = if a == b {
                        "---".to_string()
                    } else if p.games() == 0 {
                        ".".to_string()
                    } else {
                        format!(
                            "{}/{}",
                            half_points(p.wins as f64 + 0.5 * p.draws as f64),
                            p.games()
                        )
                    };
                    format!("{cell:>8}")
                })
                .collect();
            out.push(format!(
                "{:>4} {:<width$} {}",
                rank + 1,
                names[a],
                cells.join("")
            ));
        }
        out
    }
}

/// Points as a chess player writes them: `3`, `2.5`.
fn half_points(p: f64) -> String {
    if p.fract() == 0.0 {
        format!("{p:.0}")
    } else {
        format!("{p:.1}")
    }
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting; `None` if singular.
fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let m = b.len();
    for c in 0..m {
        let p = (c..m).max_by(|&i, &j| a[i][c].abs().total_cmp(&a[j][c].abs()))?;
        if a[p][c].abs() < 1e-12 {
            return None;
        }
        a.swap(c, p);
        b.swap(c, p);
        let pivot = a[c].clone();
        for r in (0..m).filter(|&r| r != c) {
            let f = a[r][c] / pivot[c];
            for (x, p) in a[r].iter_mut().zip(&pivot).skip(c) {
                *x -= f * p;
            }
            b[r] -= f * b[c];
        }
    }
    Some((0..m).map(|i| b[i] / a[i][i]).collect())
}

/// The inverse of a square matrix; `None` if singular.
fn invert(a: Vec<Vec<f64>>) -> Option<Vec<Vec<f64>>> {
    let m = a.len();
    let columns: Option<Vec<Vec<f64>>> = (0..m)
        .map(|j| {
            solve(
                a.clone(),
                (0..m).map(|i| f64::from(u8::from(i == j))).collect(),
            )
        })
        .collect();
    let columns = columns?;
    Some(
        (0..m)
            .map(|i| (0..m).map(|j| columns[j][i]).collect())
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::stats::score_of_elo;

    fn table_with(n: usize, games: &[(usize, usize, f64, u32)]) -> Table {
        let mut t = Table::new(n);
        for &(w, b, s, k) in games {
            for _ in 0..k {
                t.add(w, b, s);
            }
        }
        t
    }

    #[test]
    fn two_engines_get_the_elo_of_their_score() {
        // 30 wins, 40 draws, 30 losses for a: level
        let t = table_with(2, &[(0, 1, 1.0, 30), (0, 1, 0.5, 40), (0, 1, 0.0, 30)]);
        let r = t.ratings(0);
        assert!(r.of[1].expect("rated").elo.abs() < 1e-6);
        // 60 % for b: the logistic Elo of 0.6, and the same margin as the match statistics
        let t = table_with(2, &[(0, 1, 0.0, 50), (0, 1, 0.5, 20), (0, 1, 1.0, 30)]);
        let r = t.ratings(0).of[1].expect("rated");
        let wdl = t.pair(1, 0);
        let (elo, margin) = wdl.elo().expect("finite");
        assert!((r.elo - elo).abs() < 1e-6, "{} {elo}", r.elo);
        assert!(
            (r.margin - margin).abs() < 0.05 * margin,
            "{} {margin}",
            r.margin
        );
    }

    #[test]
    fn ratings_recover_a_consistent_field() {
        // expected scores of engines at 0, 100 and 250 Elo, as exact fractions of 1000 games
        let elo = [0.0, 100.0, 250.0];
        let mut t = Table::new(3);
        for a in 0..3 {
            for b in a + 1..3 {
                let wins = (1000.0 * score_of_elo(elo[a] - elo[b])).round() as u32;
                for _ in 0..wins {
                    t.add(a, b, 1.0);
                }
                for _ in 0..1000 - wins {
                    t.add(a, b, 0.0);
                }
            }
        }
        let r = t.ratings(0);
        for (e, want) in elo.iter().enumerate() {
            let got = r.of[e].expect("rated").elo;
            assert!((got - want).abs() < 1.0, "engine {e}: {got}");
        }
        assert!(!r.prior);
        // anchored elsewhere, the differences stay
        let r = t.ratings(2);
        let got = r.of[0].expect("rated").elo;
        assert!((got + 250.0).abs() < 1.0, "{got}");
    }

    #[test]
    fn a_perfect_score_stays_finite_and_an_unlinked_engine_is_unrated() {
        let t = table_with(4, &[(0, 1, 1.0, 4), (1, 0, 0.0, 4), (1, 2, 0.5, 3)]);
        let r = t.ratings(0);
        assert!(r.prior);
        let one = r.of[1].expect("rated");
        assert!(one.elo < -200.0 && one.elo.is_finite() && one.margin.is_finite());
        assert!(r.of[2].is_some());
        assert_eq!(r.of[3], None);
        let text = t.report(&["a".into(), "b".into(), "c".into(), "d".into()], 0);
        assert!(
            text[1].contains(" a ") && text[1].contains("anchor"),
            "{text:?}"
        );
        assert!(text.iter().any(|l| l.contains("virtual draw")));
    }

    #[test]
    fn an_engine_that_lost_everything_barely_moves_the_others() {
        let field = [
            (0, 1, 1.0, 5),
            (0, 1, 0.0, 3),
            (0, 2, 0.5, 4),
            (1, 2, 1.0, 4),
            (2, 1, 1.0, 2),
        ];
        let three = table_with(3, &field);
        let mut four = table_with(4, &field);
        for e in 0..3 {
            for _ in 0..6 {
                four.add(e, 3, 1.0);
            }
        }
        let (r3, r4) = (three.ratings(0), four.ratings(0));
        assert!(!r3.prior && r4.prior);
        for e in 1..3 {
            let (a, b) = (r3.of[e].expect("rated"), r4.of[e].expect("rated"));
            assert!(
                (a.elo - b.elo).abs() < 15.0,
                "engine {e}: {} {}",
                a.elo,
                b.elo
            );
        }
        assert!(r4.of[3].expect("rated").elo < -300.0);
    }

    #[test]
    fn the_crosstable_sums_to_the_games() {
        let t = table_with(
            3,
            &[
                (0, 1, 1.0, 2),
                (1, 2, 0.5, 2),
                (2, 0, 1.0, 1),
                (0, 2, 0.5, 1),
            ],
        );
        assert_eq!(t.games(), 6);
        let total: f64 = (0..3).map(|e| t.points(e)).sum();
        assert_eq!(total, 6.0);
        let text = t.report(&["x".into(), "y".into(), "z".into()], 0);
        let x_line = text.iter().rev().find(|l| l.contains(" x ")).expect("row");
        assert!(
            x_line.contains("2/2") && x_line.contains("0.5/2"),
            "{x_line}"
        );
    }
}
