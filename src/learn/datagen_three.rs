//! Training positions for Foreign Policy's three players: the engine plays all three seats
//! with the paranoid search at a fixed node count per move, from the start position plus a
//! few random plies, and writes the quiet positions of each game as text lines
//!
//! `FP-FEN | PS PN PP | US UN UP`
//!
//! where `P*` are South's, North's and the Peacekeeper's FP-12 points in the finished game
//! (a win 1, a shared draw split, a loss 0) and `U*` their utilities in centipawns at the end
//! of the line the search chose (the evaluation played with: the three-player net or the
//! rules-derived utilities). A game that reaches [`MAX_PLIES`] is a draw among the players
//! still in it. Every game is seeded from the run's seed and its index and starts with a
//! cleared table, so the output does not depend on the number of threads.

use super::datagen::{
    evaluation_three, play_in_order, report, DatagenConfig, DatagenStats, RECORD_LIMIT,
};
use crate::eval::EvalParams;
use crate::foreignpolicy::outcome::{points, shared_draw};
use crate::foreignpolicy::{FpPosition, PASS};
use crate::moves::{Move, MoveKind, MoveList};
use crate::openings::Rng;
use crate::search::paranoid::ParanoidGame;
use crate::search::{
    search_game, with_quiet_flags, HistoryPool, SearchLimits, SearchOptions, Silent,
};
use crate::tt::TranspositionTable;
use std::io::Write;
use std::time::Instant;

/// Plies after which a game is a draw among the players still in it (150 moves each).
pub const MAX_PLIES: usize = 450;

/// One finished game's lines (points to be filled in) and the points.
struct GameRecord {
    rows: Vec<(String, [i32; 3])>,
    points: Option<[f64; 3]>,
}

/// Whether `m` takes a man (e.p. included) or promotes.
fn noisy(pos: &FpPosition, m: Move) -> bool {
    m.kind() == MoveKind::EnPassant
        || m.promotion_type().is_some()
        || pos.piece_at(m.to()).is_some()
}

/// Whether a position where `best` is played is recorded: a real move that neither captures
/// nor promotes, the mover's king out of both opponents' reach, and every utility at the
/// line's end moderate.
fn quiet(pos: &FpPosition, best: Move, end_utilities: &[i32; 3]) -> bool {
    let mover = pos.side_to_move();
    best != PASS
        && !noisy(pos, best)
        && !pos
            .alive()
            .iter()
            .any(|q| q != mover && pos.king_capturable(mover, q))
        && pos
            .alive()
            .iter()
            .all(|p| end_utilities[p.index()].abs() <= RECORD_LIMIT)
}

/// `plies` random moves from the start, or `None` if the game ended on the way.
fn opening(rng: &mut Rng, plies: usize) -> Option<FpPosition> {
    let mut pos = FpPosition::startpos();
    let mut list = MoveList::new();
    for _ in 0..plies {
        if pos.outcome().is_some() {
            return None;
        }
        list.clear();
        pos.legal_moves(&mut list);
        if list.is_empty() {
            return None;
        }
        let m = list.iter().nth(rng.below(list.len())).copied()?;
        pos.make(m);
    }
    (pos.outcome().is_none()).then_some(pos)
}

/// One search of `pos` for its player to move: the move and the utilities at the end of the
/// line it expects (`None` where that line ends the game).
fn search_three(
    pos: &FpPosition,
    nodes: u64,
    tt: &TranspositionTable,
    histories: &HistoryPool,
    eval: &EvalParams,
) -> (Move, Option<[i32; 3]>) {
    let limits = SearchLimits::of_nodes(nodes);
    let game = ParanoidGame::new(pos.clone());
    let r = with_quiet_flags(tt, eval, histories, |ctx| {
        search_game(&game, &limits, &SearchOptions::default(), ctx, &Silent)
    });
    let mut end = pos.clone();
    for &m in &r.pv {
        end.make(m);
        if end.outcome().is_some() {
            return (r.best, None);
        }
    }
    (r.best, Some(eval.three_utilities(&end)))
}

/// Plays game `index` of the run.
fn play_game(
    cfg: &DatagenConfig,
    index: usize,
    tt: &TranspositionTable,
    histories: &HistoryPool,
    eval: &EvalParams,
) -> GameRecord {
    let mut rng = Rng(cfg.seed ^ (index as u64).wrapping_mul(0xD1B5_4A32_D192_ED03));
    let Some(mut pos) = (0..100).find_map(|_| opening(&mut rng, cfg.random_plies)) else {
        return GameRecord {
            rows: Vec::new(),
            points: None,
        };
    };
    tt.clear();
    histories.clear();
    let mut rows = Vec::new();
    let mut plies = cfg.random_plies;
    let result = loop {
        if let Some(r) = pos.outcome() {
            break points(&r);
        }
        if plies >= MAX_PLIES {
            break points(&shared_draw(pos.alive()));
        }
        let (best, end) = search_three(&pos, cfg.nodes, tt, histories, eval);
        if best.is_none() {
            break points(&shared_draw(pos.alive()));
        }
        if let Some(u) = end.filter(|u| quiet(&pos, best, u)) {
            rows.push((pos.to_fen(), u));
        }
        pos.make(best);
        plies += 1;
    };
    GameRecord {
        rows,
        points: Some(result),
    }
}

/// Writes one game's positions with its points (a game without them counts as skipped).
fn write_record(
    record: GameRecord,
    out: &mut dyn Write,
    stats: &mut DatagenStats,
) -> std::io::Result<()> {
    let Some(p) = record.points else {
        stats.skipped += 1;
        return Ok(());
    };
    for (fen, u) in &record.rows {
        writeln!(
            out,
            "{fen} | {:.4} {:.4} {:.4} | {} {} {}",
            p[0], p[1], p[2], u[0], u[1], u[2]
        )?;
    }
    stats.games += 1;
    stats.positions += record.rows.len();
    Ok(())
}

/// Plays `cfg.games` three-seat games on `cfg.threads` threads and writes their positions to
/// `out` (`cfg.random_plies`, `nodes`, `seed`, `threads` and `eval_file` apply; books,
/// Chess960 starts and the balance check are two-colour options); progress goes to standard
/// error when `progress` is set.
pub fn generate(
    cfg: &DatagenConfig,
    out: &mut dyn Write,
    progress: bool,
) -> std::io::Result<DatagenStats> {
    crate::geometry::attacks::init();
    let eval = evaluation_three(cfg.eval_file.as_deref()).map_err(std::io::Error::other)?;
    let eval = &eval;
    let start = Instant::now();
    let mut stats = DatagenStats::default();
    let play = |i, tt: &TranspositionTable, histories: &HistoryPool| {
        play_game(cfg, i, tt, histories, eval)
    };
    play_in_order(cfg.threads, cfg.games, play, |record| {
        write_record(record, out, &mut stats)?;
        if progress {
            report(&stats, cfg.games, start.elapsed().as_secs_f64());
        }
        Ok(())
    })?;
    out.flush()?;
    stats.seconds = start.elapsed().as_secs_f64();
    Ok(stats)
}

/// One data line: the FP-FEN, each player's points and each player's utility.
#[derive(Clone, Debug, PartialEq)]
pub struct ThreeLine<'a> {
    /// The position.
    pub fen: &'a str,
    /// FP-12 points of South, North and the Peacekeeper (they sum to 1).
    pub points: [f64; 3],
    /// Utilities in centipawns at the end of the searched line.
    pub utilities: [f64; 3],
}

/// Parses `FP-FEN | PS PN PP | US UN UP`; the error says which field is wrong.
pub fn parse_line(line: &str) -> Result<ThreeLine<'_>, String> {
    let fields: Vec<&str> = line.split('|').map(str::trim).collect();
    let [fen, points, utilities] = fields[..] else {
        return Err("expected 'FP-FEN | PS PN PP | US UN UP'".into());
    };
    let numbers = |field: &str, what: &str| -> Result<[f64; 3], String> {
        let v: Vec<f64> = field
            .split_whitespace()
            .map(|x| x.parse::<f64>().ok().filter(|v| v.is_finite()))
            .collect::<Option<Vec<f64>>>()
            .ok_or_else(|| format!("{what} '{field}' are not numbers"))?;
        v.try_into()
            .map_err(|_| format!("{what} '{field}': three numbers expected"))
    };
    let points = numbers(points, "points")?;
    if points.iter().any(|p| !(0.0..=1.0).contains(p))
        || (points.iter().sum::<f64>() - 1.0).abs() > 1e-3
    {
        return Err(format!(
            "points {points:?}: each in 0..1, summing to 1 (FP-12)"
        ));
    }
    let utilities = numbers(utilities, "utilities")?;
    Ok(ThreeLine {
        fen,
        points,
        utilities,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(games: usize, threads: usize) -> DatagenConfig {
        DatagenConfig {
            games,
            nodes: 300,
            threads,
            seed: 7,
            random_plies: 6,
            book: None,
            chess960: None,
            balance_nodes: 0,
            format: super::super::datagen::DataFormat::Text,
            eval_file: None,
        }
    }

    #[test]
    fn same_lines_on_any_thread_count_and_they_parse() {
        let mut one = Vec::new();
        let s1 = generate(&cfg(2, 1), &mut one, false).unwrap();
        let mut two = Vec::new();
        generate(&cfg(2, 2), &mut two, false).unwrap();
        assert_eq!(one, two);
        assert_eq!(s1.games, 2);
        let text = String::from_utf8(one).unwrap();
        assert_eq!(text.lines().count(), s1.positions);
        assert!(s1.positions > 10, "{}", s1.positions);
        for line in text.lines() {
            let l = parse_line(line).unwrap();
            let pos = FpPosition::from_fen(l.fen).unwrap();
            assert!(pos.outcome().is_none());
        }
    }

    #[test]
    fn bad_lines_are_named() {
        let fen = FpPosition::startpos().to_fen();
        assert!(parse_line(&format!("{fen} | 1 0 0 | 10 -5 -5")).is_ok());
        assert!(parse_line(&format!("{fen} | 1 0 0"))
            .unwrap_err()
            .contains("expected"));
        assert!(parse_line(&format!("{fen} | 1 1 0 | 0 0 0"))
            .unwrap_err()
            .contains("summing to 1"));
        assert!(parse_line(&format!("{fen} | 1 0 0 | 0 x 0"))
            .unwrap_err()
            .contains("utilities"));
        assert!(parse_line(&format!("{fen} | 0.5 0.5 | 0 0 0"))
            .unwrap_err()
            .contains("three numbers"));
    }
}
