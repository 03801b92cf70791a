//! Perft and divide for Foreign Policy: the leaves of the move tree at a depth. A pass counts
//! as one move (it is a ply); a finished game (FP-9) has no moves, so its subtree counts 0
//! below it; draw rules (FP-11) are not applied, as in orthodox perft.

use super::notation::move_to_string;
use super::position::FpPosition;
use crate::moves::MoveList;

/// Leaf count at `depth`.
pub fn perft(pos: &mut FpPosition, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_moves(),
        _ => {
            let mut list = MoveList::new();
            pos.legal_moves(&mut list);
            let mut nodes = 0;
            for &m in list.iter() {
                pos.make(m);
                nodes += perft(pos, depth - 1);
                pos.unmake();
            }
            nodes
        }
    }
}

/// Leaf counts below each root move with its spelling, sorted by spelling (`depth` >= 1).
pub fn divide(pos: &mut FpPosition, depth: u32) -> Vec<(String, u64)> {
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    let mut out: Vec<(String, u64)> = list
        .iter()
        .map(|&m| {
            pos.make(m);
            let n = perft(pos, depth.saturating_sub(1));
            pos.unmake();
            (move_to_string(m), n)
        })
        .collect();
    out.sort();
    out
}
