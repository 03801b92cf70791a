//! Mechanics: one module per rule that data cannot describe, each implementing the
//! [`Mechanic`] interface, and registered by one line of
//! [`MECHANICS`]. Shared code reaches them only through that interface (`position::mechanic`),
//! so adding a mechanic touches its module, its line here, its docs, tests and variants.ini.
//! Game end ([`outcome`]) and the set of loaded variants ([`catalog`]) live here too.

/// The registration of a mechanic of moves of its own with no settings and no state
/// ([`OwnMoves`]): its `specialMoves` name; the module's `generate`, `edits`, `write`,
/// `is_spelling`, `count_legal` and `change` serve it; `captures` says whether any of its moves
/// can capture, `may_promote` whether one may promote in a position.
macro_rules! own_moves_spec {
    ($name:literal, captures = $captures:literal, may_promote = $may_promote:expr) => {
        MechanicSpec::chosen(&["specialMoves"], $name, |ctx, _, _| {
            Ok(super::OwnMoves {
                spec: &SPEC,
                generate,
                edits,
                write,
                is_spelling,
                count_distinct: Some(count_legal),
                change,
                captures: $captures,
                may_promote: $may_promote,
            }
            .selected(ctx))
        })
    };
}

pub mod borrow;
pub mod bracket;
pub mod camouflage;
pub mod carom;
pub mod cascade;
pub mod castlemania;
pub mod catalog;
pub mod cloverleaf;
pub mod coercion;
pub mod dead_material;
pub mod detente;
pub mod emissary;
pub mod eviction;
pub mod explorer;
pub mod facing;
pub mod garrison;
pub mod hippophobic;
pub mod mirror;
pub mod nonlinear;
pub mod outcome;
pub mod relocate;
pub mod relocation;
pub mod rolemodel;
pub mod schedule;
pub mod slide;
pub mod spy;
pub mod swap;
pub mod trailer;
pub mod triangulation;
pub mod wonderland;

pub use catalog::{builtin_variants, VariantSet};

use crate::moves::{Move, MoveList, MoveText};
use crate::position::{Change, EditList, Hooks, Legality, Mechanic, MechanicSpec, Position};
use crate::variant::Section;

/// The registered mechanics, in the order their hooks run (a legality filter that keeps moves
/// only "while another move exists", Nonlinear's, comes after the filters that bar moves
/// outright; FEN fields follow this order too).
pub static MECHANICS: &[MechanicSpec] = &[
    mirror::SPEC,
    camouflage::SPEC,
    bracket::SPEC,
    eviction::SPEC,
    cascade::SPEC,
    trailer::SPEC,
    explorer::SPEC,
    swap::SPEC,
    castlemania::SPEC,
    carom::SPEC,
    triangulation::SPEC,
    emissary::SPEC,
    slide::SPEC,
    relocate::SPEC,
    wonderland::SPEC,
    rolemodel::SPEC,
    borrow::SPEC,
    cloverleaf::SPEC,
    coercion::SPEC,
    spy::SPEC,
    facing::SPEC,
    hippophobic::SPEC,
    garrison::SPEC,
    nonlinear::SPEC,
    schedule::SPEC,
    dead_material::SPEC,
];

/// Keys whose value names one module among several (`MechanicSpec::selected_by`), with the
/// noun their errors use.
pub static SELECTORS: &[(&str, &str)] = &[
    ("specialMoves", "rule module"),
    ("restriction", "restriction module"),
];

/// Why a mechanic with its own attack relation (`who`, as messages name it) cannot play beside
/// `other`, when `other` has one too: only one relation can be the check relation.
pub(crate) fn relation_conflict(who: &str, other: &dyn Mechanic) -> Option<String> {
    other
        .hooks()
        .meets(Hooks::ATTACK.with(Hooks::CHECK))
        .then(|| {
            format!(
                "{who} has its own attack relation, and so does {}",
                other.name()
            )
        })
}

/// The conflicts of a legality filter built for ordinary moves and alternating turns: with a
/// turn schedule (whose turn-completion shortcuts assume the ordinary moves) and, for the
/// restriction modules (`with_moves`), with a mechanic that has moves of its own (their
/// judgements without make know only the ordinary kinds).
pub(crate) fn restriction_conflict(other: &dyn Mechanic, with_moves: bool) -> Option<String> {
    let hooks = other.hooks();
    if hooks.has(Hooks::TURNS) {
        return Some(
            "a restriction cannot be combined with a turn schedule (moveSchedule) yet".into(),
        );
    }
    if with_moves && hooks.has(Hooks::MOVES) {
        return Some(format!(
            "a restriction module cannot be combined with specialMoves = {} yet",
            other.name()
        ));
    }
    None
}

/// A mechanic whose only hooks are moves of its own (`Hooks::MOVES`), given as the functions
/// of its module: Bracket, Eviction, and the relocation moves to come.
pub(crate) struct OwnMoves {
    /// The module's registration (its name is also its `specialMoves` value).
    pub spec: &'static MechanicSpec,
    /// Appends the pseudo-legal moves.
    pub generate: fn(&Position, &mut MoveList),
    /// The square edits of a move.
    pub edits: fn(&Position, Move, &mut EditList),
    /// Writes a move's canonical spelling.
    pub write: fn(&Position, Move, &mut MoveText),
    /// Whether a string spells a legal move.
    pub is_spelling: fn(&Position, Move, &str) -> bool,
    /// How it counts its legal moves for perft's last ply without playing most of them, when
    /// its moves are distinct from every other move of the position
    /// ([`Mechanic::moves_are_distinct`], [`Mechanic::count_moves`]); `None`: they may share
    /// an effect with another move and are merged.
    pub count_distinct: Option<fn(&mut Position, &Legality) -> Option<usize>>,
    /// What a move does to the board ([`Mechanic::change`]).
    pub change: fn(&Position, Move) -> Change,
    /// Whether any of its moves can capture.
    pub captures: bool,
    /// Whether one of its moves may promote in the position (quiescence lists them only then).
    pub may_promote: fn(&Position) -> bool,
}

impl OwnMoves {
    /// The mechanic, when the section's `specialMoves` names it.
    pub fn selected(self, ctx: &Section) -> Option<Box<dyn Mechanic>> {
        (ctx.get("specialMoves") == Some(self.spec.name))
            .then(|| Box::new(self) as Box<dyn Mechanic>)
    }
}

impl Mechanic for OwnMoves {
    fn spec(&self) -> &'static MechanicSpec {
        self.spec
    }

    fn hooks(&self) -> Hooks {
        Hooks::MOVES
    }

    fn generate(&self, pos: &Position, list: &mut MoveList) {
        (self.generate)(pos, list);
    }

    fn edits(&self, pos: &Position, m: Move, out: &mut EditList) {
        (self.edits)(pos, m, out);
    }

    fn write_move(&self, pos: &Position, m: Move, out: &mut MoveText) {
        (self.write)(pos, m, out);
    }

    fn is_spelling(&self, pos: &Position, m: Move, s: &str) -> bool {
        (self.is_spelling)(pos, m, s)
    }

    fn moves_are_distinct(&self) -> bool {
        self.count_distinct.is_some()
    }

    fn change(&self, pos: &Position, m: Move) -> Option<Change> {
        Some((self.change)(pos, m))
    }

    fn captures(&self, _pos: &Position, _m: Move) -> Option<bool> {
        (!self.captures).then_some(false)
    }

    fn may_be_noisy(&self, pos: &Position) -> bool {
        self.captures || (self.may_promote)(pos)
    }

    fn count_moves(&self, pos: &mut Position, lg: &Legality) -> Option<usize> {
        self.count_distinct.and_then(|count| count(pos, lg))
    }

    fn generates_legal(&self) -> bool {
        self.count_distinct.is_some()
    }

    /// Each move judged by what it changes, without the generic generator's dispatch.
    fn generate_legal(&self, pos: &mut Position, lg: &Legality, list: &mut MoveList) {
        self.legal_moves(pos, lg, false, list);
    }

    fn generate_noisy_legal(&self, pos: &mut Position, lg: &Legality, list: &mut MoveList) -> bool {
        self.legal_moves(pos, lg, true, list);
        true
    }
}

impl OwnMoves {
    /// Appends its legal moves (only those that capture or promote when `noisy_only`) in the
    /// order of its generator, each judged by what it changes (played where the node's facts
    /// cannot decide).
    fn legal_moves(
        &self,
        pos: &mut Position,
        lg: &Legality,
        noisy_only: bool,
        list: &mut MoveList,
    ) {
        use crate::movegen::generic::{is_noisy, legal_when_played};
        let mut own = MoveList::new();
        (self.generate)(pos, &mut own);
        for &m in own.iter() {
            if noisy_only && !is_noisy(pos, m) {
                continue;
            }
            let legal = match lg.judge(pos, &(self.change)(pos, m)) {
                Some(safe) => safe,
                None => legal_when_played(pos, m),
            };
            if legal {
                list.push(m);
            }
        }
    }
}

/// Perft's last-ply count of a mechanic's moves, when they are distinct from every other move:
/// each move generated is described by `change` and judged by the node's [`Legality`], without
/// playing it. `None` when the node's facts cannot decide (the generic count plays the moves).
pub(crate) fn count_judged(
    pos: &mut Position,
    lg: &Legality,
    generate: fn(&Position, &mut MoveList),
    change: fn(&Position, Move) -> Change,
) -> Option<usize> {
    if !lg.decides() {
        return None;
    }
    let mut list = MoveList::new();
    generate(pos, &mut list);
    Some(
        list.iter()
            .filter(|&&m| lg.judge(pos, &change(pos, m)) == Some(true))
            .count(),
    )
}

/// The non-capturing targets of the man `man` on `s` by its own geometry, with a pawn's double
/// step (both squares empty), before regions.
pub(crate) fn quiet_targets(pos: &Position, s: Square, man: Piece) -> Bitboard {
    let rules = pos.rules();
    let us = man.color();
    let Some(def) = rules.piece(man.kind()) else {
        return Bitboard::EMPTY;
    };
    let occ = pos.occupied();
    let mut q = def.moves.quiet_targets(us, s, occ, rules.board);
    if man.kind() == PieceType::PAWN
        && rules.double_step
        && rules.double_step_region[us.index()].has(s)
    {
        let f = us.forward();
        if let (Some(one), Some(two)) = (s.offset(0, f), s.offset(0, 2 * f)) {
            if !occ.has(one) && !occ.has(two) && rules.board.has(two) {
                q |= two.bb();
            }
        }
    }
    q
}

/// Keeps the moves of `list` for which `keep` holds, in order.
#[inline]
pub(crate) fn retain(list: &mut crate::moves::MoveList, mut keep: impl FnMut(Move) -> bool) {
    let mut n = 0;
    for i in 0..list.len() {
        let m = list[i];
        if keep(m) {
            list.as_mut_slice()[n] = m;
            n += 1;
        }
    }
    list.truncate(n);
}

// ---------------------------------------------------------------------------------------------
// Helpers shared by the rule modules: reading move strings and comparing the effects of routes.

use crate::geometry::{Bitboard, Square};
use crate::piece::{Piece, PieceType};
use crate::position::MAX_EDITS;

/// One leg of a move string: `from to [promo]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Leg {
    pub from: Square,
    pub to: Square,
    pub promo: Option<PieceType>,
}

/// Most legs a move string may have (Cascade's longest train on an 8x8 board: the initiator
/// and six pushed men).
pub(crate) const MAX_LEGS: usize = 8;

/// The legs of a move string.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Legs {
    legs: [Leg; MAX_LEGS],
    len: usize,
}

impl Legs {
    /// The legs, in order.
    pub fn as_slice(&self) -> &[Leg] {
        &self.legs[..self.len]
    }
}

/// Splits `s` into legs (squares on this board, promotion letters of this variant), or `None`
/// if `s` is not a plain list of at most [`MAX_LEGS`] legs.
pub(crate) fn parse_legs(pos: &Position, s: &str) -> Option<Legs> {
    let unused = Leg {
        from: Square::new(0),
        to: Square::new(0),
        promo: None,
    };
    let mut out = Legs {
        legs: [unused; MAX_LEGS],
        len: 0,
    };
    let shape = pos.rules().shape;
    for part in s.split(',') {
        if out.len == MAX_LEGS || !part.is_ascii() || !(4..=5).contains(&part.len()) {
            return None;
        }
        let from = shape.parse_square(&part[0..2])?;
        let to = shape.parse_square(&part[2..4])?;
        let promo = match part.as_bytes().get(4) {
            None => None,
            Some(&c) if c.is_ascii_lowercase() => {
                Some(pos.rules().type_of_letter(c as char)?).filter(|&t| t != PieceType::PAWN)
            }
            Some(_) => return None,
        };
        if part.len() == 5 && promo.is_none() {
            return None;
        }
        out.legs[out.len] = Leg { from, to, promo };
        out.len += 1;
    }
    Some(out)
}

/// Castling rights that a move loses by editing `sq` (a right goes when its king or rook leaves
/// its square or a man lands there). Mirrors the position's square masks for the rights present.
#[inline]
pub(crate) fn rights_lost_at(pos: &Position, sq: Square) -> u8 {
    let rights = pos.castling_rights();
    if rights == 0 {
        return 0;
    }
    let mut lost = 0;
    for bit in 0..4 {
        if rights >> bit & 1 == 0 {
            continue;
        }
        let color = if bit < 2 {
            crate::geometry::Color::White
        } else {
            crate::geometry::Color::Black
        };
        if pos.castle_rook(bit) == Some(sq) || pos.king_square(color) == Some(sq) {
            lost |= 1 << bit;
        }
    }
    lost
}

/// What a move does, for comparing routes: the squares whose content changes (sorted, with the
/// content afterwards) and the castling rights afterwards. Side to move and variant state are
/// the same for every move of a position; the en-passant square follows from the placement for
/// every pair of routes these modules compare (see each module).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Effect {
    changes: [(u8, Piece); MAX_EDITS],
    len: usize,
    rights: u8,
}

/// The effect of applying `edits` to `pos`.
pub(crate) fn effect_of(pos: &Position, edits: &EditList) -> Effect {
    let mut e = Effect {
        changes: [(0, Piece::NONE); MAX_EDITS],
        len: 0,
        rights: pos.castling_rights(),
    };
    for ed in edits.as_slice() {
        e.rights &= !rights_lost_at(pos, ed.sq);
        match e.changes[..e.len].iter_mut().find(|c| c.0 == ed.sq.raw()) {
            Some(c) => c.1 = ed.after,
            None => {
                e.changes[e.len] = (ed.sq.raw(), ed.after);
                e.len += 1;
            }
        }
    }
    // keep only real changes, in square order
    let mut kept = 0;
    for i in 0..e.len {
        let (sq, after) = e.changes[i];
        if pos.piece_at(Square::new(sq)) != after {
            e.changes[kept] = (sq, after);
            kept += 1;
        }
    }
    for i in kept..e.len {
        e.changes[i] = (0, Piece::NONE);
    }
    e.len = kept;
    e.changes[..kept].sort_unstable_by_key(|c| c.0);
    e
}

/// The effect of a move of `pos`.
pub(crate) fn effect_of_move(pos: &Position, m: Move) -> Effect {
    effect_of(pos, &pos.edits_of(m))
}

/// Squares of the board's first and last ranks (no pawn may stand there in Eviction).
#[inline]
pub(crate) fn back_ranks(pos: &Position) -> Bitboard {
    let rules = pos.rules();
    let last = rules.shape.ranks as u32 - 1;
    (Bitboard(0xFF) | Bitboard(0xFFu64 << (8 * last))) & rules.board
}

/// Whether square `a`'s name sorts before `b`'s in ASCII (file letter first, then rank digit).
#[inline(always)]
pub(crate) fn name_before(a: Square, b: Square) -> bool {
    (a.file(), a.rank()) < (b.file(), b.rank())
}
