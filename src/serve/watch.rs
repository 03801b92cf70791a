//! Match games shown live: `chimera match -serve` reports each game's moves here and the page
//! draws them. The feed knows nothing of the referee: it receives plain game records.

use serde_json::json;
use std::collections::BTreeMap;
use std::sync::Mutex;
use tokio::sync::broadcast;

/// Finished games kept for the page besides the running ones.
const FINISHED_KEPT: usize = 32;

/// One match game as the referee last reported it.
pub use crate::engine::LiveGame as WatchedGame;

/// The games a match is playing or has just played.
pub struct Watch {
    games: Mutex<BTreeMap<usize, WatchedGame>>,
    events: broadcast::Sender<String>,
}

impl Default for Watch {
    fn default() -> Self {
        Watch::new()
    }
}

impl Watch {
    /// An empty feed.
    pub fn new() -> Watch {
        Watch {
            games: Mutex::new(BTreeMap::new()),
            events: broadcast::channel(1024).0,
        }
    }

    /// Records a game's state (a new game, a move, the result) and tells the pages.
    pub fn update(&self, game: WatchedGame) {
        let event = json!({
            "kind": "watch",
            "number": game.number,
            "plies": game.moves.len(),
            "result": game.result,
        });
        if let Ok(mut games) = self.games.lock() {
            games.insert(game.number, game);
            forget_old(&mut games);
        }
        let _ = self.events.send(event.to_string());
    }

    /// The games, by number.
    pub fn list(&self) -> Vec<WatchedGame> {
        self.games
            .lock()
            .map(|g| g.values().cloned().collect())
            .unwrap_or_default()
    }

    /// Game `number`.
    pub fn get(&self, number: usize) -> Option<WatchedGame> {
        self.games.lock().ok()?.get(&number).cloned()
    }

    /// A receiver of the feed's events.
    pub fn subscribe(&self) -> broadcast::Receiver<String> {
        self.events.subscribe()
    }
}

/// Drops the oldest finished games beyond [`FINISHED_KEPT`].
fn forget_old(games: &mut BTreeMap<usize, WatchedGame>) {
    let finished: Vec<usize> = games
        .values()
        .filter(|g| g.result.is_some())
        .map(|g| g.number)
        .collect();
    for n in finished
        .iter()
        .take(finished.len().saturating_sub(FINISHED_KEPT))
    {
        games.remove(n);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(number: usize, result: Option<&str>) -> WatchedGame {
        WatchedGame {
            number,
            variant: "chess".into(),
            players: vec!["a".into(), "b".into()],
            start_fen: None,
            moves: vec!["e2e4".into()],
            result: result.map(str::to_string),
        }
    }

    #[test]
    fn updates_replace_a_game_and_old_finished_games_are_forgotten() {
        let watch = Watch::new();
        let mut rx = watch.subscribe();
        for n in 1..=40 {
            watch.update(game(n, Some("1-0")));
        }
        watch.update(game(41, None));
        let list = watch.list();
        assert_eq!(list.len(), FINISHED_KEPT + 1);
        assert_eq!(list[0].number, 40 - FINISHED_KEPT + 1);
        assert!(watch.get(41).is_some_and(|g| g.result.is_none()));
        assert!(watch.get(1).is_none());
        let first = rx.try_recv().expect("an event per update");
        assert!(first.contains("\"number\":1"), "{first}");
    }
}
