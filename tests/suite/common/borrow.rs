//! Countermove and Reflective in the independent model, literally from
//! shared/rules/modest-proposals-1.md §10 (CN-1..CN-5) and modest-proposals-2.md §16
//! (RF-R1..RF-R4): a man reached by enemy men (0.2 "reach") gets the non-capturing moves each
//! of them would have from the man's square. Countermove adds them to the man's own moves
//! (the ordinary ones stay in `orthodox`; a borrowed move equal to one of them is the same
//! position, so the children map keeps it once); Reflective replaces an attacked man's own
//! non-capturing moves by them (`quiet_all_off` leaves every quiet move out of `orthodox`,
//! castling apart, and this file generates the quiet moves of every man).

use super::{Sq, M};

/// The readings that tell the two variants apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reading {
    /// Reflective: an attacked man's non-capturing moves are only the borrowed ones.
    pub replace: bool,
    /// Kings borrow (Reflective RF-R1; Countermove CN-5: they do not).
    pub kings: bool,
    /// A borrowed pawn step goes in the lending pawn's direction (RF-R2), not the
    /// borrower's (CN-2).
    pub attacker_step: bool,
    /// A pawn may move to its own first rank (RF-R4; CN-3: it may not).
    pub first_rank: bool,
}

/// Countermove's rulings.
pub const COUNTERMOVE: Reading = Reading {
    replace: false,
    kings: false,
    attacker_step: false,
    first_rank: false,
};

/// Reflective's rulings.
pub const REFLECTIVE: Reading = Reading {
    replace: true,
    kings: true,
    attacker_step: true,
    first_rank: true,
};

impl M {
    /// The man's own non-capturing moves: a pawn's one step, and its double step from its own
    /// 2nd rank (P1), both squares empty.
    fn own_quiet(&self, k: char, s: Sq) -> Vec<Sq> {
        let w = self.white;
        if k != 'P' {
            return self.quiet(k, w, s);
        }
        let f = M::fwd(w);
        let mut v = Vec::new();
        let one = (s.0, s.1 + f);
        if self.empty(one) {
            v.push(one);
            let two = (s.0, s.1 + 2 * f);
            if s.1 == if w { 1 } else { 6 } && self.empty(two) {
                v.push(two);
            }
        }
        v
    }

    /// The enemy men (kind upper case) that reach `s`.
    fn lenders(&self, s: Sq) -> Vec<char> {
        let mut v = Vec::new();
        for r in 0..8 {
            for f in 0..8 {
                let c = self.board[r][f];
                if c == '.' || M::is_white(c) == self.white {
                    continue;
                }
                let k = c.to_ascii_uppercase();
                if self.reach(k, !self.white, (f as i8, r as i8)).contains(&s) {
                    v.push(k);
                }
            }
        }
        v
    }

    /// The non-capturing moves of every man under the reading (legal ones, as positions).
    pub(super) fn borrowed(&self, r: Reading, out: &mut Vec<M>) {
        let w = self.white;
        let first = if w { 0 } else { 7 };
        for s in self.men() {
            let k = self.at(s).to_ascii_uppercase();
            let lenders = self.lenders(s);
            let mut targets: Vec<Sq> = Vec::new();
            if k == 'K' && !r.kings {
                // the King moves normally; with `replace` its own quiet moves are made here
                if r.replace {
                    targets = self.own_quiet(k, s);
                }
            } else if r.replace && lenders.is_empty() {
                targets = self.own_quiet(k, s);
            } else {
                for lk in lenders {
                    if lk == 'P' {
                        // one square straight: the borrower's forward (CN-2) or the lender's
                        let dir = if r.attacker_step {
                            M::fwd(!w)
                        } else {
                            M::fwd(w)
                        };
                        let t = (s.0, s.1 + dir);
                        if self.empty(t) {
                            targets.push(t);
                        }
                    } else {
                        targets.extend(self.quiet(lk, !w, s));
                    }
                }
            }
            targets.sort();
            targets.dedup();
            for t in targets {
                if k == 'P' {
                    if t.1 == first && !r.first_rank {
                        continue; // CN-3
                    }
                    // the en-passant square holds the passed pawn for a pawn that may take it
                    let fwd = M::fwd(w);
                    if self.ep == Some(t) && t.1 == s.1 + fwd && (t.0 - s.0).abs() == 1 {
                        continue;
                    }
                    self.pawn_to(s, t, &[], out);
                } else {
                    out.extend(self.step(s, t, &[]));
                }
            }
        }
    }
}
