//! Openings for self-play and for OpenBench: a start (the variant's start position or a random
//! line of a book) followed by random legal plies, kept when the game goes on and, if asked, a
//! short search finds the result no more than [`MAX_IMBALANCE`] centipawns from level.
//! `chimera datagen` and `genfens` draw their openings here; both also take the seeded
//! generator and the fixed-node search from here.

pub mod genfens;

use crate::eval::EvalParams;
use crate::geometry::Color;
use crate::movegen::legal_moves;
use crate::moves::Move;
use crate::moves::MoveList;
use crate::position::{Position, Variant};
use crate::rules::outcome::verdict;
use crate::search::{search, with_quiet_flags, HistoryPool, SearchLimits, SearchOptions, Silent};
use crate::tt::TranspositionTable;

/// Openings whose short search scores beyond this (centipawns) are dropped.
pub const MAX_IMBALANCE: i32 = 300;
/// Attempts per opening before giving up (a variant whose games keep ending at once).
pub const ATTEMPTS: usize = 10_000;

/// A small seeded generator (splitmix64), for openings and the tuner's synthetic tests.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n` > 0).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// One search of `pos` at `nodes` nodes, silent and single-threaded: best move and score for
/// White.
pub(crate) fn search_move(
    pos: &Position,
    nodes: u64,
    tt: &TranspositionTable,
    histories: &HistoryPool,
    eval: &EvalParams,
) -> (Move, i32) {
    let limits = SearchLimits::of_nodes(nodes);
    let r = with_quiet_flags(tt, eval, histories, |ctx| {
        search(pos, &limits, &SearchOptions::default(), ctx, &Silent)
    });
    let white = match pos.chooser() {
        Color::White => r.score,
        Color::Black => -r.score,
    };
    (r.best, white)
}

/// Where openings come from and what they must satisfy.
pub struct OpeningSource {
    /// The starts: the book's positions, or the start position alone.
    starts: Vec<Position>,
    /// Instead of `starts`, a random Chess960 start (`Some(false)`: one array for both sides;
    /// `Some(true)`: double Chess960, each side its own).
    chess960: Option<(bool, &'static Variant)>,
    /// Random plies played from a start.
    pub plies: usize,
    /// Nodes of the balance check (0: every opening that goes on is kept).
    pub balance_nodes: u64,
}

/// The searcher's state for balance checks (one per thread).
pub struct Checker<'a> {
    /// Cleared before each check, so a check does not depend on the one before.
    pub tt: &'a TranspositionTable,
    /// The search's histories.
    pub histories: &'a HistoryPool,
    /// The evaluation.
    pub eval: &'a EvalParams,
}

impl OpeningSource {
    /// Openings from `book` (a file of FEN or EPD lines; `None`: the start position).
    pub fn new(
        rules: &'static Variant,
        book: Option<&str>,
        plies: usize,
        balance_nodes: u64,
    ) -> Result<OpeningSource, String> {
        let starts = match book {
            Some(path) => read_book(path, rules)?,
            None => vec![Position::startpos(rules)],
        };
        Ok(OpeningSource {
            starts,
            chess960: None,
            plies,
            balance_nodes,
        })
    }

    /// Starts from random Chess960 arrays instead (`double`: each side its own), in a variant
    /// with `chess960 = true`.
    pub fn with_chess960(mut self, rules: &'static Variant, double: bool) -> Result<Self, String> {
        if !rules.chess960 {
            return Err(format!(
                "Chess960 starts need a Chess960 variant (fischerandom), not {}",
                rules.name
            ));
        }
        self.chess960 = Some((double, rules));
        Ok(self)
    }

    /// A start drawn with `rng`.
    fn start(&self, rng: &mut Rng) -> Position {
        match self.chess960 {
            Some((double, rules)) => {
                let white = rng.below(960) as u32;
                let black = if double { rng.below(960) as u32 } else { white };
                let fen =
                    crate::position::chess960::start_fen(white, black).expect("numbers below 960");
                Position::from_fen(rules, &fen).expect("Chess960 starts are legal")
            }
            None => self.starts[rng.below(self.starts.len())].clone(),
        }
    }

    /// One opening drawn with `rng`, or `None` after [`ATTEMPTS`] starts that all ended the
    /// game or were too far from level.
    pub(crate) fn draw(&self, rng: &mut Rng, checker: &Checker) -> Option<Position> {
        for _ in 0..ATTEMPTS {
            let start = self.start(rng);
            let Some(pos) = random_line(&start, rng, self.plies) else {
                continue;
            };
            if self.balance_nodes == 0 || balanced(&pos, self.balance_nodes, checker) {
                return Some(pos);
            }
        }
        None
    }
}

/// `start` followed by `plies` uniformly random legal plies, none of which ends the game (up
/// to 1000 tries; `None` when every try ended it).
pub(crate) fn random_line(start: &Position, rng: &mut Rng, plies: usize) -> Option<Position> {
    'attempt: for _ in 0..1000 {
        let mut pos = start.clone();
        for _ in 0..plies {
            let mut list = MoveList::new();
            legal_moves(&mut pos, &mut list);
            if list.is_empty() {
                continue 'attempt;
            }
            pos.make(list.as_slice()[rng.below(list.len())]);
            if verdict(&mut pos).is_some() {
                continue 'attempt;
            }
        }
        return Some(pos);
    }
    None
}

/// Whether a short search of `pos` finds it level enough to play from.
fn balanced(pos: &Position, nodes: u64, checker: &Checker) -> bool {
    checker.tt.clear();
    checker.histories.clear();
    let (best, white_score) = search_move(pos, nodes, checker.tt, checker.histories, checker.eval);
    !best.is_none() && white_score.abs() <= MAX_IMBALANCE
}

/// The book's positions, one a line (an EPD line's operations after the four board fields are
/// dropped); every line must load.
pub fn read_book(path: &str, rules: &'static Variant) -> Result<Vec<Position>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let mut book = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line
            .split(';')
            .next()
            .unwrap_or("")
            .split_whitespace()
            .collect();
        // an EPD line has four board fields and then operations (hmvc 0; fmvn 1;)
        let fen = match fields.len() {
            n if n >= 6 && fields[4].parse::<u32>().is_ok() => fields.join(" "),
            n if n >= 4 => fields[..4].join(" "),
            _ => return Err(format!("{path}:{}: not a FEN or EPD line", i + 1)),
        };
        let pos = Position::from_fen(rules, &fen).map_err(|e| format!("{path}:{}: {e}", i + 1))?;
        book.push(pos);
    }
    if book.is_empty() {
        return Err(format!("{path}: no positions"));
    }
    Ok(book)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::builtin_variants;

    #[test]
    fn lines_are_reproducible_and_go_on() {
        crate::geometry::attacks::init();
        let chess = builtin_variants().get("chess").expect("chess");
        let start = Position::startpos(chess);
        let a = random_line(&start, &mut Rng(5), 8).expect("opening");
        let b = random_line(&start, &mut Rng(5), 8).expect("opening");
        assert_eq!(a.fen(), b.fen());
        assert_eq!(a.fullmove_number(), 5);
    }

    #[test]
    fn balance_check_drops_lopsided_openings() {
        crate::geometry::attacks::init();
        let chess = builtin_variants().get("chess").expect("chess");
        let dir = std::env::temp_dir().join(format!("chimera-book-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        // White a queen up, and a level position: only the second survives the check
        let path = dir.join("book.epd");
        std::fs::write(
            &path,
            "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - hmvc 0; fmvn 1;\n\
             rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\n",
        )
        .expect("book");
        let path = path.to_str().expect("utf-8");
        let (tt, histories, eval) = (
            TranspositionTable::new(1),
            HistoryPool::new(),
            EvalParams::new(chess),
        );
        let checker = Checker {
            tt: &tt,
            histories: &histories,
            eval: &eval,
        };
        let checked = OpeningSource::new(chess, Some(path), 0, 500).expect("book loads");
        let unchecked = OpeningSource::new(chess, Some(path), 0, 0).expect("book loads");
        let mut rng = Rng(3);
        let queen_up = |p: &Position| p.fen().starts_with("rnb1kbnr");
        let kept: Vec<bool> = (0..20)
            .map(|_| queen_up(&checked.draw(&mut rng, &checker).expect("level one")))
            .collect();
        assert!(kept.iter().all(|q| !q), "a lopsided opening was kept");
        let drawn: Vec<bool> = (0..20)
            .map(|_| queen_up(&unchecked.draw(&mut rng, &checker).expect("any")))
            .collect();
        assert!(drawn.iter().any(|q| *q), "without the check both are drawn");
        std::fs::write(dir.join("bad.epd"), "not a fen\n").expect("bad book");
        let bad = dir.join("bad.epd");
        let err = OpeningSource::new(chess, bad.to_str(), 0, 0)
            .err()
            .expect("refused");
        assert!(err.contains("bad.epd:1"), "{err}");
        std::fs::remove_dir_all(&dir).ok();
    }
}
