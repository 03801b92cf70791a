//! The referee of one game: our rules decide what is legal and when the game ends.
//!
//! Every ply is asked of the engine in the seat of `Position::chooser()`, never "the other
//! engine": in the 007 family a player chooses several plies in a row (and plies of the other
//! colour). Players sit in seats, one per colour today; a three-player game would add a seat,
//! not a flag. Each answer is checked against the legal moves and stored in canonical
//! notation. An illegal or unparsable move, a crash, a time forfeit or a hang loses the game
//! for that engine; otherwise the game ends by the variant's own rules (`rules::outcome`) or by
//! adjudication.

use super::client::{Answer, Client, Fault, FaultKind, GameView};
use super::observer::OnMove;
use super::timecontrol::Clock;
use crate::geometry::Color;
use crate::movegen::{castling_name, move_to_string, parse_move};
use crate::moves::Move;
use crate::position::Position;
use crate::rules::outcome::{verdict, Outcome};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// Draw adjudication: after `move_number` full moves, a game whose scores stayed within
/// `score` centipawns for `move_count` consecutive moves of every player is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRule {
    /// First full move at which the rule may apply.
    pub move_number: u32,
    /// Consecutive moves per player.
    pub move_count: u32,
    /// Largest absolute score, in centipawns.
    pub score: i32,
}

/// Resign adjudication: a player whose own score was at or below `-score` for `move_count`
/// consecutive moves loses (with `two_sided`, only if its opponent agreed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResignRule {
    /// Consecutive moves.
    pub move_count: u32,
    /// Score threshold in centipawns.
    pub score: i32,
    /// Whether the opponent's score must also show the win.
    pub two_sided: bool,
}

/// Adjudication settings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Adjudication {
    /// Draw rule.
    pub draw: Option<DrawRule>,
    /// Resign rule.
    pub resign: Option<ResignRule>,
    /// Draw after this many full moves.
    pub max_moves: Option<u32>,
}

/// Why a game ended, as the PGN `Termination` tag says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Termination {
    /// By the rules (mate, stalemate, repetition, move rule...) or resignation.
    Normal,
    /// By the referee's adjudication rules.
    Adjudication,
    /// A player's time ran out.
    TimeForfeit,
    /// A player moved illegally.
    IllegalMove,
    /// A player rejected a legal move.
    RulesInfraction,
    /// A player's engine crashed or exited.
    Abandoned,
    /// A player's engine stopped answering.
    Stalled,
}

impl Termination {
    /// The PGN tag value (as cutechess-cli writes them).
    pub fn tag(self) -> &'static str {
        match self {
            Termination::Normal => "normal",
            Termination::Adjudication => "adjudication",
            Termination::TimeForfeit => "time forfeit",
            Termination::IllegalMove => "illegal move",
            Termination::RulesInfraction => "rules infraction",
            Termination::Abandoned => "abandoned",
            Termination::Stalled => "stalled connection",
        }
    }
}

/// A finished game.
pub struct GameRecord {
    /// The position the game started from (after nothing).
    pub start: Position,
    /// Every ply played, opening moves included.
    pub moves: Vec<Move>,
    /// What the engine said with each ply (`None` for the opening's), for the PGN.
    pub notes: Vec<Option<MoveNote>>,
    /// The result.
    pub outcome: Outcome,
    /// Why it ended.
    pub termination: Termination,
    /// In words, for the PGN comment.
    pub reason: String,
    /// Seats whose engine failed and needs a fresh process.
    pub failed: Vec<bool>,
}

/// What an engine said with one ply: its last score (centipawns for its own side, a mate in
/// `n` moves as +-(100000 - n), as the client reads UCI's `score mate n`) and depth, and the
/// time the referee measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveNote {
    /// The score.
    pub score: Option<i32>,
    /// The depth reported with it.
    pub depth: Option<u32>,
    /// The thinking time.
    pub used: Duration,
}

impl MoveNote {
    /// The comment cutechess-cli writes after a move: `+0.31/12 0.412s`, `+M3/20 1.020s` for a
    /// mate in three, `-M2/9 ...` when mated in two; `0.412s` alone without a score.
    pub fn pgn_comment(&self) -> String {
        let time = format!("{:.3}s", self.used.as_secs_f64());
        let Some(s) = self.score else {
            return time;
        };
        let value = if s.abs() > 99_000 {
            format!("{}M{}", if s > 0 { '+' } else { '-' }, 100_000 - s.abs())
        } else {
            format!("{:+.2}", s as f64 / 100.0)
        };
        match self.depth {
            Some(d) => format!("{value}/{d} {time}"),
            None => format!("{value} {time}"),
        }
    }
}

/// A game to play.
pub struct GameSetup<'a> {
    /// Start position.
    pub start: Position,
    /// Opening moves (canonical), already checked legal.
    pub opening: &'a [String],
    /// Start FEN to send, or `None` for the variant's start position.
    pub fen: Option<&'a str>,
    /// Adjudication rules.
    pub adjudication: Adjudication,
    /// Called with the moves so far after every ply (`-serve`).
    pub on_move: OnMove<'a>,
}

/// The seat of the player of `color` in a two-player game.
pub fn seat_of(color: Color) -> usize {
    color.index()
}

/// `m` as XBoard engines read it: in Chess960 castling is `O-O` or `O-O-O` (CECP's
/// FischerRandom castling), every other move in our notation.
fn xboard_spelling(pos: &Position, m: Move) -> String {
    match castling_name(m) {
        Some(name) if pos.rules().chess960 => name.into(),
        _ => move_to_string(pos, m).to_string(),
    }
}

/// How a game ended, before it is wrapped into a record.
struct Ended {
    outcome: Outcome,
    termination: Termination,
    reason: String,
    /// The seat whose engine failed, if one did.
    faulty: Option<usize>,
}

impl Ended {
    fn new(outcome: Outcome, termination: Termination, reason: String) -> Ended {
        Ended {
            outcome,
            termination,
            reason,
            faulty: None,
        }
    }

    /// The player in `seat` loses; `faulty` if its engine needs a fresh process.
    fn loss(seat: usize, termination: Termination, reason: String, faulty: bool) -> Ended {
        Ended {
            outcome: Outcome::Win(Color::from_index(seat).flip()),
            termination,
            reason,
            faulty: faulty.then_some(seat),
        }
    }

    /// The engine in `seat` failed.
    fn fault(seat: usize, f: Fault) -> Ended {
        let (term, what) = fault_words(f.kind, who(seat));
        Ended::loss(seat, term, format!("{what}: {}", f.detail), true)
    }
}

/// The name of the player in `seat` for the PGN comment.
fn who(seat: usize) -> &'static str {
    Color::from_index(seat).name()
}

/// Plays one game between the clients (by seat). `None` if interrupted.
pub fn play(
    setup: &GameSetup,
    seats: &mut [Client],
    clocks: &mut [Clock],
    margins: &[u64],
    variant: &str,
    interrupt: &AtomicBool,
) -> Option<GameRecord> {
    let mut moves = Vec::new();
    let mut notes = Vec::new();
    let played = Played {
        moves: &mut moves,
        notes: &mut notes,
    };
    let ended = referee(setup, seats, clocks, margins, variant, interrupt, played)?;
    let mut failed = vec![false; seats.len()];
    if let Some(s) = ended.faulty {
        failed[s] = true;
    }
    Some(GameRecord {
        start: setup.start.clone(),
        moves,
        notes,
        outcome: ended.outcome,
        termination: ended.termination,
        reason: ended.reason,
        failed,
    })
}

/// Where the game loop leaves the plies played and what the engines said with them.
struct Played<'a> {
    moves: &'a mut Vec<Move>,
    notes: &'a mut Vec<Option<MoveNote>>,
}

/// The game loop; the moves played are left in `played`.
fn referee(
    setup: &GameSetup,
    seats: &mut [Client],
    clocks: &mut [Clock],
    margins: &[u64],
    variant: &str,
    interrupt: &AtomicBool,
    played: Played,
) -> Option<Ended> {
    let Played { moves, notes } = played;
    let mut pos = setup.start.clone();
    let mut texts: Vec<String> = Vec::new();
    let mut xboard_texts: Vec<String> = Vec::new();
    for t in setup.opening {
        // the opening was validated when loaded
        let m = parse_move(&mut pos, t).ok()?;
        texts.push(move_to_string(&pos, m).to_string());
        xboard_texts.push(xboard_spelling(&pos, m));
        pos.make(m);
        moves.push(m);
        notes.push(None);
    }
    let mut scores: Vec<Vec<Option<i32>>> = vec![Vec::new(); seats.len()];
    for (seat, client) in seats.iter_mut().enumerate() {
        let view = GameView {
            variant,
            fen: setup.fen,
            moves: &[],
            xboard_moves: None,
            clocks: [&clocks[0], &clocks[1]],
            own: seat,
            searchmoves: None,
        };
        if let Err(f) = client.new_game(&view, interrupt) {
            return Some(Ended::fault(seat, f));
        }
    }
    loop {
        if interrupt.load(std::sync::atomic::Ordering::Relaxed) {
            return None;
        }
        if let Some(v) = verdict(&mut pos) {
            let text = match v.outcome {
                Outcome::Win(c) => format!("{} wins by {}", c.name(), v.reason),
                Outcome::Draw => format!("Draw by {}", v.reason),
            };
            return Some(Ended::new(v.outcome, Termination::Normal, text));
        }
        if let Some(max) = setup.adjudication.max_moves {
            if pos.moves_played() as u32 >= 2 * max {
                return Some(Ended::new(
                    Outcome::Draw,
                    Termination::Adjudication,
                    format!("Draw by adjudication: {max} moves played"),
                ));
            }
        }
        let seat = seat_of(pos.chooser());
        let view = GameView {
            variant,
            fen: setup.fen,
            moves: &texts,
            xboard_moves: Some(&xboard_texts),
            clocks: [&clocks[0], &clocks[1]],
            own: seat,
            searchmoves: None,
        };
        let asked = answer(&mut seats[seat], seat, &view, interrupt).and_then(|(text, note)| {
            charge(&mut clocks[seat], seat, note.used, margins[seat])?;
            Ok((text, note))
        });
        let (text, note) = match asked {
            Ok(a) => a,
            Err(ended) => return ended,
        };
        let mv = match parse_move(&mut pos, &text) {
            Ok(m) => m,
            // parse_move reads an XBoard engine's O-O too
            Err(e) => {
                let shown = if text.is_empty() { "(none)" } else { &text };
                let why = format!("{} makes an illegal move: {shown} ({e})", who(seat));
                return Some(Ended::loss(seat, Termination::IllegalMove, why, true));
            }
        };
        let mv = if pos.owner_picks_promotion(mv) {
            let owner = Asked {
                seats: &mut *seats,
                clocks: &mut *clocks,
                margins,
                variant,
                fen: setup.fen,
                moves: &texts,
                interrupt,
            };
            match ask_owner(owner, &mut pos, mv) {
                Ok(m) => m,
                Err(ended) => return ended,
            }
        } else {
            mv
        };
        texts.push(move_to_string(&pos, mv).to_string());
        xboard_texts.push(xboard_spelling(&pos, mv));
        pos.make(mv);
        moves.push(mv);
        notes.push(Some(note));
        if let Some(report) = setup.on_move {
            report(&texts);
        }
        scores[seat].push(note.score);
        if let Some((outcome, reason)) = adjudicate(&setup.adjudication, &scores, seat, &pos) {
            return Some(Ended::new(outcome, Termination::Adjudication, reason));
        }
    }
}

/// Asks the engine in `seat` for its answer to `view`: the move text, and the time it took
/// with its score and depth. `Err(None)`: interrupted; `Err(Some(end))`: it resigned or failed.
fn answer(
    client: &mut Client,
    seat: usize,
    view: &GameView,
    interrupt: &AtomicBool,
) -> Result<(String, MoveNote), Option<Ended>> {
    match client.request(view, interrupt) {
        Ok(Answer::Interrupted) => Err(None),
        Ok(Answer::Resign) => {
            let why = format!("{} resigns", who(seat));
            Err(Some(Ended::loss(seat, Termination::Normal, why, false)))
        }
        Ok(Answer::Move {
            text,
            used,
            score,
            depth,
        }) => Ok((text, MoveNote { score, depth, used })),
        Err(f) => Err(Some(Ended::fault(seat, f))),
    }
}

/// Charges `used` to the clock of `seat`; a forfeit ends the game.
fn charge(
    clock: &mut Clock,
    seat: usize,
    used: Duration,
    margin: u64,
) -> Result<(), Option<Ended>> {
    if clock.charge(used, margin) {
        return Ok(());
    }
    let why = format!("{} loses on time", who(seat));
    Err(Some(Ended::loss(
        seat,
        Termination::TimeForfeit,
        why,
        false,
    )))
}

/// What asking one more player in the middle of a ply needs.
struct Asked<'a> {
    seats: &'a mut [Client],
    clocks: &'a mut [Clock],
    margins: &'a [u64],
    variant: &'a str,
    fen: Option<&'a str>,
    moves: &'a [String],
    interrupt: &'a AtomicBool,
}

/// `promotionChooser = owner`: the chooser has moved an enemy pawn to promotion (`mv`); the
/// pawn's owner is asked for the piece, as `go searchmoves` over the promotions of that pawn
/// move (on its own clock). Its answer must be one of them; anything else loses for it.
/// `Err(None)`: interrupted; `Err(Some(end))`: the game ended.
fn ask_owner(asked: Asked, pos: &mut Position, mv: Move) -> Result<Move, Option<Ended>> {
    let seat = seat_of(pos.side_to_move());
    let choices: Vec<Move> = pos
        .rules()
        .promotion_types
        .iter()
        .map(|&t| Move::promotion(mv.from(), mv.to(), t))
        .collect();
    let texts: Vec<String> = choices
        .iter()
        .map(|&m| move_to_string(pos, m).to_string())
        .collect();
    let view = GameView {
        variant: asked.variant,
        fen: asked.fen,
        moves: asked.moves,
        xboard_moves: None,
        clocks: [&asked.clocks[0], &asked.clocks[1]],
        own: seat,
        searchmoves: Some(&texts),
    };
    let (text, note) = answer(&mut asked.seats[seat], seat, &view, asked.interrupt)?;
    charge(
        &mut asked.clocks[seat],
        seat,
        note.used,
        asked.margins[seat],
    )?;
    match texts.iter().position(|t| *t == text) {
        Some(k) => Ok(choices[k]),
        None => {
            let why = format!(
                "{} makes an illegal move: {text} (the owner of the pawn picks its piece among {})",
                who(seat),
                texts.join(" ")
            );
            Err(Some(Ended::loss(seat, Termination::IllegalMove, why, true)))
        }
    }
}

/// The termination and the words for a fault of the player `who`.
pub(super) fn fault_words(kind: FaultKind, who: &str) -> (Termination, String) {
    match kind {
        FaultKind::IllegalMove => (
            Termination::IllegalMove,
            format!("{who} makes an illegal move"),
        ),
        FaultKind::Rejected => (
            Termination::RulesInfraction,
            format!("{who} rejects a legal move"),
        ),
        FaultKind::Crashed => (
            Termination::Abandoned,
            format!("{who}'s engine disconnects"),
        ),
        FaultKind::TimeForfeit => (Termination::TimeForfeit, format!("{who} loses on time")),
        FaultKind::Stalled => (Termination::Stalled, format!("{who}'s connection stalls")),
    }
}

/// The last `k` scores of a seat, if it has that many and all were reported.
fn last(scores: &[Option<i32>], k: usize) -> Option<Vec<i32>> {
    if k == 0 || scores.len() < k {
        return None;
    }
    scores[scores.len() - k..].iter().copied().collect()
}

/// Applies the adjudication rules after `seat` moved.
fn adjudicate(
    a: &Adjudication,
    scores: &[Vec<Option<i32>>],
    seat: usize,
    pos: &Position,
) -> Option<(Outcome, String)> {
    if let Some(r) = a.resign {
        let k = r.move_count as usize;
        let losing = last(&scores[seat], k).is_some_and(|s| s.iter().all(|&v| v <= -r.score));
        let agreed = !r.two_sided
            || (0..scores.len())
                .filter(|&o| o != seat)
                .all(|o| last(&scores[o], k).is_some_and(|s| s.iter().all(|&v| v >= r.score)));
        if losing && agreed {
            let c = Color::from_index(seat);
            return Some((
                Outcome::Win(c.flip()),
                format!("{} wins by adjudication (resign rule)", c.flip().name()),
            ));
        }
    }
    if let Some(d) = a.draw {
        let k = d.move_count as usize;
        if pos.fullmove_number() > d.move_number
            && scores
                .iter()
                .all(|s| last(s, k).is_some_and(|v| v.iter().all(|x| x.abs() <= d.score)))
        {
            return Some((
                Outcome::Draw,
                "Draw by adjudication (draw rule)".to_string(),
            ));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::builtin_variants;

    #[test]
    fn move_notes_read_as_cutechess_writes_them() {
        let note = |score, depth, ms| MoveNote {
            score,
            depth,
            used: Duration::from_millis(ms),
        };
        assert_eq!(
            note(Some(31), Some(12), 412).pgn_comment(),
            "+0.31/12 0.412s"
        );
        assert_eq!(note(Some(-5), Some(3), 7).pgn_comment(), "-0.05/3 0.007s");
        assert_eq!(note(Some(0), None, 1500).pgn_comment(), "+0.00 1.500s");
        // UCI's `score mate 3` and `score mate -2`, as the client reads them
        assert_eq!(
            note(Some(99_997), Some(20), 1020).pgn_comment(),
            "+M3/20 1.020s"
        );
        assert_eq!(
            note(Some(-99_998), Some(9), 30).pgn_comment(),
            "-M2/9 0.030s"
        );
        assert_eq!(note(None, None, 250).pgn_comment(), "0.250s");
    }

    #[test]
    fn adjudication_rules() {
        let pos = Position::from_fen(
            builtin_variants().get("chess").expect("chess"),
            "4k3/8/8/8/8/8/8/4K3 w - - 0 41",
        )
        .expect("fen");
        let a = Adjudication {
            draw: Some(DrawRule {
                move_number: 40,
                move_count: 2,
                score: 10,
            }),
            resign: Some(ResignRule {
                move_count: 2,
                score: 500,
                two_sided: true,
            }),
            max_moves: None,
        };
        let calm = vec![vec![Some(3), Some(-5)], vec![Some(0), Some(10)]];
        assert_eq!(
            adjudicate(&a, &calm, 0, &pos).map(|r| r.0),
            Some(Outcome::Draw)
        );
        let gap = vec![vec![None, Some(-5)], vec![Some(0), Some(10)]];
        assert_eq!(adjudicate(&a, &gap, 0, &pos), None);
        let lost = vec![vec![Some(-600), Some(-900)], vec![Some(700), Some(800)]];
        assert_eq!(
            adjudicate(&a, &lost, 0, &pos).map(|r| r.0),
            Some(Outcome::Win(Color::Black))
        );
        // two-sided: the opponent does not agree yet
        let hopeful = vec![vec![Some(-600), Some(-900)], vec![Some(100), Some(800)]];
        assert_eq!(adjudicate(&a, &hopeful, 0, &pos), None);
    }
}
