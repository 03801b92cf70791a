//! Game end: checkmate, stalemate, extinction, the move rule and repetition, valued by the
//! variant's keys (`checkmateValue`, `stalemateValue`, `extinctionValue`, `nMoveRule`,
//! `nFoldRule`). Used by the search (cheap checks) and by protocols (the full verdict).

use crate::geometry::Color;
use crate::movegen::{in_check, legal_moves, ordinary_legal_moves};
use crate::moves::MoveList;
use crate::position::{Hooks, Position};
use crate::variant::GameValue;
pub use crate::variant::{Outcome, Verdict};

/// Turns a value for `side` into an outcome.
pub fn outcome_for(side: Color, value: GameValue) -> Outcome {
    Outcome::for_side(side, value)
}

/// Value for the side to move if its extinction pieces are all gone.
#[inline]
pub fn extinction(pos: &Position) -> Option<GameValue> {
    let rules = pos.rules();
    let value = rules.extinction_value?;
    let us = pos.side_to_move();
    let gone = rules
        .extinction_types
        .iter()
        .any(|&t| pos.pieces_of(us, t).is_empty());
    gone.then_some(value)
}

/// The value, for the side to move, of having no legal move: what a mechanic judging the end
/// of the game says; else `checkmateValue` in check; otherwise `barredValue` when a
/// mechanic's legality filter alone barred every move that is legal under the ordinary rules
/// (Torpedo's loss), else `stalemateValue`. Also says which it was ("checkmate", "all moves
/// barred", "stalemate", ...).
pub fn no_move_value(pos: &mut Position, checked: bool) -> (GameValue, &'static str) {
    let rules = pos.rules();
    for mechanic in rules.mechanics.with_hook(Hooks::END) {
        if let Some(v) = mechanic.no_move_value(pos, checked) {
            return v;
        }
    }
    if checked {
        return (rules.checkmate_value, "checkmate");
    }
    if rules.mechanics.uses(Hooks::FILTER) {
        let mut list = MoveList::new();
        ordinary_legal_moves(pos, &mut list);
        if !list.is_empty() {
            return (rules.barred_value, "all moves barred");
        }
    }
    (rules.stalemate_value, "stalemate")
}

/// Whether the move rule has drawn the game (checkmate takes precedence; the caller checks it).
#[inline]
pub fn move_rule_draw(pos: &Position) -> bool {
    let n = pos.rules().n_move_rule;
    n > 0 && pos.halfmove_clock() as u32 >= 2 * n
}

/// Whether the position is a dead draw by a mechanic's rule (`deadMaterial`, the 007 dead
/// positions), and why.
#[inline]
pub fn dead_position(pos: &Position) -> Option<&'static str> {
    let mechanics = pos.mechanics();
    if !mechanics.uses(Hooks::END) {
        return None;
    }
    mechanics
        .with_hook(Hooks::END)
        .find(|m| m.is_dead(pos))
        .map(|m| m.dead_reason())
}

/// Whether the position is a dead draw ([`dead_position`]).
#[inline]
pub fn dead_material(pos: &Position) -> bool {
    dead_position(pos).is_some()
}

/// How many earlier positions of the game equal the current one.
pub fn repetitions(pos: &Position) -> usize {
    let key = pos.key();
    pos.previous_keys().filter(|&k| k == key).count()
}

/// The verdict on the current position, or `None` if the game goes on.
pub fn verdict(pos: &mut Position) -> Option<Verdict> {
    for mechanic in pos.mechanics().with_hook(Hooks::END) {
        if let Some(v) = mechanic.verdict(pos) {
            return v;
        }
    }
    let us = pos.side_to_move();
    if let Some(v) = extinction(pos) {
        return Some(Verdict {
            outcome: outcome_for(us, v),
            reason: "extinction".into(),
        });
    }
    let mut list = MoveList::new();
    legal_moves(pos, &mut list);
    if list.is_empty() {
        let checked = in_check(pos);
        let (value, reason) = no_move_value(pos, checked);
        return Some(Verdict {
            outcome: outcome_for(us, value),
            reason: reason.into(),
        });
    }
    if move_rule_draw(pos) {
        return Some(Verdict {
            outcome: Outcome::Draw,
            reason: format!("{}-move rule", pos.rules().n_move_rule),
        });
    }
    if let Some(reason) = dead_position(pos) {
        return Some(Verdict {
            outcome: Outcome::Draw,
            reason: reason.into(),
        });
    }
    let fold = pos.rules().n_fold_rule as usize;
    if fold > 0 && repetitions(pos) + 1 >= fold {
        return Some(Verdict {
            outcome: Outcome::Draw,
            reason: format!("{fold}-fold repetition"),
        });
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::builtin_variants;

    fn pos(fen: &str) -> Position {
        Position::from_fen(builtin_variants().get("chess").expect("chess"), fen).expect("fen")
    }

    #[test]
    fn mate_stalemate_and_rules() {
        let mut mate = pos("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1");
        assert_eq!(
            verdict(&mut mate).map(|v| v.outcome),
            Some(Outcome::Win(Color::White))
        );
        let mut stale = pos("7k/8/6QK/8/8/8/8/8 b - - 0 1");
        assert_eq!(
            verdict(&mut stale).map(|v| v.reason),
            Some("stalemate".to_string())
        );
        let mut fifty = pos("7k/8/8/8/8/8/8/K6R b - - 100 80");
        assert_eq!(verdict(&mut fifty).map(|v| v.outcome), Some(Outcome::Draw));
        let mut start = pos("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert!(verdict(&mut start).is_none());
        for m in [
            "g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8",
        ] {
            let mv = crate::movegen::parse_move(&mut start, m).expect("legal");
            start.make(mv);
        }
        assert_eq!(verdict(&mut start).map(|v| v.outcome), Some(Outcome::Draw));
    }
}
