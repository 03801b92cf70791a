//! The open games: each has its own engine (its table and histories belong to that game), the
//! moves played in canonical spelling, and an event channel its pages listen to.
//!
//! Lock discipline: a game's mutex is never held across an `.await`, and the search threads
//! never take it (they only send to channels), so waiting for a search under the lock cannot
//! deadlock.

use super::events::{self, EventReporter};
use super::setup::{new_engine, Refusal};
use super::ServeConfig;
use crate::engine::{Engine, SearchDone, SearchLimits};
use std::sync::Arc;
use tokio::sync::{broadcast, oneshot};

/// Most lines the board's analysis shows.
pub const MAX_ANALYSIS_LINES: usize = 8;

/// One game on the board.
pub struct Game {
    /// The variant's name.
    pub variant: String,
    /// The position the game started from (`None`: the variant's start).
    pub start_fen: Option<String>,
    /// Moves played since, canonical spelling.
    pub history: Vec<String>,
    /// The engine, at the position after `history`.
    pub engine: Engine,
    /// Events for the game's pages (JSON texts).
    pub events: broadcast::Sender<String>,
    /// An analysis (infinite search) is running.
    pub analysing: bool,
    /// The engine is choosing a move to play.
    pub thinking: bool,
    /// The engine's move in progress returns a promotion whose piece the pawn's owner picks
    /// unplayed.
    pub hold_owner_pick: bool,
    /// The last "Analyse game" of it, running or done.
    pub review: Option<super::review::Review>,
    /// Lines the analysis shows (MultiPV; the engine's own moves search one).
    pub analysis_lines: usize,
}

/// The engine in `variant` at `fen` (or the start) after `moves`.
pub fn set_up(
    engine: &mut Engine,
    variant: &str,
    fen: Option<&str>,
    moves: &[String],
) -> Result<(), Refusal> {
    engine
        .set_variant(variant)
        .map_err(|e| Refusal::Bad(e.to_string()))?;
    let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
    engine
        .set_position(fen, &moves)
        .map_err(|e| Refusal::Bad(e.to_string()))
}

impl Game {
    /// A new game of `variant` from `fen` (or its start). A Chess960 variant without a FEN
    /// starts from array `chess960` (Scharnagl's number), or a random one.
    pub fn new(
        config: &ServeConfig,
        variant: &str,
        fen: Option<&str>,
        chess960: Option<u32>,
    ) -> Result<Game, Refusal> {
        let mut engine = new_engine(config)?;
        set_up(&mut engine, variant, fen, &[])?;
        let mut start_fen = fen.map(str::to_string);
        if fen.is_none() && engine.rules().chess960 {
            let n = chess960.unwrap_or_else(random_start);
            let f = crate::engine::chess960_start_fen(n, n)
                .ok_or_else(|| Refusal::Bad(format!("chess960 {n}: a start number is 0 to 959")))?;
            set_up(&mut engine, variant, Some(&f), &[])?;
            start_fen = Some(f);
        } else if chess960.is_some() {
            return Err(Refusal::Bad(format!(
                "chess960 asks for a Chess960 variant (fischerandom) without a FEN, not {variant}"
            )));
        }
        let (events, _) = broadcast::channel(256);
        Ok(Game {
            variant: variant.to_string(),
            start_fen,
            history: Vec::new(),
            engine,
            events,
            analysing: false,
            thinking: false,
            hold_owner_pick: false,
            review: None,
            analysis_lines: 1,
        })
    }

    /// A game of `variant` read from PGN text (its first game: the `FEN` tag and every
    /// move, SAN or our notation); a bad PGN is refused with the move that failed.
    pub fn from_pgn(config: &ServeConfig, variant: &str, pgn: &str) -> Result<Game, Refusal> {
        let mut engine = new_engine(config)?;
        // the variant first, for its rules; then the PGN's start and moves
        set_up(&mut engine, variant, None, &[])?;
        if engine.three().is_some() {
            return Err(Refusal::Bad(
                "a three-player game has no PGN (Foreign Policy)".into(),
            ));
        }
        let (fen, moves) =
            crate::engine::pgn::read_game(engine.rules(), pgn).map_err(Refusal::Bad)?;
        set_up(&mut engine, variant, fen.as_deref(), &moves)?;
        let (events, _) = broadcast::channel(256);
        Ok(Game {
            variant: variant.to_string(),
            start_fen: fen,
            history: moves,
            engine,
            events,
            analysing: false,
            thinking: false,
            hold_owner_pick: false,
            review: None,
            analysis_lines: 1,
        })
    }

    /// The game as PGN: the board's tags, the moves (SAN in chess), the result and why.
    pub fn pgn(&self) -> Result<String, Refusal> {
        if self.engine.three().is_some() {
            return Err(Refusal::Bad(
                "a three-player game has no PGN (Foreign Policy)".into(),
            ));
        }
        let (result, reason) = self
            .engine
            .result()
            .unwrap_or_else(|| ("*".to_string(), String::new()));
        let tags = vec![
            ("Event", "Chimera web board".to_string()),
            ("Site", "?".to_string()),
            ("Date", crate::engine::pgn::today()),
            ("Round", "-".to_string()),
            ("White", "?".to_string()),
            ("Black", "?".to_string()),
        ];
        crate::engine::pgn::game_text(
            self.engine.rules(),
            self.start_fen.as_deref(),
            &self.history,
            tags,
            &result,
            &reason,
        )
        .map_err(Refusal::Bad)
    }

    /// Plays a move the page sent, after checking it by the rules.
    pub fn play(&mut self, text: &str) -> Result<(), Refusal> {
        self.not_thinking()?;
        self.not_over()?;
        let text = text.trim();
        if text.is_empty() || text.len() > 64 {
            return Err(Refusal::Bad(format!("not a move: '{text}'")));
        }
        self.changing(|g| {
            let canonical = g.engine.play_move(text).map_err(Refusal::Bad)?;
            g.history.push(canonical);
            Ok(())
        })
    }

    /// Takes back the last move.
    pub fn undo(&mut self) -> Result<(), Refusal> {
        self.not_thinking()?;
        if self.history.is_empty() {
            return Err(Refusal::Conflict("no move to take back".into()));
        }
        self.changing(|g| {
            g.engine.undo();
            g.history.pop();
            Ok(())
        })
    }

    /// Starts the game again from `fen` (or the variant's start).
    pub fn reset(&mut self, fen: Option<&str>) -> Result<(), Refusal> {
        self.not_thinking()?;
        self.changing(|g| {
            // all or nothing: a refused FEN leaves the game as it was
            g.engine
                .set_position(fen, &[])
                .map_err(|e| Refusal::Bad(e.to_string()))?;
            g.start_fen = fen.map(str::to_string);
            g.history.clear();
            g.engine.new_game();
            Ok(())
        })
    }

    /// Starts the engine's search for a move to play; the receiver gets the result.
    pub fn start_engine_move(
        &mut self,
        mut limits: SearchLimits,
        searchmoves: &[String],
        hold_owner_pick: bool,
    ) -> Result<oneshot::Receiver<SearchDone>, Refusal> {
        self.not_thinking()?;
        self.not_over()?;
        limits.searchmoves = self
            .engine
            .parse_moves(searchmoves)
            .map_err(|e| Refusal::Bad(format!("searchmoves: {e}")))?;
        // asked with searchmoves, the engine is the owner answering: its pick is played
        self.hold_owner_pick = hold_owner_pick && searchmoves.is_empty();
        self.pause_analysis();
        let _ = self.engine.set_multipv(1);
        let (tx, rx) = oneshot::channel();
        let reporter = Arc::new(EventReporter::new(self.events.clone()));
        let started = self.engine.go(
            limits,
            reporter,
            Box::new(move |done| {
                let _ = tx.send(done);
            }),
        );
        if let Err(e) = started {
            self.resume_analysis();
            return Err(Refusal::Conflict(e.to_string()));
        }
        self.thinking = true;
        Ok(rx)
    }

    /// Plays the move the engine chose (none if the search found no move); returns it
    /// unplayed instead where it was asked to hold a promotion whose piece the pawn's owner
    /// picks.
    pub fn finish_engine_move(&mut self, done: &SearchDone) -> Result<Option<String>, Refusal> {
        self.thinking = false;
        self.engine.finish(done.search);
        if let (Some(best), true) = (&done.best, self.hold_owner_pick) {
            if self.owner_picks().contains(best) {
                self.resume_analysis();
                return Ok(Some(best.clone()));
            }
        }
        let played = match &done.best {
            Some(best) => match self.engine.play_move(best) {
                Ok(canonical) => {
                    self.history.push(canonical);
                    true
                }
                Err(e) => return Err(Refusal::Conflict(format!("engine move refused: {e}"))),
            },
            None => false,
        };
        if played {
            self.announce();
        }
        self.resume_analysis();
        Ok(None)
    }

    /// The legal moves whose promotion piece the pawn's owner picks (`promotionChooser =
    /// owner`); empty elsewhere.
    pub fn owner_picks(&self) -> Vec<String> {
        self.engine.owner_picks()
    }

    /// Starts analysing the current position until stopped, showing `lines` lines (MultiPV;
    /// `None` keeps the number it had). A running analysis restarts with the new number.
    pub fn start_analysis(&mut self, lines: Option<usize>) -> Result<(), Refusal> {
        self.not_thinking()?;
        if let Some(n) = lines {
            if !(1..=MAX_ANALYSIS_LINES).contains(&n) {
                return Err(Refusal::Bad(format!(
                    "lines must be 1..{MAX_ANALYSIS_LINES}, not {n}"
                )));
            }
            if n != self.analysis_lines {
                self.pause_analysis();
                self.analysis_lines = n;
                self.resume_analysis();
            }
        }
        if !self.analysing {
            self.analysing = true;
            self.resume_analysis();
        }
        Ok(())
    }

    /// Stops the analysis, or makes the thinking engine move now.
    pub fn stop(&mut self) {
        if self.thinking {
            self.engine.stop();
        } else {
            self.pause_analysis();
            self.analysing = false;
        }
    }

    /// Starts analysing the whole game as it stands (one review at a time).
    pub fn start_review(&mut self, config: &ServeConfig, movetime: u64) -> Result<(), Refusal> {
        if self.review.as_ref().is_some_and(|r| r.running()) {
            return Err(Refusal::Conflict(
                "the game is being analysed; cancel that first".into(),
            ));
        }
        let result = self
            .engine
            .result()
            .map_or_else(|| "*".to_string(), |(score, _)| score);
        let record = crate::analysis::record::GameRecord {
            number: 1,
            line: 1,
            variant: self.variant.clone(),
            start_fen: self.start_fen.clone(),
            moves: self.history.clone(),
            tags: vec![
                ("Event".into(), "Chimera web board".into()),
                ("Date".into(), crate::engine::pgn::today()),
            ],
            result,
        };
        self.review = Some(super::review::Review::start(
            config,
            record,
            movetime,
            self.events.clone(),
        )?);
        Ok(())
    }

    /// Ends every search of the game (the game is being closed).
    pub fn close(&mut self) {
        if let Some(r) = &self.review {
            r.cancel();
        }
        self.analysing = false;
        self.engine.stop();
        self.engine.wait();
    }

    fn not_thinking(&self) -> Result<(), Refusal> {
        match self.thinking {
            true => Err(Refusal::Conflict(
                "the engine is thinking about its move; stop it first".into(),
            )),
            false => Ok(()),
        }
    }

    fn not_over(&self) -> Result<(), Refusal> {
        match self.engine.result() {
            Some((score, why)) => Err(Refusal::Conflict(format!(
                "the game is over: {score} ({why})"
            ))),
            None => Ok(()),
        }
    }

    /// Runs a change of position with the analysis paused around it, and tells the pages.
    fn changing(
        &mut self,
        change: impl FnOnce(&mut Game) -> Result<(), Refusal>,
    ) -> Result<(), Refusal> {
        self.pause_analysis();
        let done = change(self);
        self.resume_analysis();
        if done.is_ok() {
            self.announce();
        }
        done
    }

    fn pause_analysis(&mut self) {
        if self.analysing {
            self.engine.stop();
            self.engine.wait();
        }
    }

    fn resume_analysis(&mut self) {
        if !self.analysing || self.engine.result().is_some() {
            return;
        }
        let limits = SearchLimits {
            infinite: true,
            ..Default::default()
        };
        let _ = self.engine.set_multipv(self.analysis_lines);
        let reporter = Arc::new(EventReporter::new(self.events.clone()));
        let tx = self.events.clone();
        let started = self.engine.go(
            limits,
            reporter,
            Box::new(move |done| {
                let _ = tx.send(events::best_move(&done));
            }),
        );
        if started.is_err() {
            self.analysing = false;
        }
    }

    /// Tells the pages that the position changed.
    fn announce(&self) {
        let _ = self
            .events
            .send(events::position_changed(self.history.len()));
    }
}

/// A Chess960 start number from the clock (the board's "new game" deals a fresh array).
fn random_start() -> u32 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos() as u64 ^ d.as_secs());
    (nanos.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as u32 % 960
}
