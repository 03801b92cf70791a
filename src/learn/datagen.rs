//! Training positions from self-play: the engine plays itself at a fixed node count per move
//! from the start position (or a book's line) plus a few random plies, optionally kept only
//! when a short search finds them near level ([`crate::openings`]), and the quiet positions of each game are
//! written with the game's result and the score of the search that chose the move there
//! (packed records, [`super::packed`], for `chimera train`; or text lines
//! `FEN | RESULT | SCORE` for `chimera tune`: RESULT 1.0, 0.5 or 0.0 for White, SCORE in
//! centipawns for White).
//!
//! Games are adjudicated to save time: a win once one side's score has stayed at 1000 cp or
//! more for [`WIN_PLIES`] plies in a row (four moves of each side, both searches agreeing), a
//! draw after [`MAX_PLIES`] plies; otherwise the rules end the game. Every game is seeded from
//! the run's seed and its index and starts with a cleared table, so the output does not
//! depend on the number of threads (games are written in order).

use super::packed::{self, Layout, Record};
use crate::eval::EvalParams;
use crate::geometry::Color;
use crate::movegen::generic::is_capture;
use crate::movegen::in_check;
use crate::moves::Move;
use crate::openings::{search_move, Checker, OpeningSource, Rng};
use crate::position::{Position, Variant};
use crate::rules::outcome::{verdict, Outcome};
use crate::search::{HistoryPool, MATE_BOUND};
use crate::tt::TranspositionTable;
use std::collections::BTreeMap;
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Instant;

/// Score (centipawns, for one side) from which a game counts as won once it holds.
pub const WIN_SCORE: i32 = 1000;
/// Plies in a row the winning score must hold.
pub const WIN_PLIES: u32 = 8;
/// Plies after which a game is a draw.
pub const MAX_PLIES: usize = 300;
/// Positions scored beyond this (centipawns) are not recorded.
pub const RECORD_LIMIT: i32 = 1500;
/// Transposition table per game, in MB.
pub const HASH_MB: usize = 4;

/// What `chimera datagen` was asked for.
#[derive(Clone, Debug)]
pub struct DatagenConfig {
    /// Number of games.
    pub games: usize,
    /// Nodes per move.
    pub nodes: u64,
    /// Games played at once.
    pub threads: usize,
    /// Seed of the random openings.
    pub seed: u64,
    /// Random plies before the engine plays.
    pub random_plies: usize,
    /// Book of starts (FEN or EPD lines; `None`: the start position).
    pub book: Option<String>,
    /// Random Chess960 starts instead of the start position or a book (`Some(true)`: double
    /// Chess960, each side its own array).
    pub chess960: Option<bool>,
    /// Nodes of the search that keeps only openings within
    /// [`crate::openings::MAX_IMBALANCE`] of level (0: no check).
    pub balance_nodes: u64,
    /// What is written.
    pub format: DataFormat,
    /// The evaluation played with: `None` the variant's own (its net, if it has one), else
    /// what `EvalFile` would choose ([`EvalParams::from_eval_file`]: a net, a built-in name or
    /// a file made for the variant, or `<none>` for the rules-derived evaluation).
    pub eval_file: Option<String>,
}

/// The evaluation `eval_file` names for `rules` (see [`DatagenConfig::eval_file`]).
pub fn evaluation(rules: &'static Variant, eval_file: Option<&str>) -> Result<EvalParams, String> {
    match eval_file {
        None => Ok(EvalParams::new(rules)),
        Some(value) => EvalParams::from_eval_file(rules, value),
    }
}

/// Foreign Policy's evaluation that `eval_file` names ([`DatagenConfig::eval_file`]): its
/// three-player net, or `<none>` for the rules-derived utilities.
pub fn evaluation_three(eval_file: Option<&str>) -> Result<EvalParams, String> {
    let chess = crate::rules::builtin_variants()
        .get("chess")
        .expect("the built-in variants define chess");
    let mut eval = EvalParams::classical(chess);
    let value = eval_file.unwrap_or(crate::eval::EVAL_FILE_DEFAULT);
    eval.set_three_net(crate::eval::nnue::three::for_eval_file(value)?);
    Ok(eval)
}

/// How datagen writes positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DataFormat {
    /// Packed 32-byte records after a header ([`super::packed`]), for `chimera train`.
    Packed,
    /// `FEN | RESULT | SCORE` lines, for `chimera tune`.
    Text,
}

/// What a run produced.
#[derive(Clone, Copy, Debug, Default)]
pub struct DatagenStats {
    /// Games played.
    pub games: usize,
    /// Positions written.
    pub positions: usize,
    /// Games whose opening could not be found (the variant kept ending, or every try was
    /// too far from level).
    pub skipped: usize,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Positions left out because a packed record cannot hold them.
    pub unpackable: usize,
}

/// One recorded position: as text or packed (its result byte filled in once the game ends),
/// with the search's score from White's point of view.
enum Row {
    Text(String, i32),
    Packed(Record),
}

/// One finished game: its recorded positions and result (from White's point of view), or
/// `None` when no random opening that goes on could be found.
struct GameRecord {
    rows: Vec<Row>,
    result: Option<f64>,
    /// Positions left out because a record cannot hold them (more than 32 men).
    unpackable: usize,
}

/// Whether a position where `best` is played is recorded: the side to move is not in check,
/// the move neither captures nor promotes, and the score is moderate.
fn quiet(pos: &Position, best: Move, white_score: i32) -> bool {
    white_score.abs() <= RECORD_LIMIT
        && best.promotion_type().is_none()
        && !in_check(pos)
        && !is_capture(pos, best)
}

/// The game's result for White from a verdict.
fn points(outcome: Outcome) -> f64 {
    match outcome {
        Outcome::Win(Color::White) => 1.0,
        Outcome::Win(Color::Black) => 0.0,
        Outcome::Draw => 0.5,
    }
}

/// Tracks the adjudication: plies in a row with a winning score for White (positive) or
/// Black (negative).
fn streak_after(streak: i32, white_score: i32) -> i32 {
    match white_score {
        s if s >= WIN_SCORE => streak.max(0) + 1,
        s if s <= -WIN_SCORE => streak.min(0) - 1,
        _ => 0,
    }
}

/// Plays game `index` of the run.
fn play_game(
    openings: &OpeningSource,
    layout: Option<&Layout>,
    cfg: &DatagenConfig,
    index: usize,
    checker: &Checker,
) -> GameRecord {
    let Checker {
        tt,
        histories,
        eval,
    } = *checker;
    let mut rng = Rng(cfg.seed ^ (index as u64).wrapping_mul(0xD1B5_4A32_D192_ED03));
    let Some(mut pos) = openings.draw(&mut rng, checker) else {
        return GameRecord {
            rows: Vec::new(),
            result: None,
            unpackable: 0,
        };
    };
    tt.clear();
    histories.clear();
    let mut rows = Vec::new();
    let mut unpackable = 0;
    let mut streak = 0;
    let mut plies = cfg.random_plies;
    let result = loop {
        if let Some(v) = verdict(&mut pos) {
            break points(v.outcome);
        }
        if plies >= MAX_PLIES {
            break 0.5;
        }
        let (best, white) = search_move(&pos, cfg.nodes, tt, histories, eval);
        if best.is_none() {
            break 0.5;
        }
        if quiet(&pos, best, white) && white.abs() < MATE_BOUND {
            match layout {
                None => rows.push(Row::Text(pos.fen(), white)),
                Some(layout) => match packed::pack(layout, &pos, white, 0.5) {
                    Ok(r) => rows.push(Row::Packed(r)),
                    Err(_) => unpackable += 1,
                },
            }
        }
        streak = streak_after(streak, white);
        if streak.unsigned_abs() >= WIN_PLIES {
            break if streak > 0 { 1.0 } else { 0.0 };
        }
        pos.make(best);
        plies += 1;
    };
    GameRecord {
        rows,
        result: Some(result),
        unpackable,
    }
}

/// Writes one game's positions with its result (a game without one counts as skipped).
fn write_record(
    record: GameRecord,
    out: &mut dyn Write,
    stats: &mut DatagenStats,
) -> std::io::Result<()> {
    let Some(r) = record.result else {
        stats.skipped += 1;
        return Ok(());
    };
    for row in &record.rows {
        match row {
            Row::Text(fen, score) => writeln!(out, "{fen} | {r:.1} | {score}")?,
            Row::Packed(packed) => {
                let mut packed = *packed;
                packed[packed::RESULT_BYTE] = (r * 2.0).round() as u8;
                out.write_all(&packed)?;
            }
        }
    }
    stats.games += 1;
    stats.positions += record.rows.len();
    stats.unpackable += record.unpackable;
    Ok(())
}

/// Plays games `0..games` on up to `threads` threads, each with its own transposition table
/// and histories, and hands each game's record to `take` in the games' order, so what is
/// written does not depend on the threads. An error from `take` stops the games and is
/// returned.
pub(super) fn play_in_order<R: Send>(
    threads: usize,
    games: usize,
    play: impl Fn(usize, &TranspositionTable, &HistoryPool) -> R + Sync,
    mut take: impl FnMut(R) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let next_game = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<(usize, R)>();
    std::thread::scope(|scope| {
        for _ in 0..threads.clamp(1, games.max(1)) {
            let tx = tx.clone();
            let (next_game, play) = (&next_game, &play);
            scope.spawn(move || {
                let tt = TranspositionTable::new(HASH_MB);
                let histories = HistoryPool::new();
                loop {
                    let i = next_game.fetch_add(1, Ordering::Relaxed);
                    if i >= games || tx.send((i, play(i, &tt, &histories))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let (mut pending, mut next) = (BTreeMap::new(), 0);
        for (i, record) in rx {
            pending.insert(i, record);
            while let Some(record) = pending.remove(&next) {
                next += 1;
                if let Err(e) = take(record) {
                    next_game.store(games, Ordering::Relaxed);
                    return Err(e);
                }
            }
        }
        Ok(())
    })
}

/// Plays `cfg.games` games on `cfg.threads` threads and writes their positions to `out`;
/// progress goes to standard error when `progress` is set.
pub fn generate(
    rules: &'static Variant,
    cfg: &DatagenConfig,
    out: &mut dyn Write,
    progress: bool,
) -> std::io::Result<DatagenStats> {
    crate::geometry::attacks::init();
    let layout = match cfg.format {
        DataFormat::Packed => Some(Layout::new(rules).map_err(std::io::Error::other)?),
        DataFormat::Text => None,
    };
    if let Some(layout) = &layout {
        out.write_all(&layout.header())?;
    }
    let layout = layout.as_ref();
    let openings = OpeningSource::new(
        rules,
        cfg.book.as_deref(),
        cfg.random_plies,
        cfg.balance_nodes,
    )
    .and_then(|o| match cfg.chess960 {
        Some(double) => o.with_chess960(rules, double),
        None => Ok(o),
    })
    .map_err(std::io::Error::other)?;
    let openings = &openings;
    let eval = evaluation(rules, cfg.eval_file.as_deref()).map_err(std::io::Error::other)?;
    let eval = &eval;
    let start = Instant::now();
    let mut stats = DatagenStats::default();
    let play = |i, tt: &TranspositionTable, histories: &HistoryPool| {
        let checker = Checker {
            tt,
            histories,
            eval,
        };
        play_game(openings, layout, cfg, i, &checker)
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

/// One progress line on standard error.
pub(super) fn report(stats: &DatagenStats, total: usize, secs: f64) {
    eprintln!(
        "datagen: games {}/{total}, positions {}, {:.1} positions/s",
        stats.games + stats.skipped,
        stats.positions,
        stats.positions as f64 / secs.max(1e-9)
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adjudication_streaks() {
        let mut s = 0;
        for _ in 0..WIN_PLIES {
            s = streak_after(s, 1200);
        }
        assert_eq!(s, WIN_PLIES as i32);
        assert_eq!(streak_after(s, 999), 0);
        assert_eq!(streak_after(s, -1000), -1);
    }
}
