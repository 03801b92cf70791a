//! Carom in the independent model, literally from shared/rules/modest-proposals-1.md §4
//! (CR-1..CR-5): every approach of every man onto a friend, then every carom leg the rules
//! allow. Identity (CR-6) needs no code here: the model's children are distinct positions, so a
//! carom that equals an ordinary move, or another carom, is the same child.

use super::{add, Reloc, Sq, BISHOP_DIRS, KNIGHT, M, ROOK_DIRS};

impl M {
    /// Caroms (CR-1..CR-5).
    pub(super) fn carom(&self, out: &mut Vec<M>) {
        let w = self.white;
        let f = M::fwd(w);
        let second = if w { 1 } else { 6 };
        for o in self.men() {
            let k = self.at(o).to_ascii_uppercase();
            // (pivot, end) pairs
            let mut legs: Vec<(Sq, Sq)> = Vec::new();
            if k == 'P' {
                // straight approach (one step, or two from the 2nd rank over an empty square),
                // then one step sideways
                let mut straight = vec![(o.0, o.1 + f)];
                if o.1 == second && self.empty((o.0, o.1 + f)) {
                    straight.push((o.0, o.1 + 2 * f));
                }
                for p in straight {
                    if self.own(p) {
                        for side in [-1, 1] {
                            legs.push((p, (p.0 + side, p.1)));
                        }
                    }
                }
                // diagonal approach, then one step onto the other forward diagonal
                for df in [-1, 1] {
                    let p = (o.0 + df, o.1 + f);
                    if self.own(p) {
                        legs.push((p, (p.0 - df, p.1 + f)));
                    }
                }
            } else {
                for p in self.reach(k, w, o) {
                    if !self.own(p) {
                        continue;
                    }
                    let v = (p.0 - o.0, p.1 - o.1);
                    let unit = (v.0.signum(), v.1.signum());
                    match k {
                        'N' => {
                            for &d in &KNIGHT {
                                if d != v && d != (-v.0, -v.1) {
                                    legs.push((p, add(p, d)));
                                }
                            }
                        }
                        'K' | 'Q' | 'R' | 'B' => {
                            // perpendicular to the approach, along the same kind of line
                            let dirs: Vec<Sq> = ROOK_DIRS
                                .iter()
                                .chain(BISHOP_DIRS.iter())
                                .copied()
                                .filter(|d| d.0 * unit.0 + d.1 * unit.1 == 0)
                                .filter(|d| (d.0 == 0 || d.1 == 0) == (unit.0 == 0 || unit.1 == 0))
                                .collect();
                            for d in dirs {
                                let mut t = add(p, d);
                                while self.empty(t) {
                                    legs.push((p, t));
                                    if k == 'K' {
                                        break;
                                    }
                                    t = add(t, d);
                                }
                            }
                        }
                        _ => panic!("unknown man {k}"),
                    }
                }
            }
            let last = if w { 7 } else { 0 };
            for (_, t) in legs {
                if !self.empty(t) {
                    continue;
                }
                let promos: Vec<Option<char>> = if k == 'P' && t.1 == last {
                    vec![Some('Q'), Some('R'), Some('B'), Some('N')]
                } else {
                    vec![None]
                };
                for promo in promos {
                    out.extend(self.play(
                        &[Reloc {
                            from: o,
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
