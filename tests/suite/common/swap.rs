//! The model's swap rules, read literally from the rules texts: Catalyst
//! (shared/rules/modest-proposals-1.md §7, CT-1..CT-8) and Redeployment (modest-proposals-2.md
//! §15, RE-R1..RE-R4 and the extended attack relation). No engine code.

use super::{Reloc, Sq, M};

/// The kind (upper case) of a man.
fn kind(c: char) -> char {
    c.to_ascii_uppercase()
}

impl M {
    /// Catalyst: a friendly man C that reaches (§0.2) two other friendly men X and Y lets them
    /// switch places (CT-2); X and Y of different types (CT-3a), neither a King (CT-3d), no pawn
    /// switched onto rank 1 or 8 (CT-3c); not while the mover's last move was catalysed (CT-3b,
    /// CT-7). The switch sets the mover's flag (every other move clears it, in `play`).
    pub(super) fn catalyst_switches(&self, out: &mut Vec<M>) {
        let mover = !self.white as usize;
        if self.swap_flags[mover] {
            return;
        }
        let w = self.white;
        for c in self.men() {
            let guarded: Vec<Sq> = self
                .reach(kind(self.at(c)), w, c)
                .into_iter()
                .filter(|&t| self.own(t))
                .collect();
            for &x in &guarded {
                for &y in &guarded {
                    let (kx, ky) = (kind(self.at(x)), kind(self.at(y)));
                    if x == y || kx == ky || kx == 'K' || ky == 'K' {
                        continue;
                    }
                    let back = |s: Sq| s.1 == 0 || s.1 == 7;
                    if (kx == 'P' && back(y)) || (ky == 'P' && back(x)) {
                        continue;
                    }
                    let switch = [
                        Reloc {
                            from: x,
                            to: y,
                            promo: None,
                        },
                        Reloc {
                            from: y,
                            to: x,
                            promo: None,
                        },
                    ];
                    if let Some(mut n) = self.play(&switch, &[]) {
                        n.swap_flags[mover] = true;
                        out.push(n);
                    }
                }
            }
        }
    }

    /// Redeployment: two friendly men on the player's own first rank, neither the King, not of
    /// one type (RE-R2), swap squares, and one of them then makes an ordinary move, maybe a
    /// capture, from its new square (RE-R1).
    pub(super) fn redeployments(&self, out: &mut Vec<M>) {
        let w = self.white;
        let rank = if w { 0 } else { 7 };
        let men: Vec<Sq> = (0..8)
            .map(|f| (f, rank))
            .filter(|&s| self.own(s) && kind(self.at(s)) != 'K')
            .collect();
        for &x in &men {
            for &y in &men {
                let (kx, ky) = (kind(self.at(x)), kind(self.at(y)));
                if x == y || kx == ky {
                    continue;
                }
                let mut swapped = self.clone();
                swapped.set(x, self.at(y));
                swapped.set(y, self.at(x));
                // X's standard move from y on the swapped board
                for t in swapped.reach(kx, w, y) {
                    let removed: Vec<Sq> = if swapped.enemy(t) {
                        vec![t]
                    } else if swapped.at(t) == '.' {
                        vec![]
                    } else {
                        continue;
                    };
                    let legs = [
                        Reloc {
                            from: x,
                            to: t,
                            promo: None,
                        },
                        Reloc {
                            from: y,
                            to: x,
                            promo: None,
                        },
                    ];
                    out.extend(self.play(&legs, &removed));
                }
            }
        }
    }

    /// RE-4: a man of `by_white` on its own first rank (not the King) also attacks every square
    /// it would attack from the square of another non-King man of its side on that rank, of a
    /// different type (the occupancy is the same after such a swap).
    pub(super) fn swap_attacked(&self, s: Sq, by_white: bool) -> bool {
        let rank = if by_white { 0 } else { 7 };
        let mine = |c: char| c != '.' && M::is_white(c) == by_white && kind(c) != 'K';
        for xf in 0..8 {
            let cx = self.at((xf, rank));
            if !mine(cx) {
                continue;
            }
            for yf in 0..8 {
                let cy = self.at((yf, rank));
                if yf == xf || !mine(cy) || kind(cy) == kind(cx) {
                    continue;
                }
                if self.reach(kind(cx), by_white, (yf, rank)).contains(&s) {
                    return true;
                }
            }
        }
        false
    }
}
