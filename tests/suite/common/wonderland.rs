//! Wonderland in the independent model, literally from shared/rules/modest-proposals-2.md §22
//! (WO-R1..WO-R4): every non-capturing move of a man other than the King, computed to a square
//! `t`, ends on the mirror square `t'` of its rank. The ordinary quiet moves of those men are
//! left out of `orthodox` (the `quiet_off` flag); captures, en passant and King moves stay
//! there. En passant after a mirrored double step is WO-R4's square, set here over `play`'s.

use super::{Reloc, Sq, M};

/// The readings of the two flagged rulings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reading {
    /// WO-R1's alternative: the displaced man goes to the mover's starting square.
    pub to_origin: bool,
    /// WO-R3's alternative: a move mirrored back onto its starting square is a legal pass.
    pub pass: bool,
}

/// The rulings.
pub const RULINGS: Reading = Reading {
    to_origin: false,
    pass: false,
};

impl M {
    /// The Wonderland moves (legal ones, as positions).
    pub(super) fn wonderland(&self, r: Reading, out: &mut Vec<M>) {
        let w = self.white;
        let f = M::fwd(w);
        let second = if w { 1 } else { 6 };
        let last = if w { 7 } else { 0 };
        for s in self.men() {
            let k = self.at(s).to_ascii_uppercase();
            if k == 'K' {
                continue; // Kings move as in standard chess
            }
            // the man's normal non-capturing moves, to t
            let mut targets: Vec<Sq> = Vec::new();
            if k == 'P' {
                let one = (s.0, s.1 + f);
                if self.empty(one) {
                    targets.push(one);
                    let two = (s.0, s.1 + 2 * f);
                    if s.1 == second && self.empty(two) {
                        targets.push(two);
                    }
                }
            } else {
                targets = self.quiet(k, w, s);
            }
            for t in targets {
                let promos: Vec<Option<char>> = if k == 'P' && t.1 == last {
                    vec![Some('Q'), Some('R'), Some('B'), Some('N')]
                } else {
                    vec![None]
                };
                let mirror = (7 - t.0, t.1);
                let there = self.at(mirror);
                if there.eq_ignore_ascii_case(&'K') {
                    // a King on the mirror square: no repositioning, the man stays on t
                    for p in promos {
                        out.extend(self.play(
                            &[Reloc {
                                from: s,
                                to: t,
                                promo: p,
                            }],
                            &[],
                        ));
                    }
                    continue;
                }
                if mirror == s {
                    // WO-R3: would end where it began
                    if r.pass {
                        out.extend(self.play(
                            &[Reloc {
                                from: s,
                                to: s,
                                promo: None,
                            }],
                            &[],
                        ));
                    }
                    continue;
                }
                let mut relocs = vec![Reloc {
                    from: s,
                    to: mirror,
                    promo: None,
                }];
                if there != '.' {
                    // the occupant is placed on t (WO-R1), or on the mover's start square
                    let d = if r.to_origin { s } else { t };
                    if there.eq_ignore_ascii_case(&'P') && (d.1 == 0 || d.1 == 7) {
                        continue; // (the alternative only) a pawn cannot be put there
                    }
                    relocs.push(Reloc {
                        from: mirror,
                        to: d,
                        promo: None,
                    });
                }
                for p in promos {
                    relocs[0].promo = p;
                    let Some(mut n) = self.play(&relocs, &[]) else {
                        continue;
                    };
                    if n.board == self.board && !r.pass {
                        continue; // (the alternative only) like men exchanged: a pass, WO-R3
                    }
                    // WO-R4: a mirrored double step: e.p. on the square behind the pawn
                    if k == 'P' && (t.1 - s.1).abs() == 2 {
                        let behind = (mirror.0, mirror.1 - f);
                        n.ep = n.empty(behind).then_some(behind);
                    }
                    out.push(n);
                }
            }
        }
    }
}
