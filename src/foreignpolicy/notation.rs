//! Coordinate notation: `e1e3`, `g4f4`, `b4a4r` (promotion letter lowercase), `0000` for a
//! pass (UCI's null move; `pass` is read too). The mover is the player to move.

use super::fen::letter_of;
use super::player::Player;
use super::position::{FpPosition, PASS};
use crate::geometry::Square;
use crate::moves::{Move, MoveList};
use crate::piece::PieceType;
use std::fmt;

/// Why a move text was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Not coordinate notation.
    Unparsable(String),
    /// Well formed, but not a move of the player to move here.
    NotLegal(String, Player),
    /// A Peacekeeper pawn promoting to a queen (FP-6 forbids it).
    PeacekeeperQueen(String),
    /// The game is over: no move is legal.
    GameOver(String),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Unparsable(s) => write!(
                f,
                "cannot read move '{s}' (coordinate notation like e1e3, b4a4r; 0000 passes)"
            ),
            MoveError::NotLegal(s, p) => {
                write!(f, "'{s}' is not a legal move of {} here", p.name())
            }
            MoveError::PeacekeeperQueen(s) => write!(
                f,
                "'{s}': a Peacekeeper pawn may not promote to a queen (only r, b, n)"
            ),
            MoveError::GameOver(s) => write!(f, "'{s}': the game is over"),
        }
    }
}

impl std::error::Error for MoveError {}

/// The coordinate spelling of `m` (`0000` for the pass).
pub fn move_to_string(m: Move) -> String {
    if m == PASS {
        return "0000".into();
    }
    let mut s = format!("{}{}", m.from(), m.to());
    if let Some(t) = m.promotion_type() {
        s.push(letter_of(t).to_ascii_lowercase());
    }
    s
}

/// Reads the squares and promotion letter of a non-pass move text.
fn read_parts(s: &str) -> Option<(Square, Square, Option<char>)> {
    if !s.is_ascii() || !(4..=5).contains(&s.len()) {
        return None;
    }
    let from = Square::parse(&s[0..2])?;
    let to = Square::parse(&s[2..4])?;
    let promo = s[4..].chars().next();
    if promo.is_some_and(|c| !"qrbn".contains(c)) {
        return None;
    }
    Some((from, to, promo))
}

impl FpPosition {
    /// The move of the player to move that `text` spells.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let s = text.trim();
        if self.is_over() {
            return Err(MoveError::GameOver(s.into()));
        }
        let mut list = MoveList::new();
        self.legal_moves(&mut list);
        if s == "0000" || s == "pass" {
            return list
                .iter()
                .find(|m| **m == PASS)
                .copied()
                .ok_or_else(|| MoveError::NotLegal(s.into(), self.to_move));
        }
        let (from, to, promo) = read_parts(s).ok_or_else(|| MoveError::Unparsable(s.into()))?;
        if promo == Some('q')
            && self.to_move == Player::Peacekeeper
            && self.piece_at(from) == Some((Player::Peacekeeper, PieceType::PAWN))
        {
            return Err(MoveError::PeacekeeperQueen(s.into()));
        }
        list.iter()
            .find(|m| {
                m.from() == from
                    && m.to() == to
                    && m.promotion_type()
                        .map(|t| letter_of(t).to_ascii_lowercase())
                        == promo
                    && **m != PASS
            })
            .copied()
            .ok_or_else(|| MoveError::NotLegal(s.into(), self.to_move))
    }

    /// The spellings of the legal moves, sorted.
    pub fn legal_move_names(&self) -> Vec<String> {
        let mut list = MoveList::new();
        self.legal_moves(&mut list);
        let mut names: Vec<String> = list.iter().map(|&m| move_to_string(m)).collect();
        names.sort();
        names
    }
}
