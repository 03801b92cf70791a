//! Variant definitions: `variants.ini` compiled into immutable [`Rules`].
//!
//! A variant is data (board, pieces in Betza, regions, promotion, castling, game-end values)
//! plus, where data cannot say it, a named rule module ([`SpecialMoves`]). Everything is
//! decided here, once, so move generation never asks which variant it is playing.

mod ini;
mod registry;

pub use ini::{parse_ini, IniError, IniFile};
pub use registry::{builtin_variants, VariantSet, BUILTIN_INI};

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

/// Rule modules that add moves data cannot describe.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpecialMoves {
    /// Only the moves of the pieces' Betza definitions (plus castling, double step, en passant).
    None,
    /// Bracket (Modest Proposals): approach a friendly man, both go to a pair of empty squares around it.
    Bracket,
    /// Eviction (Modest Proposals): A moves with B's power onto B, B moves with A's power.
    Eviction,
}

impl SpecialMoves {
    /// The name used in variants.ini.
    pub fn name(self) -> &'static str {
        match self {
            SpecialMoves::None => "none",
            SpecialMoves::Bracket => "bracket",
            SpecialMoves::Eviction => "eviction",
        }
    }

    /// Parses a variants.ini value.
    pub fn parse(s: &str) -> Option<SpecialMoves> {
        Some(match s {
            "none" => SpecialMoves::None,
            "bracket" => SpecialMoves::Bracket,
            "eviction" => SpecialMoves::Eviction,
            _ => return None,
        })
    }
}

/// Rule modules that keep variant state in the position (`State::extra`, hashed): after every
/// ply they update it, they may bar captures, and they own the FEN's extension field (the field
/// after the move number). Chosen once per variant; variants without one pay a single branch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StateRule {
    /// No variant state.
    None,
    /// Espionage's spy (`spyPieceTypes`): immune to capture except after its own capture.
    Spy(SpyRule),
    /// The last move's squares (Nonlinear, `restriction = nonlinear`), which its move filter
    /// reads.
    LastMove,
}

/// How long a spy stays capturable after it captured (`spyExposure`, ruling R-ESP-1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpyExposure {
    /// Only on the ply right after its capture (`nextPly`, the ruling).
    NextPly,
    /// From its capture until it next moves without capturing (`untilQuietMove`, option (b)).
    UntilQuietMove,
}

impl SpyExposure {
    /// The name used in variants.ini.
    pub fn name(self) -> &'static str {
        match self {
            SpyExposure::NextPly => "nextPly",
            SpyExposure::UntilQuietMove => "untilQuietMove",
        }
    }

    /// Parses a variants.ini value.
    pub fn parse(s: &str) -> Option<SpyExposure> {
        match s {
            "nextPly" => Some(SpyExposure::NextPly),
            "untilQuietMove" => Some(SpyExposure::UntilQuietMove),
            _ => None,
        }
    }
}

/// The spy module's settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpyRule {
    /// The spy types as a bit set (bit `t` for type `t`).
    pub types: u16,
    /// How long a spy that captured stays capturable.
    pub exposure: SpyExposure,
}

/// Who chooses each ply (`moveSchedule`). Every schedule but `Alternate` is a 007 form: the
/// colour to move still alternates every ply, the player choosing it does not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Schedule {
    /// Players alternate: the chooser is the colour to move (every variant but the 007 family).
    Alternate,
    /// 007 Chess: turns of three plies (own, enemy, own), White first.
    Jackman,
    /// Balanced 007: Black chooses ply 1, White plies 2-3, then turns of three from Black.
    Balanced,
    /// Progressive 007: turn n has n plies, White chooses the odd turns.
    Progressive,
}

impl Schedule {
    /// The name used in variants.ini.
    pub fn name(self) -> &'static str {
        match self {
            Schedule::Alternate => "alternate",
            Schedule::Jackman => "007",
            Schedule::Balanced => "balanced007",
            Schedule::Progressive => "progressive007",
        }
    }

    /// Parses a variants.ini value.
    pub fn parse(s: &str) -> Option<Schedule> {
        Some(match s {
            "alternate" => Schedule::Alternate,
            "007" => Schedule::Jackman,
            "balanced007" => Schedule::Balanced,
            "progressive007" => Schedule::Progressive,
            _ => return None,
        })
    }
}

/// The 007 family's turn rules (`Rules::turns`), fixed when the variant is loaded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurnRules {
    /// Who chooses which ply.
    pub schedule: Schedule,
    /// Detente restrictions on the third ply of a turn (`detente`).
    pub detente: bool,
    /// `turnCompletion = turn` (ruling R-007-2 (T)): a ply after which the turn cannot be
    /// finished is illegal; `ply` (false) gives option (P).
    pub complete_turns: bool,
    /// `promotionChooser = owner`: on an enemy ply the pawn's owner picks the promotion piece.
    pub promotion_by_owner: bool,
}

/// Rule modules that bar moves data cannot describe: legality filters applied on top of the
/// ordinary "king not left attacked" test (src/rules/restrict.rs dispatches them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Restriction {
    /// No filter.
    None,
    /// Hippophobic (Modest Proposals): Queens and Kings keep away from Knights.
    Hippophobic,
    /// Garrison (Modest Proposals): every move ends with the moved man defending or defended.
    Garrison,
    /// Nonlinear (Modest Proposals): the last move's ranks and files are barred while another
    /// move exists; the last move is position state.
    Nonlinear,
}

impl Restriction {
    /// The name used in variants.ini.
    pub fn name(self) -> &'static str {
        match self {
            Restriction::None => "none",
            Restriction::Hippophobic => "hippophobic",
            Restriction::Garrison => "garrison",
            Restriction::Nonlinear => "nonlinear",
        }
    }

    /// Parses a variants.ini value.
    pub fn parse(s: &str) -> Option<Restriction> {
        Some(match s {
            "none" => Restriction::None,
            "hippophobic" => Restriction::Hippophobic,
            "garrison" => Restriction::Garrison,
            "nonlinear" => Restriction::Nonlinear,
            _ => return None,
        })
    }

    /// Whether passing (the search's null move) keeps the meaning of the position: not where
    /// the rule depends on the opponent's last move.
    pub fn passing_is_sound(self) -> bool {
        self != Restriction::Nonlinear
    }
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
    /// Piece type that castles with the king.
    pub castling_rook: PieceType,
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
    /// Extra move mechanic.
    pub special: SpecialMoves,
    /// Legality filter module (`restriction`).
    pub restriction: Restriction,
    /// Types (bit `t` for type `t`) no two of which may end a move facing each other on an open
    /// rank, file or diagonal (`facingPieces`; Torpedo's monarchs); 0 = no facing rule.
    pub facing: u16,
    /// The facing rule concerns only men of opposite colours (`facingColors = opposite`).
    pub facing_opponents_only: bool,
    /// Result for the side to move, not in check, whose every otherwise legal move is barred by
    /// the facing rule or the restriction module (`barredValue`; default: `stalemate_value`).
    pub barred_value: GameValue,
    /// Garrison: Kings count as defenders and as defended men (`garrisonKings`, ruling GA-R3;
    /// default true).
    pub garrison_kings: bool,
    /// Hippophobic: the side to move whose King stands next to a Knight counts as in check
    /// (`hippophobicAdjacencyIsCheck`, the alternative of ruling HI-R2; default false).
    pub hippophobic_adjacency_check: bool,
    /// Hippophobic: the castling King may not cross a square next to a Knight, besides ending
    /// on one (`hippophobicCastling = path`, the alternative of ruling HI-R4; default false,
    /// `destination`).
    pub hippophobic_castling_path: bool,
    /// Whether any filter (facing rule or restriction module) applies: moves then go through
    /// `rules::restrict`. Derived from `facing` and `restriction`.
    pub restricts: bool,
    /// Variant state kept in the position, if any.
    pub state_rule: StateRule,
    /// Dead positions by material (`deadMaterial`): pairs of material signatures
    /// ([`material_signature`]), either side having either one; the game is drawn at once.
    pub dead_material: Vec<(u64, u64)>,
    /// Most men on the board of any dead material pair (0: none), so the test is skipped cheaply.
    pub dead_material_men: u32,
    /// Piece values given in variants.ini (`pieceValueMg`, `pieceValueEg`), by phase and type;
    /// `None` where the evaluation derives the value itself.
    pub piece_value: [[Option<i32>; MAX_PIECE_TYPES]; 2],
    /// Whether the hand-tuned orthodox generator plays this variant exactly.
    pub orthodox: bool,
    /// The types in use as a bit set (bit `t` for type `t`), derived from `pieces`.
    pub type_mask: u16,
    /// Whether castling needs the king not in, through or into check (`checking`, or
    /// `kingCaptureCastlingChecks` where kings are captured).
    pub castling_checks: bool,
    /// Turn schedule of the 007 family (`None`: the players alternate).
    pub turns: Option<TurnRules>,
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
