//! What every game and game review on the board starts from: an engine set up as the
//! server's configuration says, and the refusal a request gets.

use super::ServeConfig;
use crate::engine::Engine;

/// Why a request about a game was refused, with the HTTP status it maps to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// Bad input (400): an illegal move, a bad FEN, an unknown variant.
    Bad(String),
    /// Not now (409): the engine is thinking, the game is over, nothing to take back.
    Conflict(String),
}

impl Refusal {
    /// The message.
    pub fn message(&self) -> &str {
        match self {
            Refusal::Bad(m) | Refusal::Conflict(m) => m,
        }
    }
}

/// A fresh engine set up as the server's configuration says.
pub fn new_engine(config: &ServeConfig) -> Result<Engine, Refusal> {
    let mut engine = Engine::new();
    if let Some(path) = &config.variants_file {
        engine
            .load_variants(path)
            .map_err(|e| Refusal::Bad(format!("variants file {path}: {e}")))?;
    }
    engine
        .set_hash(config.hash_mb)
        .and_then(|_| engine.set_threads(config.threads))
        .map_err(|e| Refusal::Bad(e.to_string()))?;
    // the page shows win/draw/loss beside each score (the variant's wdlModel)
    engine.options.show_wdl = true;
    Ok(engine)
}
