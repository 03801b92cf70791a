//! The model's Coercion rules, read literally from shared/rules/modest-proposals-1.md §9
//! (CO-1..CO-6 and the rulings of §9.2), with §0.2's "reach". No engine code.

use super::{Reloc, Sq, M};

impl M {
    /// Whether some man of colour `white` reaches `s` (§0.2: its standard capture geometry,
    /// were an enemy on `s`; Kings included, pins ignored).
    fn co_reached_by(&self, s: Sq, white: bool) -> bool {
        (0..8).any(|r| {
            (0..8).any(|f| {
                let c = self.board[r as usize][f as usize];
                c != '.'
                    && M::is_white(c) == white
                    && self
                        .reach(c.to_ascii_uppercase(), white, (f, r))
                        .contains(&s)
            })
        })
    }

    /// CO-1: the man on `s` is defended (a man of its colour reaches it).
    fn co_defended(&self, s: Sq) -> bool {
        self.co_reached_by(s, M::is_white(self.at(s)))
    }

    /// CO-1: the man on `s` is attacked (an enemy man reaches it).
    fn co_attacked(&self, s: Sq) -> bool {
        self.co_reached_by(s, !M::is_white(self.at(s)))
    }

    /// CO-4 for the King of the colour other than `by_white`, placed on `s` (taken from its
    /// square if it stands elsewhere, CO-5's "placed there"): an enemy man reaches it, or a man Y
    /// of the King's colour, not the King, undefended and attacked, reaches it.
    pub fn coercion_check(&self, s: Sq, by_white: bool) -> bool {
        let own = !by_white;
        let king = if own { 'K' } else { 'k' };
        let mut n = self.clone();
        if n.at(s) != king {
            for r in 0..8 {
                for f in 0..8 {
                    if n.board[r][f] == king {
                        n.board[r][f] = '.';
                    }
                }
            }
            n.set(s, king);
        }
        if n.co_reached_by(s, by_white) {
            return true;
        }
        (0..8).any(|r| {
            (0..8).any(|f| {
                let y = (f, r);
                let c = n.at(y);
                c != '.'
                    && c != king
                    && M::is_white(c) == own
                    && n.reach(c.to_ascii_uppercase(), own, y).contains(&s)
                    && !n.co_defended(y)
                    && n.co_attacked(y)
            })
        })
    }

    /// CO-2, CO-3: the mover may move one undefended non-King enemy man X, with X's own type
    /// and colour: unattacked, to empty squares only (a pawn steps in its own direction,
    /// double-steps from its own 2nd rank with the middle square empty); attacked, also capturing
    /// X's own side's men other than the King. A pawn reaching its last rank promotes to each
    /// of Q, R, B, N of its colour (the mover chooses). No castling, no en passant.
    pub(super) fn coercion_moves(&self, out: &mut Vec<M>) {
        let xw = !self.white;
        for r in 0..8 {
            for f in 0..8 {
                let x = (f, r);
                let c = self.at(x);
                if c == '.' || M::is_white(c) != xw || c.eq_ignore_ascii_case(&'K') {
                    continue;
                }
                if self.co_defended(x) {
                    continue;
                }
                let may_capture = self.co_attacked(x);
                let k = c.to_ascii_uppercase();
                let mut to: Vec<Sq> = Vec::new();
                if k == 'P' {
                    let d = M::fwd(xw);
                    let one = (f, r + d);
                    if self.empty(one) {
                        to.push(one);
                        let second = if xw { 1 } else { 6 };
                        let two = (f, r + 2 * d);
                        if r == second && self.empty(two) {
                            to.push(two);
                        }
                    }
                } else {
                    to.extend(
                        self.reach(k, xw, x)
                            .into_iter()
                            .filter(|&t| self.at(t) == '.'),
                    );
                }
                if may_capture {
                    to.extend(self.reach(k, xw, x).into_iter().filter(|&t| {
                        let v = self.at(t);
                        v != '.' && M::is_white(v) == xw && !v.eq_ignore_ascii_case(&'K')
                    }));
                }
                let last = if xw { 7 } else { 0 };
                for t in to {
                    let promos: Vec<Option<char>> = if k == 'P' && t.1 == last {
                        ['Q', 'R', 'B', 'N'].into_iter().map(Some).collect()
                    } else {
                        vec![None]
                    };
                    for promo in promos {
                        out.extend(self.play(
                            &[Reloc {
                                from: x,
                                to: t,
                                promo,
                            }],
                            &[],
                        ));
                    }
                }
            }
        }
    }
}
