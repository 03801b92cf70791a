//! The model's Emissary rules, read literally from shared/rules/modest-proposals-1.md §13
//! (EM-1..EM-7, ruling EM-E1) and §0. No engine code.

use super::{add, Reloc, KING, M};

impl M {
    /// EM-1 and EM-3. With no withdrawn man the King may step onto a friendly unit, which is
    /// withdrawn (the ordinary legality test applies to the King's new square). With one, every
    /// move of a man of the highest-ranking type (Q > R > B > N > pawn) among the player's
    /// non-King men, castling as a move of its Rook, may put it on the square that man just
    /// left; legality is judged after the drop (in `play`).
    pub(super) fn emissary(&self, out: &mut Vec<M>) {
        let me = if self.white { 0 } else { 1 };
        let held = self.held[me];
        if held == '.' {
            let k = self.king(self.white);
            for d in KING {
                let t = add(k, d);
                if !self.own(t) {
                    continue;
                }
                if let Some(mut n) = self.step(k, t, &[]) {
                    n.held[me] = self.at(t);
                    out.push(n);
                }
            }
            return;
        }
        let men = self.men();
        let Some(top) = "QRBNP"
            .chars()
            .find(|&k| men.iter().any(|&s| self.at(s).to_ascii_uppercase() == k))
        else {
            // EM-5: no non-King man, no re-entry
            return;
        };
        let mut with = self.clone();
        with.reentry = Some((top, held));
        let mut v = Vec::new();
        with.orthodox(&mut v);
        for mut n in v {
            n.held[me] = '.';
            out.push(n);
        }
    }

    /// In `play` (the men are placed, `n` is the result so far): drops the held man on the
    /// square the man of the highest-ranking kind left, if it is empty now and, for a pawn,
    /// not on rank 1 or 8 (EM-4). `false` when the move has no such re-entry.
    pub(super) fn reenter(&self, n: &mut M, relocs: &[Reloc], lifted: &[char]) -> bool {
        let Some((top, man)) = self.reentry else {
            return true;
        };
        n.reentry = None;
        let Some((r, _)) = relocs
            .iter()
            .zip(lifted)
            .find(|(_, c)| c.to_ascii_uppercase() == top)
        else {
            return false;
        };
        let s = r.from;
        if n.at(s) != '.' || (man.eq_ignore_ascii_case(&'P') && (s.1 == 0 || s.1 == 7)) {
            return false;
        }
        n.set(s, man);
        true
    }

    /// The FEN's holdings text: `[..]`, White's man upper case first, or nothing.
    pub(super) fn holdings_text(&self) -> String {
        let held: String = self.held.iter().filter(|&&c| c != '.').collect();
        if held.is_empty() {
            String::new()
        } else {
            format!("[{held}]")
        }
    }
}

/// The held men of a FEN's holdings text (between the brackets, maybe with the `]`).
pub(super) fn holdings(text: &str) -> [char; 2] {
    let mut held = ['.'; 2];
    for c in text.chars().filter(|c| c.is_ascii_alphabetic()) {
        held[if c.is_ascii_uppercase() { 0 } else { 1 }] = c;
    }
    held
}
