//! The model's Castlemania, read literally from shared/rules/modest-proposals-1.md §6
//! (CM-1..CM-6). No engine code.

use super::{add, on, Reloc, M};

/// The castling rank of a man (CM-1: pawn < N < B < R < Q < K).
fn rank_of(c: char) -> usize {
    "PNBRQK"
        .find(c.to_ascii_uppercase())
        .expect("an orthodox man")
}

const LINES: [(i8, i8); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

impl M {
    /// Two friendly men of different ranks on one line with exactly 2 or 3 empty squares
    /// between (CM-1): the higher, H on h, slides two squares toward the lower, L, which is put
    /// on h+d (CM-2). A King may not castle in check nor pass over an attacked h+d (CM-3); a
    /// pawn may not land on rank 1 or 8 (CM-4); rights play no part (CM-6).
    pub(super) fn castlings(&self, out: &mut Vec<M>) {
        let w = self.white;
        for h in self.men() {
            for d in LINES {
                for between in [2, 3] {
                    let gap: Vec<_> = (1..=between)
                        .map(|i| (h.0 + i * d.0, h.1 + i * d.1))
                        .collect();
                    let l = (h.0 + (between + 1) * d.0, h.1 + (between + 1) * d.1);
                    if !gap.iter().all(|&s| self.empty(s)) || !on(l) || !self.own(l) {
                        continue;
                    }
                    let (ch, cl) = (self.at(h), self.at(l));
                    if rank_of(ch) <= rank_of(cl) {
                        continue;
                    }
                    let (h1, h2) = (add(h, d), add(add(h, d), d));
                    if ch.eq_ignore_ascii_case(&'K') && (self.in_check() || self.attacked(h1, !w)) {
                        continue;
                    }
                    if cl.eq_ignore_ascii_case(&'P') && (h1.1 == 0 || h1.1 == 7) {
                        continue;
                    }
                    let legs = [
                        Reloc {
                            from: h,
                            to: h2,
                            promo: None,
                        },
                        Reloc {
                            from: l,
                            to: h1,
                            promo: None,
                        },
                    ];
                    out.extend(self.play(&legs, &[]));
                }
            }
        }
    }
}
