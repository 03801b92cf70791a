//! The model's Camouflage rules, read literally from shared/rules/modest-proposals-1.md §3
//! (CF-1..CF-6) and §0.2 (shade). No engine code.

use super::{add, on, Sq, KING, KNIGHT, M};

/// 0.2: a square is dark when file + rank is even. CF-3: a unit's own shade is light for White
/// and dark for Black.
fn own_shade(s: Sq, white: bool) -> bool {
    let dark = (s.0 + s.1) % 2 == 0;
    dark != white
}

/// CF-4: the extra leaps of a man of kind `k` (upper case) starting on `s`, by colour: a Q, R
/// or B on its own shade moves and captures like a Knight, a Knight on its own shade like a
/// (non-royal) King; nothing on the opposite shade.
fn shade_power(k: char, white: bool, s: Sq) -> &'static [Sq] {
    if !own_shade(s, white) {
        return &[];
    }
    match k {
        'Q' | 'R' | 'B' => &KNIGHT,
        'N' => &KING,
        _ => &[],
    }
}

/// CF-2: the Bishop's orthogonal step.
const ORTHOGONAL: [Sq; 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];

impl M {
    /// The moves Camouflage adds to orthodox chess (CF-2, CF-4): each CF-4 leap to an empty
    /// square or onto an enemy man (captured), and the Bishop's orthogonal step to an empty
    /// square, whatever its shade.
    pub(super) fn camouflage_moves(&self, out: &mut Vec<M>) {
        let w = self.white;
        for a in self.men() {
            let k = self.at(a).to_ascii_uppercase();
            for &d in shade_power(k, w, a) {
                let t = add(a, d);
                if on(t) && !self.own(t) {
                    out.extend(self.step(a, t, &[]));
                }
            }
            if k == 'B' {
                for d in ORTHOGONAL {
                    let t = add(a, d);
                    if self.empty(t) {
                        out.extend(self.step(a, t, &[]));
                    }
                }
            }
        }
    }

    /// CF-5: whether a man of `by_white` reaches `s` with a CF-4 power (the Bishop's step never
    /// attacks).
    pub(super) fn camouflage_attacked(&self, s: Sq, by_white: bool) -> bool {
        (0..8).any(|r| {
            (0..8).any(|f| {
                let c = self.board[r as usize][f as usize];
                c != '.'
                    && M::is_white(c) == by_white
                    && shade_power(c.to_ascii_uppercase(), by_white, (f, r))
                        .iter()
                        .any(|&d| add((f, r), d) == s)
            })
        })
    }
}
