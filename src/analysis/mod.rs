//! Analysis of whole games: every position of a game searched, every move judged by how much
//! of the expected score it gave away ([`judge`]), and the game written back as annotated PGN
//! ([`annotate`]). `chimera analyse` reads the games from a file ([`record`]); the web board
//! analyses the game on screen the same way.
//!
//! A game of n moves has n + 1 positions. Each is searched once; the value of the move played
//! at position i is the value of position i + 1 seen from the mover's side (the best move's
//! own value when the move played was the engine's choice), so a move is judged by the same
//! searches that give the evaluation graph. Scores become expected scores through the
//! variant's win/draw/loss model (`wdlModel`), so a mark means the same in every variant.

pub mod annotate;
pub mod judge;
pub mod record;

use crate::engine::pgn::pgn_move;
use crate::engine::{
    parse_move, Color, Engine, MultiPlayerSearch, Outcome, Position, ReportedScore, Reporter,
    SearchInfo, SearchLimits, Silent, WdlModel,
};
use judge::{expected, summarise, Mark, PlayerSummary, Thresholds};
use record::GameRecord;
use std::sync::Mutex;

/// How to analyse.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The search of each position (depth, nodes or movetime).
    pub limits: SearchLimits,
    /// Search threads.
    pub threads: usize,
    /// Hash table, MB.
    pub hash_mb: usize,
    /// Lines searched in each position (the best one judges; all are shown at a marked move).
    pub multipv: usize,
    /// The losses that earn a mark.
    pub thresholds: Thresholds,
    /// Plies of a better line written into the PGN.
    pub line_plies: usize,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            limits: SearchLimits {
                movetime: Some(500),
                ..Default::default()
            },
            threads: 1,
            hash_mb: 64,
            multipv: 1,
            thresholds: Thresholds::default(),
            line_plies: 10,
        }
    }
}

/// Where a move stands in the move text: its move number and whether it opens that number
/// (White's move; it is written `N.`, the others `N...` where they need a number).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveLabel {
    /// The move (or round) number.
    pub number: u32,
    /// Whether the move opens its number.
    pub opens: bool,
}

/// A move as the PGN writes it, with its label.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spelled {
    /// Its number.
    pub label: MoveLabel,
    /// SAN in chess, the engine's notation elsewhere.
    pub text: String,
}

/// One line the engine found.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    /// The first move, canonical spelling.
    pub first: String,
    /// The line's moves as the PGN writes them.
    pub moves: Vec<Spelled>,
    /// Its score from White's view.
    pub score: ReportedScore,
}

/// What the engine thinks of one position of the game.
#[derive(Clone, Debug, PartialEq)]
pub struct PositionEval {
    /// The player who chooses here (0 White, 1 Black).
    pub chooser: usize,
    /// The score from White's view; `None` where the game is decided here.
    pub score: Option<ReportedScore>,
    /// Each player's expected score (Foreign Policy: share of the points).
    pub expected: Vec<f64>,
    /// Foreign Policy: each player's utility at the end of the best line, centipawns (empty
    /// in two-player games).
    pub utilities: Vec<i32>,
    /// The depth searched (0 where the game is over).
    pub depth: u32,
    /// The best lines, best first (none where the game is over).
    pub lines: Vec<Line>,
    /// Why the game is over here, if it is.
    pub over: Option<String>,
}

/// One move of the game, judged.
#[derive(Clone, Debug, PartialEq)]
pub struct Judged {
    /// The move as the PGN writes it.
    pub played: Spelled,
    /// The player who chose it.
    pub mover: usize,
    /// The share of the expected score it gave away (0 for the engine's choice).
    pub loss: f64,
    /// The mark it earned.
    pub mark: Option<Mark>,
}

/// A game analysed.
#[derive(Clone, Debug)]
pub struct GameAnalysis {
    /// The game as read.
    pub record: GameRecord,
    /// The players' names, in the order of the per-player vectors ("White", "Black").
    pub players: Vec<&'static str>,
    /// The n + 1 positions, from the start.
    pub positions: Vec<PositionEval>,
    /// The n moves.
    pub moves: Vec<Judged>,
    /// Each player's summary.
    pub summaries: Vec<PlayerSummary>,
    /// How each position was searched, in words (for the annotator tag).
    pub searched: String,
}

/// Collects the lines of the last iteration of a search, by MultiPV index.
#[derive(Default)]
struct Lines(Mutex<Vec<Option<SearchInfo>>>);

impl Reporter for Lines {
    fn info(&self, info: &SearchInfo) {
        if let Ok(mut lines) = self.0.lock() {
            let i = info.multipv.saturating_sub(1) as usize;
            if lines.len() <= i {
                lines.resize(i + 1, None);
            }
            lines[i] = Some(info.clone());
        }
    }
}

/// The limits in words.
pub fn describe_limits(limits: &SearchLimits) -> String {
    let mut parts = Vec::new();
    if let Some(d) = limits.depth {
        parts.push(format!("depth {d}"));
    }
    if let Some(n) = limits.nodes {
        parts.push(format!("{n} nodes"));
    }
    if let Some(t) = limits.movetime {
        parts.push(format!("{t} ms"));
    }
    if parts.is_empty() {
        "default limits".into()
    } else {
        parts.join(", ")
    }
}

/// Sets the engine up for `settings`.
pub fn configure(engine: &mut Engine, settings: &Settings) -> Result<(), String> {
    engine
        .set_threads(settings.threads)
        .and_then(|()| engine.set_hash(settings.hash_mb))
        .and_then(|()| engine.set_multipv(settings.multipv))
        .map_err(|e| e.to_string())
}

fn colour_index(c: Color) -> usize {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}

/// A score seen from the other side.
fn flip(s: ReportedScore) -> ReportedScore {
    match s {
        ReportedScore::Cp(cp) => ReportedScore::Cp(-cp),
        ReportedScore::Mate(m) => ReportedScore::Mate(-m),
    }
}

fn label(pos: &Position) -> MoveLabel {
    MoveLabel {
        number: pos.fullmove_number(),
        opens: pos.side_to_move() == Color::White,
    }
}

/// A line of canonical moves from `pos`, spelled for the PGN (at most `plies` of it; it
/// stops at a move that does not parse, which a line from a finished search never has).
fn spell_line(pos: &Position, canonical: &[String], plies: usize) -> Vec<Spelled> {
    let mut p = pos.clone();
    let mut out = Vec::new();
    for text in canonical.iter().take(plies) {
        let Ok(m) = parse_move(&mut p, text) else {
            break;
        };
        let label = label(&p);
        out.push(Spelled {
            label,
            text: pgn_move(&mut p, m),
        });
        p.make(m);
    }
    out
}

/// Searches the engine's current position (two colours).
fn evaluate_two(engine: &mut Engine, settings: &Settings, model: &WdlModel) -> PositionEval {
    let pos = engine.position().clone();
    let chooser = colour_index(pos.chooser());
    let to_white = |s: ReportedScore| if chooser == 0 { s } else { flip(s) };
    if let Some(v) = engine.verdict() {
        let e_white = match v.outcome {
            Outcome::Win(Color::White) => 1.0,
            Outcome::Win(Color::Black) => 0.0,
            Outcome::Draw => 0.5,
        };
        return PositionEval {
            chooser,
            score: (v.outcome == Outcome::Draw).then_some(ReportedScore::Cp(0)),
            expected: vec![e_white, 1.0 - e_white],
            utilities: Vec::new(),
            depth: 0,
            lines: Vec::new(),
            over: Some(v.reason),
        };
    }
    let collector = Lines::default();
    let result = engine.search_sync(&settings.limits, &collector);
    let own = ReportedScore::from_internal(result.score);
    let e_own = expected(own, model);
    let mut lines = vec![Line {
        first: engine.move_text(result.best),
        moves: {
            let pv: Vec<String> = {
                let mut p = pos.clone();
                result
                    .pv
                    .iter()
                    .map(|&m| {
                        let t = crate::engine::move_to_string(&p, m).to_string();
                        p.make(m);
                        t
                    })
                    .collect()
            };
            spell_line(&pos, &pv, settings.line_plies)
        },
        score: to_white(own),
    }];
    let reported = collector.0.into_inner().unwrap_or_default();
    for info in reported.into_iter().skip(1).flatten() {
        if let Some(first) = info.pv.first() {
            lines.push(Line {
                first: first.clone(),
                moves: spell_line(&pos, &info.pv, settings.line_plies),
                score: to_white(info.score),
            });
        }
    }
    let e_white = if chooser == 0 { e_own } else { 1.0 - e_own };
    PositionEval {
        chooser,
        score: Some(to_white(own)),
        expected: vec![e_white, 1.0 - e_white],
        utilities: Vec::new(),
        depth: result.depth,
        lines,
        over: None,
    }
}

/// Searches Foreign Policy's current position: the best line and each player's outlook at
/// its end.
fn evaluate_three(engine: &mut Engine, settings: &Settings) -> Result<PositionEval, String> {
    let pos = engine.three().ok_or("not Foreign Policy")?.clone();
    let chooser = pos.side_to_move().index();
    if let Some(over) = engine.three_result() {
        let (utilities, points) = engine.three_outlook(&[]).ok_or("not Foreign Policy")?;
        return Ok(PositionEval {
            chooser,
            score: None,
            expected: points.to_vec(),
            utilities: utilities.to_vec(),
            depth: 0,
            lines: Vec::new(),
            over: Some(over.trim_start_matches("game over: ").to_string()),
        });
    }
    let result = engine.search_sync(&settings.limits, &Silent);
    let (utilities, points) = engine
        .three_outlook(&result.pv)
        .ok_or("not Foreign Policy")?;
    let mut p = pos.clone();
    let mut moves = Vec::new();
    for &m in result.pv.iter().take(settings.line_plies) {
        moves.push(Spelled {
            label: MoveLabel {
                number: p.round(),
                opens: p.side_to_move().index() == 0,
            },
            text: engine.move_text(m),
        });
        p.make(m);
    }
    let lines = match moves.first() {
        Some(first) => vec![Line {
            first: first.text.clone(),
            moves,
            score: ReportedScore::Cp(utilities[chooser]),
        }],
        None => Vec::new(),
    };
    Ok(PositionEval {
        chooser,
        score: None,
        expected: points.to_vec(),
        utilities: utilities.to_vec(),
        depth: result.depth,
        lines,
        over: None,
    })
}

/// Searches position i of `record` (the engine's variant already set) and spells move i.
fn step(
    engine: &mut Engine,
    record: &GameRecord,
    i: usize,
    settings: &Settings,
    model: &WdlModel,
) -> Result<(PositionEval, Option<Spelled>), String> {
    let played: Vec<&str> = record.moves[..i].iter().map(String::as_str).collect();
    engine
        .set_position(record.start_fen.as_deref(), &played)
        .map_err(|e| e.to_string())?;
    if engine.three().is_some() {
        let eval = evaluate_three(engine, settings)?;
        let spelled = engine
            .three()
            .zip(record.moves.get(i))
            .map(|(p, next)| Spelled {
                label: MoveLabel {
                    number: p.round(),
                    opens: p.side_to_move().index() == 0,
                },
                text: next.clone(),
            });
        return Ok((eval, spelled));
    }
    let eval = evaluate_two(engine, settings, model);
    let spelled = match record.moves.get(i) {
        Some(next) => {
            let pos = engine.position_mut();
            let m = parse_move(pos, next).map_err(|e| format!("move {}: {e}", i + 1))?;
            let label = label(pos);
            Some(Spelled {
                label,
                text: pgn_move(pos, m),
            })
        }
        None => None,
    };
    Ok((eval, spelled))
}

/// Analyses one game. `progress` hears the number of positions done after each; `cancelled`
/// is asked between positions and stops the analysis with an error.
pub fn analyse_game(
    engine: &mut Engine,
    record: &GameRecord,
    settings: &Settings,
    progress: &mut dyn FnMut(usize),
    cancelled: &dyn Fn() -> bool,
) -> Result<GameAnalysis, String> {
    engine
        .set_variant(&record.variant)
        .map_err(|e| e.to_string())?;
    let three = engine.three().is_some();
    // max-n: each player's line is its own best, so the utilities at its end are every
    // player's outlook (a paranoid line is one player's worst case)
    engine.options.multi_player = MultiPlayerSearch::MaxN;
    let model = if three {
        WdlModel::DEFAULT
    } else {
        engine.rules().wdl
    };
    engine.new_game();
    let mut positions = Vec::with_capacity(record.moves.len() + 1);
    let mut spelled = Vec::with_capacity(record.moves.len());
    for i in 0..=record.moves.len() {
        if cancelled() {
            return Err("analysis cancelled".into());
        }
        let (eval, next) = step(engine, record, i, settings, &model)?;
        positions.push(eval);
        spelled.extend(next);
        progress(i + 1);
    }
    let players: Vec<&'static str> = if three {
        vec!["South", "North", "Peacekeeper"]
    } else {
        vec!["White", "Black"]
    };
    let moves = judge_moves(record, &positions, spelled, &settings.thresholds);
    let summaries = (0..players.len())
        .map(|p| {
            let of: Vec<(f64, Option<Mark>)> = moves
                .iter()
                .filter(|j| j.mover == p)
                .map(|j| (j.loss, j.mark))
                .collect();
            summarise(&of)
        })
        .collect();
    Ok(GameAnalysis {
        record: record.clone(),
        players,
        positions,
        moves,
        summaries,
        searched: describe_limits(&settings.limits),
    })
}

/// Judges each move from the positions around it.
fn judge_moves(
    record: &GameRecord,
    positions: &[PositionEval],
    spelled: Vec<Spelled>,
    thresholds: &Thresholds,
) -> Vec<Judged> {
    spelled
        .into_iter()
        .enumerate()
        .map(|(i, played)| {
            let (before, after) = (&positions[i], &positions[i + 1]);
            let mover = before.chooser;
            let best = before.expected[mover];
            let chose_best = before
                .lines
                .first()
                .is_some_and(|l| l.first == record.moves[i]);
            let got = if chose_best {
                best
            } else {
                after.expected[mover]
            };
            let loss = (best - got).max(0.0);
            Judged {
                played,
                mover,
                loss,
                mark: thresholds.mark(loss),
            }
        })
        .collect()
}
