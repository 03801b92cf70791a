//! Cascade in the independent model, literally from shared/rules/modest-proposals-1.md §5
//! (CS-1..CS-7, ruling H2, and the H1 reading for `cascadeInitiator = first`): the push train
//! is found by trying every choice of pushed men and final squares on the line and keeping the
//! choices that obey each sentence of CS-1, rather than by building trains as the engine does.

use super::{add, on, Reloc, Sq, BISHOP_DIRS, KING, KNIGHT, M, ROOK_DIRS};

/// Every way of choosing `n` increasing values from `pool`.
fn increasing(pool: &[usize], n: usize) -> Vec<Vec<usize>> {
    if n == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for (i, &x) in pool.iter().enumerate() {
        for mut rest in increasing(&pool[i + 1..], n - 1) {
            rest.insert(0, x);
            out.push(rest);
        }
    }
    out
}

impl M {
    /// The children of every cascade; `stops`: the H1 reading (a sliding initiator stops on the
    /// first occupied square).
    pub(super) fn cascade(&self, stops: bool, out: &mut Vec<M>) {
        let w = self.white;
        let f = M::fwd(w);
        for o in self.men() {
            let dirs: Vec<Sq> = match self.at(o).to_ascii_uppercase() {
                'P' => {
                    // CS-3: a straight step, a double step over an empty square, a diagonal
                    // step; the relocated men move one square in the pawn's direction
                    self.cascade_chain(o, (o.0, o.1 + f), (0, f), out);
                    let second = if w { 1 } else { 6 };
                    if o.1 == second && self.empty((o.0, o.1 + f)) {
                        self.cascade_chain(o, (o.0, o.1 + 2 * f), (0, f), out);
                    }
                    for df in [-1, 1] {
                        self.cascade_chain(o, (o.0 + df, o.1 + f), (df, f), out);
                    }
                    continue;
                }
                'N' | 'K' => {
                    // CS-2: each relocated man moves exactly the initiator's vector
                    let vs = if self.at(o).eq_ignore_ascii_case(&'N') {
                        KNIGHT
                    } else {
                        KING
                    };
                    for v in vs {
                        self.cascade_chain(o, add(o, v), v, out);
                    }
                    continue;
                }
                'R' => ROOK_DIRS.to_vec(),
                'B' => BISHOP_DIRS.to_vec(),
                _ => ROOK_DIRS
                    .iter()
                    .chain(BISHOP_DIRS.iter())
                    .copied()
                    .collect(),
            };
            for d in dirs {
                self.cascade_line(o, d, stops, out);
            }
        }
    }

    /// The promotion choices of each relocation (a pawn reaching its last rank, P2) played out;
    /// a pawn on its own first rank is illegal (P3).
    fn play_relocations(&self, relocs: &[(Sq, Sq)], out: &mut Vec<M>) {
        let last = if self.white { 7 } else { 0 };
        let first = if self.white { 0 } else { 7 };
        let mut all: Vec<Vec<Reloc>> = vec![Vec::new()];
        for &(from, to) in relocs {
            let pawn = self.at(from).eq_ignore_ascii_case(&'P');
            if pawn && to.1 == first {
                return;
            }
            let choices: Vec<Option<char>> = if pawn && to.1 == last {
                vec![Some('Q'), Some('R'), Some('B'), Some('N')]
            } else {
                vec![None]
            };
            all = all
                .into_iter()
                .flat_map(|done| {
                    choices.iter().map(move |&promo| {
                        let mut v = done.clone();
                        v.push(Reloc { from, to, promo });
                        v
                    })
                })
                .collect();
        }
        for r in all {
            out.extend(self.play(&r, &[]));
        }
    }

    /// CS-2/CS-3: the initiator on `o` lands on the friend on `s`; each man landed on moves
    /// `v`, until one lands on an empty square.
    fn cascade_chain(&self, o: Sq, s: Sq, v: Sq, out: &mut Vec<M>) {
        if !self.own(s) {
            return;
        }
        let mut relocs = vec![(o, s)];
        let mut cur = s;
        loop {
            let man = self.at(cur);
            // CS-4: a pawn is never relocated backward
            if man.eq_ignore_ascii_case(&'P') && v.1 * M::fwd(M::is_white(man)) < 0 {
                return;
            }
            let next = add(cur, v);
            if !on(next) || self.enemy(next) {
                return;
            }
            relocs.push((cur, next));
            if !self.own(next) {
                break;
            }
            cur = next;
        }
        self.play_relocations(&relocs, out);
    }

    /// CS-1: every stop of the initiator on the line from `o` in direction `d`, with every
    /// choice of pushed men and final squares that obeys the push-train rules.
    fn cascade_line(&self, o: Sq, d: Sq, stops: bool, out: &mut Vec<M>) {
        let mut line = Vec::new();
        let mut s = add(o, d);
        while on(s) {
            line.push(s);
            s = add(s, d);
        }
        // the first occupied square must hold a friendly man
        let Some(first) = line.iter().position(|&s| self.at(s) != '.') else {
            return;
        };
        if !self.own(line[first]) {
            return;
        }
        let friends: Vec<usize> = (0..line.len()).filter(|&i| self.own(line[i])).collect();
        for t in first..line.len() {
            if stops && t != first {
                break;
            }
            // no man may land on or pass an enemy man
            if (0..=t).any(|i| self.enemy(line[i])) {
                break;
            }
            for subset in 1u32..1 << friends.len() {
                let pushed: Vec<usize> = (0..friends.len())
                    .filter(|&k| subset >> k & 1 == 1)
                    .map(|k| friends[k])
                    .collect();
                let beyond: Vec<usize> = (t + 1..line.len()).collect();
                for finals in increasing(&beyond, pushed.len()) {
                    if self.train_ok(&line, d, t, &friends, &pushed, &finals) {
                        let mut relocs = vec![(o, line[t])];
                        for (&p, &u) in pushed.iter().zip(&finals) {
                            relocs.push((line[p], line[u]));
                        }
                        self.play_relocations(&relocs, out);
                    }
                }
            }
        }
    }

    /// Whether pushing the men on `pushed` (line indices, in order) to `finals` (in order, so
    /// they keep their order and end on distinct squares, all beyond the initiator's final
    /// index `t`) is a push train of CS-1 and CS-4.
    fn train_ok(
        &self,
        line: &[Sq],
        d: Sq,
        t: usize,
        friends: &[usize],
        pushed: &[usize],
        finals: &[usize],
    ) -> bool {
        for (&p, &u) in pushed.iter().zip(finals) {
            // pushed ahead along the line, over no enemy man
            if u <= p || (p + 1..=u).any(|i| self.enemy(line[i])) {
                return false;
            }
            let man = self.at(line[p]);
            if man.eq_ignore_ascii_case(&'P') && d.1 * M::fwd(M::is_white(man)) < 0 {
                return false;
            }
        }
        // a friend is pushed exactly when the initiator or a pushed man behind it lands on or
        // passes its square
        for &x in friends {
            let covered = x <= t || pushed.iter().zip(finals).any(|(&p, &u)| p < x && x <= u);
            if covered != pushed.contains(&x) {
                return false;
            }
        }
        true
    }
}
