//! The model's Explorer rules, read literally from shared/rules/modest-proposals-2.md §3
//! (EX-R1..EX-R6 and the check of the Rules list). No engine code.

use super::{Reloc, Sq, M};

/// The two squares one step from `s` (§3): along the rank towards the side edge farther from
/// `s` (files a-d towards h, e-h towards a), along the file towards the back edge farther from
/// `s` (ranks 1-4 towards 8, 5-8 towards 1). Both always exist on 8x8 (EX-R5).
fn continuations(s: Sq) -> [Sq; 2] {
    let h = if s.0 <= 3 {
        (s.0 + 1, s.1)
    } else {
        (s.0 - 1, s.1)
    };
    let v = if s.1 <= 3 {
        (s.0, s.1 + 1)
    } else {
        (s.0, s.1 - 1)
    };
    [h, v]
}

/// Whether a man of kind `k` (upper case) continues: Knight, Bishop, Rook, Queen.
pub(super) fn continues(k: char) -> bool {
    matches!(k, 'N' | 'B' | 'R' | 'Q')
}

impl M {
    /// The continuation moves: a Knight, Bishop, Rook or Queen moves by its ordinary move to an
    /// empty square `s` and goes on to one of its two continuation squares, capturing whatever
    /// stands there (either colour), never the own King (EX-R2), never back to its start
    /// (identical position). With `captures_continue` (EX-R1's alternative) a capture on `s`
    /// may also go on so (there the start is allowed: the captured man makes the difference);
    /// the plain capture stays a move (`orthodox`).
    pub(super) fn explorer_moves(&self, captures_continue: bool, out: &mut Vec<M>) {
        let w = self.white;
        let own_king = if w { 'K' } else { 'k' };
        for a in self.men() {
            let k = self.at(a).to_ascii_uppercase();
            if !continues(k) {
                continue;
            }
            for s in self.reach(k, w, a) {
                let empty = self.at(s) == '.';
                if !(empty || captures_continue && self.enemy(s)) {
                    continue;
                }
                for c in continuations(s) {
                    if self.at(c) == own_king || (empty && c == a) {
                        continue;
                    }
                    let removed: Vec<Sq> = if empty { vec![] } else { vec![s] };
                    let leg = Reloc {
                        from: a,
                        to: c,
                        promo: None,
                    };
                    out.extend(self.play(&[leg], &removed));
                }
            }
        }
    }

    /// §3 Check: a man of `by_white` attacks `sq` by a continuation when some Knight, Bishop,
    /// Rook or Queen of its side can move to an empty square (with `captures_continue` also
    /// capture on a square of the other side) from which `sq` is a continuation square.
    pub(super) fn explorer_attacks(&self, sq: Sq, by_white: bool, captures_continue: bool) -> bool {
        for r in 0..8 {
            for f in 0..8 {
                let c = self.board[r][f];
                if c == '.' || M::is_white(c) != by_white || !continues(c.to_ascii_uppercase()) {
                    continue;
                }
                let x = (f as i8, r as i8);
                for s in self.reach(c.to_ascii_uppercase(), by_white, x) {
                    let t = self.at(s);
                    let open = t == '.' || (captures_continue && M::is_white(t) != by_white);
                    if open && s != sq && continuations(s).contains(&sq) {
                        return true;
                    }
                }
            }
        }
        false
    }
}
