//! Trailer in the independent model, literally from shared/rules/modest-proposals-2.md §20
//! (TR-R1..TR-R4; en passant by README ruling 3 through `play`): after each ordinary move but
//! castling, one friendly man may be pulled.

use super::{on, Reloc, Sq, M};

/// One ordinary move: mover's squares, captured squares, promotion choices.
struct Base {
    from: Sq,
    to: Sq,
    removed: Vec<Sq>,
    promos: Vec<Option<char>>,
}

impl M {
    /// The ordinary moves but castling, pseudo-legal.
    fn trailer_bases(&self) -> Vec<Base> {
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
            out.push(Base {
                from,
                to,
                removed,
                promos,
            });
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
        out
    }

    /// The children of every pulled move (the unpulled moves are the ordinary ones);
    /// `nearest`: TR-R1's alternative, only the nearest man behind the mover.
    pub(super) fn trailer(&self, nearest: bool, out: &mut Vec<M>) {
        for base in self.trailer_bases() {
            let (a, b) = (base.from, base.to);
            // the board once the mover has moved
            let mut after = self.clone();
            after.set(a, '.');
            for &r in &base.removed {
                after.set(r, '.');
            }
            after.set(b, self.at(a));
            let v = (b.0 - a.0, b.1 - a.1);
            let mut pulls: Vec<(Sq, Sq)> = Vec::new();
            if v.0 == 0 || v.1 == 0 || v.0.abs() == v.1.abs() {
                // a line move: a man behind a, moved k squares along u, over empty squares
                let u = (v.0.signum(), v.1.signum());
                let k = v.0.abs().max(v.1.abs());
                let mut c = (a.0 - u.0, a.1 - u.1);
                let mut nearest_seen = false;
                while on(c) {
                    if self.at(c) != '.' {
                        if nearest && nearest_seen {
                            break;
                        }
                        nearest_seen = true;
                        let path: Vec<Sq> =
                            (1..=k).map(|i| (c.0 + i * u.0, c.1 + i * u.1)).collect();
                        if self.own(c) && path.iter().all(|&p| after.empty(p)) {
                            pulls.push((c, path[path.len() - 1]));
                        }
                    }
                    c = (c.0 - u.0, c.1 - u.1);
                }
            } else {
                // a Knight's move: the man on a - v jumps to a
                let c = (a.0 - v.0, a.1 - v.1);
                if self.own(c) {
                    pulls.push((c, a));
                }
            }
            for (c, d) in pulls {
                let man = self.at(c);
                // a pawn only forward or sideways (TR-R2)
                if man.eq_ignore_ascii_case(&'P') && (d.1 - c.1) * M::fwd(self.white) < 0 {
                    continue;
                }
                for &promo in &base.promos {
                    let relocs = [
                        Reloc {
                            from: a,
                            to: b,
                            promo,
                        },
                        Reloc {
                            from: c,
                            to: d,
                            promo: None,
                        },
                    ];
                    out.extend(self.play(&relocs, &base.removed));
                }
            }
        }
    }
}
