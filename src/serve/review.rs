//! "Analyse game" on the board: the whole game analysed in the background by
//! `crate::analysis` with an engine of its own (the board stays usable), its progress sent to
//! the game's pages, and the result kept for the page's graph, marks and annotated PGN.

use super::setup::{new_engine, Refusal};
use super::ServeConfig;
use crate::analysis::annotate::{annotated_pgn, eval_text};
use crate::analysis::record::GameRecord;
use crate::analysis::{analyse_game, configure, GameAnalysis, Settings};
use crate::engine::{ScoreBound, SearchLimits};
use serde_json::{json, Value};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use tokio::sync::broadcast;

/// Where a review stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Status {
    Running,
    Done,
    Failed,
    Cancelled,
}

impl Status {
    fn name(self) -> &'static str {
        match self {
            Status::Running => "running",
            Status::Done => "done",
            Status::Failed => "failed",
            Status::Cancelled => "cancelled",
        }
    }
}

/// What the background thread shares with the requests.
struct Shared {
    status: Status,
    done: usize,
    total: usize,
    result: Option<GameAnalysis>,
    error: Option<String>,
}

/// One game's review, running or finished.
pub struct Review {
    cancel: Arc<AtomicBool>,
    shared: Arc<Mutex<Shared>>,
    /// The plies of the game it analyses.
    plies: usize,
    movetime: u64,
}

/// The event that tells the pages how far a review is.
fn progress_event(s: &Shared) -> String {
    json!({"kind": "review", "status": s.status.name(), "done": s.done, "total": s.total})
        .to_string()
}

impl Review {
    /// Starts reviewing `record` at `movetime` ms a position; progress goes to `events`.
    pub fn start(
        config: &ServeConfig,
        record: GameRecord,
        movetime: u64,
        events: broadcast::Sender<String>,
    ) -> Result<Review, Refusal> {
        let mut engine = new_engine(&ServeConfig {
            threads: 1,
            ..config.clone()
        })?;
        let settings = Settings {
            limits: SearchLimits {
                movetime: Some(movetime),
                ..Default::default()
            },
            threads: 1,
            hash_mb: config.hash_mb,
            ..Settings::default()
        };
        configure(&mut engine, &settings).map_err(Refusal::Bad)?;
        let total = record.moves.len() + 1;
        let shared = Arc::new(Mutex::new(Shared {
            status: Status::Running,
            done: 0,
            total,
            result: None,
            error: None,
        }));
        let cancel = Arc::new(AtomicBool::new(false));
        let review = Review {
            cancel: cancel.clone(),
            shared: shared.clone(),
            plies: record.moves.len(),
            movetime,
        };
        let update = move |f: &dyn Fn(&mut Shared)| {
            if let Ok(mut s) = shared.lock() {
                f(&mut s);
                let _ = events.send(progress_event(&s));
            }
        };
        std::thread::Builder::new()
            .name("review".into())
            .spawn(move || {
                let stop = cancel.clone();
                let outcome = analyse_game(
                    &mut engine,
                    &record,
                    &settings,
                    &mut |n| update(&|s| s.done = n),
                    &|| stop.load(Ordering::Relaxed),
                );
                update(&|s| match &outcome {
                    Ok(a) => {
                        s.status = Status::Done;
                        s.result = Some(a.clone());
                    }
                    Err(_) if cancel.load(Ordering::Relaxed) => s.status = Status::Cancelled,
                    Err(e) => {
                        s.status = Status::Failed;
                        s.error = Some(e.clone());
                    }
                });
            })
            .map_err(|e| Refusal::Conflict(format!("cannot start the analysis: {e}")))?;
        Ok(review)
    }

    /// Whether it is still running.
    pub fn running(&self) -> bool {
        self.shared
            .lock()
            .is_ok_and(|s| s.status == Status::Running)
    }

    /// Asks it to stop after the position it is searching.
    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }

    /// Its state as the page reads it, with the analysis once done.
    pub fn json(&self) -> Value {
        let Ok(s) = self.shared.lock() else {
            return json!({"status": "failed", "error": "the analysis state is unreadable"});
        };
        let mut v = json!({
            "status": s.status.name(),
            "done": s.done,
            "total": s.total,
            "plies": self.plies,
            "movetime": self.movetime,
            "error": s.error,
        });
        if let Some(a) = &s.result {
            v["analysis"] = analysis_json(a);
        }
        v
    }

    /// The annotated PGN, once done.
    pub fn pgn(&self) -> Result<String, Refusal> {
        let s = self
            .shared
            .lock()
            .map_err(|_| Refusal::Conflict("the analysis state is unreadable".into()))?;
        match &s.result {
            Some(a) => Ok(annotated_pgn(
                a,
                &format!("Chimera {}", env!("CARGO_PKG_VERSION")),
            )),
            None => Err(Refusal::Conflict(format!(
                "the analysis is {}, not done",
                s.status.name()
            ))),
        }
    }
}

impl Drop for Review {
    fn drop(&mut self) {
        self.cancel();
    }
}

/// A game's analysis as JSON: per position the chooser, each player's expected score, the
/// evaluation and the best line; per move its loss and mark; per player the summary.
pub fn analysis_json(a: &GameAnalysis) -> Value {
    let positions: Vec<Value> = a
        .positions
        .iter()
        .map(|p| {
            let best = p.lines.first();
            json!({
                "chooser": p.chooser,
                "expected": p.expected,
                "eval": p.score.map(|s| super::events::score_json(s, ScoreBound::Exact)),
                "eval_text": p.score.map(eval_text),
                "utilities": p.utilities,
                "depth": p.depth,
                "best": best.map(|l| l.first.clone()),
                "line": best.map(|l| l.moves.iter().map(|m| m.text.clone()).collect::<Vec<_>>()),
                "lines": p.lines.iter().map(|l| l.first.clone()).collect::<Vec<_>>(),
                "over": p.over,
            })
        })
        .collect();
    let moves: Vec<Value> = a
        .moves
        .iter()
        .map(|m| {
            json!({
                "text": m.played.text,
                "mover": m.mover,
                "loss": m.loss,
                "mark": m.mark.map(|k| k.word().to_ascii_lowercase()),
                "symbol": m.mark.map(|k| k.symbol()),
            })
        })
        .collect();
    let summaries: Vec<Value> = a
        .players
        .iter()
        .zip(&a.summaries)
        .map(|(p, s)| {
            json!({
                "player": p,
                "moves": s.moves,
                "accuracy": s.accuracy,
                "inaccuracies": s.inaccuracies,
                "mistakes": s.mistakes,
                "blunders": s.blunders,
            })
        })
        .collect();
    json!({
        "players": a.players,
        "positions": positions,
        "moves": moves,
        "summaries": summaries,
        "searched": a.searched,
    })
}
