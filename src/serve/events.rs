//! Server-sent events: the search's progress and the game's changes as JSON texts, and the
//! stream that carries them to a page.

use crate::engine::{ReportedScore, Reporter, ScoreBound, SearchDone, SearchInfo};
use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::stream::{self, Stream};
use serde_json::{json, Value};
use std::convert::Infallible;
use std::time::Duration;
use tokio::sync::broadcast;

/// Sends each search line to a game's pages.
pub struct EventReporter {
    tx: broadcast::Sender<String>,
}

impl EventReporter {
    /// A reporter feeding `tx`.
    pub fn new(tx: broadcast::Sender<String>) -> EventReporter {
        EventReporter { tx }
    }
}

impl Reporter for EventReporter {
    fn info(&self, info: &SearchInfo) {
        let _ = self.tx.send(search_line(info).to_string());
    }
}

/// A score as JSON: `{"cp": 31}` or `{"mate": -3}`, with `"bound"` when it is one.
pub fn score_json(score: ReportedScore, bound: ScoreBound) -> Value {
    let mut v = match score {
        ReportedScore::Cp(cp) => json!({ "cp": cp }),
        ReportedScore::Mate(m) => json!({ "mate": m }),
    };
    match bound {
        ScoreBound::Lower => v["bound"] = json!("lower"),
        ScoreBound::Upper => v["bound"] = json!("upper"),
        ScoreBound::Exact => {}
    }
    v
}

/// One line of the analysis.
pub fn search_line(info: &SearchInfo) -> Value {
    json!({
        "kind": "info",
        "depth": info.depth,
        "seldepth": info.seldepth,
        "multipv": info.multipv,
        "score": score_json(info.score, info.bound),
        "nodes": info.nodes,
        "nps": info.nps,
        "time_ms": info.time_ms,
        "pv": info.pv,
        "wdl": [info.wdl.0, info.wdl.1, info.wdl.2],
    })
}

/// The end of a search: its best move.
pub fn best_move(done: &SearchDone) -> String {
    json!({ "kind": "bestmove", "move": done.best, "ponder": done.ponder, "notes": done.notes })
        .to_string()
}

/// The game's position changed (a move, a take-back, a new position).
pub fn position_changed(plies: usize) -> String {
    json!({ "kind": "position", "plies": plies }).to_string()
}

/// An event stream of what `rx` receives; a page that falls behind skips what it missed.
pub fn stream(
    rx: broadcast::Receiver<String>,
) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    let events = stream::unfold(rx, |mut rx| async move {
        loop {
            match rx.recv().await {
                Ok(text) => return Some((Ok(Event::default().data(text)), rx)),
                Err(broadcast::error::RecvError::Lagged(_)) => continue,
                Err(broadcast::error::RecvError::Closed) => return None,
            }
        }
    });
    Sse::new(events).keep_alive(KeepAlive::new().interval(Duration::from_secs(15)))
}
