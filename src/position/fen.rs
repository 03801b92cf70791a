//! FEN input and output for every board size, with X-FEN/Shredder castling letters.

use super::{Hooks, Position, State, Variant, CASTLE_BK, CASTLE_BQ, CASTLE_WK, CASTLE_WQ};
use crate::geometry::{Bitboard, Color, Square};
use crate::piece::{Piece, PieceType, MAX_PIECE_TYPES};
use crate::variant::Rules;
use std::fmt;

/// Why a FEN was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// Fewer than the board field and side to move, or too many fields.
    FieldCount(usize),
    /// The board field has the wrong number of ranks.
    RankCount {
        /// Ranks found.
        found: usize,
        /// Ranks the variant has.
        expected: u8,
    },
    /// A rank does not add up to the board's width.
    RankWidth {
        /// Rank number (1-based).
        rank: u8,
        /// Files described.
        found: usize,
        /// Files the variant has.
        expected: u8,
    },
    /// A letter that names no piece of this variant.
    PieceLetter(char),
    /// Side to move is not `w` or `b`.
    SideToMove(String),
    /// Bad castling field.
    Castling(String),
    /// Bad en-passant field.
    EnPassant(String),
    /// Bad move counter.
    Counter(String),
    /// The position breaks a rule (kings, pawns on impossible ranks, side not to move in check).
    Illegal(String),
    /// Bad extension field (after the move number: a rule module's state, e.g. the spy window).
    Extension(String),
    /// The 007-FEN fields (ply number, Detente squares) are wrong.
    Schedule(String),
    /// Bad holdings (`[..]` after the placement), or holdings in a variant without them.
    Holdings(String),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::FieldCount(n) => write!(
                f,
                "a FEN has 2 to 6 fields (7 where the variant adds a state field, a 007-FEN up \
                 to 8), found {n}"
            ),
            FenError::RankCount { found, expected } => write!(
                f,
                "the board has {expected} ranks, the FEN describes {found}"
            ),
            FenError::RankWidth {
                rank,
                found,
                expected,
            } => {
                write!(
                    f,
                    "rank {rank} describes {found} files, the board has {expected}"
                )
            }
            FenError::PieceLetter(c) if c.is_ascii_digit() => {
                write!(
                    f,
                    "'{c}' does not start a count of empty squares (1 or more)"
                )
            }
            FenError::PieceLetter(c) => write!(f, "'{c}' is not a piece of this variant"),
            FenError::SideToMove(s) => write!(f, "side to move must be 'w' or 'b', found '{s}'"),
            FenError::Castling(s) => write!(f, "bad castling field: {s}"),
            FenError::EnPassant(s) => write!(f, "bad en-passant field: {s}"),
            FenError::Counter(s) => write!(f, "bad move counter '{s}'"),
            FenError::Illegal(s) => write!(f, "illegal position: {s}"),
            FenError::Extension(s) => write!(f, "bad field after the move number: {s}"),
            FenError::Schedule(s) => write!(f, "bad 007-FEN: {s}"),
            FenError::Holdings(s) => write!(f, "bad holdings: {s}"),
        }
    }
}

impl std::error::Error for FenError {}

/// The geometry of castling with the king on `king` and the rook on `rook`, as the generic
/// generator computes it, or `None` if a destination is off the board or outside its man's region.
fn castle_path(
    rules: &Rules,
    color: Color,
    king: Square,
    rook: Square,
    kingside: bool,
) -> Option<super::CastlePath> {
    use crate::geometry::attacks::between;
    let (kf, rf) = if rules.castling_king_steps != 0 {
        // FIDE's transfer rule: the king goes toward the rook, the rook to the square crossed
        let dir = if kingside { 1 } else { -1 };
        let kf = king.file() + dir * rules.castling_king_steps;
        (kf, kf - dir)
    } else if kingside {
        (
            rules.castling_kingside_file,
            rules.castling_kingside_file - 1,
        )
    } else {
        (
            rules.castling_queenside_file,
            rules.castling_queenside_file + 1,
        )
    };
    let kto = Square::from_coords(kf, king.rank())?;
    let rto = Square::from_coords(rf, king.rank())?;
    if !rules.region(color, PieceType::KING).has(kto)
        || !rules.region(color, rules.castling_rook).has(rto)
    {
        return None;
    }
    let king_path = between(king, kto);
    Some(super::CastlePath {
        mv: crate::moves::Move::castling(king, kto, rook, rto),
        clear: (king_path | kto.bb() | between(rook, rto) | rto.bb()) & !king.bb() & !rook.bb(),
        king_path,
    })
}

/// Checks that a castling field is `-` or made of castling letters (K, Q, k, q, file letters).
fn check_castling_letters(rules: &Rules, field: &str) -> Result<(), FenError> {
    if field == "-" {
        return Ok(());
    }
    for c in field.chars() {
        let lc = c.to_ascii_lowercase();
        let file_letter = (b'a'..b'a' + rules.shape.files).contains(&(lc as u8));
        if !c.is_ascii_alphabetic() || !(lc == 'k' || lc == 'q' || file_letter) {
            return Err(FenError::Castling(format!(
                "'{c}' is not a castling letter (K, Q, k, q or a file letter)"
            )));
        }
    }
    Ok(())
}

/// The placement and, when the field ends in `[..]`, the text between the brackets.
fn split_holdings(field: &str) -> Result<(&str, Option<&str>), FenError> {
    match field.find('[') {
        None if field.contains(']') => Err(FenError::Holdings(format!("unopened ']' in {field}"))),
        None => Ok((field, None)),
        Some(i) => {
            let inner = field[i + 1..]
                .strip_suffix(']')
                .filter(|t| !t.contains(['[', ']']))
                .ok_or_else(|| {
                    FenError::Holdings(format!("holdings must end the placement as [..]: {field}"))
                })?;
            Ok((&field[..i], Some(inner)))
        }
    }
}

impl Position {
    /// Parses a FEN for `rules`. Missing clock fields default to `0 1`; the variant's
    /// mechanics may own fields after the move number (the spy window, a 007-FEN's ply number
    /// and Detente squares, Nonlinear's last move).
    pub fn from_fen(rules: &'static Variant, fen: &str) -> Result<Position, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        let mechanic_fields: usize = rules
            .mechanics
            .with_hook(Hooks::FEN)
            .map(|m| m.fen_fields())
            .sum();
        if fields.len() < 2 || fields.len() > 6 + mechanic_fields {
            return Err(FenError::FieldCount(fields.len()));
        }
        let mut pos = Position::empty(rules);
        let (placement, holdings) = split_holdings(fields[0])?;
        let holder = rules.mechanics.with_hook(Hooks::HOLDINGS).next();
        if holdings.is_some() && holder.is_none() {
            return Err(FenError::Holdings(format!(
                "{} has no holdings, so the placement takes no [..] field",
                rules.name
            )));
        }
        pos.parse_board(placement)?;
        pos.stm = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            s => return Err(FenError::SideToMove(s.to_string())),
        };
        let castling = fields.get(2).copied().unwrap_or("-");
        if rules.mechanics.iter().any(|m| m.castling_field_ignored()) {
            check_castling_letters(rules, castling)?;
        } else {
            pos.parse_castling(castling)?;
        }
        pos.parse_ep(fields.get(3).copied().unwrap_or("-"))?;
        pos.parse_clocks(fields.get(4).copied(), fields.get(5).copied())?;
        if let Some(holder) = holder {
            holder.read_holdings(&mut pos, holdings.unwrap_or(""))?;
        }
        // the mechanics' fields, in registration order
        let mut rest = fields.get(6..).unwrap_or(&[]);
        for mechanic in rules.mechanics.with_hook(Hooks::FEN) {
            let n = mechanic.fen_fields().min(rest.len());
            mechanic.read_fen(&mut pos, &rest[..n])?;
            rest = &rest[n..];
        }

        pos.validate()?;
        pos.state.key = pos.compute_key();
        for mechanic in rules.mechanics.with_hook(Hooks::FEN) {
            mechanic.after_setup(&mut pos);
        }
        Ok(pos)
    }

    /// A position of `rules` with an empty board, White to move, no rights, no state.
    fn empty(rules: &'static Variant) -> Position {
        Position {
            rules,
            board: [Piece::NONE; 64],
            by_color: [Bitboard::EMPTY; 2],
            by_kind: [Bitboard::EMPTY; MAX_PIECE_TYPES],
            stm: Color::White,
            state: State {
                key: 0,
                castling: 0,
                ep: 64,
                halfmove: 0,
                ply: 0,
                mech: [0; super::MECH_WORDS],
            },
            castle_rook: [64; 4],
            castle_path: [None; 4],
            castle_mask: [0xFF; 64],
            history: Vec::with_capacity(512),
        }
    }

    /// The board field: ranks from the last, piece letters and counts of empty squares.
    fn parse_board(&mut self, field: &str) -> Result<(), FenError> {
        let rules = self.rules;
        let shape = rules.shape;
        let rows: Vec<&str> = field.split('/').collect();
        if rows.len() != shape.ranks as usize {
            return Err(FenError::RankCount {
                found: rows.len(),
                expected: shape.ranks,
            });
        }
        for (i, row) in rows.iter().enumerate() {
            let rank = shape.ranks as i8 - 1 - i as i8;
            let mut file: usize = 0;
            let mut digits = String::new();
            let flush = |digits: &mut String, file: &mut usize| -> Result<(), FenError> {
                if !digits.is_empty() {
                    // saturating: a long run of digits is a width error, not an overflow
                    let n = digits.bytes().fold(0usize, |n, d| {
                        n.saturating_mul(10).saturating_add((d - b'0') as usize)
                    });
                    if digits.starts_with('0') {
                        return Err(FenError::PieceLetter('0'));
                    }
                    *file = file.saturating_add(n);
                    digits.clear();
                }
                Ok(())
            };
            for c in row.chars() {
                if c.is_ascii_digit() {
                    digits.push(c);
                    continue;
                }
                flush(&mut digits, &mut file)?;
                let t = rules.type_of_letter(c).ok_or(FenError::PieceLetter(c))?;
                if !c.is_ascii_alphabetic() {
                    return Err(FenError::PieceLetter(c));
                }
                let color = if c.is_ascii_uppercase() {
                    Color::White
                } else {
                    Color::Black
                };
                if file >= shape.files as usize {
                    file = file.saturating_add(1);
                    continue;
                }
                let sq = Square::from_coords(file as i8, rank).ok_or(FenError::PieceLetter(c))?;
                self.set_square(sq, Piece::new(color, t));
                file = file.saturating_add(1);
            }
            flush(&mut digits, &mut file)?;
            if file != shape.files as usize {
                return Err(FenError::RankWidth {
                    rank: rank as u8 + 1,
                    found: file,
                    expected: shape.files,
                });
            }
        }

        Ok(())
    }

    /// The en-passant field: the square a pawn of the side that just moved skipped with a
    /// double step, or `-`.
    fn parse_ep(&mut self, ep: &str) -> Result<(), FenError> {
        if ep != "-" {
            let sq = self.rules.shape.parse_square(ep).ok_or_else(|| {
                FenError::EnPassant(format!("'{ep}' is not a square of this board"))
            })?;
            if !self.rules.en_passant {
                return Err(FenError::EnPassant(format!(
                    "'{ep}': this variant has no en passant"
                )));
            }
            let them = self.stm.flip();
            let origin = sq.offset(0, -them.forward());
            let pawn_sq = sq.offset(0, them.forward());
            let ok = origin.is_some_and(|o| self.rules.double_step_region[them.index()].has(o))
                && self.board[sq.index()].is_none()
                && pawn_sq
                    .is_some_and(|p| self.board[p.index()] == Piece::new(them, PieceType::PAWN));
            if !ok {
                return Err(FenError::EnPassant(format!(
                    "no pawn of the side that just moved can have double-stepped over {ep}"
                )));
            }
            self.state.ep = sq.raw();
        }

        Ok(())
    }

    /// The half-move clock and the move number (plain decimal digits: Rust's parsers would
    /// also take "+5"); absent, `0 1`.
    fn parse_clocks(
        &mut self,
        halfmove: Option<&str>,
        fullmove: Option<&str>,
    ) -> Result<(), FenError> {
        let counter = |s: &str| -> Option<u32> {
            s.bytes()
                .all(|b| b.is_ascii_digit())
                .then(|| s.parse().ok())
                .flatten()
        };
        if let Some(h) = halfmove {
            self.state.halfmove = counter(h)
                .and_then(|n| u16::try_from(n).ok())
                .ok_or_else(|| FenError::Counter(h.to_string()))?;
        }
        let fullmove: u32 = match fullmove {
            Some(f) => counter(f).ok_or_else(|| FenError::Counter(f.to_string()))?,
            None => 1,
        };
        let fullmove = fullmove.max(1);
        if fullmove > 1_000_000 {
            return Err(FenError::Counter(fullmove.to_string()));
        }
        self.state.ply = 2 * (fullmove - 1) + (self.stm == Color::Black) as u32;
        Ok(())
    }

    fn parse_castling(&mut self, field: &str) -> Result<(), FenError> {
        if field == "-" {
            return Ok(());
        }
        let rules = self.rules;
        if !rules.castling {
            return Err(FenError::Castling(format!(
                "'{field}': this variant has no castling"
            )));
        }
        check_castling_letters(rules, field)?;
        for c in field.chars() {
            let lc = c.to_ascii_lowercase();
            let color = if c.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            let back = if color == Color::White {
                0
            } else {
                rules.shape.ranks as i8 - 1
            };
            let king = self.pieces_of(color, PieceType::KING);
            let king_sq = king.iter().find(|s| s.rank() == back).ok_or_else(|| {
                FenError::Castling(format!(
                    "'{c}': the {} king is not on its first rank",
                    color.name()
                ))
            })?;
            let rooks = self.pieces_of(color, rules.castling_rook) & rules.shape.rank_bb(back);
            let rook = match lc {
                'k' => rooks
                    .iter()
                    .filter(|r| r.file() > king_sq.file())
                    .max_by_key(|r| r.file()),
                'q' => rooks
                    .iter()
                    .filter(|r| r.file() < king_sq.file())
                    .min_by_key(|r| r.file()),
                f => {
                    let file = f as i8 - 'a' as i8;
                    rooks.iter().find(|r| r.file() == file)
                }
            }
            .ok_or_else(|| {
                FenError::Castling(format!("'{c}': no {} rook for that right", color.name()))
            })?;
            let kingside = rook.file() > king_sq.file();
            let bit = match (color, kingside) {
                (Color::White, true) => 0,
                (Color::White, false) => 1,
                (Color::Black, true) => 2,
                (Color::Black, false) => 3,
            };
            if self.castle_rook[bit] < 64 {
                return Err(FenError::Castling(format!("'{field}' names a right twice")));
            }
            self.castle_rook[bit] = rook.raw();
            self.castle_path[bit] = castle_path(rules, color, king_sq, rook, kingside);
            self.state.castling |= 1 << bit;
            let side_bits = if color == Color::White {
                CASTLE_WK | CASTLE_WQ
            } else {
                CASTLE_BK | CASTLE_BQ
            };
            self.castle_mask[king_sq.index()] &= !side_bits;
            self.castle_mask[rook.index()] &= !(1 << bit);
        }
        Ok(())
    }

    fn validate(&self) -> Result<(), FenError> {
        let rules = self.rules;
        if let Some(royal) = rules.royal {
            if rules.checking {
                for color in Color::ALL {
                    let n = self.pieces_of(color, royal).count();
                    if n != 1 {
                        return Err(FenError::Illegal(format!(
                            "{} has {n} kings, needs exactly 1",
                            color.name()
                        )));
                    }
                }
            }
        }
        for color in Color::ALL {
            let pawns = self.pieces_of(color, PieceType::PAWN);
            let first = rules.shape.rank_bb(if color == Color::White {
                0
            } else {
                rules.shape.ranks as i8 - 1
            });
            if (pawns & first).any() && !rules.first_rank_pawns {
                return Err(FenError::Illegal(format!(
                    "a {} pawn stands on its first rank",
                    color.name()
                )));
            }
            if rules.mandatory_promotion && (pawns & rules.promotion_region[color.index()]).any() {
                return Err(FenError::Illegal(format!(
                    "a {} pawn stands in its promotion zone",
                    color.name()
                )));
            }
        }
        // A man outside its mobility region is a legal set-up: it may only move back into
        // the region (ruling PE-R1 of modest-proposals-2.md, applied to every region).
        if rules.flying_general {
            if let (Some(a), Some(b)) = (
                self.king_square(Color::White),
                self.king_square(Color::Black),
            ) {
                if a.file() == b.file()
                    && (crate::geometry::attacks::between(a, b) & self.occupied()).is_empty()
                {
                    return Err(FenError::Illegal(format!(
                        "the kings face each other on the open {}-file",
                        (b'a' + a.file() as u8) as char
                    )));
                }
            }
        }
        for mechanic in rules.mechanics.with_hook(Hooks::VALIDATE) {
            mechanic.validate(self).map_err(FenError::Illegal)?;
        }
        if rules.checking {
            let them = self.stm.flip();
            if let Some(k) = self.king_square(them) {
                let attacked = match rules.mechanics.checker() {
                    Some(c) => c.attacked(self, k, self.stm),
                    None => super::is_attacked(self, k, self.stm),
                };
                if attacked {
                    return Err(FenError::Illegal(format!(
                        "the side not to move ({}) is in check",
                        them.name()
                    )));
                }
            }
        }
        Ok(())
    }

    /// The FEN of this position.
    pub fn fen(&self) -> String {
        let shape = self.rules.shape;
        let mut s = String::new();
        for r in (0..shape.ranks as i8).rev() {
            let mut empty = 0;
            for f in 0..shape.files as i8 {
                let sq = Square::from_coords(f, r).expect("on frame");
                let p = self.board[sq.index()];
                if p.is_none() {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    s.push_str(&empty.to_string());
                    empty = 0;
                }
                let l = self.rules.letter(p.kind());
                s.push(if p.color() == Color::White {
                    l.to_ascii_uppercase()
                } else {
                    l
                });
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
            if r > 0 {
                s.push('/');
            }
        }
        for holder in self.rules.mechanics.with_hook(Hooks::HOLDINGS) {
            holder.write_holdings(self, &mut s);
        }
        s.push(' ');
        s.push(if self.stm == Color::White { 'w' } else { 'b' });
        s.push(' ');
        let mut any = false;
        for (bit, letter) in [(0usize, 'K'), (1, 'Q'), (2, 'k'), (3, 'q')] {
            if self.state.castling >> bit & 1 == 0 {
                continue;
            }
            any = true;
            let color = if bit < 2 { Color::White } else { Color::Black };
            let rook = Square::new(self.castle_rook[bit]);
            // outermost rook: plain K/Q; otherwise the Shredder file letter
            let back = self.pieces_of(color, self.rules.castling_rook)
                & self.rules.shape.rank_bb(rook.rank());
            let outer = if bit % 2 == 0 {
                back.iter().map(|r| r.file()).max()
            } else {
                back.iter().map(|r| r.file()).min()
            };
            if outer == Some(rook.file()) {
                s.push(letter);
            } else {
                let f = (b'a' + rook.file() as u8) as char;
                s.push(if color == Color::White {
                    f.to_ascii_uppercase()
                } else {
                    f
                });
            }
        }
        if !any {
            s.push('-');
        }
        s.push(' ');
        match self.ep_square() {
            Some(sq) => s.push_str(&sq.to_string()),
            None => s.push('-'),
        }
        s.push_str(&format!(
            " {} {}",
            self.state.halfmove,
            self.fullmove_number()
        ));
        for mechanic in self.mechanics().with_hook(Hooks::FEN) {
            mechanic.write_fen(self, &mut s);
        }
        s
    }
}
