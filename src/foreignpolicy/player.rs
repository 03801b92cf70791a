//! The three players, the set of players still in the game, and what differs per player: the
//! pawns' direction, double-step squares and promotion row.

use crate::geometry::{Bitboard, Square};
use crate::piece::PieceType;

/// A player: South, North or the Peacekeeper (indices 0, 1, 2 in turn order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Player {
    /// The Foreign on the a1 side; moves first; pawns go toward rank 8.
    South = 0,
    /// The Foreign on the a8 side; moves second; pawns go toward rank 1.
    North = 1,
    /// The Peacekeeper on the h-file side; moves third; pawns go toward the a-file.
    Peacekeeper = 2,
}

/// Foreign pawns promote to these (FP-6), in generation order.
pub const FOREIGN_PROMOTIONS: [PieceType; 4] = [
    PieceType::QUEEN,
    PieceType::ROOK,
    PieceType::BISHOP,
    PieceType::KNIGHT,
];

/// Peacekeeper pawns promote to these (FP-6: never a queen).
pub const PEACEKEEPER_PROMOTIONS: [PieceType; 3] =
    [PieceType::ROOK, PieceType::BISHOP, PieceType::KNIGHT];

impl Player {
    /// The players in turn order.
    pub const ALL: [Player; 3] = [Player::South, Player::North, Player::Peacekeeper];

    /// 0, 1 or 2.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The player of index `i` (0..3).
    #[inline(always)]
    pub const fn from_index(i: usize) -> Player {
        match i {
            0 => Player::South,
            1 => Player::North,
            _ => Player::Peacekeeper,
        }
    }

    /// The FP-FEN letter: `s`, `n` or `p`.
    pub const fn letter(self) -> char {
        match self {
            Player::South => 's',
            Player::North => 'n',
            Player::Peacekeeper => 'p',
        }
    }

    /// The player of an FP-FEN letter.
    pub fn from_letter(c: char) -> Option<Player> {
        Player::ALL.into_iter().find(|p| p.letter() == c)
    }

    /// The name for messages.
    pub const fn name(self) -> &'static str {
        match self {
            Player::South => "South",
            Player::North => "North",
            Player::Peacekeeper => "Peacekeeper",
        }
    }

    /// Whether this is one of the two Foreigns.
    #[inline(always)]
    pub const fn is_foreign(self) -> bool {
        !matches!(self, Player::Peacekeeper)
    }

    /// The pawn's forward step as (file, rank) deltas (FP-3).
    pub const fn forward(self) -> (i8, i8) {
        match self {
            Player::South => (0, 1),
            Player::North => (0, -1),
            Player::Peacekeeper => (-1, 0),
        }
    }

    /// The pawn's forward step as a square-index delta.
    #[inline(always)]
    pub const fn push_delta(self) -> i8 {
        let (df, dr) = self.forward();
        dr * 8 + df
    }

    /// The two diagonal capture steps of a pawn (file, rank): forward plus one step to each
    /// side across the direction of travel (FP-3, R-FP-1).
    pub const fn capture_steps(self) -> [(i8, i8); 2] {
        match self {
            Player::South => [(-1, 1), (1, 1)],
            Player::North => [(-1, -1), (1, -1)],
            Player::Peacekeeper => [(-1, 1), (-1, -1)],
        }
    }

    /// Squares where a pawn of this player promotes (FP-6): rank 8, rank 1, the a-file.
    #[inline(always)]
    pub const fn promotion_row(self) -> Bitboard {
        match self {
            Player::South => Bitboard(0xFF << 56),
            Player::North => Bitboard(0xFF),
            Player::Peacekeeper => Bitboard::FILE_A,
        }
    }

    /// What a pawn of this player may promote to.
    #[inline(always)]
    pub const fn promotions(self) -> &'static [PieceType] {
        match self {
            Player::Peacekeeper => &PEACEKEEPER_PROMOTIONS,
            _ => &FOREIGN_PROMOTIONS,
        }
    }

    /// The pawn home squares from which a double step is allowed (FP-4, R-FP-3): a2-d2 and
    /// e1 for South, a7-d7 and e8 for North, none for the Peacekeeper.
    #[inline(always)]
    pub const fn double_step_squares(self) -> Bitboard {
        match self {
            // a2 b2 c2 d2 = bits 8..12, e1 = bit 4
            Player::South => Bitboard(0x0F00 | 1 << 4),
            // a7 b7 c7 d7 = bits 48..52, e8 = bit 60
            Player::North => Bitboard(0x000F << 48 | 1 << 60),
            Player::Peacekeeper => Bitboard::EMPTY,
        }
    }

    /// The square a pawn of this player on `sq` steps to, if on the board.
    #[inline(always)]
    pub fn step(self, sq: Square) -> Option<Square> {
        let (df, dr) = self.forward();
        sq.offset(df, dr)
    }
}

/// The set of players still in the game (FP-1), as a 3-bit mask.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Alive(pub u8);

impl Alive {
    /// All three players.
    pub const ALL: Alive = Alive(0b111);

    /// Whether `p` is still in the game.
    #[inline(always)]
    pub const fn has(self, p: Player) -> bool {
        self.0 >> p as u8 & 1 != 0
    }

    /// The set without `p`.
    #[inline(always)]
    pub const fn without(self, p: Player) -> Alive {
        Alive(self.0 & !(1 << p as u8))
    }

    /// The set with `p`.
    #[inline(always)]
    pub const fn with(self, p: Player) -> Alive {
        Alive(self.0 | 1 << p as u8)
    }

    /// How many players are in the game.
    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// The players in the game, in turn order.
    pub fn iter(self) -> impl Iterator<Item = Player> {
        Player::ALL.into_iter().filter(move |&p| self.has(p))
    }

    /// The player after `p` in the cycle S, N, P among those in the game (FP-1, R-FP-10);
    /// `p` itself if it is the only one.
    #[inline]
    pub fn next_after(self, p: Player) -> Player {
        let mut i = p.index();
        for _ in 0..3 {
            i = (i + 1) % 3;
            if self.0 >> i & 1 != 0 {
                return Player::from_index(i);
            }
        }
        p
    }

    /// The player before `p` in the cycle among those in the game.
    #[inline]
    pub fn previous_before(self, p: Player) -> Player {
        let mut i = p.index();
        for _ in 0..3 {
            i = (i + 2) % 3;
            if self.0 >> i & 1 != 0 {
                return Player::from_index(i);
            }
        }
        p
    }

    /// The FP-FEN spelling: the letters in turn order (`snp`, `sp`, ...).
    pub fn to_letters(self) -> String {
        self.iter().map(Player::letter).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turn_order_skips_the_eliminated() {
        let sp = Alive::ALL.without(Player::North);
        assert_eq!(sp.next_after(Player::South), Player::Peacekeeper);
        assert_eq!(sp.next_after(Player::Peacekeeper), Player::South);
        assert_eq!(sp.previous_before(Player::South), Player::Peacekeeper);
        assert_eq!(Alive::ALL.next_after(Player::North), Player::Peacekeeper);
        assert_eq!(sp.to_letters(), "sp");
    }

    #[test]
    fn double_step_squares_are_the_home_squares() {
        let s: Vec<String> = Player::South
            .double_step_squares()
            .iter()
            .map(|q| q.to_string())
            .collect();
        assert_eq!(s, ["e1", "a2", "b2", "c2", "d2"]);
        let n: Vec<String> = Player::North
            .double_step_squares()
            .iter()
            .map(|q| q.to_string())
            .collect();
        assert_eq!(n, ["a7", "b7", "c7", "d7", "e8"]);
    }
}
