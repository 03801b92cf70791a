//! Triangulation in the independent model, literally from shared/rules/modest-proposals-2.md
//! §21 (rules 1-3, TG-R1..TG-R4): three different friendly men A, B, C; A makes a normal move
//! onto B's square, B (with A's square now empty) a normal move onto C's square, C is put on A's
//! square. Moves are identified by the child positions (1.3), so no dedup code is needed here.

use super::{Reloc, Sq, M};

/// The direction of a move: its vector divided by the greatest common divisor of its parts
/// (a unit step for lines, the leap itself for a Knight).
fn direction(from: Sq, to: Sq) -> Sq {
    let (df, dr) = (to.0 - from.0, to.1 - from.1);
    let mut g = df.abs().max(dr.abs());
    while g > 1 && (df % g != 0 || dr % g != 0) {
        g -= 1;
    }
    (df / g, dr / g)
}

impl M {
    /// Whether the man `k` (upper case) of the side to move on `from` can make a normal move
    /// onto the occupied square `to`: a piece by its reach, a pawn by its single straight or
    /// diagonal forward step (never the double step).
    fn normal_move_onto(&self, k: char, from: Sq, to: Sq) -> bool {
        if k == 'P' {
            let f = M::fwd(self.white);
            return to.1 == from.1 + f && (to.0 - from.0).abs() <= 1;
        }
        self.reach(k, self.white, from).contains(&to)
    }

    /// Triangulations; `reversal`: TG-R4 (B may move back along A's line).
    pub(super) fn triangulation(&self, reversal: bool, out: &mut Vec<M>) {
        let w = self.white;
        let men = self.men();
        let last = if w { 7 } else { 0 };
        let first = if w { 0 } else { 7 };
        for &a in &men {
            let ka = self.at(a).to_ascii_uppercase();
            for &b in &men {
                if b == a || !self.normal_move_onto(ka, a, b) {
                    continue;
                }
                let kb = self.at(b).to_ascii_uppercase();
                // B moves after A left its square
                let mut after = self.clone();
                after.set(a, '.');
                for &c in &men {
                    if c == a || c == b || !after.normal_move_onto(kb, b, c) {
                        continue;
                    }
                    let kc = self.at(c).to_ascii_uppercase();
                    // TG-R1, TG-R4: the directions differ (and, without reversals, are not
                    // opposite)
                    let (d1, d2) = (direction(a, b), direction(b, c));
                    if d1 == d2 || (!reversal && d2 == (-d1.0, -d1.1)) {
                        continue;
                    }
                    // TG-R2: not all of one type
                    if ka == kb && kb == kc {
                        continue;
                    }
                    // no pawn on its own first rank (only C can get there)
                    if kc == 'P' && a.1 == first {
                        continue;
                    }
                    // promotions: any pawn ending on its last rank, each choice a move
                    let promos = |k: char, to: Sq| -> Vec<Option<char>> {
                        if k == 'P' && to.1 == last {
                            vec![Some('Q'), Some('R'), Some('B'), Some('N')]
                        } else {
                            vec![None]
                        }
                    };
                    for pa in promos(ka, b) {
                        for pb in promos(kb, c) {
                            for pc in promos(kc, a) {
                                out.extend(self.play(
                                    &[
                                        Reloc {
                                            from: a,
                                            to: b,
                                            promo: pa,
                                        },
                                        Reloc {
                                            from: b,
                                            to: c,
                                            promo: pb,
                                        },
                                        Reloc {
                                            from: c,
                                            to: a,
                                            promo: pc,
                                        },
                                    ],
                                    &[],
                                ));
                            }
                        }
                    }
                }
            }
        }
    }
}
