//! Dominion, Summit, Crater, Ridge and Valley in the independent model, literally from
//! shared/rules/modest-proposals-1.md §12 (DO-1..DO-6) and modest-proposals-2.md §18 (the
//! Summit rules, the alternates, SU-R1..SU-R4), en passant by README ruling 3 through `play`:
//! after any ordinary move the man that moved may slide one square (Dominion: to the other half
//! of its domino), onto an empty square or an enemy man, which it captures.

use super::{add, on, Reloc, Sq, M};

/// Where a man may slide, and from where (the variants and SU-R3's flag).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Geo {
    /// Dominion: to partner(t) of the vertical domino (ranks 1-2, 3-4, 5-6, 7-8).
    Domino,
    /// Summit: one square toward the nearest edge (either on the main diagonals).
    Summit,
    /// Crater: one square away from the nearest edge; not after a move to d4, e4, d5, e5.
    Crater,
    /// Ridge: along the rank toward the nearer side edge (b-d toward a, e-g toward h);
    /// `true`: also after moves to ranks 1 and 8 (SU-R3's flag).
    Ridge(bool),
    /// Valley: along the rank toward the centre (b-c toward d, f-g toward e; none from d, e).
    Valley(bool),
}

/// The squares a man that ended a move on `t` may slide to.
pub fn slide_targets(g: Geo, t: Sq) -> Vec<Sq> {
    let (f, r) = t;
    let edge = f == 0 || f == 7 || r == 0 || r == 7;
    let one = |d: Sq| -> Vec<Sq> { vec![add(t, d)].into_iter().filter(|&s| on(s)).collect() };
    match g {
        // DO-1: (rank 1, rank 2), (3, 4), (5, 6), (7, 8); ranks counted from 0 here
        Geo::Domino => one((0, if r % 2 == 0 { 1 } else { -1 })),
        Geo::Summit | Geo::Crater => {
            if edge {
                return vec![];
            }
            if g == Geo::Crater && [(3, 3), (4, 3), (3, 4), (4, 4)].contains(&t) {
                return vec![];
            }
            // distance to the a-edge, h-edge, 1st-rank edge, 8th-rank edge, each with its step
            let edges = [(f, (-1, 0)), (7 - f, (1, 0)), (r, (0, -1)), (7 - r, (0, 1))];
            let nearest = edges.iter().map(|e| e.0).min().unwrap();
            let away = if g == Geo::Crater { -1 } else { 1 };
            edges
                .iter()
                .filter(|e| e.0 == nearest)
                .flat_map(|e| one((away * e.1 .0, away * e.1 .1)))
                .collect()
        }
        Geo::Ridge(back) | Geo::Valley(back) => {
            if f == 0 || f == 7 || ((r == 0 || r == 7) && !back) {
                return vec![];
            }
            let d = match g {
                Geo::Ridge(_) if f <= 3 => -1,
                Geo::Ridge(_) => 1,
                _ if f <= 2 => 1,
                _ if f >= 5 => -1,
                _ => return vec![],
            };
            one((d, 0))
        }
    }
}

/// One ordinary move: the mover's square and destination, captured squares, the promotion
/// (upper case) if the pawn promotes on the destination, and the Rook's move when castling.
struct Base {
    from: Sq,
    to: Sq,
    removed: Vec<Sq>,
    promo: Option<char>,
    rook: Option<(Sq, Sq)>,
}

impl M {
    /// Every pseudo-legal ordinary move (castling under the check rules of this relation).
    fn slide_bases(&self, castling: bool) -> Vec<Base> {
        let w = self.white;
        let f = M::fwd(w);
        let last = if w { 7 } else { 0 };
        let mut out = Vec::new();
        let mut push = |from: Sq, to: Sq, removed: Vec<Sq>, pawn: bool| {
            let promos = if pawn && to.1 == last {
                vec![Some('Q'), Some('R'), Some('B'), Some('N')]
            } else {
                vec![None]
            };
            for promo in promos {
                out.push(Base {
                    from,
                    to,
                    removed: removed.clone(),
                    promo,
                    rook: None,
                });
            }
        };
        for s in self.men() {
            let k = self.at(s).to_ascii_uppercase();
            if k == 'P' {
                let one = (s.0, s.1 + f);
                if self.empty(one) {
                    push(s, one, vec![], true);
                    let two = (s.0, s.1 + 2 * f);
                    if s.1 == if w { 1 } else { 6 } && self.empty(two) {
                        push(s, two, vec![], true);
                    }
                }
                for t in self.reach('P', w, s) {
                    if self.enemy(t) {
                        push(s, t, vec![t], true);
                    } else if Some(t) == self.ep {
                        push(s, t, vec![(t.0, s.1)], true);
                    }
                }
            } else {
                for t in self.reach(k, w, s) {
                    if self.at(t) == '.' {
                        push(s, t, vec![], false);
                    } else if self.enemy(t) {
                        push(s, t, vec![t], false);
                    }
                }
            }
        }
        if castling {
            out.extend(self.slide_castlings());
        }
        out
    }

    /// The castlings a slide may follow: FIDE's conditions under this relation (0.4: not out
    /// of check, not across an attacked square), the King's castling square being the square
    /// it passes before sliding, which DO-5 leaves untested (only the final position counts).
    fn slide_castlings(&self) -> Vec<Base> {
        let w = self.white;
        let rank = if w { 0 } else { 7 };
        let base = if w { 0 } else { 2 };
        let mut out = Vec::new();
        for (i, rook_file, king_to, rook_to, path, crossed) in [
            (base, 7, 6, 5, vec![5, 6], [4, 5]),
            (base + 1, 0, 2, 3, vec![1, 2, 3], [4, 3]),
        ] {
            if !self.rights[i]
                || self.at((4, rank)) != self.man(w, 'K')
                || self.at((rook_file, rank)) != self.man(w, 'R')
                || path.iter().any(|&x| self.at((x, rank)) != '.')
                || crossed.iter().any(|&x| self.attacked((x, rank), !w))
            {
                continue;
            }
            out.push(Base {
                from: (4, rank),
                to: (king_to, rank),
                removed: vec![],
                promo: None,
                rook: Some(((rook_file, rank), (rook_to, rank))),
            });
        }
        out
    }

    /// The children of every move with a slide (the moves without one are the ordinary ones).
    /// After castling only the King slides, and only in Dominion (DO-2; Summit: "castling never
    /// slides").
    pub(super) fn slides(&self, g: Geo, out: &mut Vec<M>) {
        let w = self.white;
        let last = if w { 7 } else { 0 };
        let first = if w { 0 } else { 7 };
        for b in self.slide_bases(g == Geo::Domino) {
            // the board once the move is made
            let mut after = self.clone();
            let man = self.at(b.from);
            after.set(b.from, '.');
            for &r in &b.removed {
                after.set(r, '.');
            }
            if let Some((rf, rt)) = b.rook {
                after.set(rf, '.');
                after.set(rt, self.man(w, 'R'));
            }
            after.set(b.to, man);
            let pawn = man.eq_ignore_ascii_case(&'P');
            for t2 in slide_targets(g, b.to) {
                if after.own(t2) {
                    continue;
                }
                let mut removed = b.removed.clone();
                if after.enemy(t2) {
                    removed.push(t2);
                }
                // a promoted pawn slides as its piece; a pawn reaching its last rank by the
                // slide promotes there; none ever stands on its own first rank (P3)
                let promos = if b.promo.is_some() {
                    vec![b.promo]
                } else if pawn && t2.1 == last {
                    vec![Some('Q'), Some('R'), Some('B'), Some('N')]
                } else if pawn && t2.1 == first {
                    vec![]
                } else {
                    vec![None]
                };
                for promo in promos {
                    // DO-3 / 0.7: back on its square, nothing captured or promoted
                    if t2 == b.from && removed.is_empty() && promo.is_none() {
                        continue;
                    }
                    let mut relocs = vec![Reloc {
                        from: b.from,
                        to: t2,
                        promo,
                    }];
                    if let Some((rf, rt)) = b.rook {
                        relocs.push(Reloc {
                            from: rf,
                            to: rt,
                            promo: None,
                        });
                    }
                    out.extend(self.play(&relocs, &removed));
                }
            }
        }
    }

    /// DO-4 and §18's check detection, literally: a man of `by` that has a pseudo-legal move
    /// (castling aside) to a square from which a slide reaches `x` attacks `x`. En passant
    /// counts only with a target `by` may use (on its side's sixth rank).
    pub(super) fn slide_attacked(&self, g: Geo, x: Sq, by_white: bool) -> bool {
        let mut me = self.clone();
        me.white = by_white;
        me.slide = None;
        let ep_rank = if by_white { 5 } else { 2 };
        if me.ep.is_some_and(|e| e.1 != ep_rank) {
            me.ep = None;
        }
        me.slide_bases(false)
            .iter()
            .any(|b| slide_targets(g, b.to).contains(&x))
    }
}
