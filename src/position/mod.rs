//! Positions: board, side to move and state; `make` and `unmake` are the only mutators.
//!
//! Every change to the board goes through `Position::set_square`: a move becomes a short list
//! of square edits (what the square holds afterwards), applied in order and recorded with what
//! each square held before, so `unmake` replays them backwards. Compound moves are just longer
//! lists; the Zobrist key is updated by the same function, so it cannot drift (`unmake` puts the
//! men back without rehashing and restores the key with the rest of the saved state). Normal
//! moves, the bulk of any search, take a short path that applies and records the same two edits
//! without building the list first.

mod attacks;
pub mod chess960;
mod fen;
pub mod legality;
pub mod mechanic;
mod null;
pub mod state;
pub mod zobrist;

pub use attacks::{is_attacked, types_of};
pub use fen::FenError;
pub use legality::{attacked_from_squares, attacked_with, legal_when_played, Change, Legality};
pub use mechanic::{
    Built, Hooks, LateJudgement, Mechanic, MechanicSpec, Mechanics, ShortcutMasks, Variant,
};
pub use state::{Field, SquareField, SquareSetField, StateLayout, MECH_WORDS};

use crate::geometry::{Bitboard, Color, Square};
use crate::moves::{Move, MoveKind};
use crate::piece::{Piece, PieceType, MAX_PIECE_TYPES};
use zobrist::ZOBRIST;

/// Castling right bits: White kingside, White queenside, Black kingside, Black queenside.
pub const CASTLE_WK: u8 = 1;
/// White queenside.
pub const CASTLE_WQ: u8 = 2;
/// Black kingside.
pub const CASTLE_BK: u8 = 4;
/// Black queenside.
pub const CASTLE_BQ: u8 = 8;

/// The part of a position that `make` saves and `unmake` restores wholesale.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct State {
    /// Zobrist key of the whole position.
    pub key: u64,
    /// Castling rights (CASTLE_* bits).
    pub castling: u8,
    /// En-passant target square (64 = none).
    pub ep: u8,
    /// Plies since the last capture or pawn move.
    pub halfmove: u16,
    /// Plies played since the start of the game (the game's ply number minus one).
    pub ply: u32,
    /// Mechanic state: words whose fields the variant's mechanics own ([`state`]), hashed
    /// word by word.
    pub mech: [u64; MECH_WORDS],
}

// `make` copies the state into every undo record: keep it as small as it was before
// mechanics had typed state.
const _: () = assert!(std::mem::size_of::<State>() == 24);

/// One square edit: the square and what it holds afterwards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Edit {
    /// The square.
    pub sq: Square,
    /// Its content after the edit.
    pub after: Piece,
}

/// Most square edits one move may make.
pub const MAX_EDITS: usize = 8;

/// A move's edits, built on the stack.
#[derive(Clone, Copy)]
pub struct EditList {
    edits: [Edit; MAX_EDITS],
    len: u8,
    /// The straight two-rank route (from, to) of one of the mover's pawns, as the mechanic that
    /// made the edits followed its men (`NOT_TRACKED`: it did not, so the route is guessed from
    /// the squares; `(64, 64)`: no pawn made such a route).
    pawn_route: (u8, u8),
    /// Whether the mechanic says the move captured a man (of either colour), for the
    /// half-move clock when the edits alone cannot tell (a man of the mover's own colour
    /// captured, Explorer).
    captures: bool,
}

/// `EditList::pawn_route` when the mechanic did not follow its men through the legs.
const NOT_TRACKED: (u8, u8) = (255, 255);

/// First half of `EditList::pawn_route` when the mechanic set the target itself.
const EXPLICIT_EP: u8 = 254;

impl EditList {
    /// An empty list.
    #[inline(always)]
    pub fn new() -> EditList {
        EditList {
            edits: [Edit {
                sq: Square::new(0),
                after: Piece::NONE,
            }; MAX_EDITS],
            len: 0,
            pawn_route: NOT_TRACKED,
            captures: false,
        }
    }

    /// Appends an edit.
    #[inline(always)]
    pub fn push(&mut self, sq: Square, after: Piece) {
        debug_assert!((self.len as usize) < MAX_EDITS);
        self.edits[self.len as usize] = Edit { sq, after };
        self.len += 1;
    }

    /// The edits.
    #[inline(always)]
    pub fn as_slice(&self) -> &[Edit] {
        &self.edits[..self.len as usize]
    }

    /// Records that one of the mover's pawns went from `from` to `to` in this move, unpromoted
    /// (the mechanic follows each man through its legs, as ../shared/rules/README.md ruling 3
    /// asks). Call it for every such pawn, or with no pawn moved call [`EditList::no_pawn_route`]:
    /// the en-passant target then comes from these routes only, not from a guess over the
    /// squares. Only a straight two-rank route can leave a target, so others are not kept.
    #[inline]
    pub fn pawn_route(&mut self, from: Square, to: Square) {
        let straight_two = from.file() == to.file() && (from.rank() - to.rank()).abs() == 2;
        if straight_two {
            self.pawn_route = (from.raw(), to.raw());
        } else {
            self.no_pawn_route();
        }
    }

    /// Sets the en-passant target the move leaves to `sq` (if `sq` is empty after the move),
    /// whatever the routes of the mover's pawns: a variant's own double step (Wonderland's
    /// mirrored one, WO-R4). The man an en-passant capture on `sq` takes is the pawn one rank
    /// beyond it, as usual.
    #[inline]
    pub fn ep_target(&mut self, sq: Square) {
        self.pawn_route = (EXPLICIT_EP, sq.raw());
    }

    /// Records that the move captures a man the edits alone do not show as captured (one of
    /// the mover's own men, Explorer): the half-move clock is reset.
    #[inline]
    pub fn count_capture(&mut self) {
        self.captures = true;
    }

    /// Records that no pawn of the mover went straight two ranks in this move (see
    /// [`EditList::pawn_route`]); an earlier recorded route is kept.
    #[inline]
    pub fn no_pawn_route(&mut self) {
        if self.pawn_route == NOT_TRACKED {
            self.pawn_route = (64, 64);
        }
    }
}

impl Default for EditList {
    fn default() -> Self {
        EditList::new()
    }
}

/// Where the king and the rook of one castling right go, fixed when the position is set up: while
/// a right exists its king and its rook have not left their squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CastlePath {
    /// The castling move (king from, king to, rook from, rook to).
    pub mv: Move,
    /// Squares that must be empty: both paths and both destinations, less the two men's squares.
    pub clear: Bitboard,
    /// Squares strictly between the king and its destination (which must not be attacked).
    pub king_path: Bitboard,
}

#[derive(Clone, Copy)]
struct Undo {
    state: State,
    mv: Move,
    /// The edits with the content each square had *before*.
    before: EditList,
}

/// A position of a two-colour game.
#[derive(Clone)]
pub struct Position {
    rules: &'static Variant,
    board: [Piece; 64],
    by_color: [Bitboard; 2],
    by_kind: [Bitboard; MAX_PIECE_TYPES],
    stm: Color,
    state: State,
    /// Rook squares of the four castling rights (64 = none).
    castle_rook: [u8; 4],
    /// Geometry of the four castling rights (`None`: no right, or its destinations are barred).
    castle_path: [Option<CastlePath>; 4],
    /// Rights cleared when a man leaves or lands on a square.
    castle_mask: [u8; 64],
    history: Vec<Undo>,
}

impl Position {
    /// The variant's start position.
    pub fn startpos(variant: &'static Variant) -> Position {
        // the start FEN was validated when the variant was loaded
        Position::from_fen(variant, &variant.start_fen).expect("start FEN validated at load")
    }

    /// The variant: its rules (through `Deref`) and its mechanics.
    #[inline(always)]
    pub fn rules(&self) -> &'static Variant {
        self.rules
    }

    /// The variant's mechanics.
    #[inline(always)]
    pub fn mechanics(&self) -> &'static Mechanics {
        &self.rules.mechanics
    }

    /// Whether `m` is a promotion whose piece the pawn's owner picks, not the chooser of the
    /// ply (007's `promotionChooser = owner` on an enemy ply).
    pub fn owner_picks_promotion(&self, m: Move) -> bool {
        m.promotion_type().is_some()
            && self
                .mechanics()
                .with_hook(Hooks::TURNS)
                .any(|t| t.owner_picks_promotion(self, m))
    }

    /// Whether the variant lets a pawn's owner pick some promotions' piece.
    pub fn owners_pick_promotions(&self) -> bool {
        self.mechanics().iter().any(|t| t.owners_pick_promotions())
    }

    /// What stands on `sq`.
    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Piece {
        self.board[sq.index()]
    }

    /// Men of `color`.
    #[inline(always)]
    pub fn pieces(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// Men of type `t`, both colours.
    #[inline(always)]
    pub fn kind(&self, t: PieceType) -> Bitboard {
        self.by_kind[t.index()]
    }

    /// Men of `color` and type `t`.
    #[inline(always)]
    pub fn pieces_of(&self, color: Color, t: PieceType) -> Bitboard {
        self.by_color[color.index()] & self.by_kind[t.index()]
    }

    /// All men.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// The colour whose man moves next.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.stm
    }

    /// The player who chooses the next ply. In every variant where players alternate this is
    /// the colour to move; under a turn schedule (the 007 family) it follows from the
    /// schedule and `State::ply`. Protocols, the match referee and the search ask this, never
    /// `side_to_move`, when they mean "whose decision is it".
    #[inline(always)]
    pub fn chooser(&self) -> Color {
        let mechanics = self.mechanics();
        if !mechanics.uses(Hooks::TURNS) {
            return self.stm;
        }
        mechanics
            .with_hook(Hooks::TURNS)
            .next()
            .map_or(self.stm, |m| m.chooser(self))
    }

    /// Where the next ply stands in its turn ([`Mechanics::turn_phase`]): 0 wherever players
    /// alternate; under a turn schedule, the Detente slot of the next ply less one.
    #[inline]
    pub fn turn_phase(&self) -> usize {
        self.mechanics().turn_phase(self.state.ply)
    }

    /// The saved state (key, rights, en passant, clocks, variant bytes).
    #[inline(always)]
    pub fn state(&self) -> &State {
        &self.state
    }

    /// Zobrist key.
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.state.key
    }

    /// Castling rights bits.
    #[inline(always)]
    pub fn castling_rights(&self) -> u8 {
        self.state.castling
    }

    /// En-passant target.
    #[inline(always)]
    pub fn ep_square(&self) -> Option<Square> {
        (self.state.ep < 64).then(|| Square::new(self.state.ep))
    }

    /// Rook square of castling right `bit` (CASTLE_* bit index 0..4).
    #[inline(always)]
    pub fn castle_rook(&self, right: usize) -> Option<Square> {
        let s = self.castle_rook[right];
        (s < 64).then(|| Square::new(s))
    }

    /// Geometry of castling right `right` (CASTLE_* bit index 0..4) as set up from the FEN:
    /// `None` if the position never had that right or the variant bars its destinations.
    #[inline(always)]
    pub fn castle_path(&self, right: usize) -> Option<&CastlePath> {
        self.castle_path[right].as_ref()
    }

    /// The royal man of `color`, if there is exactly one.
    #[inline(always)]
    pub fn king_square(&self, color: Color) -> Option<Square> {
        let k = self.pieces_of(color, PieceType::KING);
        (k.any() && !k.more_than_one()).then(|| k.lsb())
    }

    /// Plies since a capture or pawn move.
    pub fn halfmove_clock(&self) -> u16 {
        self.state.halfmove
    }

    /// Full-move number as in FEN.
    pub fn fullmove_number(&self) -> u32 {
        self.state.ply / 2 + 1
    }

    /// Number of moves made since this position was set up.
    pub fn moves_played(&self) -> usize {
        self.history.len()
    }

    /// The moves made since set-up, oldest first.
    pub fn played(&self) -> impl Iterator<Item = Move> + '_ {
        self.history.iter().map(|u| u.mv)
    }

    /// Keys of the earlier positions, most recent first, back to the last irreversible move.
    pub fn previous_keys(&self) -> impl Iterator<Item = u64> + '_ {
        self.history
            .iter()
            .rev()
            .take(self.state.halfmove as usize)
            .map(|u| u.state.key)
    }

    /// Puts `after` on `sq`, updating bitboards and key; returns what was there.
    #[inline(always)]
    fn set_square(&mut self, sq: Square, after: Piece) -> Piece {
        let before = self.put(sq, after);
        let z = &ZOBRIST.piece_square;
        if before.is_some() {
            self.state.key ^= z[before.index()][sq.index()];
        }
        if after.is_some() {
            self.state.key ^= z[after.index()][sq.index()];
        }
        before
    }

    /// [`Position::set_square`] without the key: for `unmake`, which restores the key with the
    /// rest of the saved state.
    #[inline(always)]
    fn put(&mut self, sq: Square, after: Piece) -> Piece {
        let before = self.board[sq.index()];
        if before.is_some() {
            self.by_color[before.color().index()] ^= sq.bb();
            self.by_kind[before.kind().index()] ^= sq.bb();
        }
        if after.is_some() {
            self.by_color[after.color().index()] ^= sq.bb();
            self.by_kind[after.kind().index()] ^= sq.bb();
        }
        self.board[sq.index()] = after;
        before
    }

    /// The edits a move makes, in order.
    #[inline]
    pub fn edits_of(&self, m: Move) -> EditList {
        let mut edits = EditList::new();
        let from = m.from();
        let to = m.to();
        match m.kind() {
            MoveKind::Normal => {
                let p = self.board[from.index()];
                let placed = match m.promotion_type() {
                    Some(t) => Piece::new(p.color(), t),
                    None => p,
                };
                edits.push(from, Piece::NONE);
                edits.push(to, placed);
            }
            MoveKind::EnPassant => {
                let p = self.board[from.index()];
                let victim =
                    Square::new((to.rank() - p.color().forward()) as u8 * 8 + to.file() as u8);
                edits.push(from, Piece::NONE);
                edits.push(victim, Piece::NONE);
                edits.push(to, p);
            }
            MoveKind::Castling => {
                let k = self.board[from.index()];
                let r = self.board[m.rook_from().index()];
                edits.push(from, Piece::NONE);
                edits.push(m.rook_from(), Piece::NONE);
                edits.push(to, k);
                edits.push(m.rook_to(), r);
            }
            MoveKind::Special => {
                if let Some(mover) = self.mechanics().mover() {
                    mover.edits(self, m, &mut edits);
                }
            }
        }
        edits
    }

    /// Plays a move. The move must be legal (or pseudo-legal, for legality tests by make/unmake).
    #[inline]
    pub fn make(&mut self, m: Move) {
        if m.kind() == MoveKind::Normal {
            self.make_normal(m);
        } else {
            self.make_edits(m);
        }
    }

    /// `make` for a normal move: the two edits of [`Position::edits_of`] (origin emptied,
    /// destination filled) applied and recorded directly, with the same state updates as
    /// [`Position::make_edits`].
    #[inline(always)]
    fn make_normal(&mut self, m: Move) {
        let (from, to) = (m.from(), m.to());
        let us = self.stm;
        let moved = self.board[from.index()];
        let placed = match m.promotion_type() {
            Some(t) => Piece::new(moved.color(), t),
            None => moved,
        };
        let state = self.state;
        self.set_square(from, Piece::NONE);
        let captured = self.set_square(to, placed);
        let mut before = EditList::new();
        before.push(from, moved);
        before.push(to, captured);
        let rights = state.castling & self.castle_mask[from.index()] & self.castle_mask[to.index()];
        let reset_clock =
            resets_clock(moved, Piece::NONE, us) || resets_clock(captured, placed, us);
        let ep = if placed == Piece::new(us, PieceType::PAWN) && m.promotion_type().is_none() {
            self.double_step_ep(from, to, us)
        } else {
            64
        };
        self.finish_make(m, state, before, rights, reset_clock, ep);
    }

    /// `make` for any move: its edits from [`Position::edits_of`], applied in order.
    #[inline(never)]
    fn make_edits(&mut self, m: Move) {
        let edits = self.edits_of(m);
        let state = self.state;
        let mut before = EditList::new();
        let us = self.stm;
        let mut pawn_moved = false;
        // enemy men on the edited squares after the edits minus before: a capture is an enemy
        // man missing once all edits are done (a man moved by edits is not captured)
        let mut enemy_delta = 0i32;
        let mut rights = self.state.castling;
        for e in edits.as_slice() {
            let old = self.set_square(e.sq, e.after);
            before.push(e.sq, old);
            rights &= self.castle_mask[e.sq.index()];
            pawn_moved |= is_pawn(old) || is_pawn(e.after);
            enemy_delta += is_man_of(e.after, us.flip()) as i32 - is_man_of(old, us.flip()) as i32;
        }
        let reset_clock = pawn_moved || enemy_delta < 0 || edits.captures;
        let ep = self.new_ep_square(m, &edits, &before, us);
        self.finish_make(m, state, before, rights, reset_clock, ep);
    }

    /// The rest of `make` once the board edits are done: castling rights, en-passant square,
    /// clocks, side to move and key, and the record for `unmake`.
    #[inline(always)]
    fn finish_make(
        &mut self,
        m: Move,
        state: State,
        before: EditList,
        rights: u8,
        reset_clock: bool,
        ep: u8,
    ) {
        let z = &ZOBRIST;
        let mut key = self.state.key;
        if rights != state.castling {
            key ^= z.castling[state.castling as usize] ^ z.castling[rights as usize];
            self.state.castling = rights;
        }
        if state.ep < 64 {
            key ^= z.ep_file[(state.ep & 7) as usize];
        }
        self.state.ep = ep;
        if ep < 64 {
            key ^= z.ep_file[(ep & 7) as usize];
        }
        key ^= z.black_to_move;
        self.state.key = key;
        self.state.halfmove = if reset_clock {
            0
        } else {
            state.halfmove.saturating_add(1)
        };
        self.state.ply += 1;
        self.stm = self.stm.flip();
        self.history.push(Undo {
            state,
            mv: m,
            before,
        });
        if self.mechanics().uses(Hooks::AFTER_MOVE) {
            self.after_move_hooks(m);
        }
    }

    /// The mechanics' part of `make` (and of a pass), after the undo record of `m` is pushed:
    /// kept out of line, so variants without state pay one test. The edits are not passed: a
    /// mechanic that needs them reads them back (`last_edits`), the others touch nothing.
    #[inline(never)]
    fn after_move_hooks(&mut self, m: Move) {
        for mechanic in self.mechanics().with_hook(Hooks::AFTER_MOVE) {
            mechanic.after_move(self, m);
        }
    }

    /// The squares the last move (or pass) edited, each with what it held before the move
    /// (empty for a pass or before any move).
    pub fn last_edits(&self) -> EditList {
        self.history.last().map(|u| u.before).unwrap_or_default()
    }

    /// Sets the number of plies played (a turn schedule's FEN field), keeping nothing else in
    /// step: the caller rekeys.
    pub(crate) fn set_ply(&mut self, ply: u32) {
        self.state.ply = ply;
    }

    /// XORs a term into the key (a rule module's hook for state outside the board).
    pub(crate) fn toggle_key(&mut self, k: u64) {
        self.state.key ^= k;
    }

    /// Removes the en-passant square, keeping the key in step.
    pub(crate) fn clear_ep(&mut self) {
        if self.state.ep < 64 {
            self.state.key ^= ZOBRIST.ep_file[(self.state.ep & 7) as usize];
            self.state.ep = 64;
        }
    }

    /// En-passant target after a move (64 = none): per the project's ruling, a pawn of the mover
    /// that went straight from its double-step region two ranks forward, unpromoted, over a square
    /// left empty.
    #[inline]
    fn new_ep_square(&self, m: Move, edits: &EditList, before: &EditList, us: Color) -> u8 {
        if !self.rules.en_passant {
            return 64;
        }
        let pawn = Piece::new(us, PieceType::PAWN);
        let fwd = us.forward();
        match m.kind() {
            MoveKind::Normal
                if self.board[m.to().index()] == pawn && m.promotion_type().is_none() =>
            {
                self.double_step_ep(m.from(), m.to(), us)
            }
            MoveKind::Special if edits.pawn_route.0 == EXPLICIT_EP => {
                let sq = edits.pawn_route.1;
                if self.board[sq as usize].is_none() {
                    sq
                } else {
                    64
                }
            }
            MoveKind::Special if edits.pawn_route != NOT_TRACKED => {
                let (from, to) = edits.pawn_route;
                if from < 64 && self.board[to as usize] == pawn {
                    self.double_step_ep(Square::new(from), Square::new(to), us)
                } else {
                    64
                }
            }
            MoveKind::Special => {
                // not followed by the mechanic: one of our pawns left a square and one of ours
                // appeared two ranks ahead of it
                for e in edits.as_slice() {
                    if e.after != pawn {
                        continue;
                    }
                    let Some(from) = e.sq.offset(0, -2 * fwd) else {
                        continue;
                    };
                    let was_pawn = before
                        .as_slice()
                        .iter()
                        .any(|b| b.sq == from && b.after == pawn);
                    // judged on the final board: a module may edit a square more than once
                    if was_pawn
                        && self.board[from.index()] != pawn
                        && self.board[e.sq.index()] == pawn
                    {
                        let c = self.double_step_ep(from, e.sq, us);
                        if c < 64 {
                            return c;
                        }
                    }
                }
                64
            }
            _ => 64,
        }
    }

    /// The en-passant target (64 = none) left by a pawn of `us` that went from `from` to `to`
    /// (now on `to`): the square passed over, if the pawn double-stepped straight forward from
    /// its double-step region in a variant with en passant and that square is empty.
    #[inline(always)]
    fn double_step_ep(&self, from: Square, to: Square, us: Color) -> u8 {
        let fwd = us.forward();
        if to.file() == from.file()
            && to.rank() - from.rank() == 2 * fwd
            && self.rules.en_passant
            && self.rules.double_step_region[us.index()].has(from)
        {
            let mid = Square::new(((from.rank() + fwd) * 8 + from.file()) as u8);
            if self.board[mid.index()].is_none() {
                return mid.raw();
            }
        }
        64
    }

    /// Takes back the last move. Does nothing if no move was made.
    #[inline]
    pub fn unmake(&mut self) {
        let Some(undo) = self.history.last() else {
            return;
        };
        let (state, before) = (undo.state, undo.before);
        self.history.truncate(self.history.len() - 1);
        // the key comes back with the saved state, so the edits are undone without rehashing
        for e in before.as_slice().iter().rev() {
            self.put(e.sq, e.after);
        }
        self.state = state;
        self.stm = self.stm.flip();
    }

    /// The last move made, if any.
    pub fn last_move(&self) -> Option<Move> {
        self.history.last().map(|u| u.mv)
    }

    /// The key computed from scratch (tests compare it with the incremental one).
    pub fn compute_key(&self) -> u64 {
        let z = &ZOBRIST;
        let mut key = 0;
        for sq in Square::all() {
            let p = self.board[sq.index()];
            if p.is_some() {
                key ^= z.piece_square[p.index()][sq.index()];
            }
        }
        key ^= z.castling[self.state.castling as usize];
        if self.state.ep < 64 {
            key ^= z.ep_file[(self.state.ep & 7) as usize];
        }
        if self.stm == Color::Black {
            key ^= z.black_to_move;
        }
        key ^= self.mech_key();
        for mechanic in self.mechanics().with_hook(Hooks::KEY) {
            key ^= mechanic.key(self);
        }
        key
    }

    /// Removes the move history (keeps the position); used when a game's earlier moves no longer matter.
    pub fn clear_history(&mut self) {
        self.history.clear();
    }
}

/// Whether an edit that replaced `before` by `after` during a move of `us` resets the
/// halfmove clock: a pawn left or arrived, or a man of the other colour was removed or replaced.
/// Whether `p` is a pawn (of either colour).
#[inline(always)]
fn is_pawn(p: Piece) -> bool {
    p.is_some() && p.kind() == PieceType::PAWN
}

/// Whether `p` is a man of `c`.
#[inline(always)]
fn is_man_of(p: Piece, c: Color) -> bool {
    p.is_some() && p.color() == c
}

/// Whether a normal move of `us` that turned `before` into `after` on one of its two squares
/// resets the half-move clock.
#[inline(always)]
fn resets_clock(before: Piece, after: Piece, us: Color) -> bool {
    (before.is_some() && before.kind() == PieceType::PAWN)
        || (after.is_some() && after.kind() == PieceType::PAWN)
        || (before.is_some() && before.color() != us && after.is_none())
        || (before.is_some() && after.is_some() && before.color() != after.color())
}

impl std::fmt::Display for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let shape = self.rules.shape;
        for r in (0..shape.ranks as i8).rev() {
            write!(f, " {} ", r + 1)?;
            for file in 0..shape.files as i8 {
                let sq = Square::from_coords(file, r).expect("on frame");
                let p = self.board[sq.index()];
                let c = if p.is_none() {
                    '.'
                } else if p.color() == Color::White {
                    self.rules.letter(p.kind()).to_ascii_uppercase()
                } else {
                    self.rules.letter(p.kind())
                };
                write!(f, " {c}")?;
            }
            writeln!(f)?;
        }
        write!(f, "   ")?;
        for file in 0..shape.files {
            write!(f, " {}", (b'a' + file) as char)?;
        }
        writeln!(f)?;
        writeln!(f, "FEN: {}", self.fen())?;
        write!(f, "Key: {:016x}", self.key())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::MoveList;
    use crate::rules::builtin_variants;

    /// Everything `make` changes.
    fn snapshot(p: &Position) -> (Vec<Piece>, Vec<Bitboard>, State, Color, Move, Vec<Edit>) {
        let last = p.history.last().expect("a move was made");
        (
            p.board.to_vec(),
            p.by_color.iter().chain(p.by_kind.iter()).copied().collect(),
            p.state,
            p.stm,
            last.mv,
            last.before.as_slice().to_vec(),
        )
    }

    #[test]
    fn normal_move_fast_path_matches_the_edit_list_path() {
        let set = builtin_variants();
        let cases = [
            (
                "chess",
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            ),
            (
                "chess",
                "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            ),
            (
                "chess",
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            ),
            (
                "haven",
                "2b2b2/1rnqknr1/1pppppp1/8/8/1PPPPPP1/1RNQKNR1/2B2B2 w - - 0 1",
            ),
        ];
        let mut seed = 0x1234_5678_9ABC_DEF1u64;
        let mut compared = 0;
        for (variant, fen) in cases {
            let rules = set.get(variant).expect("built in");
            for _game in 0..20 {
                let mut pos = Position::from_fen(rules, fen).expect("valid");
                for _ply in 0..120 {
                    let mut list = MoveList::new();
                    crate::movegen::legal_moves(&mut pos, &mut list);
                    if list.is_empty() {
                        break;
                    }
                    for &m in list.iter().filter(|m| m.kind() == MoveKind::Normal) {
                        let (mut a, mut b) = (pos.clone(), pos.clone());
                        a.make_normal(m);
                        b.make_edits(m);
                        assert_eq!(snapshot(&a), snapshot(&b), "{m:?} in {}", pos.fen());
                        compared += 1;
                    }
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    pos.make(list[(seed % list.len() as u64) as usize]);
                }
            }
        }
        assert!(compared > 10_000);
    }
}
