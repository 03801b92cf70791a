//! The engine facade: variants, the current game, options and the search, behind one type
//! that knows no protocol. UCI, XBoard and the command line all talk to it.

use crate::eval::EvalParams;
use crate::moves::Move;
use crate::perft::perft_threads;
use crate::position::FenError;
use crate::position::Variant;
use crate::rules::{builtin_variants, VariantSet};
use crate::search::{search, SearchContext, SearchOptions};
use crate::tt::TranspositionTable;
use crate::variant::IniError;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

// The vocabulary the protocols speak: they reach the engine through this module only
// (tests/layers.rs), so what they may name is re-exported here.
pub use crate::geometry::Color;
pub use crate::movegen::{move_to_string, parse_move, MoveError};
pub use crate::position::Position;
pub use crate::rules::outcome::{Outcome, Verdict};
pub use crate::search::{
    ReportedScore, Reporter, ScoreBound, SearchInfo, SearchLimits, SearchResult, Silent,
};

/// Largest hash size in MB.
pub const MAX_HASH_MB: usize = 65536;
/// Largest number of search threads.
pub const MAX_THREADS: usize = 512;
/// Largest MultiPV.
pub const MAX_MULTIPV: usize = 256;

/// Why the engine refused a request.
#[derive(Debug)]
pub enum EngineError {
    /// No such variant.
    UnknownVariant(String),
    /// A variants file failed to load.
    Variants(IniError),
    /// A FEN was rejected.
    Fen(FenError),
    /// A move of a move list was rejected (index from 0, the move, the reason).
    Move(usize, String, MoveError),
    /// A value is out of range.
    Range(String),
    /// A search is already running.
    Busy,
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::UnknownVariant(v) => write!(f, "unknown variant '{v}'"),
            EngineError::Variants(e) => write!(f, "{e}"),
            EngineError::Fen(e) => write!(f, "bad FEN: {e}"),
            EngineError::Move(i, m, e) => write!(
                f,
                "move {} ('{m}') rejected: {e}; position unchanged",
                i + 1
            ),
            EngineError::Range(s) => write!(f, "{s}"),
            EngineError::Busy => write!(f, "a search is running; send stop first"),
        }
    }
}

impl std::error::Error for EngineError {}

/// Where a turn schedule separates chooser and colour (the 007 family), why a move of a man
/// of the wrong colour is refused; `None` otherwise.
fn wrong_colour(pos: &Position, text: &str) -> Option<String> {
    let tp = crate::rules::schedule::TurnSchedule::of(pos)?.next_ply(pos);
    let from = pos.rules().shape.parse_square(text.get(0..2)?)?;
    let man = pos.piece_at(from);
    let mover = pos.side_to_move();
    (man.is_some() && man.color() != mover).then(|| {
        format!(
            "ply {} moves a {} man ({} chooses it), '{text}' moves a {} one",
            pos.state().ply + 1,
            mover.name().to_ascii_lowercase(),
            tp.chooser.name(),
            man.color().name().to_ascii_lowercase()
        )
    })
}

/// Tunable options.
#[derive(Clone, Debug)]
pub struct EngineOptions {
    /// Hash size in MB.
    pub hash_mb: usize,
    /// Search threads.
    pub threads: usize,
    /// Lines to report.
    pub multipv: usize,
    /// Lag allowance in ms.
    pub move_overhead: u64,
    /// Report WDL.
    pub show_wdl: bool,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            hash_mb: 16,
            threads: 1,
            multipv: 1,
            move_overhead: 10,
            show_wdl: false,
        }
    }
}

/// What the search thread hands back.
type Finished = Box<dyn FnOnce(&SearchResult, &Position) + Send>;

/// The engine.
pub struct Engine {
    variants: VariantSet,
    rules: &'static Variant,
    eval: Arc<EvalParams>,
    position: Position,
    tt: Arc<TranspositionTable>,
    /// Current options.
    pub options: EngineOptions,
    stop: Arc<AtomicBool>,
    pondering: Arc<AtomicBool>,
    running: Option<JoinHandle<SearchResult>>,
    last_result: Arc<Mutex<Option<SearchResult>>>,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new()
    }
}

impl Engine {
    /// An engine with the built-in variants, playing chess from the start.
    pub fn new() -> Engine {
        let variants = builtin_variants();
        let rules = variants
            .get("chess")
            .expect("the built-in variants define chess");
        let eval = Arc::new(EvalParams::new(rules));
        let position = Position::startpos(rules);
        let options = EngineOptions::default();
        Engine {
            variants,
            rules,
            eval,
            position,
            tt: Arc::new(TranspositionTable::new(options.hash_mb)),
            options,
            stop: Arc::new(AtomicBool::new(false)),
            pondering: Arc::new(AtomicBool::new(false)),
            running: None,
            last_result: Arc::new(Mutex::new(None)),
        }
    }

    /// Names of the loaded variants.
    pub fn variant_names(&self) -> Vec<String> {
        self.variants.names().to_vec()
    }

    /// The current variant (its rules through `Deref`, and its mechanics).
    pub fn rules(&self) -> &'static Variant {
        self.rules
    }

    /// One line saying whose decision the next ply is, where a mechanic separates the chooser
    /// from the colour to move (the 007 family); `None` otherwise.
    pub fn turn_description(&self) -> Option<String> {
        let pos = &self.position;
        pos.mechanics()
            .with_hook(crate::position::Hooks::TURNS)
            .find_map(|m| m.describe_turn(pos))
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Mutable access for protocols that play moves one by one (XBoard).
    pub fn position_mut(&mut self) -> &mut Position {
        &mut self.position
    }

    /// Switches variant and sets its start position.
    pub fn set_variant(&mut self, name: &str) -> Result<(), EngineError> {
        self.ensure_idle()?;
        let rules = self
            .variants
            .get(name)
            .ok_or_else(|| EngineError::UnknownVariant(name.to_string()))?;
        self.eval = Arc::new(EvalParams::new(rules));
        self.position = Position::startpos(rules);
        self.rules = rules;
        // positions of two variants can share keys: nothing learnt in one may be played in
        // the other
        self.tt.clear();
        Ok(())
    }

    /// Loads a user variants.ini; returns the names it defined.
    pub fn load_variants(&mut self, path: &str) -> Result<Vec<String>, EngineError> {
        self.ensure_idle()?;
        let names = self
            .variants
            .load_file(path)
            .map_err(EngineError::Variants)?;
        // the current variant may have been redefined
        if let Some(r) = self.variants.get(&self.rules.name) {
            if names.contains(&r.name) {
                self.set_variant(&r.name.clone())?;
            }
        }
        Ok(names)
    }

    /// Sets the position from a FEN (or the start) and a move list, all or nothing.
    pub fn set_position(&mut self, fen: Option<&str>, moves: &[&str]) -> Result<(), EngineError> {
        self.ensure_idle()?;
        let mut pos = match fen {
            Some(f) => Position::from_fen(self.rules, f).map_err(EngineError::Fen)?,
            None => Position::startpos(self.rules),
        };
        for (i, m) in moves.iter().enumerate() {
            let mv = parse_move(&mut pos, m).map_err(|e| match wrong_colour(&pos, m) {
                Some(why) => EngineError::Range(format!(
                    "move {} ('{m}') rejected: {why}; position unchanged",
                    i + 1
                )),
                None => EngineError::Move(i, m.to_string(), e),
            })?;
            pos.make(mv);
        }
        self.position = pos;
        Ok(())
    }

    /// Plays one move given as text.
    pub fn play(&mut self, text: &str) -> Result<Move, MoveError> {
        let mv = parse_move(&mut self.position, text)?;
        self.position.make(mv);
        Ok(mv)
    }

    /// Takes back the last move; false if there is none.
    pub fn undo(&mut self) -> bool {
        if self.position.moves_played() == 0 {
            return false;
        }
        self.position.unmake();
        true
    }

    /// A new game: clears the hash table.
    pub fn new_game(&mut self) {
        if self.ensure_idle().is_ok() {
            self.tt.clear();
        }
    }

    /// Resizes the hash table.
    pub fn set_hash(&mut self, mb: usize) -> Result<(), EngineError> {
        if !(1..=MAX_HASH_MB).contains(&mb) {
            return Err(EngineError::Range(format!(
                "Hash must be 1..{MAX_HASH_MB} MB, not {mb}"
            )));
        }
        self.ensure_idle()?;
        self.options.hash_mb = mb;
        self.tt = Arc::new(TranspositionTable::new(mb));
        Ok(())
    }

    /// Sets the number of threads.
    pub fn set_threads(&mut self, n: usize) -> Result<(), EngineError> {
        if !(1..=MAX_THREADS).contains(&n) {
            return Err(EngineError::Range(format!(
                "Threads must be 1..{MAX_THREADS}, not {n}"
            )));
        }
        self.options.threads = n;
        Ok(())
    }

    /// Sets MultiPV.
    pub fn set_multipv(&mut self, n: usize) -> Result<(), EngineError> {
        if !(1..=MAX_MULTIPV).contains(&n) {
            return Err(EngineError::Range(format!(
                "MultiPV must be 1..{MAX_MULTIPV}, not {n}"
            )));
        }
        self.options.multipv = n;
        Ok(())
    }

    /// Clears the hash table.
    pub fn clear_hash(&mut self) {
        if self.ensure_idle().is_ok() {
            self.tt.clear();
        }
    }

    /// Hash table occupancy.
    pub fn hashfull(&self) -> usize {
        self.tt.hashfull()
    }

    fn ensure_idle(&mut self) -> Result<(), EngineError> {
        match &self.running {
            Some(h) if !h.is_finished() => Err(EngineError::Busy),
            _ => {
                self.reap();
                Ok(())
            }
        }
    }

    fn reap(&mut self) {
        if let Some(h) = self.running.take() {
            if let Ok(r) = h.join() {
                if let Ok(mut slot) = self.last_result.lock() {
                    *slot = Some(r);
                }
            }
        }
    }

    /// Whether a search is running.
    pub fn is_searching(&self) -> bool {
        self.running.as_ref().is_some_and(|h| !h.is_finished())
    }

    /// Starts a search in the background. `done` runs on the search thread with the result.
    pub fn go(
        &mut self,
        limits: SearchLimits,
        reporter: Arc<dyn Reporter>,
        done: Finished,
    ) -> Result<(), EngineError> {
        self.ensure_idle()?;
        self.stop.store(false, Ordering::SeqCst);
        self.pondering.store(limits.ponder, Ordering::SeqCst);
        let pos = self.position.clone();
        let tt = self.tt.clone();
        let eval = self.eval.clone();
        let stop = self.stop.clone();
        let pondering = self.pondering.clone();
        let opts = SearchOptions {
            threads: self.options.threads,
            multipv: self.options.multipv,
            move_overhead: self.options.move_overhead,
            show_wdl: self.options.show_wdl,
        };
        let handle = std::thread::Builder::new()
            .name("search-driver".into())
            .spawn(move || {
                let ctx = SearchContext {
                    tt: &tt,
                    eval: &eval,
                    stop: &stop,
                    pondering: &pondering,
                };
                let r = search(&pos, &limits, &opts, &ctx, reporter.as_ref());
                done(&r, &pos);
                r
            });
        match handle {
            Ok(h) => {
                self.running = Some(h);
                Ok(())
            }
            Err(e) => Err(EngineError::Range(format!(
                "cannot start the search thread: {e}"
            ))),
        }
    }

    /// Runs a search on this thread and returns the result (the command line, tests, bench).
    pub fn search_sync(&mut self, limits: &SearchLimits, reporter: &dyn Reporter) -> SearchResult {
        let opts = SearchOptions {
            threads: self.options.threads,
            multipv: self.options.multipv,
            move_overhead: self.options.move_overhead,
            show_wdl: self.options.show_wdl,
        };
        self.stop.store(false, Ordering::SeqCst);
        self.pondering.store(false, Ordering::SeqCst);
        let ctx = SearchContext {
            tt: &self.tt,
            eval: &self.eval,
            stop: &self.stop,
            pondering: &self.pondering,
        };
        search(&self.position, limits, &opts, &ctx, reporter)
    }

    /// Asks a running search to stop (it still reports its best move).
    pub fn stop(&self) {
        self.pondering.store(false, Ordering::SeqCst);
        self.stop.store(true, Ordering::SeqCst);
    }

    /// The opponent played the pondered move: the search now runs on the clock.
    pub fn ponderhit(&self) {
        self.pondering.store(false, Ordering::SeqCst);
    }

    /// Waits for a running search to finish.
    pub fn wait(&mut self) -> Option<SearchResult> {
        self.reap();
        self.last_result.lock().ok().and_then(|mut s| s.take())
    }

    /// Perft from the current position.
    pub fn perft(&self, depth: u32) -> u64 {
        perft_threads(&self.position, depth, self.options.threads)
    }

    /// Perft of each legal move from the current position, by canonical spelling.
    pub fn divide(&self, depth: u32) -> Vec<(String, u64)> {
        crate::perft::divide(&self.position, depth, self.options.threads)
    }

    /// The verdict on the current position, or `None` while the game goes on.
    pub fn verdict(&self) -> Option<Verdict> {
        crate::rules::outcome::verdict(&mut self.position.clone())
    }

    /// A quiet synchronous search to a depth (used by XBoard's `hint` and tests).
    pub fn best_move_at_depth(&mut self, depth: u32) -> SearchResult {
        let limits = SearchLimits {
            depth: Some(depth),
            ..Default::default()
        };
        self.search_sync(&limits, &Silent)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_variant_switch_clears_the_table() {
        // the key after 1.e4: every root move's subtree is stored by a search
        let after_e4 = |engine: &Engine| {
            let mut p = engine.position().clone();
            let m = parse_move(&mut p, "e2e4").expect("legal");
            p.make(m);
            p.key()
        };
        let mut engine = Engine::new();
        engine.best_move_at_depth(6);
        let key = after_e4(&engine);
        assert!(engine.tt.probe(key).is_some(), "the search stored 1.e4");
        // Hippophobic plays chess's men from chess's position, so its keys are chess's
        engine.set_variant("hippophobic").expect("built in");
        assert_eq!(after_e4(&engine), key);
        assert!(
            engine.tt.probe(key).is_none(),
            "chess's entry survived the switch"
        );
        engine.best_move_at_depth(5);
        assert!(engine.tt.probe(key).is_some());
        engine.set_variant("chess").expect("built in");
        assert!(
            engine.tt.probe(key).is_none(),
            "Hippophobic's entry survived the switch"
        );
    }
}
