//! The engine facade: variants, the current game, options and the search, behind one type
//! that knows no protocol. UCI, XBoard and the command line all talk to it.

use crate::eval::nnue::three;
use crate::eval::EvalParams;
use crate::foreignpolicy::{self, FpPosition};
use crate::moves::{Move, MoveList};
use crate::perft::perft_threads;
use crate::position::FenError;
use crate::position::Variant;
use crate::rules::{builtin_variants, VariantSet};
use crate::search::maxn::search_maxn;
use crate::search::paranoid::ParanoidGame;
use crate::search::{search, search_game, HistoryPool, SearchContext, SearchOptions, SearchParams};
pub use crate::search::{Tunable, TUNABLES};
use crate::tt::TranspositionTable;
use crate::variant::IniError;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

pub mod pgn;
mod view;
pub use view::{BoardView, HeldView, LiveGame, ManView};

// The vocabulary the protocols speak: they reach the engine through this module only
// (tests/suite/layers.rs), so what they may name is re-exported here.
pub use crate::geometry::Color;
pub use crate::movegen::{move_to_string, parse_move, MoveError};
pub use crate::position::chess960::start_fen as chess960_start_fen;

/// The built-in Chess960 variant's name, which is also XBoard's; UCI GUIs reach it through
/// `UCI_Chess960`.
pub const CHESS960: &str = "fischerandom";
pub use crate::position::Position;
pub use crate::rules::outcome::{Outcome, Verdict};
pub use crate::search::{
    ReportedScore, Reporter, ScoreBound, SearchInfo, SearchLimits, SearchResult, Silent,
};
pub use crate::variant::WdlModel;

/// The scale (centipawns) at which the softmax of Foreign Policy's utilities predicts each
/// player's share of the points: the K its built-in net was trained at (docs/strength.md).
pub const THREE_POINTS_SCALE: f64 = 2130.0;

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
    /// Foreign Policy refused an FP-FEN or a move (the message says which and why).
    ThreePlayer(String),
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
            EngineError::ThreePlayer(s) => write!(f, "{s}"),
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
    /// How a game of three players is searched.
    pub multi_player: MultiPlayerSearch,
    /// The search's tunable constants (`setoption` of a name in [`TUNABLES`]).
    pub params: SearchParams,
    /// `EvalFile`: [`EVAL_FILE_DEFAULT`] (the variant's own net, if it has one),
    /// [`EVAL_FILE_NONE`] (no net), or a net file for the variants it was made for.
    pub eval_file: String,
}

pub use crate::eval::{EVAL_FILE_DEFAULT, EVAL_FILE_NONE};

/// How Foreign Policy (three players) is searched (C.5).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MultiPlayerSearch {
    /// Paranoid alpha-beta: the player to move against both others (the default).
    #[default]
    Paranoid,
    /// Max-n: every player maximises its own utility.
    MaxN,
}

impl MultiPlayerSearch {
    /// The option values, as protocols offer them.
    pub const NAMES: [&'static str; 2] = ["paranoid", "maxn"];

    /// The setting named `name` (case-insensitive).
    pub fn parse(name: &str) -> Result<MultiPlayerSearch, String> {
        match name.to_ascii_lowercase().as_str() {
            "paranoid" => Ok(MultiPlayerSearch::Paranoid),
            "maxn" => Ok(MultiPlayerSearch::MaxN),
            other => Err(format!(
                "MultiPlayerSearch must be paranoid or maxn, not '{other}'"
            )),
        }
    }

    /// The setting's name.
    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            hash_mb: 16,
            threads: 1,
            multipv: 1,
            move_overhead: 10,
            show_wdl: false,
            multi_player: MultiPlayerSearch::Paranoid,
            params: SearchParams::default(),
            eval_file: EVAL_FILE_DEFAULT.to_string(),
        }
    }
}

/// A finished search with its moves already spelled in the position it searched.
#[derive(Clone, Debug)]
pub struct SearchDone {
    /// Which search it ends: [`Engine::go`]'s count, for [`Engine::finish`].
    pub search: u64,
    /// The raw result.
    pub result: SearchResult,
    /// Key of the searched position.
    pub key: u64,
    /// The best move's text, if any.
    pub best: Option<String>,
    /// The expected reply's text, if any.
    pub ponder: Option<String>,
    /// Lines to report before the answer (Foreign Policy's per-player utilities).
    pub notes: Vec<String>,
}

impl SearchDone {
    /// Spells the result's moves in `pos`, the position that was searched.
    fn of_position(search: u64, result: &SearchResult, pos: &Position) -> SearchDone {
        let best = (!result.best.is_none()).then(|| move_to_string(pos, result.best).to_string());
        let ponder = result.ponder.filter(|_| !result.best.is_none()).map(|p| {
            let mut after = pos.clone();
            after.make(result.best);
            move_to_string(&after, p).to_string()
        });
        SearchDone {
            search,
            result: result.clone(),
            key: pos.key(),
            best,
            ponder,
            notes: Vec::new(),
        }
    }

    /// Spells a Foreign Policy result, with the utilities at the end of its line.
    fn of_three(
        search: u64,
        result: &SearchResult,
        pos: &FpPosition,
        eval: &EvalParams,
    ) -> SearchDone {
        let spell = |m: Move| foreignpolicy::move_to_string(m);
        let best = (!result.best.is_none()).then(|| spell(result.best));
        let ponder = result.ponder.filter(|_| !result.best.is_none()).map(spell);
        let mut end = pos.clone();
        for &m in &result.pv {
            end.make(m);
        }
        let u = eval.three_utilities(&end);
        SearchDone {
            search,
            result: result.clone(),
            key: pos.key(),
            best,
            ponder,
            notes: vec![format!("utilities s={} n={} p={}", u[0], u[1], u[2])],
        }
    }
}

/// What the search thread hands back.
type Finished = Box<dyn FnOnce(SearchDone) + Send>;

/// The engine.
pub struct Engine {
    variants: VariantSet,
    rules: &'static Variant,
    eval: Arc<EvalParams>,
    position: Position,
    /// Foreign Policy's position while that game is chosen (three players; `position` is
    /// then left at chess's start and unused).
    three: Option<FpPosition>,
    tt: Arc<TranspositionTable>,
    /// What the search threads learnt about moves, kept between searches of one game.
    histories: Arc<HistoryPool>,
    /// Current options.
    pub options: EngineOptions,
    stop: Arc<AtomicBool>,
    pondering: Arc<AtomicBool>,
    /// The running (or finished, not yet collected) search: its number and thread.
    running: Option<(u64, JoinHandle<SearchResult>)>,
    /// How many searches were started.
    searches: u64,
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
            three: None,
            tt: Arc::new(TranspositionTable::new(options.hash_mb)),
            histories: Arc::new(HistoryPool::new()),
            options,
            stop: Arc::new(AtomicBool::new(false)),
            pondering: Arc::new(AtomicBool::new(false)),
            running: None,
            searches: 0,
            last_result: Arc::new(Mutex::new(None)),
        }
    }

    /// Names of the loaded variants, and Foreign Policy (three players, not a variants.ini
    /// game).
    pub fn variant_names(&self) -> Vec<String> {
        let mut names = self.variants.names().to_vec();
        names.push(foreignpolicy::NAME.to_string());
        names
    }

    /// The current game's name.
    pub fn variant_name(&self) -> &str {
        match self.three {
            Some(_) => foreignpolicy::NAME,
            None => &self.rules.name,
        }
    }

    /// Foreign Policy's position, while that game is chosen.
    pub fn three(&self) -> Option<&FpPosition> {
        self.three.as_ref()
    }

    /// The current position's key.
    pub fn key(&self) -> u64 {
        match &self.three {
            Some(p) => p.key(),
            None => self.position.key(),
        }
    }

    /// The board as text (`d`): the diagram and the FEN line.
    pub fn board_text(&self) -> String {
        match &self.three {
            Some(p) => p.board_text(),
            None => self.position.to_string(),
        }
    }

    /// The current variant (its rules through `Deref`, and its mechanics).
    pub fn rules(&self) -> &'static Variant {
        self.rules
    }

    /// One line saying whose decision the next ply is, where a mechanic separates the chooser
    /// from the colour to move (the 007 family); `None` otherwise.
    pub fn turn_description(&self) -> Option<String> {
        if let Some(p) = &self.three {
            // three players: `go` answers for whoever is to move
            return Some(format!(
                "{} to move (players in the game: {})",
                p.side_to_move().name(),
                p.alive().to_letters()
            ));
        }
        let pos = &self.position;
        pos.mechanics()
            .with_hook(crate::position::Hooks::TURNS)
            .find_map(|m| m.describe_turn(pos))
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The legal moves whose promotion piece the pawn's owner picks, not the chooser of the
    /// ply (`promotionChooser = owner`), in canonical spelling; empty elsewhere.
    pub fn owner_picks(&self) -> Vec<String> {
        if self.three.is_some() || !self.position.owners_pick_promotions() {
            return Vec::new();
        }
        let mut pos = self.position.clone();
        let mut list = MoveList::new();
        crate::movegen::legal_moves(&mut pos, &mut list);
        list.iter()
            .filter(|&&m| pos.owner_picks_promotion(m))
            .map(|&m| crate::movegen::move_to_string(&pos, m).to_string())
            .collect()
    }

    /// Reads moves of the current position (for `searchmoves`).
    pub fn parse_moves(&self, texts: &[String]) -> Result<Vec<Move>, String> {
        let mut pos = self.position.clone();
        texts
            .iter()
            .map(|t| crate::movegen::parse_move(&mut pos, t).map_err(|e| format!("{t}: {e}")))
            .collect()
    }

    /// Mutable access for protocols that play moves one by one (XBoard).
    pub fn position_mut(&mut self) -> &mut Position {
        &mut self.position
    }

    /// Switches variant and sets its start position.
    pub fn set_variant(&mut self, name: &str) -> Result<(), EngineError> {
        self.ensure_idle()?;
        if name == foreignpolicy::NAME {
            self.three = Some(FpPosition::startpos());
            self.eval = Arc::new(self.eval_for_three());
            self.forget();
            return Ok(());
        }
        let rules = self
            .variants
            .get(name)
            .ok_or_else(|| EngineError::UnknownVariant(name.to_string()))?;
        self.three = None;
        self.eval = Arc::new(self.eval_for(rules));
        self.position = Position::startpos(rules);
        self.rules = rules;
        // positions of two variants can share keys and men share indices: nothing learnt in
        // one may be played in the other
        self.forget();
        Ok(())
    }

    /// The evaluation `EvalFile` asks for in `rules`: a net file that was made for another
    /// variant leaves the variant's own evaluation in place (it is logged).
    fn eval_for(&self, rules: &'static Variant) -> EvalParams {
        EvalParams::from_eval_file(rules, &self.options.eval_file).unwrap_or_else(|e| {
            log::info!("EvalFile {e}; {} keeps its own evaluation", rules.name);
            EvalParams::new(rules)
        })
    }

    /// Foreign Policy's evaluation under `EvalFile`: its three-player net where `EvalFile`
    /// gives one, else the rules-derived utilities (a net that does not load is logged).
    fn eval_for_three(&self) -> EvalParams {
        let mut eval = (*self.eval).clone();
        let net = three::for_eval_file(&self.options.eval_file).unwrap_or_else(|e| {
            log::info!(
                "EvalFile {e}; {} keeps its own evaluation",
                foreignpolicy::NAME
            );
            None
        });
        eval.set_three_net(net);
        eval
    }

    /// Sets `EvalFile` ([`EVAL_FILE_DEFAULT`], [`EVAL_FILE_NONE`], or a net file): the net
    /// must load and fit the variant in play, else nothing changes and the error says why.
    /// Returns a description of the evaluation now in use.
    pub fn set_eval_file(&mut self, value: &str) -> Result<String, EngineError> {
        self.ensure_idle()?;
        let value = match value.trim() {
            "" | "<empty>" => EVAL_FILE_DEFAULT,
            v => v,
        };
        if self.three.is_some() {
            let net = three::for_eval_file(value).map_err(EngineError::Range)?;
            let mut eval = (*self.eval).clone();
            eval.set_three_net(net);
            self.options.eval_file = value.to_string();
            self.eval = Arc::new(eval);
            return Ok(self.eval_description());
        }
        let eval = match EvalParams::from_eval_file(self.rules, value) {
            Ok(eval) => eval,
            Err(e) if three::load(value).is_ok() => {
                // a three-player net waits for Foreign Policy
                log::debug!("EvalFile {value}: {e}");
                self.options.eval_file = value.to_string();
                self.eval = Arc::new(EvalParams::new(self.rules));
                return Ok(format!(
                    "EvalFile {value} is a net for {0}, used when {0} is chosen; {1}",
                    foreignpolicy::NAME,
                    self.eval_description()
                ));
            }
            Err(e) => {
                // GUIs and referees may send EvalFile before UCI_Variant: a net of another
                // variant waits for that variant
                let Some(variant) = self.net_of_another_variant(value) else {
                    return Err(EngineError::Range(e));
                };
                self.options.eval_file = value.to_string();
                self.eval = Arc::new(EvalParams::new(self.rules));
                return Ok(format!(
                    "EvalFile {value} is a net for {variant}, used when {variant} is chosen; {}",
                    self.eval_description()
                ));
            }
        };
        self.options.eval_file = value.to_string();
        self.eval = Arc::new(eval);
        Ok(self.eval_description())
    }

    /// The variant a net file was made for, where it reads as a net and that variant is
    /// another one than the one in play.
    fn net_of_another_variant(&self, value: &str) -> Option<String> {
        if value == EVAL_FILE_DEFAULT || value == EVAL_FILE_NONE {
            return None;
        }
        let net = crate::eval::nnue::embedded::named(value, value.as_ref())
            .0
            .ok()?;
        (!net.is_for(self.rules)).then(|| net.variant.clone())
    }

    /// Which evaluation the search uses, where `EvalFile` names a net file (after a variant
    /// switch the file may or may not fit the new variant: the user is told which).
    pub fn eval_file_note(&self) -> Option<String> {
        let file = self.options.eval_file.as_str();
        (file != EVAL_FILE_DEFAULT && file != EVAL_FILE_NONE).then(|| self.eval_description())
    }

    /// Which evaluation the search uses, in words.
    pub fn eval_description(&self) -> String {
        if self.three.is_some() {
            return match self.eval.three_net() {
                Some(n) => format!(
                    "{}: NNUE evaluation with {} ({} -> {} -> {} heads)",
                    foreignpolicy::NAME,
                    match self.options.eval_file.as_str() {
                        EVAL_FILE_DEFAULT => format!("built-in net {}", three::BUILT_IN_NAME),
                        file => file.to_string(),
                    },
                    three::INPUTS,
                    n.hidden,
                    three::HEADS
                ),
                None => format!("{}: rules-derived evaluation", foreignpolicy::NAME),
            };
        }
        match self.eval.net() {
            Some(n) => format!(
                "{}: NNUE evaluation with {} ({} -> {} x 2 -> 1)",
                self.rules.name,
                n.source,
                n.net.inputs(),
                n.net.hidden
            ),
            None => format!("{}: rules-derived evaluation (no net)", self.rules.name),
        }
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
        if self.three.is_some() {
            self.three = Some(three_position(fen, moves)?);
            return Ok(());
        }
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

    /// Foreign Policy after `line` (moves of the current position): each player's utility
    /// (centipawns) and expected share of the points. A finished game gives its FP-12 points;
    /// otherwise the softmax of the utilities over the players still in, at
    /// [`THREE_POINTS_SCALE`]. `None` outside Foreign Policy.
    pub fn three_outlook(&self, line: &[Move]) -> Option<([i32; 3], [f64; 3])> {
        let mut pos = self.three.clone()?;
        for &m in line {
            pos.make(m);
        }
        let utilities = self.eval.three_utilities(&pos);
        if let Some(r) = pos.outcome() {
            return Some((utilities, foreignpolicy::outcome::points(&r)));
        }
        let alive = pos.alive();
        let mut share = [0.0; 3];
        let top = utilities.iter().copied().max().unwrap_or(0) as f64;
        for p in alive.iter() {
            share[p.index()] = ((utilities[p.index()] as f64 - top) / THREE_POINTS_SCALE).exp();
        }
        let sum: f64 = share.iter().sum();
        Some((utilities, share.map(|x| x / sum.max(f64::MIN_POSITIVE))))
    }

    /// Plays one move of Foreign Policy given as text (the player to move's).
    pub fn play_three(&mut self, text: &str) -> Result<(), EngineError> {
        let pos = self
            .three
            .as_mut()
            .ok_or_else(|| EngineError::ThreePlayer("not playing foreignpolicy".into()))?;
        let m = pos
            .parse_move(text)
            .map_err(|e| EngineError::ThreePlayer(format!("'{text}': {e}")))?;
        pos.make(m);
        Ok(())
    }

    /// The notation of `m`, a legal move of the current position.
    pub fn move_text(&self, m: Move) -> String {
        match &self.three {
            Some(_) => foreignpolicy::move_to_string(m),
            None => move_to_string(&self.position, m).to_string(),
        }
    }

    /// Whether `text` is a legal move of the current position.
    pub fn is_move(&self, text: &str) -> bool {
        match &self.three {
            Some(p) => p.parse_move(text).is_ok(),
            None => parse_move(&mut self.position.clone(), text).is_ok(),
        }
    }

    /// Foreign Policy's result once its game is over: each player's result and points.
    pub fn three_result(&self) -> Option<String> {
        let p = self.three.as_ref()?;
        let r = p.outcome()?;
        Some(format!("game over: {}", view::three_result_words(&r)))
    }

    /// Plays one move given as text.
    pub fn play(&mut self, text: &str) -> Result<Move, MoveError> {
        let mv = parse_move(&mut self.position, text)?;
        self.position.make(mv);
        Ok(mv)
    }

    /// How XBoard reads `m`, a move just played that the engine spelled `text`: in Chess960
    /// castling is `O-O` or `O-O-O` (CECP's FischerRandom castling), every other move as the
    /// engine spells it.
    pub fn xboard_move_text(&self, m: Move, text: &str) -> String {
        match crate::movegen::castling_name(m) {
            Some(name) if self.rules.chess960 => name.into(),
            _ => text.to_string(),
        }
    }

    /// Takes back the last move; false if there is none.
    pub fn undo(&mut self) -> bool {
        if let Some(p) = self.three.as_mut() {
            if p.plies() == 0 {
                return false;
            }
            p.unmake();
            return true;
        }
        if self.position.moves_played() == 0 {
            return false;
        }
        self.position.unmake();
        true
    }

    /// A new game: clears the hash table and the move histories.
    pub fn new_game(&mut self) {
        if self.ensure_idle().is_ok() {
            self.forget();
        }
    }

    /// Forgets what searches learnt: the hash table and the move histories.
    fn forget(&self) {
        self.tt.clear();
        self.histories.clear();
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

    /// Clears the hash table and the move histories (as "Clear Hash" does in other engines).
    pub fn clear_hash(&mut self) {
        if self.ensure_idle().is_ok() {
            self.forget();
        }
    }

    /// Hash table occupancy.
    pub fn hashfull(&self) -> usize {
        self.tt.hashfull()
    }

    fn ensure_idle(&mut self) -> Result<(), EngineError> {
        match &self.running {
            Some((_, h)) if !h.is_finished() => Err(EngineError::Busy),
            _ => {
                self.reap();
                Ok(())
            }
        }
    }

    fn reap(&mut self) {
        if let Some((_, h)) = self.running.take() {
            if let Ok(r) = h.join() {
                if let Ok(mut slot) = self.last_result.lock() {
                    *slot = Some(r);
                }
            }
        }
    }

    /// Whether a search is running.
    pub fn is_searching(&self) -> bool {
        self.running.as_ref().is_some_and(|(_, h)| !h.is_finished())
    }

    /// Starts a search in the background. `done` runs on the search thread with the result,
    /// numbered ([`SearchDone::search`]) so that its handler can collect it with
    /// [`Engine::finish`].
    pub fn go(
        &mut self,
        limits: SearchLimits,
        reporter: Arc<dyn Reporter>,
        done: Finished,
    ) -> Result<(), EngineError> {
        self.ensure_idle()?;
        self.searches += 1;
        let number = self.searches;
        self.stop.store(false, Ordering::SeqCst);
        self.pondering.store(limits.ponder, Ordering::SeqCst);
        let pos = self.position.clone();
        let three = self.three.clone();
        let multi_player = self.options.multi_player;
        let tt = self.tt.clone();
        let histories = self.histories.clone();
        let eval = self.eval.clone();
        let stop = self.stop.clone();
        let pondering = self.pondering.clone();
        let opts = self.search_options();
        let handle = std::thread::Builder::new()
            .name("search-driver".into())
            .spawn(move || {
                let ctx = SearchContext {
                    tt: &tt,
                    eval: &eval,
                    stop: &stop,
                    pondering: &pondering,
                    histories: &histories,
                };
                let (r, d) = match &three {
                    Some(p) => {
                        let r = search_three(p, multi_player, &limits, &opts, &ctx, &*reporter);
                        let d = SearchDone::of_three(number, &r, p, &eval);
                        (r, d)
                    }
                    None => {
                        let r = search(&pos, &limits, &opts, &ctx, reporter.as_ref());
                        let d = SearchDone::of_position(number, &r, &pos);
                        (r, d)
                    }
                };
                done(d);
                r
            });
        match handle {
            Ok(h) => {
                self.running = Some((number, h));
                Ok(())
            }
            Err(e) => Err(EngineError::Range(format!(
                "cannot start the search thread: {e}"
            ))),
        }
    }

    /// The search's configuration from the options.
    fn search_options(&self) -> SearchOptions {
        SearchOptions {
            threads: self.options.threads,
            multipv: self.options.multipv,
            move_overhead: self.options.move_overhead,
            show_wdl: self.options.show_wdl,
            params: self.options.params,
        }
    }

    /// Sets a tunable search constant by its UCI name (the protocols' last resort for an
    /// option name): an error when no tunable has that name or the value does not fit.
    pub fn set_search_param(&mut self, name: &str, value: &str) -> Result<(), EngineError> {
        match self.options.params.set(name, value) {
            Ok(true) => Ok(()),
            Ok(false) => Err(EngineError::Range(format!("unknown option '{name}'"))),
            Err(e) => Err(EngineError::Range(e)),
        }
    }

    /// Runs a search on this thread and returns the result (the command line, tests, bench).
    pub fn search_sync(&mut self, limits: &SearchLimits, reporter: &dyn Reporter) -> SearchResult {
        let opts = self.search_options();
        self.stop.store(false, Ordering::SeqCst);
        self.pondering.store(false, Ordering::SeqCst);
        let ctx = SearchContext {
            tt: &self.tt,
            eval: &self.eval,
            stop: &self.stop,
            pondering: &self.pondering,
            histories: &self.histories,
        };
        match &self.three {
            Some(p) => search_three(p, self.options.multi_player, limits, &opts, &ctx, reporter),
            None => search(&self.position, limits, &opts, &ctx, reporter),
        }
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

    /// Collects search number `search` once its `done` has run (joins its thread). If a later
    /// search has started meanwhile (the report was handled late, after a new `go` found the
    /// engine idle), that one is left running: a late report never waits for the next search.
    pub fn finish(&mut self, search: u64) {
        if self.running.as_ref().is_some_and(|(n, _)| *n == search) {
            self.reap();
        }
    }

    /// Waits for a running search to finish.
    pub fn wait(&mut self) -> Option<SearchResult> {
        self.reap();
        self.last_result.lock().ok().and_then(|mut s| s.take())
    }

    /// Perft from the current position.
    pub fn perft(&self, depth: u32) -> u64 {
        match &self.three {
            Some(p) => foreignpolicy::perft::perft(&mut p.clone(), depth),
            None => perft_threads(&self.position, depth, self.options.threads),
        }
    }

    /// Perft of each legal move from the current position, by canonical spelling.
    pub fn divide(&self, depth: u32) -> Vec<(String, u64)> {
        match &self.three {
            Some(p) => foreignpolicy::perft::divide(&mut p.clone(), depth),
            None => crate::perft::divide(&self.position, depth, self.options.threads),
        }
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

/// Searches Foreign Policy's position `p` the way `how` says.
fn search_three(
    p: &FpPosition,
    how: MultiPlayerSearch,
    limits: &SearchLimits,
    opts: &SearchOptions,
    ctx: &SearchContext,
    reporter: &dyn Reporter,
) -> SearchResult {
    match how {
        MultiPlayerSearch::Paranoid => {
            search_game(&ParanoidGame::new(p.clone()), limits, opts, ctx, reporter)
        }
        MultiPlayerSearch::MaxN => search_maxn(p, limits, opts, ctx, reporter),
    }
}

/// A Foreign Policy position from an FP-FEN (or the start) and a move list, all or nothing.
fn three_position(fen: Option<&str>, moves: &[&str]) -> Result<FpPosition, EngineError> {
    let mut pos = match fen {
        Some(f) => FpPosition::from_fen(f)
            .map_err(|e| EngineError::ThreePlayer(format!("bad FP-FEN: {e}")))?,
        None => FpPosition::startpos(),
    };
    for (i, text) in moves.iter().enumerate() {
        let m = pos.parse_move(text).map_err(|e| {
            EngineError::ThreePlayer(format!(
                "move {} ('{text}') rejected: {e}; position unchanged",
                i + 1
            ))
        })?;
        pos.make(m);
    }
    Ok(pos)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_late_report_does_not_wait_for_the_next_search() {
        use std::sync::mpsc::channel;
        use std::time::{Duration, Instant};
        let mut engine = Engine::new();
        let (tx, rx) = channel();
        let go = |engine: &mut Engine, limits: SearchLimits| {
            let tx = tx.clone();
            let done = Box::new(move |d: SearchDone| tx.send(d.search).expect("listening"));
            engine.go(limits, Arc::new(Silent), done).expect("idle");
        };
        let depth_one = SearchLimits {
            depth: Some(1),
            ..Default::default()
        };
        go(&mut engine, depth_one);
        let first = rx.recv_timeout(Duration::from_secs(10)).expect("done");
        while engine.is_searching() {
            std::thread::sleep(Duration::from_millis(1));
        }
        // the next search starts before the first one's report is handled (a protocol's
        // event queue held `go` ahead of it)
        let three_seconds = SearchLimits {
            movetime: Some(3000),
            ..Default::default()
        };
        go(&mut engine, three_seconds);
        let late = Instant::now();
        engine.finish(first);
        assert!(late.elapsed() < Duration::from_secs(1), "it waited");
        assert!(engine.is_searching(), "the second search was collected");
        engine.stop();
        let second = rx.recv_timeout(Duration::from_secs(10)).expect("done");
        assert_eq!(second, first + 1);
        engine.finish(second);
        assert!(engine.running.is_none());
    }

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

    #[test]
    fn a_new_game_and_a_variant_switch_forget_the_move_histories() {
        let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
        let nodes_at_depth_8 = |engine: &mut Engine| {
            engine.set_position(Some(fen), &[]).expect("valid");
            engine.best_move_at_depth(8).nodes
        };
        let mut engine = Engine::new();
        let fresh = nodes_at_depth_8(&mut engine);
        // the table alone is cleared: what the histories learnt changes the next search
        engine.tt.clear();
        assert_ne!(nodes_at_depth_8(&mut engine), fresh, "histories are kept");
        engine.new_game();
        assert_eq!(
            nodes_at_depth_8(&mut engine),
            fresh,
            "a new game starts afresh"
        );
        engine.best_move_at_depth(8);
        engine.set_variant("chess").expect("built in");
        assert_eq!(
            nodes_at_depth_8(&mut engine),
            fresh,
            "so does a variant switch"
        );
    }
}
