//! Game end: checkmate, stalemate, extinction, the move rule and repetition, valued by the
//! variant's keys (`checkmateValue`, `stalemateValue`, `extinctionValue`, `nMoveRule`,
//! `nFoldRule`). Used by the search (cheap checks) and by protocols (the full verdict).

use crate::geometry::Color;
use crate::movegen::{in_check, legal_moves};
use crate::moves::MoveList;
use crate::position::Position;
use crate::variant::{material_signature, GameValue};

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// This colour won.
    Win(Color),
    /// Drawn.
    Draw,
}

/// A finished game's result with its reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The result.
    pub outcome: Outcome,
    /// Why, in words (e.g. "checkmate", "stalemate", "50-move rule").
    pub reason: String,
}

impl Outcome {
    /// PGN result string.
    pub fn pgn(self) -> &'static str {
        match self {
            Outcome::Win(Color::White) => "1-0",
            Outcome::Win(Color::Black) => "0-1",
            Outcome::Draw => "1/2-1/2",
        }
    }
}

/// Turns a value for `side` into an outcome.
pub fn outcome_for(side: Color, value: GameValue) -> Outcome {
    match value {
        GameValue::Win => Outcome::Win(side),
        GameValue::Loss => Outcome::Win(side.flip()),
        GameValue::Draw => Outcome::Draw,
    }
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

/// The value, for the side to move, of having no legal move: `checkmateValue` in check;
/// otherwise `barredValue` when the variant's facing rule or restriction module alone barred
/// every move that is legal under the ordinary rules (Torpedo's loss), else `stalemateValue`.
/// Also says which it was ("checkmate", "all moves barred", "stalemate").
pub fn no_move_value(pos: &mut Position, checked: bool) -> (GameValue, &'static str) {
    let rules = pos.rules();
    if checked {
        return (rules.checkmate_value, "checkmate");
    }
    let (stalemate, barred) = (rules.stalemate_value, rules.barred_value);
    if rules.restricts {
        let mut list = MoveList::new();
        crate::movegen::generic::ordinary_legal_moves(pos, &mut list);
        if !list.is_empty() {
            return (barred, "all moves barred");
        }
    }
    (stalemate, "stalemate")
}

/// Whether the move rule has drawn the game (checkmate takes precedence; the caller checks it).
#[inline]
pub fn move_rule_draw(pos: &Position) -> bool {
    let n = pos.rules().n_move_rule;
    n > 0 && pos.halfmove_clock() as u32 >= 2 * n
}

/// Whether the material on the board is one of the variant's dead draws (`deadMaterial`):
/// one side has exactly one set of a pair and the other side the other set.
#[inline]
pub fn dead_material(pos: &Position) -> bool {
    let rules = pos.rules();
    if rules.dead_material_men == 0 || pos.occupied().count() > rules.dead_material_men {
        return false;
    }
    let side = |c: Color| {
        material_signature(
            rules
                .piece_types()
                .map(|t| (t, pos.pieces_of(c, t).count())),
        )
    };
    let (w, b) = (side(Color::White), side(Color::Black));
    rules
        .dead_material
        .iter()
        .any(|&(x, y)| (w, b) == (x, y) || (w, b) == (y, x))
}

/// How many earlier positions of the game equal the current one.
pub fn repetitions(pos: &Position) -> usize {
    let key = pos.key();
    pos.previous_keys().filter(|&k| k == key).count()
}

/// The verdict on the current position, or `None` if the game goes on.
pub fn verdict(pos: &mut Position) -> Option<Verdict> {
    if pos.rules().turns.is_some() {
        return scheduled_verdict(pos);
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
    if dead_material(pos) {
        return Some(Verdict {
            outcome: Outcome::Draw,
            reason: "dead position (insufficient material)".into(),
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

/// The verdict in a 007 game (A.2, R-007-2/5/6/7): the owner of a mated or captured king
/// loses, whoever chose the ply; stalemate, no completable turn, the move rule, repetition
/// (the key includes the schedule position and the Detente squares) and dead positions draw.
fn scheduled_verdict(pos: &mut Position) -> Option<Verdict> {
    use super::schedule::{dead_position, end, End};
    let owner = pos.side_to_move();
    let won = |reason: &str| Verdict {
        outcome: Outcome::Win(owner.flip()),
        reason: reason.into(),
    };
    let drawn = |reason: String| Verdict {
        outcome: Outcome::Draw,
        reason,
    };
    match end(pos) {
        Some(End::KingCaptured) => return Some(won("king capture")),
        Some(End::Checkmate) => return Some(won("checkmate")),
        Some(End::Stalemate) => return Some(drawn("stalemate".into())),
        Some(End::NoCompletableTurn) => return Some(drawn("no completable turn".into())),
        None => {}
    }
    if move_rule_draw(pos) {
        return Some(drawn(format!("{}-ply rule", 2 * pos.rules().n_move_rule)));
    }
    let fold = pos.rules().n_fold_rule as usize;
    if fold > 0 && repetitions(pos) + 1 >= fold {
        return Some(drawn(format!("{fold}-fold repetition")));
    }
    if dead_position(pos) {
        return Some(drawn("dead position".into()));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::builtin_variants;

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
