//! Following a match's games while they are played (`chimera match -serve PORT`): the referee
//! reports every ply and every result to an observer. The command line connects the web
//! board's feed; this layer knows only the trait.

/// A game as the referee last saw it.
pub use crate::engine::LiveGame as ObservedGame;

/// Receives the games' progress. Called from the match's worker threads.
pub trait GameObserver: Send + Sync {
    /// The game's state after a ply, or its end.
    fn update(&self, game: &ObservedGame);
}

/// A callback the referee calls with the moves played so far after every ply.
pub type OnMove<'a> = Option<&'a (dyn Fn(&[String]) + Sync)>;

/// The observer's report of game `number` of the match: the callback for its plies.
pub fn reporter<'a>(
    observer: &'a dyn GameObserver,
    template: &'a ObservedGame,
) -> impl Fn(&[String]) + Sync + 'a {
    move |moves: &[String]| {
        observer.update(&ObservedGame {
            moves: moves.to_vec(),
            ..template.clone()
        })
    }
}
