//! FP-FEN (C.1): `<board> <to-move> <alive> <ep> <halfmove> <round>`, ranks 8 to 1 separated
//! by `/`, comma-separated tokens per rank (owner letter + piece letter, or a count of empty
//! squares). Reading checks everything a position needs; writing gives C.1's exact form.

use super::player::{Alive, Player};
use super::position::FpPosition;
use crate::geometry::Square;
use crate::piece::PieceType;
use std::fmt;

/// Why an FP-FEN was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// Not six space-separated fields.
    FieldCount(usize),
    /// The board does not have eight ranks.
    RankCount(usize),
    /// A rank's tokens do not cover eight squares (rank number 1..8, squares covered).
    RankSum(u8, u32),
    /// A token that is neither a man nor a count of empty squares 1..8.
    BadToken(String),
    /// A man's owner letter is not `s`, `n` or `p`.
    UnknownOwner(String),
    /// A man's piece letter is not one of `KQRBNP`.
    UnknownPiece(String),
    /// The to-move field is not `s`, `n` or `p`.
    BadToMove(String),
    /// The alive field is not two or three distinct players in turn order.
    BadAlive(String),
    /// Only one player is left: the game is over, and FP-FEN describes a game in progress.
    OnePlayerLeft(String),
    /// The player to move is not in the game.
    ToMoveNotAlive(Player),
    /// Men of a player who is not in the game.
    MenOfEliminated(Player, Square),
    /// A player in the game has more than one king.
    KingCount(Player, u32),
    /// A pawn stands on its own promotion row.
    PawnOnPromotionRow(Player, Square),
    /// The e.p. field is not `-` or a square.
    BadEp(String),
    /// The e.p. square does not follow a double step of the previous player.
    EpInconsistent(Square),
    /// The half-move clock is not a number.
    BadHalfmove(String),
    /// The round is not a number from 1.
    BadRound(String),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use FenError::*;
        match self {
            FieldCount(n) => write!(
                f,
                "expected 6 fields '<board> <to-move> <alive> <ep> <halfmove> <round>', found {n}"
            ),
            RankCount(n) => write!(f, "expected 8 ranks separated by '/', found {n}"),
            RankSum(r, n) => write!(f, "rank {r} covers {n} squares, not 8"),
            BadToken(t) => write!(
                f,
                "bad token '{t}' (a man is an owner letter and a piece letter like 'sK', \
                 empty squares a number 1-8; tokens are separated by commas)"
            ),
            UnknownOwner(t) => write!(
                f,
                "unknown owner letter in '{t}': Foreign Policy has three players, \
                 s (South), n (North) and p (Peacekeeper)"
            ),
            UnknownPiece(t) => write!(f, "unknown piece letter in '{t}' (K Q R B N P)"),
            BadToMove(s) => write!(f, "bad player to move '{s}' (s, n or p)"),
            BadAlive(s) => write!(
                f,
                "bad alive field '{s}' (two or three distinct players of s, n, p in turn order, \
                 e.g. snp, sp)"
            ),
            OnePlayerLeft(s) => write!(
                f,
                "alive field '{s}' leaves one player: the game is over, and FP-FEN describes a \
                 game in progress"
            ),
            ToMoveNotAlive(p) => write!(f, "the player to move, {}, is not alive", p.name()),
            MenOfEliminated(p, sq) => write!(
                f,
                "{} is not alive but has a man on {sq} (an eliminated army leaves the board)",
                p.name()
            ),
            KingCount(p, n) => write!(f, "{} is alive with {n} kings (at most 1)", p.name()),
            PawnOnPromotionRow(p, sq) => write!(
                f,
                "a pawn of {} on {sq}, its promotion row (it would have promoted)",
                p.name()
            ),
            BadEp(s) => write!(f, "bad e.p. field '{s}' ('-' or a square)"),
            EpInconsistent(sq) => write!(
                f,
                "e.p. square {sq} does not follow a double step of the previous player \
                 (it must be empty, with that player's pawn just beyond it)"
            ),
            BadHalfmove(s) => write!(f, "bad half-move clock '{s}'"),
            BadRound(s) => write!(f, "bad round '{s}' (a number from 1)"),
        }
    }
}

impl std::error::Error for FenError {}

/// The piece type of an FP-FEN piece letter.
fn piece_of(c: char) -> Option<PieceType> {
    Some(match c {
        'P' => PieceType::PAWN,
        'N' => PieceType::KNIGHT,
        'B' => PieceType::BISHOP,
        'R' => PieceType::ROOK,
        'Q' => PieceType::QUEEN,
        'K' => PieceType::KING,
        _ => return None,
    })
}

/// The FP-FEN letter of a piece type.
pub(super) fn letter_of(t: PieceType) -> char {
    b"PNBRQK"[t.index()] as char
}

/// Reads one rank's tokens onto `pos` (rank from 0 = rank 1).
fn read_rank(pos: &mut FpPosition, rank: i8, text: &str) -> Result<(), FenError> {
    let mut file: u32 = 0;
    for token in text.split(',') {
        let mut chars = token.chars();
        let first = chars
            .next()
            .ok_or_else(|| FenError::BadToken(token.into()))?;
        if first.is_ascii_digit() {
            let n: u32 = token
                .parse()
                .ok()
                .filter(|n| (1..=8).contains(n))
                .ok_or_else(|| FenError::BadToken(token.into()))?;
            file += n;
            continue;
        }
        let (Some(second), None) = (chars.next(), chars.next()) else {
            return Err(FenError::BadToken(token.into()));
        };
        let owner = Player::from_letter(first).ok_or_else(|| {
            if first.is_ascii_lowercase() && piece_of(second).is_some() {
                FenError::UnknownOwner(token.into())
            } else {
                FenError::BadToken(token.into())
            }
        })?;
        let t = piece_of(second).ok_or_else(|| FenError::UnknownPiece(token.into()))?;
        if file < 8 {
            let sq = Square::from_coords(file as i8, rank).expect("inside the board");
            pos.put(sq, owner, t);
        }
        file += 1;
    }
    if file != 8 {
        return Err(FenError::RankSum(rank as u8 + 1, file));
    }
    Ok(())
}

fn read_alive(s: &str) -> Result<Alive, FenError> {
    let bad = || FenError::BadAlive(s.into());
    let mut alive = Alive(0);
    let mut last = None;
    for c in s.chars() {
        let p = Player::from_letter(c).ok_or_else(bad)?;
        if last.is_some_and(|l| l >= p) {
            return Err(bad());
        }
        last = Some(p);
        alive = alive.with(p);
    }
    match alive.count() {
        0 => Err(bad()),
        1 => Err(FenError::OnePlayerLeft(s.into())),
        _ => Ok(alive),
    }
}

/// Checks men against the alive set: kings, eliminated armies, pawns on promotion rows.
fn check_men(pos: &FpPosition) -> Result<(), FenError> {
    for p in Player::ALL {
        if !pos.alive.has(p) {
            if pos.men(p).any() {
                return Err(FenError::MenOfEliminated(p, pos.men(p).lsb()));
            }
            continue;
        }
        // no king is allowed (TF-6's South has none): that player can only be outlived
        let kings = pos.pieces(p, PieceType::KING).count();
        if kings > 1 {
            return Err(FenError::KingCount(p, kings));
        }
        let stuck = pos.pieces(p, PieceType::PAWN) & p.promotion_row();
        if stuck.any() {
            return Err(FenError::PawnOnPromotionRow(p, stuck.lsb()));
        }
    }
    Ok(())
}

/// Reads the e.p. field: the square must be empty with the previous player's pawn beyond it,
/// and that player must be a Foreign who could have double-stepped across it.
fn read_ep(pos: &FpPosition, s: &str) -> Result<Option<Square>, FenError> {
    if s == "-" {
        return Ok(None);
    }
    let sq = Square::parse(s).ok_or_else(|| FenError::BadEp(s.into()))?;
    let prev = pos.alive.previous_before(pos.to_move);
    let victim = FpPosition::ep_victim(sq);
    // the double step started as far behind the crossed square as it ended beyond it
    let origin = Square::new((2 * sq.raw() as i32 - victim.raw() as i32).clamp(0, 63) as u8);
    let rank_ok = match prev {
        Player::South => sq.rank() == 1 || sq.rank() == 2,
        Player::North => sq.rank() == 5 || sq.rank() == 6,
        Player::Peacekeeper => false,
    };
    let ok = rank_ok
        && pos.piece_at(sq).is_none()
        && pos.piece_at(origin).is_none()
        && pos.piece_at(victim) == Some((prev, PieceType::PAWN))
        && prev.double_step_squares().has(origin);
    ok.then_some(Some(sq)).ok_or(FenError::EpInconsistent(sq))
}

impl FpPosition {
    /// Reads an FP-FEN.
    pub fn from_fen(fen: &str) -> Result<FpPosition, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        let [board, to_move, alive, ep, halfmove, round] = fields[..] else {
            return Err(FenError::FieldCount(fields.len()));
        };
        let mut pos = FpPosition::empty();
        let ranks: Vec<&str> = board.split('/').collect();
        if ranks.len() != 8 {
            return Err(FenError::RankCount(ranks.len()));
        }
        for (i, text) in ranks.iter().enumerate() {
            read_rank(&mut pos, 7 - i as i8, text)?;
        }
        pos.to_move = match to_move.chars().collect::<Vec<_>>()[..] {
            [c] => Player::from_letter(c),
            _ => None,
        }
        .ok_or_else(|| FenError::BadToMove(to_move.into()))?;
        pos.alive = read_alive(alive)?;
        if !pos.alive.has(pos.to_move) {
            return Err(FenError::ToMoveNotAlive(pos.to_move));
        }
        check_men(&pos)?;
        pos.ep = read_ep(&pos, ep)?;
        pos.halfmove = halfmove
            .parse()
            .map_err(|_| FenError::BadHalfmove(halfmove.into()))?;
        pos.round = round
            .parse()
            .ok()
            .filter(|r| *r >= 1)
            .ok_or_else(|| FenError::BadRound(round.into()))?;
        pos.key = pos.compute_key();
        Ok(pos)
    }

    /// The FP-FEN of the position, exactly as C.1 writes it.
    pub fn to_fen(&self) -> String {
        let mut ranks = Vec::with_capacity(8);
        for rank in (0..8).rev() {
            let mut tokens: Vec<String> = Vec::new();
            let mut empty = 0;
            for file in 0..8 {
                let sq = Square::from_coords(file, rank).expect("inside the board");
                match self.piece_at(sq) {
                    None => empty += 1,
                    Some((owner, t)) => {
                        if empty > 0 {
                            tokens.push(empty.to_string());
                            empty = 0;
                        }
                        tokens.push(format!("{}{}", owner.letter(), letter_of(t)));
                    }
                }
            }
            if empty > 0 {
                tokens.push(empty.to_string());
            }
            ranks.push(tokens.join(","));
        }
        format!(
            "{} {} {} {} {} {}",
            ranks.join("/"),
            self.to_move.letter(),
            self.alive.to_letters(),
            self.ep.map_or("-".to_string(), |s| s.to_string()),
            self.halfmove,
            self.round
        )
    }
}
