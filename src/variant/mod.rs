//! Variant data: `variants.ini` sections compiled into immutable [`Rules`].
//!
//! A variant is data (board, pieces in Betza, regions, promotion, castling, game-end values)
//! plus, where data cannot say it, mechanics (`src/rules/`, built from the keys this layer
//! leaves to them; `position::Variant` holds both). Everything is decided once, at load, so
//! move generation never asks which variant it is playing.

mod ini;
mod registry;
mod wdl;

pub use ini::{parse_ini, IniError, IniFile};
pub use registry::{
    compile, data_is_orthodox, generator_is_orthodox, men_are_orthodox, Section, Setting, Settings,
    BUILTIN_INI,
};
pub use wdl::WdlModel;

use crate::geometry::{Bitboard, BoardShape, Color};
use crate::piece::{CompiledPiece, PieceType, MAX_PIECE_TYPES};

/// The result of a game-ending condition for the side it applies to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameValue {
    /// The side loses.
    Loss,
    /// The side wins.
    Win,
    /// Draw.
    Draw,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// This colour won.
    Win(Color),
    /// Drawn.
    Draw,
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

    /// The outcome of `value` for `side`.
    pub fn for_side(side: Color, value: GameValue) -> Outcome {
        match value {
            GameValue::Win => Outcome::Win(side),
            GameValue::Loss => Outcome::Win(side.flip()),
            GameValue::Draw => Outcome::Draw,
        }
    }
}

/// A finished game's result with its reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The result.
    pub outcome: Outcome,
    /// Why, in words (e.g. "checkmate", "stalemate", "50-move rule").
    pub reason: String,
}

/// One piece type of a variant.
#[derive(Clone)]
pub struct PieceDef {
    /// The key name (`pawn`, `knight`, `customPiece1`, ...).
    pub name: String,
    /// FEN letter, lower case.
    pub letter: char,
    /// Movement in Betza notation as written in the file.
    pub betza: String,
    /// Compiled movement tables.
    pub moves: CompiledPiece,
}

/// A compiled variant. Immutable; shared by positions through `Arc`.
#[derive(Clone)]
pub struct Rules {
    /// Variant name.
    pub name: String,
    /// Board size.
    pub shape: BoardShape,
    /// Squares of the board.
    pub board: Bitboard,
    /// Start position.
    pub start_fen: String,
    /// Piece types by index; `None` where unused.
    pub pieces: Vec<Option<PieceDef>>,
    /// Squares where each type may stand, by colour: `mobility[color][type]`.
    pub mobility: [[Bitboard; MAX_PIECE_TYPES]; 2],
    /// Promotion zone by colour.
    pub promotion_region: [Bitboard; 2],
    /// Types a pawn may promote to, in preference order.
    pub promotion_types: Vec<PieceType>,
    /// Whether a pawn reaching the zone must promote.
    pub mandatory_promotion: bool,
    /// Whether pawns may double-step.
    pub double_step: bool,
    /// Piece types (bit `t` for type `t`) whose ordinary non-capturing moves the generic
    /// generator leaves out, because a mechanic replaces them (Explorer's continuations,
    /// Wonderland's mirror): their captures stay ordinary; for pawns, steps and double steps
    /// are left out. Set by a mechanic's builder, never by a key.
    pub quiet_off: u16,
    /// Piece types whose ordinary captures the generic generator leaves out (with
    /// `quiet_off`, a type it does not move at all: Role-Model's pieces, whose powers a
    /// mechanic gives them); for pawns, en passant too. Set by a mechanic's builder.
    pub captures_off: u16,
    /// Whether a pawn may stand on its own first rank (Reflective's RF-R4: a man moved there
    /// by a borrowed power stays a pawn; the FEN check then accepts it). Set by a mechanic's
    /// builder, never by a key.
    pub first_rank_pawns: bool,
    /// Where a pawn may double-step from, by colour.
    pub double_step_region: [Bitboard; 2],
    /// Whether en passant exists.
    pub en_passant: bool,
    /// Whether castling exists.
    pub castling: bool,
    /// King's destination file for kingside castling.
    pub castling_kingside_file: i8,
    /// King's destination file for queenside castling.
    pub castling_queenside_file: i8,
    /// When non-zero, castling moves the king this many squares toward its rook, and the rook
    /// lands on the square beside the king's destination that the king crossed (FIDE's
    /// transfer rule from any king file: Cloverleaf's Kd8); zero: the fixed files above.
    pub castling_king_steps: i8,
    /// Piece type that castles with the king.
    pub castling_rook: PieceType,
    /// Chess960 (`chess960 = true`, Fairy-Stockfish's key): castling is spelled
    /// king-takes-own-rook (`e1h1`, UCI_Chess960's convention) and XBoard's `O-O`/`O-O-O`.
    /// Move generation is not affected: the castling rook's square always comes from the
    /// position (X-FEN or Shredder-FEN rights).
    pub chess960: bool,
    /// Whether the royal piece may not be left attacked (false: king capture decides).
    pub checking: bool,
    /// Royal piece type, if any.
    pub royal: Option<PieceType>,
    /// Kings may not face each other on an open file (xiangqi's flying general).
    pub flying_general: bool,
    /// Result for the side to move with no legal move and not in check.
    pub stalemate_value: GameValue,
    /// Result for the side to move when checkmated.
    pub checkmate_value: GameValue,
    /// Result for a side that has lost all pieces of `extinction_types`.
    pub extinction_value: Option<GameValue>,
    /// Types whose extinction ends the game.
    pub extinction_types: Vec<PieceType>,
    /// Plies without capture or pawn move that draw (0 = off); FS counts moves, we store plies/2.
    pub n_move_rule: u32,
    /// Repetitions that draw (0 = off).
    pub n_fold_rule: u32,
    /// Result for the side to move, not in check, whose every otherwise legal move is barred by
    /// a mechanic's legality filter (`barredValue`; default: `stalemate_value`).
    pub barred_value: GameValue,
    /// Piece values given in variants.ini (`pieceValueMg`, `pieceValueEg`), by phase and type;
    /// `None` where the evaluation derives the value itself.
    pub piece_value: [[Option<i32>; MAX_PIECE_TYPES]; 2],
    /// Whether the hand-tuned orthodox generator plays this variant's moves exactly: the data
    /// is orthodox chess up to castling's files or its absence ([`generator_is_orthodox`]) and
    /// no mechanic needs a hook that generator does not call (decided when the variant is
    /// loaded). Orthodox chess itself is [`data_is_orthodox`].
    pub orthodox: bool,
    /// Whether the men are orthodox chess's on its board, regions and the other rules aside
    /// ([`men_are_orthodox`]): their attacks are the orthodox tables'.
    pub orthodox_men: bool,
    /// The types in use as a bit set (bit `t` for type `t`), derived from `pieces`.
    pub type_mask: u16,
    /// Whether castling needs the king not in, through or into check (`checking`, or
    /// `kingCaptureCastlingChecks` where kings are captured).
    pub castling_checks: bool,
    /// The net named by `nnueFile` (this section's own key, never inherited), if any.
    pub nnue_file: Option<NetFile>,
    /// `nnueVariant`: the variant whose nets this one plays with besides its own (a net's
    /// header names the variant it was made for): Chess960 plays with chess's. This section's
    /// own key, never inherited, like `nnueFile`.
    pub nnue_variant: Option<String>,
    /// `wdlModel`: what a score means in this variant's games (fitted to its self-play).
    pub wdl: WdlModel,
}

/// A net named in variants.ini: the name as written (which may be a net built into the
/// engine) and the path it means as a file (relative to the variants file's folder).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetFile {
    /// As written.
    pub name: String,
    /// As a path.
    pub path: std::path::PathBuf,
}

/// A side's material as one number: 4 bits per piece type holding its count (capped at 15),
/// so equal material gives equal signatures.
pub fn material_signature(counts: impl Iterator<Item = (PieceType, u32)>) -> u64 {
    counts.fold(0, |sig, (t, n)| {
        sig + ((n.min(15) as u64) << (4 * t.index()))
    })
}

impl Rules {
    /// The piece definition of a type, if the variant uses it.
    #[inline(always)]
    pub fn piece(&self, t: PieceType) -> Option<&PieceDef> {
        self.pieces.get(t.index()).and_then(|p| p.as_ref())
    }

    /// Piece type for a FEN letter (either case).
    pub fn type_of_letter(&self, letter: char) -> Option<PieceType> {
        let l = letter.to_ascii_lowercase();
        self.pieces
            .iter()
            .position(|p| p.as_ref().is_some_and(|d| d.letter == l))
            .map(|i| PieceType(i as u8))
    }

    /// FEN letter of a piece type, lower case.
    pub fn letter(&self, t: PieceType) -> char {
        self.piece(t).map_or('?', |d| d.letter)
    }

    /// Types in use.
    pub fn piece_types(&self) -> impl Iterator<Item = PieceType> + '_ {
        self.pieces
            .iter()
            .enumerate()
            .filter(|(_, p)| p.is_some())
            .map(|(i, _)| PieceType(i as u8))
    }

    /// The start FEN as GUIs read it: without the rule module's extension field when that is
    /// empty (`-`), so a GUI that knows only six FEN fields can set up the board.
    pub fn gui_start_fen(&self) -> &str {
        let fen = self.start_fen.trim_end();
        match fen.rsplit_once(' ') {
            Some((six, "-")) if fen.split_whitespace().count() == 7 => six.trim_end(),
            _ => fen,
        }
    }

    /// Where `t` of `color` may stand.
    #[inline(always)]
    pub fn region(&self, color: Color, t: PieceType) -> Bitboard {
        self.mobility[color.index()][t.index()]
    }
}
