//! The model's Role-Model rules, read literally from shared/rules/modest-proposals-2.md §17
//! (RM-R1..RM-R3). No engine code.

use super::{Sq, M};

/// The pieces from low to high: Knight < Bishop < Rook < Queen < King (pawns do not count).
const RANKING: [char; 5] = ['N', 'B', 'R', 'Q', 'K'];

impl M {
    /// The kind (upper case) a man of kind `k` on `s` moves and captures as: for a Rook,
    /// Knight, Bishop or Queen, the highest-ranking piece of either colour anywhere on its rank
    /// or its file, itself included, whatever stands between (RM-R1, RM-R2); a King there
    /// makes it move like a King (RM-R3: one step, never castling, not royal). Kings and pawns
    /// move as themselves.
    pub(super) fn role_model(&self, k: char, s: Sq) -> char {
        if !matches!(k, 'N' | 'B' | 'R' | 'Q') {
            return k;
        }
        let mut best = 0;
        for i in 0..8 {
            for t in [(s.0, i), (i, s.1)] {
                let c = self.at(t).to_ascii_uppercase();
                if let Some(r) = RANKING.iter().position(|&x| x == c) {
                    best = best.max(r);
                }
            }
        }
        RANKING[best]
    }
}
