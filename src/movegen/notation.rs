//! Move notation: printing the canonical spelling and parsing every valid spelling.
//!
//! One token per move: legs `from to [promo]` joined by commas (../shared/rules/README.md).
//! Parsing matches the input against the spellings of the legal moves, so a string is either
//! a legal move of this position or an error naming why.
//!
//! Castling is spelled by the king's move (`e1g1`) when the king moves at least two files, as in
//! UCI. When it moves fewer (a user variant's castling files can make the king step one square
//! or stay), that spelling would also be a plain king move, so castling is then spelled
//! king-takes-own-rook (`e1h1`, UCI_Chess960 style), as it always is in a Chess960 variant
//! (`chess960 = true`). King-takes-rook is accepted for every castling move, and so are `O-O`
//! and `O-O-O` (SAN, XBoard's Chess960 castling; `0-0` and a check mark too), named by
//! [`castling_name`].

pub use crate::moves::MoveText;
use crate::moves::{Move, MoveKind, MoveList};
use crate::position::Position;
use std::fmt;

/// Why a move string was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Not a move string at all.
    Syntax(String),
    /// Well-formed, but not a legal move here.
    Illegal(String),
    /// Names a legal move in a spelling the variant refuses (the input, the reason).
    Refused(String, String),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Syntax(s) => write!(
                f,
                "'{s}' is not a move (expected e.g. e2e4, e7e8q or c2d4,d4c5,d4e3)"
            ),
            MoveError::Illegal(s) => write!(f, "'{s}' is not a legal move in this position"),
            MoveError::Refused(s, why) => write!(f, "'{s}' is refused: {why}"),
        }
    }
}

impl std::error::Error for MoveError {}

/// The canonical spelling of a legal move.
pub fn move_to_string(pos: &Position, m: Move) -> MoveText {
    let mut t = MoveText::new();
    match m.kind() {
        MoveKind::Castling if pos.rules().chess960 || m.from().distance(m.to()) < 2 => {
            t.push_leg(m.from(), m.rook_from());
        }
        MoveKind::Normal | MoveKind::EnPassant | MoveKind::Castling => {
            t.push_leg(m.from(), m.to());
            if let Some(p) = m.promotion_type() {
                t.push(pos.rules().letter(p));
            }
        }
        MoveKind::Special => {
            if let Some(mover) = pos.mechanics().mover() {
                mover.write_move(pos, m, &mut t);
            }
        }
    }
    t
}

/// SAN's name of a castling move, by the rook's side from White's point of view: `O-O` with
/// the rook on the king's right, `O-O-O` on its left (in Chess960 a king on b1 castles long
/// with a step to the right, to c1). `None` for every other move.
pub fn castling_name(m: Move) -> Option<&'static str> {
    if m.kind() != MoveKind::Castling {
        return None;
    }
    Some(if m.rook_from().file() > m.from().file() {
        "O-O"
    } else {
        "O-O-O"
    })
}

fn well_formed(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 40
        && s.split(',').all(|leg| {
            let b = leg.as_bytes();
            let sq = |i: usize| {
                b.len() > i + 1 && b[i].is_ascii_lowercase() && b[i + 1].is_ascii_digit()
            };
            let drop = b.len() == 4 && b[0].is_ascii_uppercase() && b[1] == b'@' && sq(2);
            drop || ((b.len() == 4 || b.len() == 5)
                && sq(0)
                && sq(2)
                && (b.len() == 4 || b[4].is_ascii_lowercase()))
        })
}

/// Parses any valid spelling of a legal move of `pos`.
pub fn parse_move(pos: &mut Position, s: &str) -> Result<Move, MoveError> {
    let s = s.trim();
    // SAN's castling, with zeros or a check mark too
    let castling = match s.trim_end_matches(['+', '#']) {
        "O-O" | "0-0" => Some("O-O"),
        "O-O-O" | "0-0-0" => Some("O-O-O"),
        _ => None,
    };
    if castling.is_none() && !well_formed(s) {
        return Err(MoveError::Syntax(s.to_string()));
    }
    let mut list = MoveList::new();
    crate::movegen::legal_moves(pos, &mut list);
    if castling.is_some() {
        return list
            .iter()
            .copied()
            .find(|&m| castling_name(m) == castling)
            .ok_or_else(|| MoveError::Illegal(s.to_string()));
    }
    for &m in list.iter() {
        if move_to_string(pos, m).as_str() == s {
            return Ok(m);
        }
    }
    // Other valid spellings. The rule module is asked about every move, not only its own
    // kind: a multi-leg route can have the same effect as an ordinary move (an Eviction of two
    // men of one type equals the one-leg move a->d), and that route spells the ordinary move.
    if let Some(mover) = pos.mechanics().mover() {
        for &m in list.iter() {
            if mover.is_spelling(pos, m, s) {
                return Ok(m);
            }
        }
    }
    // king-takes-own-rook spelling of castling, and in Chess960 the king's move where it
    // crosses two files or more (one file could be a plain king move)
    for &m in list.iter() {
        if m.kind() == MoveKind::Castling {
            let mut t = MoveText::new();
            t.push_leg(m.from(), m.rook_from());
            let mut by_king = MoveText::new();
            by_king.push_leg(m.from(), m.to());
            if t.as_str() == s || (m.from().distance(m.to()) >= 2 && by_king.as_str() == s) {
                return Ok(m);
            }
        }
    }
    if let Some(why) = pos
        .mechanics()
        .mover()
        .and_then(|mover| mover.refused_spelling(pos, list.as_slice(), s))
    {
        return Err(MoveError::Refused(s.to_string(), why));
    }
    Err(MoveError::Illegal(s.to_string()))
}
