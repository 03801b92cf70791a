//! Checks every mechanic's test file makes the same way: the fast legal list against the list
//! found by playing every pseudo-legal move, a random walk, and the perft suite against the
//! model. One copy here, so a fix reaches every variant.

use super::{cross_check, read_epd, Rule, M};
use chimera::movegen::generic;
use chimera::movegen::legal_moves;
use chimera::moves::{MoveKind, MoveList};
use chimera::piece::PieceType;
use chimera::position::{Position, Variant};

/// The legal moves of `p`, after checking that the fast generator lists exactly the moves
/// found by playing and testing every pseudo-legal one, in the same order, and that the leaf
/// count is their number.
pub fn assert_fast_legality(p: &mut Position) -> MoveList {
    let mut fast = MoveList::new();
    generic::legal_moves(p, &mut fast);
    let mut reference = MoveList::new();
    generic::legal_moves_by_testing(p, &mut reference);
    assert_eq!(fast.as_slice(), reference.as_slice(), "{}", p.fen());
    assert_eq!(
        chimera::movegen::count_legal(p),
        fast.len(),
        "leaf count of {}",
        p.fen()
    );
    fast
}

/// An index below `n` from the xorshift generator `state` (a fixed seed repeats a walk).
pub fn random_index(state: &mut u64, n: usize) -> usize {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    (*state % n as u64) as usize
}

/// Plays a random game of up to `plies` from `p`, checking [`assert_fast_legality`] at every
/// node.
pub fn walk_checking_fast_legality(p: &mut Position, plies: usize, state: &mut u64) {
    for _ in 0..plies {
        let legal = assert_fast_legality(p);
        if legal.is_empty() {
            break;
        }
        p.make(legal[random_index(state, legal.len())]);
    }
}

/// Plays `games` random games of up to `plies` from the start of `rules`, checking
/// [`assert_fast_legality`] at every node; `state` carries the walk on from game to game.
pub fn fast_legality_in_games(
    rules: &'static Variant,
    games: usize,
    plies: usize,
    state: &mut u64,
) {
    for _ in 0..games {
        walk_checking_fast_legality(&mut Position::startpos(rules), plies, state);
    }
}

/// At every position of random games ([`for_random_positions`]), the leaf count (which counts
/// the mechanics' moves without listing them where they can) equals the number of listed
/// legal moves.
pub fn leaf_counts_agree(rules: &'static Variant, games: usize, plies: usize, seed: u64) {
    for_random_positions(rules, games, plies, seed, |p| {
        let mut list = MoveList::new();
        legal_moves(p, &mut list);
        assert_eq!(
            chimera::movegen::count_legal(p),
            list.len(),
            "leaf count of {}",
            p.fen()
        );
    });
}

/// Cross-checks `reading`, another reading of the rules of `variant`, against the model under
/// `rule` every `every` plies of a random game of `variant` itself (so the positions are
/// those its games reach).
pub fn cross_check_reading_along_game(
    variant: &str,
    reading: &'static Variant,
    rule: Rule,
    plies: usize,
    every: usize,
    mut state: u64,
) {
    let rules = chimera::rules::builtin_variants()
        .get(variant)
        .expect("built in");
    let mut p = Position::startpos(rules);
    for ply in 0..plies {
        if ply % every == 0 {
            super::cross_check_rules(reading, rule, &p.fen());
        }
        let mut list = MoveList::new();
        legal_moves(&mut p, &mut list);
        if list.is_empty() {
            break;
        }
        p.make(list[random_index(&mut state, list.len())]);
    }
}

/// The largest count a deep model run recomputes: `CHIMERA_MODEL_BUDGET`, else `default`.
pub fn model_budget(default: u64) -> u64 {
    std::env::var("CHIMERA_MODEL_BUDGET")
        .ok()
        .and_then(|b| b.parse().ok())
        .unwrap_or(default)
}

/// Compares tests/perft/`variant`.epd with the model under `rule`: every count up to `budget`
/// against the model's perft, and the sets of results at depths 1 and 2 of every line
/// ([`cross_check`]); `per_line` adds a file's own checks of each line. Returns the number of
/// counts compared.
pub fn model_suite_agrees(
    variant: &str,
    rule: Rule,
    budget: u64,
    mut per_line: impl FnMut(&str, &M),
) -> usize {
    let path = format!("{}/tests/perft/{variant}.epd", env!("CARGO_MANIFEST_DIR"));
    let mut compared = 0;
    for (fen, depths) in read_epd(&path) {
        let m = M::from_fen(&fen);
        for (d, n) in depths {
            if n <= budget {
                assert_eq!(m.perft(rule, d), n, "model D{d} of {fen}");
                compared += 1;
            }
        }
        cross_check(variant, rule, &fen);
        per_line(&fen, &m);
    }
    compared
}

/// Plays random games from the start (special moves preferred, two times in three) and calls
/// `check` at every position.
pub fn for_random_positions(
    rules: &'static Variant,
    games: usize,
    plies: usize,
    seed: u64,
    mut check: impl FnMut(&mut Position),
) {
    let mut state = seed | 1;
    for _ in 0..games {
        let mut p = Position::startpos(rules);
        for _ in 0..plies {
            check(&mut p);
            let mut list = MoveList::new();
            legal_moves(&mut p, &mut list);
            if list.is_empty() {
                break;
            }
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let r = state as usize;
            let specials: Vec<_> = list
                .iter()
                .copied()
                .filter(|m| m.kind() == MoveKind::Special)
                .collect();
            let m = if !specials.is_empty() && !r.is_multiple_of(3) {
                specials[(r >> 2) % specials.len()]
            } else {
                list[(r >> 2) % list.len()]
            };
            p.make(m);
        }
    }
}

/// Random legal positions: both Kings and a few men, either side to move (FENs the engine
/// refuses, e.g. with the side not to move in check, are skipped).
pub fn random_positions(rules: &'static Variant, n: usize, seed: u64) -> Vec<Position> {
    let mut state = seed | 1;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut out = Vec::new();
    while out.len() < n {
        let mut board = ['.'; 64];
        let men = 2 + (next() % 7) as usize;
        let mut pieces = vec!['K', 'k'];
        for _ in 0..men {
            pieces.push(b"NBRQPnbrqp"[(next() % 10) as usize] as char);
        }
        let mut ok = true;
        for c in pieces {
            let mut tries = 0;
            loop {
                let sq = (next() % 64) as usize;
                let rank = sq / 8;
                if board[sq] == '.' && !(c.eq_ignore_ascii_case(&'P') && (rank == 0 || rank == 7)) {
                    board[sq] = c;
                    break;
                }
                tries += 1;
                if tries > 100 {
                    ok = false;
                    break;
                }
            }
        }
        if !ok {
            continue;
        }
        let mut fen = String::new();
        for r in (0..8).rev() {
            let mut empty = 0;
            for f in 0..8 {
                let c = board[r * 8 + f];
                if c == '.' {
                    empty += 1;
                } else {
                    if empty > 0 {
                        fen += &empty.to_string();
                        empty = 0;
                    }
                    fen.push(c);
                }
            }
            if empty > 0 {
                fen += &empty.to_string();
            }
            if r > 0 {
                fen.push('/');
            }
        }
        fen += if next() % 2 == 0 {
            " w - - 0 1"
        } else {
            " b - - 0 1"
        };
        if let Ok(p) = Position::from_fen(rules, &fen) {
            out.push(p);
        }
    }
    out
}

/// Whether some pseudo-legal move of the side to move (ordinary or the mechanic's) takes the
/// other side's King.
pub fn king_capturable(p: &Position) -> bool {
    let them = p.side_to_move().flip();
    let Some(k) = p.king_square(them) else {
        return true;
    };
    let mut list = MoveList::new();
    chimera::movegen::generic::pseudo_moves(p, &mut list);
    if let Some(mover) = p.mechanics().mover() {
        mover.generate(p, &mut list);
    }
    list.iter().any(|&m| {
        p.edits_of(m)
            .as_slice()
            .iter()
            .any(|e| e.sq == k && !(e.after.is_some() && e.after.kind() == PieceType::KING))
    })
}

/// Every built-in variant, in the built-in file's order.
pub fn all_variants() -> Vec<&'static Variant> {
    let set = chimera::rules::builtin_variants();
    set.names()
        .iter()
        .map(|n| set.get(n).expect("listed"))
        .collect()
}

/// The body of an HTTP/1.1 answer sent in chunks, joined; a torn chunk ends it.
pub fn dechunk(mut rest: &str) -> String {
    let mut out = String::new();
    while let Some((size, after)) = rest.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 || after.len() < n {
            break;
        }
        out.push_str(&after[..n]);
        rest = after[n..].trim_start_matches("\r\n");
    }
    out
}
