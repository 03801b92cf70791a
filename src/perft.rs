//! Perft: counting the leaves of the legal move tree, the ground truth for move generation.
//! Leaves are bulk-counted (the last ply counts moves without playing them); the root can be
//! split across threads.

use crate::movegen::{count_legal, legal_moves, move_to_string};
use crate::moves::MoveList;
use crate::position::Position;
use rayon::prelude::*;

/// Leaf count at `depth`.
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => count_legal(pos) as u64,
        _ => {
            let mut list = MoveList::new();
            legal_moves(pos, &mut list);
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

/// Leaf counts below each root move, with the move's canonical spelling, sorted by spelling.
/// Uses up to `threads` threads (1 = this thread only).
pub fn divide(pos: &Position, depth: u32, threads: usize) -> Vec<(String, u64)> {
    let mut root = pos.clone();
    let mut list = MoveList::new();
    legal_moves(&mut root, &mut list);
    let moves: Vec<_> = list
        .iter()
        .map(|&m| (m, move_to_string(&root, m).to_string()))
        .collect();
    let count = |(m, name): &(crate::moves::Move, String)| {
        let mut p = pos.clone();
        p.make(*m);
        let n = if depth <= 1 {
            1
        } else {
            perft(&mut p, depth - 1)
        };
        (name.clone(), n)
    };
    let mut out: Vec<(String, u64)> = if threads <= 1 {
        moves.iter().map(count).collect()
    } else {
        match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
            Ok(pool) => pool.install(|| moves.par_iter().map(count).collect()),
            Err(_) => moves.iter().map(count).collect(),
        }
    };
    out.sort();
    out
}

/// Total leaf count using up to `threads` threads at the root.
pub fn perft_threads(pos: &Position, depth: u32, threads: usize) -> u64 {
    if threads <= 1 || depth <= 1 {
        return perft(&mut pos.clone(), depth);
    }
    divide(pos, depth, threads).iter().map(|x| x.1).sum()
}
