//! The referee of one Foreign Policy game: three seats, one engine and one clock per player.
//!
//! The referee holds the `FpPosition` and asks only the engine of the player to move. A player
//! whose only move is the pass (FP-10) is not asked: the referee plays `0000` for it, so an
//! engine never has to find out that it has nothing to do. The game ends by the rules
//! (`FpPosition::outcome`: FP-9's king captures, FP-11's draws), by `-maxmoves` (a draw among
//! the players still in after N rounds), or by a fault. A fault (illegal or unparsable move,
//! crash, stall, time forfeit) puts THAT player out with a loss, and the game ends as a draw
//! among the others (FP-11's "draw among the players still in the game", as if they agreed
//! to it; a single remaining player wins). The faulty engine alone is punished.

use super::client::{Answer, Client, Fault, GameView};
use super::observer::OnMove;
use super::referee::{fault_words, Termination};
use super::timecontrol::Clock;
use crate::foreignpolicy::outcome::shared_draw;
use crate::foreignpolicy::{move_to_string, Alive, FpPosition, Player, Results, NAME, PASS};
use crate::moves::MoveList;
use crate::variant::GameValue;
use std::sync::atomic::{AtomicBool, Ordering};

/// A game to play.
pub struct FpSetup<'a> {
    /// Start position.
    pub start: FpPosition,
    /// Start FP-FEN to send, or `None` for the standard start.
    pub fen: Option<&'a str>,
    /// Draw among the remaining players after this many rounds (`-maxmoves`).
    pub max_rounds: Option<u32>,
    /// Called with the moves so far after every ply (`-serve`).
    pub on_move: OnMove<'a>,
}

/// One ply of the record.
#[derive(Clone, Debug)]
pub struct Ply {
    /// The round (FP-FEN's counter) the ply was played in.
    pub round: u32,
    /// Who played it.
    pub player: Player,
    /// The move in coordinate notation (`0000` for a pass).
    pub text: String,
    /// A note after it (an elimination).
    pub comment: Option<String>,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct FpRecord {
    /// Every ply played.
    pub plies: Vec<Ply>,
    /// Each player's result, indexed South, North, Peacekeeper.
    pub results: Results,
    /// Why it ended, as the PGN `Termination` tag says it.
    pub termination: Termination,
    /// In words, for the PGN comment.
    pub reason: String,
    /// The player whose engine failed and needs a fresh process.
    pub failed: Option<Player>,
}

/// How a game ended, before the plies are added.
struct Ended {
    results: Results,
    termination: Termination,
    reason: String,
    failed: Option<Player>,
}

/// Names joined as "South", "South and North", "South, North and Peacekeeper".
fn names(players: impl Iterator<Item = Player>) -> String {
    let v: Vec<&str> = players.map(Player::name).collect();
    match v.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        Some((last, _)) => last.to_string(),
        None => String::new(),
    }
}

/// The result when `p` is out by a fault: a loss for it, a draw among the others still in
/// (a win if only one is left).
pub fn fault_results(alive: Alive, p: Player) -> Results {
    let rest = alive.without(p);
    let mut r = shared_draw(rest);
    if rest.count() == 1 {
        for q in rest.iter() {
            r[q.index()] = GameValue::Win;
        }
    }
    r
}

/// The end of the game by a fault of `p`.
fn out(pos: &FpPosition, p: Player, termination: Termination, why: String, failed: bool) -> Ended {
    let results = fault_results(pos.alive(), p);
    let rest = pos.alive().without(p);
    let after = if rest.count() == 1 {
        format!("{} wins", names(rest.iter()))
    } else {
        format!("{} share the draw", names(rest.iter()))
    };
    Ended {
        results,
        termination,
        reason: format!("{why}; {} is out, {after}", p.name()),
        failed: failed.then_some(p),
    }
}

/// The end of the game by an engine failure of `p`.
fn fault(pos: &FpPosition, p: Player, f: Fault) -> Ended {
    let (term, what) = fault_words(f.kind, p.name());
    out(pos, p, term, format!("{what}: {}", f.detail), true)
}

/// Words for a game the rules ended with `r`.
fn verdict_words(pos: &FpPosition, r: &Results) -> String {
    let how = if pos.is_over() {
        "king capture"
    } else if pos.threefold() {
        "threefold repetition"
    } else {
        "the move rule"
    };
    let with = |v: GameValue| Player::ALL.into_iter().filter(move |p| r[p.index()] == v);
    match with(GameValue::Win).next() {
        Some(w) => format!("{} wins by {how}", w.name()),
        None => format!("{} draw by {how}", names(with(GameValue::Draw))),
    }
}

/// Plays one game; `seats` and `clocks` are indexed by player (South, North, Peacekeeper).
/// `None` if interrupted.
pub fn play(
    setup: &FpSetup,
    seats: &mut [Client],
    clocks: &mut [Clock],
    margins: &[u64],
    interrupt: &AtomicBool,
) -> Option<FpRecord> {
    let mut plies = Vec::new();
    let ended = referee(setup, seats, clocks, margins, interrupt, &mut plies)?;
    Some(FpRecord {
        plies,
        results: ended.results,
        termination: ended.termination,
        reason: ended.reason,
        failed: ended.failed,
    })
}

/// The view a client needs: a three-player game has one clock per player, passed as both
/// entries with `own = 0`, so the engine reads its own clock as `wtime`.
fn view<'a>(setup: &FpSetup<'a>, moves: &'a [String], clock: &'a Clock) -> GameView<'a> {
    GameView {
        variant: NAME,
        fen: setup.fen,
        moves,
        xboard_moves: None,
        clocks: [clock, clock],
        own: 0,
        searchmoves: None,
    }
}

/// The game loop; the plies played are left in `plies`.
fn referee(
    setup: &FpSetup,
    seats: &mut [Client],
    clocks: &mut [Clock],
    margins: &[u64],
    interrupt: &AtomicBool,
    plies: &mut Vec<Ply>,
) -> Option<Ended> {
    let mut pos = setup.start.clone();
    let first_round = pos.round();
    let mut texts: Vec<String> = Vec::new();
    for p in Player::ALL {
        let v = view(setup, &[], &clocks[p.index()]);
        if let Err(f) = seats[p.index()].new_game(&v, interrupt) {
            return Some(fault(&pos, p, f));
        }
    }
    loop {
        if interrupt.load(Ordering::Relaxed) {
            return None;
        }
        if let Some(r) = pos.outcome() {
            let reason = verdict_words(&pos, &r);
            return Some(Ended {
                results: r,
                termination: Termination::Normal,
                reason,
                failed: None,
            });
        }
        if let Some(max) = setup.max_rounds {
            if pos.round() >= first_round + max {
                return Some(Ended {
                    results: shared_draw(pos.alive()),
                    termination: Termination::Adjudication,
                    reason: format!(
                        "{} draw by adjudication: {max} rounds played",
                        names(pos.alive().iter())
                    ),
                    failed: None,
                });
            }
        }
        let p = pos.side_to_move();
        let mv = if only_pass(&pos) {
            PASS
        } else {
            match ask(&pos, setup, seats, clocks, margins, &texts, interrupt) {
                Asked::Move(m) => m,
                Asked::End(e) => return Some(e),
                Asked::Interrupted => return None,
            }
        };
        let (round, before) = (pos.round(), pos.alive());
        let text = move_to_string(mv);
        pos.make(mv);
        let comment = before
            .iter()
            .find(|&q| !pos.alive().has(q))
            .map(|q| format!("{} is eliminated: {} takes its king", q.name(), p.name()));
        texts.push(text.clone());
        if let Some(report) = setup.on_move {
            report(&texts);
        }
        plies.push(Ply {
            round,
            player: p,
            text,
            comment,
        });
    }
}

/// Whether the player to move has nothing but the pass (FP-10).
fn only_pass(pos: &FpPosition) -> bool {
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    list.len() == 1 && list[0] == PASS
}

/// What asking the player to move gave.
enum Asked {
    Move(crate::moves::Move),
    End(Ended),
    Interrupted,
}

/// Asks the engine of the player to move, charges its clock and checks its move.
fn ask(
    pos: &FpPosition,
    setup: &FpSetup,
    seats: &mut [Client],
    clocks: &mut [Clock],
    margins: &[u64],
    texts: &[String],
    interrupt: &AtomicBool,
) -> Asked {
    let p = pos.side_to_move();
    let i = p.index();
    let v = view(setup, texts, &clocks[i]);
    let (text, used) = match seats[i].request(&v, interrupt) {
        Ok(Answer::Interrupted) => return Asked::Interrupted,
        Ok(Answer::Resign) => {
            let why = format!("{} resigns", p.name());
            return Asked::End(out(pos, p, Termination::Normal, why, false));
        }
        Ok(Answer::Move { text, used, .. }) => (text, used),
        Err(f) => return Asked::End(fault(pos, p, f)),
    };
    if !clocks[i].charge(used, margins[i]) {
        let why = format!("{} loses on time", p.name());
        return Asked::End(out(pos, p, Termination::TimeForfeit, why, false));
    }
    match pos.parse_move(&text) {
        Ok(m) => Asked::Move(m),
        Err(e) => {
            let shown = if text.is_empty() { "(none)" } else { &text };
            let why = format!("{} makes an illegal move: {shown} ({e})", p.name());
            Asked::End(out(pos, p, Termination::IllegalMove, why, true))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use GameValue::*;

    #[test]
    fn a_fault_loses_for_that_player_only() {
        let all = Alive::ALL;
        assert_eq!(
            fault_results(all, Player::North),
            [Draw, Loss, Draw],
            "the other two share the draw"
        );
        // North already eliminated: the Peacekeeper is left alone and wins
        let sp = all.without(Player::North);
        assert_eq!(fault_results(sp, Player::South), [Loss, Loss, Win]);
        assert_eq!(
            names(Player::ALL.into_iter()),
            "South, North and Peacekeeper"
        );
    }

    #[test]
    fn the_words_of_a_result() {
        let pos = FpPosition::startpos();
        assert_eq!(
            verdict_words(&pos, &[Draw, Draw, Draw]),
            "South, North and Peacekeeper draw by the move rule"
        );
        assert_eq!(
            verdict_words(&pos, &[Win, Loss, Loss]),
            "South wins by the move rule"
        );
    }
}
