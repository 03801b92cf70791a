//! Compiling variants.ini sections into [`Rules`], and the set of loaded variants.
//!
//! Defaults are orthodox chess; a section changes only what it names. Every key is checked:
//! an unknown key, a bad value or an inconsistent combination is an error with file and line.

use super::ini::IniError;
use super::{GameValue, NetFile, PieceDef, Rules, WdlModel};
use crate::geometry::{Bitboard, BoardShape, Color, Square};
use crate::piece::{parse_betza, CompiledPiece, PieceType, MAX_PIECE_TYPES};
use std::collections::{BTreeMap, BTreeSet};

/// The variants.ini shipped inside the binary.
pub const BUILTIN_INI: &str = include_str!("../../variants.ini");

/// Orthodox pieces: key, default letter, Betza, fixed type index.
const ORTHODOX_PIECES: [(&str, char, &str); 6] = [
    ("pawn", 'p', "fmWfcF"),
    ("knight", 'n', "N"),
    ("bishop", 'b', "B"),
    ("rook", 'r', "R"),
    ("queen", 'q', "Q"),
    ("king", 'k', "K"),
];

/// Named fairy pieces (off unless given a letter), with their Betza.
const NAMED_FAIRIES: [(&str, &str); 8] = [
    ("archbishop", "BN"),
    ("chancellor", "RN"),
    ("amazon", "QN"),
    ("fers", "F"),
    ("wazir", "W"),
    ("alfil", "A"),
    ("commoner", "K"),
    ("centaur", "KN"),
];

const MAX_CUSTOM: usize = 10;

const PLAIN_KEYS: &[&str] = &[
    "maxRank",
    "maxFile",
    "startFen",
    "promotionRegionWhite",
    "promotionRegionBlack",
    "promotionPieceTypes",
    "mandatoryPawnPromotion",
    "doubleStep",
    "doubleStepRegionWhite",
    "doubleStepRegionBlack",
    "enPassantRegion",
    "castling",
    "castlingKingsideFile",
    "castlingQueensideFile",
    "castlingKingSteps",
    "castlingRookPieces",
    "chess960",
    "checking",
    "flyingGeneral",
    "stalemateValue",
    "checkmateValue",
    "extinctionValue",
    "extinctionPieceTypes",
    "nMoveRule",
    "nFoldRule",
    "noAdjacentCapture",
    "barredValue",
    "pieceValueMg",
    "pieceValueEg",
    "kingCapture",
    "kingCaptureCastlingChecks",
    "nnueFile",
    "nnueVariant",
    "wdlModel",
];

/// A key's value with where it was written.
#[derive(Clone, Debug)]
pub struct Setting {
    /// The value as written.
    pub value: String,
    /// Its line.
    pub line: usize,
    /// Its file.
    pub file: String,
}

/// A section's keys, inherited and its own, by name.
pub type Settings = BTreeMap<String, Setting>;

/// Keys that only matter when the variant has pawns.
const PAWN_KEYS: &[&str] = &[
    "promotionRegionWhite",
    "promotionRegionBlack",
    "promotionPieceTypes",
    "mandatoryPawnPromotion",
    "doubleStep",
    "doubleStepRegionWhite",
    "doubleStepRegionBlack",
    "enPassantRegion",
];

/// The section being compiled: its merged settings (inherited and own) and where it is. The
/// base compiler and the mechanics' builders read their keys through it, so every error
/// points at the key's line (or, for an inherited key, at the section and where it came from).
pub struct Section<'a> {
    settings: &'a Settings,
    /// Keys written in this section itself (not inherited).
    own: &'a BTreeSet<String>,
    file: &'a str,
    section_line: usize,
    variant: &'a str,
}

impl<'a> Section<'a> {
    /// The section `variant` (header at `file:section_line`) with merged `settings`, of which
    /// it writes `own` itself.
    pub fn new(
        settings: &'a Settings,
        own: &'a BTreeSet<String>,
        file: &'a str,
        section_line: usize,
        variant: &'a str,
    ) -> Section<'a> {
        Section {
            settings,
            own,
            file,
            section_line,
            variant,
        }
    }

    /// The variant's name.
    pub fn variant(&self) -> &str {
        self.variant
    }

    /// The keys of the section, inherited and its own.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.settings.keys().map(String::as_str)
    }

    /// An error about `key`: at the key's own line when this section writes it; otherwise at
    /// the section header, saying where an inherited value comes from.
    pub fn err(&self, key: &str, message: String) -> IniError {
        match self.settings.get(key) {
            Some(s) if self.own.contains(key) => IniError {
                file: s.file.clone(),
                line: s.line,
                key: Some(key.into()),
                message,
            },
            Some(s) => IniError {
                file: self.file.into(),
                line: self.section_line,
                key: Some(key.into()),
                message: format!(
                    "[{}] inherits '{key} = {}' (from {}:{}): {message}",
                    self.variant, s.value, s.file, s.line
                ),
            },
            None => IniError {
                file: self.file.into(),
                line: self.section_line,
                key: Some(key.into()),
                message: format!("[{}]: {message}", self.variant),
            },
        }
    }

    /// Whether this section itself writes `key`.
    pub fn sets(&self, key: &str) -> bool {
        self.own.contains(key)
    }

    /// Whether `selector = value` chooses the module that alone reads `keys`. When it does
    /// not, a key of `keys` written in this section is refused: it would have no effect.
    pub fn selects(&self, selector: &str, value: &str, keys: &[&str]) -> Result<bool, IniError> {
        if self.get(selector) == Some(value) {
            return Ok(true);
        }
        match keys.iter().find(|k| self.sets(k)) {
            Some(key) => Err(self.err(
                key,
                format!("only {selector} = {value} reads this key, so it has no effect"),
            )),
            None => Ok(false),
        }
    }

    /// The value of `key`, inherited or own.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.settings.get(key).map(|s| s.value.as_str())
    }

    /// A list of piece letters (`-` or absent: none), as types of `rules`.
    pub fn letters(&self, key: &str, rules: &Rules) -> Result<Vec<PieceType>, IniError> {
        let v = match self.get(key) {
            None | Some("-") => return Ok(Vec::new()),
            Some(v) => v,
        };
        let mut out = Vec::new();
        for c in v.chars().filter(|c| !c.is_whitespace()) {
            let Some(t) = rules.type_of_letter(c).filter(|_| !c.is_ascii_uppercase()) else {
                let hint = if rules.type_of_letter(c.to_ascii_lowercase()).is_some() {
                    " (piece letters are lower case here)"
                } else {
                    ""
                };
                return Err(self.err(key, format!("no piece has the letter '{c}'{hint}")));
            };
            if out.contains(&t) {
                return Err(self.err(key, format!("the letter '{c}' is given twice")));
            }
            out.push(t);
        }
        Ok(out)
    }

    /// A `true`/`false` key.
    pub fn bool(&self, key: &str, default: bool) -> Result<bool, IniError> {
        match self.get(key) {
            None => Ok(default),
            Some("true") => Ok(true),
            Some("false") => Ok(false),
            Some(v) => Err(self.err(key, format!("expected true or false, found '{v}'"))),
        }
    }

    /// A key with two named values: false for `usual` (also the default when the key is
    /// absent), true for `other`.
    pub fn two_way(&self, key: &str, usual: &str, other: &str) -> Result<bool, IniError> {
        match self.get(key) {
            None => Ok(false),
            Some(v) if v == usual => Ok(false),
            Some(v) if v == other => Ok(true),
            Some(v) => Err(self.err(key, format!("expected {usual} or {other}, found '{v}'"))),
        }
    }

    /// A whole number from `min` to `max`.
    pub fn number(&self, key: &str, default: u32, min: u32, max: u32) -> Result<u32, IniError> {
        match self.get(key) {
            None => Ok(default),
            // digits only: u32's parser would also take "+5"
            Some(v) => match v.parse::<u32>() {
                Ok(n) if v.bytes().all(|b| b.is_ascii_digit()) && (min..=max).contains(&n) => Ok(n),
                _ => Err(self.err(
                    key,
                    format!("expected a whole number from {min} to {max}, found '{v}'"),
                )),
            },
        }
    }

    /// A game value (`win`, `loss`, `draw`).
    pub fn value(&self, key: &str, default: GameValue) -> Result<GameValue, IniError> {
        match self.get(key) {
            None => Ok(default),
            Some(v) => parse_value(v)
                .ok_or_else(|| self.err(key, format!("expected win, loss or draw, found '{v}'"))),
        }
    }

    fn file_index(&self, key: &str, default: i8, shape: BoardShape) -> Result<i8, IniError> {
        match self.get(key) {
            None => Ok(default),
            Some(v) => parse_file(v, shape.files).map(|f| f as i8).ok_or_else(|| {
                self.err(
                    key,
                    format!(
                        "expected a file a..{} or 1..{}, found '{v}'",
                        (b'a' + shape.files - 1) as char,
                        shape.files
                    ),
                )
            }),
        }
    }

    fn region(
        &self,
        key: &str,
        default: Bitboard,
        shape: BoardShape,
    ) -> Result<Bitboard, IniError> {
        match self.get(key) {
            None => Ok(default),
            Some(v) => parse_region(v, shape).map_err(|m| self.err(key, m)),
        }
    }
}

fn parse_value(v: &str) -> Option<GameValue> {
    match v {
        "win" => Some(GameValue::Win),
        "loss" => Some(GameValue::Loss),
        "draw" => Some(GameValue::Draw),
        _ => None,
    }
}

fn parse_file(v: &str, files: u8) -> Option<u8> {
    if !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()) {
        // lazily: n - 1 underflows for "0"
        let n = v.parse::<u8>().ok()?;
        return (1..=files).contains(&n).then(|| n - 1);
    }
    let b = v.as_bytes();
    if b.len() == 1 && b[0].is_ascii_lowercase() && b[0] - b'a' < files {
        return Some(b[0] - b'a');
    }
    None
}

/// Parses a region: space-separated squares (`e4`), whole ranks (`*8`), whole files (`a*`),
/// rectangles (`c3-f6`, our extension), `*` for the board, `-` for none.
pub fn parse_region(v: &str, shape: BoardShape) -> Result<Bitboard, String> {
    let mut bb = Bitboard::EMPTY;
    if v.trim() == "-" {
        return Ok(bb);
    }
    for tok in v.split_whitespace() {
        if tok == "*" {
            bb |= shape.mask();
        } else if let Some(r) = tok.strip_prefix('*') {
            match r.parse::<u8>() {
                Ok(n)
                    if r.bytes().all(|b| b.is_ascii_digit()) && (1..=shape.ranks).contains(&n) =>
                {
                    bb |= shape.rank_bb(n as i8 - 1)
                }
                _ => {
                    return Err(format!(
                        "'{tok}' is not a rank of a {}x{} board",
                        shape.files, shape.ranks
                    ))
                }
            }
        } else if let Some(f) = tok.strip_suffix('*') {
            match parse_file(f, shape.files) {
                Some(file) => {
                    for r in 0..shape.ranks as i8 {
                        bb |=
                            Square::from_coords(file as i8, r).map_or(Bitboard::EMPTY, |s| s.bb());
                    }
                }
                None => {
                    return Err(format!(
                        "'{tok}' is not a file of a {}x{} board",
                        shape.files, shape.ranks
                    ))
                }
            }
        } else if let Some((a, b)) = tok.split_once('-') {
            let (Some(a), Some(b)) = (shape.parse_square(a), shape.parse_square(b)) else {
                return Err(format!(
                    "'{tok}' is not a rectangle of squares on a {}x{} board",
                    shape.files, shape.ranks
                ));
            };
            for f in a.file().min(b.file())..=a.file().max(b.file()) {
                for r in a.rank().min(b.rank())..=a.rank().max(b.rank()) {
                    bb |= Square::from_coords(f, r).map_or(Bitboard::EMPTY, |s| s.bb());
                }
            }
        } else {
            match shape.parse_square(tok) {
                Some(sq) => bb |= sq.bb(),
                None => {
                    return Err(format!(
                        "'{tok}' is not a square of a {}x{} board",
                        shape.files, shape.ranks
                    ))
                }
            }
        }
    }
    Ok(bb)
}

fn piece_key_name(key: &str) -> Option<String> {
    // mobilityRegion<Color><Piece>: piece names capitalised (King, CustomPiece1)
    let mut c = key.chars();
    c.next()
        .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
}

/// Edit distance with adjacent transpositions (for "did you mean" hints).
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = v;
        }
    }
    d[a.len()][b.len()]
}

/// The known key closest to a misspelt one, if any is close.
fn suggest<'k>(key: &str, known: impl Iterator<Item = &'k str>) -> Option<&'k str> {
    let lower = key.to_ascii_lowercase();
    known
        .map(|k| {
            let d = if k.to_ascii_lowercase() == lower {
                0
            } else {
                edit_distance(key, k)
            };
            (d, k)
        })
        .filter(|&(d, k)| d <= if k.len() < 6 { 1 } else { 2.max(k.len() / 6) })
        .min()
        .map(|(_, k)| k)
}

/// Compiles a section's data into [`Rules`]; `mechanic_keys` are the keys the registered
/// mechanics read (known here, read by them). `Rules::orthodox` is left false: whether the
/// orthodox generator may play the variant depends on its mechanics too.
///
/// The steps run in this order, each reporting the first error it finds, so a section with
/// several mistakes is told about the first in this order.
pub fn compile(ctx: &Section, mechanic_keys: &[&str]) -> Result<Rules, IniError> {
    check_keys(ctx, mechanic_keys)?;
    let shape = board_shape(ctx)?;
    let pieces = compile_pieces(ctx)?;
    let mobility = mobility_regions(ctx, &pieces, shape)?;
    let type_mask = pieces
        .iter()
        .enumerate()
        .filter(|(_, p)| p.is_some())
        .fold(0u16, |mask, (i, _)| mask | 1 << i);
    let has_king = pieces[PieceType::KING.index()].is_some();
    let mut rules = Rules {
        name: ctx.variant.to_string(),
        shape,
        board: shape.mask(),
        start_fen: String::new(),
        pieces,
        mobility,
        promotion_region: [Bitboard::EMPTY; 2],
        promotion_types: Vec::new(),
        mandatory_promotion: true,
        double_step: true,
        quiet_off: 0,
        captures_off: 0,
        first_rank_pawns: false,
        double_step_region: [Bitboard::EMPTY; 2],
        en_passant: false,
        castling: false,
        castling_kingside_file: 6,
        castling_queenside_file: 2,
        castling_king_steps: 0,
        castling_rook: PieceType::ROOK,
        chess960: false,
        checking: true,
        royal: has_king.then_some(PieceType::KING),
        flying_general: false,
        stalemate_value: GameValue::Draw,
        checkmate_value: GameValue::Loss,
        extinction_value: None,
        extinction_types: Vec::new(),
        n_move_rule: 50,
        n_fold_rule: 3,
        barred_value: GameValue::Draw,
        piece_value: [[None; MAX_PIECE_TYPES]; 2],
        orthodox: false,
        orthodox_men: false,
        type_mask,
        castling_checks: true,
        nnue_file: None,
        nnue_variant: None,
        wdl: WdlModel::DEFAULT,
    };
    pawn_rules(ctx, &mut rules)?;
    castling_rules(ctx, &mut rules)?;
    let king_capture = end_rules(ctx, &mut rules)?;
    piece_values(ctx, &mut rules)?;
    move_rules(ctx, &mut rules)?;
    rules.start_fen = start_fen(ctx, shape)?;
    rules.checkmate_value = ctx.value("checkmateValue", GameValue::Loss)?;
    rules.castling_checks = castling_checks(ctx, rules.checking, king_capture)?;
    rules.nnue_file = net_file(ctx);
    rules.nnue_variant = ctx
        .sets("nnueVariant")
        .then(|| ctx.get("nnueVariant").map(|v| v.trim().to_string()))
        .flatten()
        .filter(|v| !v.is_empty());
    if let Some(text) = ctx.get("wdlModel") {
        rules.wdl = WdlModel::parse(text).map_err(|e| ctx.err("wdlModel", e))?;
    }
    Ok(rules)
}

/// `nnueFile`, read only where the section writes it: a net is made for one variant, so a
/// child variant does not inherit its parent's. A relative path is taken from the folder of
/// the file that names it; `-` means no net.
fn net_file(ctx: &Section) -> Option<NetFile> {
    if !ctx.sets("nnueFile") {
        return None;
    }
    let setting = ctx.settings.get("nnueFile")?;
    let name = setting.value.trim();
    if name.is_empty() || name == "-" {
        return None;
    }
    let path = match std::path::Path::new(&setting.file).parent() {
        Some(dir) => dir.join(name),
        None => std::path::PathBuf::from(name),
    };
    Some(NetFile {
        name: name.to_string(),
        path,
    })
}

/// Every key of the section must be a data key, a piece or region key, or a mechanic's.
fn check_keys(ctx: &Section, mechanic_keys: &[&str]) -> Result<(), IniError> {
    let all_piece_keys: Vec<String> = ORTHODOX_PIECES
        .iter()
        .map(|p| p.0.to_string())
        .chain(NAMED_FAIRIES.iter().map(|p| p.0.to_string()))
        .chain(custom_keys())
        .collect();
    let mobility_keys: Vec<String> = all_piece_keys
        .iter()
        .flat_map(|k| Color::ALL.map(|c| mobility_key(c, k)))
        .collect();
    for key in ctx.settings.keys() {
        let known = PLAIN_KEYS.contains(&key.as_str())
            || mechanic_keys.contains(&key.as_str())
            || all_piece_keys.contains(key)
            || mobility_keys.contains(key);
        if !known {
            let candidates = PLAIN_KEYS
                .iter()
                .chain(mechanic_keys)
                .copied()
                .chain(all_piece_keys.iter().map(String::as_str))
                .chain(mobility_keys.iter().map(String::as_str));
            let hint = match suggest(key, candidates) {
                Some(k) => format!("unknown key; did you mean '{k}'?"),
                None => "unknown key (see the key list at the top of variants.ini)".into(),
            };
            return Err(ctx.err(key, hint));
        }
    }
    Ok(())
}

/// `customPiece1` .. `customPiece10`.
fn custom_keys() -> impl Iterator<Item = String> {
    (1..=MAX_CUSTOM).map(|i| format!("customPiece{i}"))
}

/// The mobility-region key of the piece of key `piece` for `color`.
fn mobility_key(color: Color, piece: &str) -> String {
    format!(
        "mobilityRegion{}{}",
        color.name(),
        piece_key_name(piece).unwrap_or_default()
    )
}

/// `maxFile` and `maxRank`.
fn board_shape(ctx: &Section) -> Result<BoardShape, IniError> {
    let files = match ctx.get("maxFile") {
        None => 8,
        Some(v) => match v
            .parse::<u8>()
            .ok()
            .filter(|_| v.bytes().all(|b| b.is_ascii_digit()))
            .or_else(|| parse_file(v, 8).map(|f| f + 1))
        {
            Some(n) if (5..=8).contains(&n) => n,
            _ => return Err(ctx.err("maxFile", format!("expected 5..8 or e..h, found '{v}'"))),
        },
    };
    let ranks = ctx.number("maxRank", 8, 5, 8)? as u8;
    Ok(BoardShape { files, ranks })
}

/// The piece types: the orthodox slots, the named fairies and the custom pieces, with their
/// letters and compiled movement (`noAdjacentCapture` included).
fn compile_pieces(ctx: &Section) -> Result<Vec<Option<PieceDef>>, IniError> {
    let no_adjacent: Vec<char> = match ctx.get("noAdjacentCapture") {
        None | Some("-") => Vec::new(),
        Some(v) => v.chars().filter(|c| !c.is_whitespace()).collect(),
    };
    let mut pieces: Vec<Option<PieceDef>> = vec![None; MAX_PIECE_TYPES];
    let mut letters: Vec<(char, String)> = Vec::new();
    let mut next_custom = PieceType::FIRST_CUSTOM as usize;
    let mut add_piece = |key: &str,
                         letter: char,
                         betza: &str,
                         index: Option<usize>,
                         pieces: &mut Vec<Option<PieceDef>>|
     -> Result<(), IniError> {
        if !letter.is_ascii_lowercase() {
            return Err(ctx.err(
                key,
                format!("piece letter must be a lower-case letter a..z, found '{letter}'"),
            ));
        }
        if let Some((_, other)) = letters.iter().find(|(l, _)| *l == letter) {
            return Err(ctx.err(key, format!("letter '{letter}' is already used by {other}")));
        }
        let atoms = parse_betza(betza).map_err(|e| ctx.err(key, e.to_string()))?;
        let idx = match index {
            Some(i) => i,
            None => {
                if next_custom >= MAX_PIECE_TYPES {
                    return Err(ctx.err(
                        key,
                        format!(
                            "more than {MAX_PIECE_TYPES} piece types (the 6 orthodox slots \
                             count even when unused, leaving {} for fairy pieces)",
                            MAX_PIECE_TYPES - PieceType::FIRST_CUSTOM as usize
                        ),
                    ));
                }
                next_custom += 1;
                next_custom - 1
            }
        };
        letters.push((letter, key.to_string()));
        pieces[idx] = Some(PieceDef {
            name: key.to_string(),
            letter,
            betza: betza.to_string(),
            moves: CompiledPiece::new(&atoms, no_adjacent.contains(&letter)),
        });
        Ok(())
    };
    let letter_value = |key: &str, v: &str| -> Result<Option<char>, IniError> {
        let mut ch = v.chars();
        match (ch.next(), ch.next()) {
            (Some('-'), None) => Ok(None),
            (Some(c), None) => Ok(Some(c)),
            _ => Err(ctx.err(key, format!("expected one letter or '-', found '{v}'"))),
        }
    };
    for (i, (key, default, betza)) in ORTHODOX_PIECES.iter().enumerate() {
        let letter = match ctx.get(key) {
            None => Some(*default),
            Some(v) => letter_value(key, v)?,
        };
        if let Some(l) = letter {
            add_piece(key, l, betza, Some(i), &mut pieces)?;
        }
    }
    for (key, betza) in NAMED_FAIRIES.iter() {
        if let Some(v) = ctx.get(key) {
            if let Some(l) = letter_value(key, v)? {
                add_piece(key, l, betza, None, &mut pieces)?;
            }
        }
    }
    for key in custom_keys() {
        if let Some(v) = ctx.get(&key) {
            if v == "-" {
                continue;
            }
            let Some((l, betza)) = v.split_once(':') else {
                return Err(ctx.err(
                    &key,
                    format!("expected 'letter:Betza' (e.g. 'c:mR4cpR4') or '-', found '{v}'"),
                ));
            };
            let l = letter_value(&key, l.trim())?
                .ok_or_else(|| ctx.err(&key, "a custom piece needs a letter".into()))?;
            add_piece(&key, l, betza.trim(), None, &mut pieces)?;
        }
    }
    for &l in &no_adjacent {
        if !letters.iter().any(|(x, _)| *x == l) {
            return Err(ctx.err(
                "noAdjacentCapture",
                format!("no piece has the letter '{l}'"),
            ));
        }
    }
    Ok(pieces)
}

/// The type of the piece whose letter is exactly `l`.
fn type_of(pieces: &[Option<PieceDef>], l: char) -> Option<PieceType> {
    pieces
        .iter()
        .position(|p| p.as_ref().is_some_and(|d| d.letter == l))
        .map(|i| PieceType(i as u8))
}

/// A list of piece letters (`-`: none) with its default. Defaults are letters, so a redefined
/// piece with the orthodox letter takes the orthodox role; a renamed orthodox piece would
/// silently drop out of a default list, so that is an error asking for the key.
fn piece_list(
    ctx: &Section,
    pieces: &[Option<PieceDef>],
    key: &str,
    default: &str,
) -> Result<Vec<PieceType>, IniError> {
    match ctx.get(key) {
        None => {
            for c in default.chars().filter(|&c| type_of(pieces, c).is_none()) {
                let renamed = ORTHODOX_PIECES.iter().enumerate().find_map(|(i, p)| {
                    (p.1 == c)
                        .then(|| pieces[i].as_ref())
                        .flatten()
                        .map(|d| (p.0, d.letter))
                });
                if let Some((piece, letter)) = renamed {
                    return Err(ctx.err(
                        key,
                        format!(
                            "the default '{default}' names '{c}', but the {piece} is \
                             '{letter}' here; give {key} explicitly"
                        ),
                    ));
                }
            }
            Ok(default.chars().filter_map(|c| type_of(pieces, c)).collect())
        }
        Some("-") => Ok(Vec::new()),
        Some(v) => {
            let mut out = Vec::new();
            for c in v.chars().filter(|c| !c.is_whitespace()) {
                let Some(t) = type_of(pieces, c) else {
                    let hint = if type_of(pieces, c.to_ascii_lowercase()).is_some() {
                        " (piece letters are lower case here)"
                    } else {
                        ""
                    };
                    return Err(ctx.err(key, format!("no piece has the letter '{c}'{hint}")));
                };
                if out.contains(&t) {
                    return Err(ctx.err(key, format!("the letter '{c}' is given twice")));
                }
                out.push(t);
            }
            Ok(out)
        }
    }
}

/// Where each piece may stand, by colour (`mobilityRegion<Color><Piece>`).
fn mobility_regions(
    ctx: &Section,
    pieces: &[Option<PieceDef>],
    shape: BoardShape,
) -> Result<[[Bitboard; MAX_PIECE_TYPES]; 2], IniError> {
    let board = shape.mask();
    let mut mobility = [[board; MAX_PIECE_TYPES]; 2];
    for (idx, p) in pieces.iter().enumerate() {
        if let Some(def) = p {
            for color in Color::ALL {
                let key = mobility_key(color, &def.name);
                mobility[color.index()][idx] = ctx.region(&key, board, shape)?;
            }
        }
    }
    // a region for a piece the variant does not use is a mistake when written here; inherited
    // ones belong to a parent whose piece this section removed, and cannot be unset
    for key in ctx.own.iter().filter(|k| k.starts_with("mobilityRegion")) {
        let used = pieces
            .iter()
            .flatten()
            .any(|d| Color::ALL.iter().any(|&c| *key == mobility_key(c, &d.name)));
        if !used {
            return Err(ctx.err(key, "names a piece this variant does not use".into()));
        }
    }
    Ok(mobility)
}

/// Promotion, the double step and en passant.
fn pawn_rules(ctx: &Section, rules: &mut Rules) -> Result<(), IniError> {
    let shape = rules.shape;
    let ranks = shape.ranks as i8;
    let has_pawn = rules.pieces[PieceType::PAWN.index()].is_some();
    if !has_pawn {
        if let Some(k) = PAWN_KEYS.iter().find(|k| ctx.sets(k)) {
            return Err(ctx.err(
                k,
                "this variant has no pawns (pawn = -), so the key has no effect".into(),
            ));
        }
    }
    rules.promotion_region = [
        ctx.region("promotionRegionWhite", shape.rank_bb(ranks - 1), shape)?,
        ctx.region("promotionRegionBlack", shape.rank_bb(0), shape)?,
    ];
    rules.promotion_types = piece_list(ctx, &rules.pieces, "promotionPieceTypes", "qrbn")?;
    check_promotion_types(ctx, rules, has_pawn)?;
    rules.mandatory_promotion = ctx.bool("mandatoryPawnPromotion", true)?;
    rules.double_step = ctx.bool("doubleStep", true)?;
    rules.double_step_region = [
        ctx.region("doubleStepRegionWhite", shape.rank_bb(1), shape)?,
        ctx.region("doubleStepRegionBlack", shape.rank_bb(ranks - 2), shape)?,
    ];
    check_double_step(ctx, rules)?;
    // en passant is on or off; a region of squares would be silently ignored, so only * and -
    let ep_on = match ctx.get("enPassantRegion").map(str::trim) {
        None | Some("*") => true,
        Some("-") => false,
        Some(v) => {
            return Err(ctx.err(
                "enPassantRegion",
                format!(
                    "only '*' (en passant on, the default) or '-' (off) is supported, found '{v}'"
                ),
            ))
        }
    };
    rules.en_passant = has_pawn && rules.double_step && ep_on;
    if has_pawn
        && rules.promotion_types.is_empty()
        && rules.mandatory_promotion
        && (rules.promotion_region[0] | rules.promotion_region[1]).any()
    {
        return Err(ctx.err(
            "promotionPieceTypes",
            "pawns must promote but there is no piece to promote to".into(),
        ));
    }
    Ok(())
}

/// Each promotion type must be a piece a pawn can become and stand as in the zone.
fn check_promotion_types(ctx: &Section, rules: &Rules, has_pawn: bool) -> Result<(), IniError> {
    for &t in &rules.promotion_types {
        if t == PieceType::PAWN {
            return Err(ctx.err(
                "promotionPieceTypes",
                "a pawn cannot promote to a pawn".into(),
            ));
        }
        // a second king is meaningful only where kings are captured, not checked
        if t == PieceType::KING && ctx.bool("checking", true)? {
            return Err(ctx.err(
                "promotionPieceTypes",
                format!(
                    "a pawn cannot promote to the king '{}' (the royal piece) while checking = true",
                    rules.letter(t)
                ),
            ));
        }
        if has_pawn {
            for c in Color::ALL {
                let zone = rules.promotion_region[c.index()];
                if zone.any() && (zone & rules.mobility[c.index()][t.index()]).is_empty() {
                    return Err(ctx.err(
                        "promotionPieceTypes",
                        format!(
                            "'{}' may not stand on any square of {}'s promotion zone, so no \
                             pawn can promote to it",
                            rules.letter(t),
                            c.name()
                        ),
                    ));
                }
            }
        }
    }
    Ok(())
}

/// A double step goes two ranks forward, so it cannot start on the last two ranks; without
/// double steps their regions are mistakes.
fn check_double_step(ctx: &Section, rules: &Rules) -> Result<(), IniError> {
    let shape = rules.shape;
    let ranks = shape.ranks as i8;
    if rules.double_step {
        let dead = [
            shape.rank_bb(ranks - 1) | shape.rank_bb(ranks - 2),
            shape.rank_bb(0) | shape.rank_bb(1),
        ];
        for c in Color::ALL {
            let bad = rules.double_step_region[c.index()] & dead[c.index()];
            if bad.any() {
                return Err(ctx.err(
                    &format!("doubleStepRegion{}", c.name()),
                    format!(
                        "a {} pawn on {} cannot step two squares forward",
                        c.name(),
                        bad.lsb()
                    ),
                ));
            }
        }
    } else if let Some(k) = ["doubleStepRegionWhite", "doubleStepRegionBlack"]
        .into_iter()
        .find(|k| ctx.sets(k))
    {
        return Err(ctx.err(k, "doubleStep is false, so the key has no effect".into()));
    }
    Ok(())
}

/// Castling: on or off, the king's files and the piece it castles with.
fn castling_rules(ctx: &Section, rules: &mut Rules) -> Result<(), IniError> {
    let has_king = rules.royal.is_some();
    let castling = ctx.bool("castling", true)?;
    if castling && !has_king && ctx.sets("castling") {
        return Err(ctx.err(
            "castling",
            "castling needs a king, and this variant has none (king = -)".into(),
        ));
    }
    rules.castling = castling && has_king;
    rules.castling_kingside_file = ctx.file_index("castlingKingsideFile", 6, rules.shape)?;
    rules.castling_queenside_file = ctx.file_index("castlingQueensideFile", 2, rules.shape)?;
    let max_steps = rules.shape.files as u32 - 1;
    rules.castling_king_steps = ctx.number("castlingKingSteps", 0, 1, max_steps)? as i8;
    let rook_types = piece_list(ctx, &rules.pieces, "castlingRookPieces", "r")?;
    rules.castling_rook = rook_types.first().copied().unwrap_or(PieceType::ROOK);
    rules.chess960 = ctx.bool("chess960", false)?;
    if rules.castling {
        check_castling(ctx, rules, &rook_types)
    } else if let Some(k) = [
        "castlingKingsideFile",
        "castlingQueensideFile",
        "castlingKingSteps",
        "castlingRookPieces",
        "chess960",
    ]
    .into_iter()
    .find(|k| ctx.sets(k))
    {
        Err(ctx.err(
            k,
            "castling is off in this variant, so the key has no effect".into(),
        ))
    } else {
        Ok(())
    }
}

/// Castling must have one partner, neither king nor pawn, and files where king and rook fit.
fn check_castling(ctx: &Section, rules: &Rules, rook_types: &[PieceType]) -> Result<(), IniError> {
    let files = rules.shape.files;
    let (kingside, queenside) = (rules.castling_kingside_file, rules.castling_queenside_file);
    let &[rook] = rook_types else {
        return Err(ctx.err(
            "castlingRookPieces",
            format!(
                "castling needs exactly one piece type to castle with, found {} \
                 (name one letter, or set castling = false)",
                rook_types.len()
            ),
        ));
    };
    if rook == PieceType::KING || rook == PieceType::PAWN {
        return Err(ctx.err(
            "castlingRookPieces",
            format!(
                "the king cannot castle with '{}', a {}",
                rules.letter(rook),
                if rook == PieceType::KING {
                    "king"
                } else {
                    "pawn"
                }
            ),
        ));
    }
    // the defaults (g, c) are not checked against the board by file_index
    if kingside >= files as i8 {
        return Err(ctx.err(
            "castlingKingsideFile",
            format!(
                "the default kingside castling file g is not on this {files}-file board; \
                 set castlingKingsideFile (or castling = false)"
            ),
        ));
    }
    // the rook lands beside the king, on the side it came from
    if kingside < 1 {
        return Err(ctx.err(
            "castlingKingsideFile",
            "the king cannot castle kingside to the a-file: the rook lands on the file \
             to its left"
                .into(),
        ));
    }
    if queenside > files as i8 - 2 {
        return Err(ctx.err(
            "castlingQueensideFile",
            "the king cannot castle queenside to the last file: the rook lands on the \
             file to its right"
                .into(),
        ));
    }
    if kingside <= queenside {
        let key = if ctx.sets("castlingKingsideFile") {
            "castlingKingsideFile"
        } else {
            "castlingQueensideFile"
        };
        return Err(ctx.err(
            key,
            format!(
                "the kingside castling file ({}) must lie right of the queenside one ({})",
                (b'a' + kingside as u8) as char,
                (b'a' + queenside as u8) as char
            ),
        ));
    }
    Ok(())
}

/// Check or king capture, facing kings, extinction, stalemate and barred values; returns
/// whether kings are captured (`kingCapture`).
fn end_rules(ctx: &Section, rules: &mut Rules) -> Result<bool, IniError> {
    let has_king = rules.royal.is_some();
    let king_capture = ctx.bool("kingCapture", false)?;
    if king_capture && !has_king {
        return Err(ctx.err(
            "kingCapture",
            "there is no king (king = -) that could be captured".into(),
        ));
    }
    if king_capture && ctx.get("checking") == Some("true") {
        return Err(ctx.err(
            "checking",
            "kingCapture = true means kings are captured, not checked; drop checking".into(),
        ));
    }
    let checking = ctx.bool("checking", !king_capture)?;
    if checking && !has_king && ctx.sets("checking") {
        return Err(ctx.err(
            "checking",
            "there is no king (king = -) that could be in check".into(),
        ));
    }
    rules.checking = checking && has_king;
    rules.flying_general = ctx.bool("flyingGeneral", false)?;
    if rules.flying_general && !has_king {
        return Err(ctx.err(
            "flyingGeneral",
            "there are no kings (king = -) that could face each other".into(),
        ));
    }
    extinction_rules(ctx, rules, king_capture)?;
    rules.stalemate_value = ctx.value("stalemateValue", GameValue::Draw)?;
    rules.barred_value = ctx.value("barredValue", rules.stalemate_value)?;
    Ok(king_capture)
}

/// `extinctionPieceTypes` and `extinctionValue` (king capture implies the king's extinction
/// loses).
fn extinction_rules(ctx: &Section, rules: &mut Rules, king_capture: bool) -> Result<(), IniError> {
    let default = if king_capture { "k" } else { "" };
    rules.extinction_types = piece_list(ctx, &rules.pieces, "extinctionPieceTypes", default)?;
    rules.extinction_value = match ctx.get("extinctionValue") {
        None if king_capture => Some(GameValue::Loss),
        None | Some("none") => None,
        Some(v) => Some(parse_value(v).ok_or_else(|| {
            ctx.err(
                "extinctionValue",
                format!("expected win, loss, draw or none, found '{v}'"),
            )
        })?),
    };
    if rules.extinction_value.is_some() && rules.extinction_types.is_empty() {
        return Err(ctx.err(
            "extinctionValue",
            "extinctionValue is set but extinctionPieceTypes names no piece".into(),
        ));
    }
    if rules.extinction_value.is_none()
        && !rules.extinction_types.is_empty()
        && ctx.sets("extinctionPieceTypes")
    {
        return Err(ctx.err(
            "extinctionPieceTypes",
            "extinctionValue is not set (or is none), so the key has no effect".into(),
        ));
    }
    Ok(())
}

/// `pieceValueMg` and `pieceValueEg`: `letter:value` pairs.
fn piece_values(ctx: &Section, rules: &mut Rules) -> Result<(), IniError> {
    for (phase, key) in ["pieceValueMg", "pieceValueEg"].iter().enumerate() {
        let Some(v) = ctx.get(key) else { continue };
        for item in v.split_whitespace() {
            let parsed = item.split_once(':').and_then(|(l, n)| {
                let mut c = l.chars();
                let letter = c.next().filter(|_| c.next().is_none())?;
                Some((
                    letter,
                    n.parse::<i32>()
                        .ok()
                        .filter(|n| (0..=100_000).contains(n))?,
                ))
            });
            let Some((letter, value)) = parsed else {
                return Err(ctx.err(
                    key,
                    format!("expected letter:value pairs such as 'q:950 n:320', found '{item}'"),
                ));
            };
            let t = type_of(&rules.pieces, letter)
                .ok_or_else(|| ctx.err(key, format!("no piece has the letter '{letter}'")))?;
            rules.piece_value[phase][t.index()] = Some(value);
        }
    }
    Ok(())
}

/// `nMoveRule` and `nFoldRule`.
fn move_rules(ctx: &Section, rules: &mut Rules) -> Result<(), IniError> {
    rules.n_move_rule = ctx.number("nMoveRule", 50, 0, 1000)?;
    rules.n_fold_rule = ctx.number("nFoldRule", 3, 0, 100)?;
    if rules.n_fold_rule == 1 {
        return Err(ctx.err(
            "nFoldRule",
            "1 would draw every position at once; use 0 (off) or 2..100".into(),
        ));
    }
    Ok(())
}

/// `startFen` (required on a board that is not 8x8).
fn start_fen(ctx: &Section, shape: BoardShape) -> Result<String, IniError> {
    match ctx.get("startFen") {
        Some(v) => Ok(v.to_string()),
        None if shape == BoardShape::STANDARD => {
            Ok("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".to_string())
        }
        None => Err(ctx.err(
            "startFen",
            format!(
                "a board that is not 8x8 needs a startFen (this one has {} files and {} ranks)",
                shape.files, shape.ranks
            ),
        )),
    }
}

/// Whether castling needs the king not in, through or into check: where kings are checked,
/// always; where they are captured, as `kingCaptureCastlingChecks` says (default no).
fn castling_checks(ctx: &Section, checking: bool, king_capture: bool) -> Result<bool, IniError> {
    if ctx.get("kingCaptureCastlingChecks").is_none() {
        return Ok(checking);
    }
    if !king_capture {
        return Err(ctx.err(
            "kingCaptureCastlingChecks",
            "only meaningful with kingCapture = true (checked kings always castle safely)".into(),
        ));
    }
    ctx.bool("kingCaptureCastlingChecks", false)
}

/// Whether these rules are orthodox chess (the mechanics aside): its board, men, pawn rules,
/// check and castling (king to the g- or c-file).
pub fn data_is_orthodox(r: &Rules) -> bool {
    orthodox_data(r, false)
}

/// Whether the hand-tuned orthodox generator plays these rules exactly (the mechanics aside):
/// orthodox chess, except that castling may be off or put the king and the rook on other files
/// (Torpedo's Kf1-h1; the generator castles from the geometry fixed at set-up,
/// `Position::castle_path`, under the same conditions as the generic generator).
pub fn generator_is_orthodox(r: &Rules) -> bool {
    orthodox_data(r, true)
}

/// Whether the men of these rules are orthodox chess's on its board: the six types with their
/// moves and captures and no other type, whatever the regions they may move in and whatever
/// the rest of the rules. Their capture relation, regions aside, is the orthodox tables'.
pub fn men_are_orthodox(r: &Rules) -> bool {
    let std_pieces = ORTHODOX_PIECES
        .iter()
        .enumerate()
        .all(|(i, (_, _, betza))| {
            r.pieces[i].as_ref().is_some_and(|d| {
                d.betza == *betza
                    && !d.moves.no_adjacent_capture
                    && !d.moves.mirror_leap
                    && !d.moves.added_leaps
            })
        });
    let no_fairies = r.pieces.iter().skip(6).all(|p| p.is_none());
    std_pieces && no_fairies && r.shape == BoardShape::STANDARD
}

/// [`data_is_orthodox`], or with `any_castling` [`generator_is_orthodox`].
///
/// Every field of [`Rules`] is named here: a field added to `Rules` does not compile until
/// it is either compared with orthodox chess or declared irrelevant to move generation, so a
/// new rule cannot silently send a variant to the orthodox generator.
fn orthodox_data(r: &Rules, any_castling: bool) -> bool {
    let Rules {
        // irrelevant to move generation
        name: _,
        start_fen: _,
        stalemate_value: _,
        checkmate_value: _,
        barred_value: _,
        n_move_rule: _,
        n_fold_rule: _,
        piece_value: _,
        nnue_file: _,
        nnue_variant: _,
        wdl: _,
        orthodox: _,
        orthodox_men: _,
        type_mask: _,
        chess960: _, // the spelling of castling only
        royal: _,
        // compared by men_are_orthodox
        shape: _,
        pieces: _,
        // compared below
        board: _,
        mobility,
        promotion_region,
        promotion_types: _,
        mandatory_promotion,
        double_step,
        quiet_off,
        captures_off,
        first_rank_pawns,
        double_step_region,
        en_passant,
        castling,
        castling_kingside_file,
        castling_queenside_file,
        castling_king_steps,
        castling_rook,
        checking,
        flying_general,
        extinction_value,
        extinction_types: _,
        castling_checks,
    } = r;
    let full = mobility.iter().all(|c| c.iter().all(|&m| m == r.board));
    men_are_orthodox(r)
        && full
        && *promotion_region == [Bitboard::RANK_1.shift_ranks(7), Bitboard::RANK_1]
        && *mandatory_promotion
        && *double_step
        && *quiet_off == 0
        && *captures_off == 0
        && !*first_rank_pawns
        && *double_step_region
            == [
                Bitboard::RANK_1.shift_ranks(1),
                Bitboard::RANK_1.shift_ranks(6),
            ]
        && *en_passant
        && if any_castling {
            !*castling || *castling_rook == PieceType::ROOK
        } else {
            *castling
                && *castling_kingside_file == 6
                && *castling_queenside_file == 2
                && *castling_king_steps == 0
                && *castling_rook == PieceType::ROOK
        }
        && *checking
        && !*flying_general
        && extinction_value.is_none()
        && *castling_checks
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regions() {
        let s = BoardShape::STANDARD;
        assert_eq!(parse_region("*8", s).unwrap().count(), 8);
        assert_eq!(parse_region("a*", s).unwrap().count(), 8);
        assert_eq!(parse_region("c3-f6", s).unwrap().count(), 16);
        assert_eq!(parse_region("e4 d4", s).unwrap().count(), 2);
        assert!(parse_region("-", s).unwrap().is_empty());
        assert!(parse_region("i9", s).is_err());
        assert!(parse_region("h8", BoardShape { files: 7, ranks: 7 }).is_err());
        for bad in ["*+8", "*0", "+1*", "0*", "a1-", "-a1"] {
            assert!(parse_region(bad, s).is_err(), "{bad}");
        }
        assert_eq!(parse_file("0", 8), None);
        assert_eq!(parse_file("+3", 8), None);
        assert_eq!(parse_file("3", 8), Some(2));
        assert_eq!(parse_file("c", 8), Some(2));
        assert_eq!(parse_file("h", 7), None);
    }
}
