//! Nonlinear Chess (modest-proposals-2.md §12): let the opponent's last move go from
//! (F1, R1) to (F2, R2); a move is *restricted* when its origin or destination lies on rank R1
//! or R2 or on file F1 or F2. A player with at least one legal unrestricted move must play one;
//! otherwise every legal move is allowed (NL-R1). With no known last move (game start, FEN
//! without it) nothing is restricted (NL-R2). Check stays geometric (NL-R3).
//!
//! The last move is position state: two square fields the mechanic claims when the variant is
//! loaded (0 = unknown), so the transposition table and repetition see it. A FEN carries it as a seventh field `lm=<from><to>` (`lm=-` or absent:
//! unknown), as the rules file proposes (§1.6).

use super::retain;
use crate::geometry::{Bitboard, Square};
use crate::movegen::{count_passing, ordinary_count, LeafJudge};
use crate::moves::{Move, MoveList};
use crate::position::{
    Built, FenError, Hooks, Mechanic, MechanicSpec, Position, SquareField, StateLayout,
};
use crate::variant::{Rules, Section};

/// The FEN extension field's prefix.
pub const FEN_PREFIX: &str = "lm=";

/// Nonlinear's state: the last move's two squares.
#[derive(Clone, Copy, Debug)]
pub struct Nonlinear {
    from: SquareField,
    to: SquareField,
}

/// Registration: `restriction = nonlinear`.
pub const SPEC: MechanicSpec = MechanicSpec::chosen(&["restriction"], "nonlinear", build);

fn build(ctx: &Section, _rules: &mut Rules, state: &mut StateLayout) -> Built {
    if !SPEC.is_chosen(ctx)? {
        return Ok(None);
    }
    let claim = |state: &mut StateLayout| {
        state
            .square("nonlinear")
            .map_err(|e| ctx.err("restriction", e))
    };
    Ok(Some(Box::new(Nonlinear {
        from: claim(state)?,
        to: claim(state)?,
    })))
}

impl Mechanic for Nonlinear {
    fn spec(&self) -> &'static MechanicSpec {
        &SPEC
    }

    fn hooks(&self) -> Hooks {
        Hooks::FILTER.with(Hooks::AFTER_MOVE).with(Hooks::FEN)
    }

    fn conflict(&self, other: &dyn Mechanic) -> Option<String> {
        super::restriction_conflict(other, true)
    }

    /// The rule depends on the opponent's last move: a pass would lift it.
    fn passing_is_sound(&self) -> bool {
        false
    }

    fn filter(&self, pos: &mut Position, list: &mut MoveList) {
        self.keep_unrestricted(pos, list);
    }

    /// The unrestricted legal moves counted in bulk (a move from `from` to `tos` is free when
    /// `from` and the square are off the barred lines); when there are none, all legal moves.
    fn count_legal(&self, pos: &mut Position) -> Option<usize> {
        let Some((from, to)) = self.last_move(pos) else {
            return Some(ordinary_count(pos));
        };
        let mut judge = Unbarred(barred_lines(pos, from, to));
        match count_passing(pos, &mut judge) {
            0 => Some(ordinary_count(pos)),
            n => Some(n),
        }
    }

    /// Records the move just made; a pass (the search's null move) leaves no last move, so
    /// nothing is restricted after it.
    fn after_move(&self, pos: &mut Position, m: Move) {
        let known = !m.is_none();
        pos.set_square_in(self.from, known.then(|| m.from()));
        pos.set_square_in(self.to, known.then(|| m.to()));
    }

    fn fen_fields(&self) -> usize {
        1
    }

    fn read_fen(&self, pos: &mut Position, fields: &[&str]) -> Result<(), FenError> {
        let last = match fields.first() {
            None => None,
            Some(field) => parse_fen_field(pos, field).map_err(FenError::Extension)?,
        };
        pos.set_square_in(self.from, last.map(|l| l.0));
        pos.set_square_in(self.to, last.map(|l| l.1));
        Ok(())
    }

    fn write_fen(&self, pos: &Position, out: &mut String) {
        if let Some((f, t)) = self.last_move(pos) {
            out.push_str(&format!(" {FEN_PREFIX}{f}{t}"));
        }
    }
}

impl Nonlinear {
    /// The last move's squares, if known.
    #[inline]
    pub fn last_move(&self, pos: &Position) -> Option<(Square, Square)> {
        Some((pos.square_in(self.from)?, pos.square_in(self.to)?))
    }

    /// Keeps only the unrestricted moves of `list` (the legal moves), unless there are none.
    fn keep_unrestricted(&self, pos: &Position, list: &mut MoveList) {
        let Some((from, to)) = self.last_move(pos) else {
            return;
        };
        let barred = barred_lines(pos, from, to);
        let free = |m: &Move| !barred.has(m.from()) && !barred.has(m.to());
        if list.iter().any(free) {
            retain(list, |m| free(&m));
        }
    }
}

/// Passes the moves that neither leave nor reach the squares of its set (the unrestricted
/// moves, [`barred_lines`]).
struct Unbarred(Bitboard);

impl LeafJudge for Unbarred {
    #[inline(always)]
    fn count(&mut self, _pos: &Position, from: Square, tos: Bitboard) -> usize {
        if self.0.has(from) {
            0
        } else {
            (tos & !self.0).count() as usize
        }
    }

    #[inline(always)]
    fn count_pawns(&mut self, _pos: &Position, tos: Bitboard, delta: i8) -> usize {
        // the origins, `to - delta`, off the lines: the destinations off the lines shifted by
        // `delta`
        let barred_from = if delta >= 0 {
            Bitboard(self.0 .0 << delta)
        } else {
            Bitboard(self.0 .0 >> -delta)
        };
        (tos & !self.0 & !barred_from).count() as usize
    }

    #[inline(always)]
    fn passes(&mut self, _pos: &mut Position, m: Move) -> bool {
        !self.0.has(m.from()) && !self.0.has(m.to())
    }
}

/// The squares a move may neither leave nor reach after the last move `from`-`to`.
#[inline]
pub fn barred_lines(pos: &Position, from: Square, to: Square) -> Bitboard {
    // whole ranks and files of the 8x8 frame, cut to the board (`BoardShape::rank_bb` would
    // rebuild the board's mask square by square at every node)
    let rank = |r: i8| Bitboard(0xFFu64 << (8 * r as u32));
    let file = |f: i8| Bitboard(0x0101_0101_0101_0101u64 << f);
    (rank(from.rank()) | rank(to.rank()) | file(from.file()) | file(to.file())) & pos.rules().board
}

/// Reads `lm=<from><to>` or `lm=-`. The named move must be one the side that just moved could
/// have played to reach this placement: `from` empty now, `to` holding its man, and that man
/// (or, on its promotion zone, a pawn) able to go `from`-`to` on this board.
fn parse_fen_field(pos: &Position, field: &str) -> Result<Option<(Square, Square)>, String> {
    let v = field.strip_prefix(FEN_PREFIX).unwrap_or(field);
    if v == "-" {
        return Ok(None);
    }
    let shape = pos.rules().shape;
    let squares = (v.is_ascii() && v.len() == 4)
        .then(|| Some((shape.parse_square(&v[..2])?, shape.parse_square(&v[2..])?)))
        .flatten();
    let Some((from, to)) = squares else {
        return Err(format!(
            "'{field}': expected lm=<from><to> with two squares of the board (e.g. lm=g1f3) or lm=-"
        ));
    };
    let them = pos.side_to_move().flip();
    let man = pos.piece_at(to);
    let impossible = |why: &str| Err(format!("'{field}' names an impossible last move: {why}"));
    if from == to {
        return impossible("it goes nowhere");
    }
    if pos.piece_at(from).is_some() {
        return impossible(&format!("{from} is not empty"));
    }
    if man.is_none() || man.color() != them {
        return impossible(&format!(
            "no {} man (the side that just moved) stands on {to}",
            them.name()
        ));
    }
    if !could_move(pos, man.kind(), from, to) {
        return impossible(&format!(
            "the man on {to} cannot have come from {from} in one move"
        ));
    }
    Ok(Some((from, to)))
}

/// Whether a man of type `t` of the side that just moved, now on `to`, could have come from
/// `from` by one move (a pawn also by its double step, or as a pawn that promoted on `to`).
fn could_move(pos: &Position, t: crate::piece::PieceType, from: Square, to: Square) -> bool {
    use crate::piece::PieceType;
    let rules = pos.rules();
    let them = pos.side_to_move().flip();
    // `to` was empty or held the captured man: both geometries may have reached it
    let occ = pos.occupied() & !to.bb();
    let reaches = |t: PieceType| {
        rules.piece(t).is_some_and(|def| {
            let (quiet, caps) = def.moves.targets(them, from, occ, rules.board);
            (quiet | caps).has(to)
        })
    };
    let pawn_double = || {
        let f = them.forward();
        rules.double_step
            && rules.double_step_region[them.index()].has(from)
            && from.offset(0, 2 * f) == Some(to)
            && from.offset(0, f).is_some_and(|mid| !occ.has(mid))
    };
    let promoted = rules.promotion_region[them.index()].has(to)
        && rules.promotion_types.contains(&t)
        && reaches(PieceType::PAWN);
    reaches(t) || (t == PieceType::PAWN && pawn_double()) || promoted
}
