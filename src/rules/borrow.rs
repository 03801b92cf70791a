//! Borrowed powers: Countermove and Reflective (Modest Proposals, Tony Paletta; rulings:
//! shared/rules/modest-proposals-1.md §0 and §10 (CN-1..CN-5), modest-proposals-2.md §1 and
//! §16 (RF-R1..RF-R4), README.md rulings 2 and 3).
//!
//! A man that an enemy man *reaches* (the orthodox attack: a pawn reaches its two
//! diagonally-forward squares, sliders up to the first occupied square) borrows the
//! **non-capturing** moves of each such enemy man, made from its own square: Knight leaps,
//! Bishop/Rook/Queen slides and King steps onto empty squares, a pawn's one straight step (no
//! double step, never castling). Captures always stay the man's own, so check is orthodox.
//!
//! The two variants differ by keys ([`Borrow`]):
//! * `borrowMoves = add` (Countermove, CN-1): the borrowed moves come in addition to the man's
//!   own; `replace` (Reflective): an attacked man's non-capturing moves are exactly the borrowed
//!   ones (its own captures stay). With `replace` the builder switches off every borrowing
//!   type's ordinary quiet moves (`Rules::quiet_off`) and this module generates them: the own
//!   ones (pawn steps and double steps included) for a man not attacked, the borrowed ones for
//!   an attacked man. Castling stays ordinary (a King in check cannot castle anyway).
//! * `borrowKing = false` (CN-5): Kings do not borrow; `true` (RF-R1): they do.
//! * `borrowPawnStep = own` (CN-2): a borrowed pawn step goes in the borrower's forward
//!   direction; `attacker` (RF-R2): in the lending pawn's forward direction.
//! * `borrowFirstRank = false` (CN-3, P3): a pawn may not move to its own first rank; `true`
//!   (RF-R4): it may, stays a pawn, and moves one square forward from there (no double step).
//!   The builder then sets `Rules::first_rank_pawns` so that a FEN may show such a pawn.
//!
//! Every move is one leg from the man's square to an empty square, pushed as `Move::normal` /
//! `Move::promotion` (a pawn on its last rank by any move promotes, P2): make/unmake, the
//! spelling (plain UCI), the legality shortcut and en passant (a borrowed straight two-square
//! move of a pawn from its 2nd rank is the double step, README ruling 3) are the ordinary
//! ones. Identity (ruling 2): with `add`, borrowed targets that the man's own non-capturing
//! moves already reach are not generated (they are the ordinary move); with `replace`, each
//! man's quiet targets are one set. So every move is distinct and the leaf count is cheap.

use crate::geometry::attacks::TABLES;
use crate::geometry::{Bitboard, Color, Square};
use crate::moves::{Move, MoveList};
use crate::piece::{Piece, PieceType, MAX_PIECE_TYPES};
use crate::position::{Built, Hooks, Legality, Mechanic, MechanicSpec, Position, StateLayout};
use crate::variant::{Rules, Section};

/// Registration: `specialMoves = borrow` and its keys.
pub const SPEC: MechanicSpec = MechanicSpec::chosen(
    &[
        "specialMoves",
        "borrowMoves",
        "borrowKing",
        "borrowPawnStep",
        "borrowFirstRank",
    ],
    "borrow",
    build,
);

/// The borrowed-powers mechanic and its settings.
#[derive(Clone, Copy, Debug)]
pub struct Borrow {
    /// `borrowMoves = replace`: an attacked man's quiet moves are only the borrowed ones.
    replace: bool,
    /// `borrowKing = true`: Kings borrow too.
    kings: bool,
    /// `borrowPawnStep = attacker`: a borrowed pawn step goes the lender's way.
    attacker_step: bool,
    /// `borrowFirstRank = true`: a pawn may move to its own first rank.
    first_rank: bool,
}

fn build(ctx: &Section, rules: &mut Rules, _state: &mut StateLayout) -> Built {
    let replace = ctx.two_way("borrowMoves", "add", "replace")?;
    let kings = ctx.two_way("borrowKing", "false", "true")?;
    let attacker_step = ctx.two_way("borrowPawnStep", "own", "attacker")?;
    let first_rank = ctx.two_way("borrowFirstRank", "false", "true")?;
    if !SPEC.is_chosen(ctx)? {
        return Ok(None);
    }
    let b = Borrow {
        replace,
        kings,
        attacker_step,
        first_rank,
    };
    if replace {
        rules.quiet_off |= rules
            .piece_types()
            .filter(|&t| b.borrows(rules, t))
            .fold(0u16, |acc, t| acc | 1 << t.0);
    }
    rules.first_rank_pawns |= first_rank;
    Ok(Some(Box::new(b)))
}

/// Whether men of type `t` are Kings.
#[inline(always)]
fn kingly(rules: &Rules, t: PieceType) -> bool {
    t == PieceType::KING || rules.royal == Some(t)
}

/// What the enemy men reach, computed once per node.
struct Reach {
    /// For each enemy type, the squares its men reach (capture targets, whatever stands there).
    by_type: [Bitboard; MAX_PIECE_TYPES],
    /// The enemy types present (bit `t` for type `t`).
    types: u16,
    /// Every square some enemy man reaches.
    all: Bitboard,
    /// The side to move's own first rank (where its pawns may not go without RF-R4).
    first: Bitboard,
}

impl Borrow {
    /// Whether men of type `t` borrow.
    #[inline(always)]
    fn borrows(&self, rules: &Rules, t: PieceType) -> bool {
        self.kings || !kingly(rules, t)
    }

    /// What the men of `them` reach.
    #[inline]
    fn reach(pos: &Position, them: Color) -> Reach {
        let rules = pos.rules();
        let occ = pos.occupied();
        let mut by_type = [Bitboard::EMPTY; MAX_PIECE_TYPES];
        let mut types = 0u16;
        let mut all = Bitboard::EMPTY;
        for s in pos.pieces(them) {
            let t = pos.piece_at(s).kind();
            if let Some(def) = rules.piece(t) {
                let r = def.moves.capture_targets(them, s, occ, rules.board);
                by_type[t.index()] |= r;
                all |= r;
                types |= 1 << t.0;
            }
        }
        let us = them.flip();
        Reach {
            by_type,
            types,
            all,
            first: rules
                .shape
                .rank_bb(super::relocation::own_first_rank(rules, us)),
        }
    }

    /// The side to move's men whose moves this module generates: with `replace` every
    /// borrowing man, with `add` only those some enemy man reaches.
    #[inline]
    fn movers(&self, pos: &Position, reach: &Reach) -> Bitboard {
        let rules = pos.rules();
        let mut men = pos.pieces(pos.side_to_move());
        if !self.replace {
            men &= reach.all;
        }
        if !self.kings {
            for t in rules.piece_types().filter(|&t| kingly(rules, t)) {
                men &= !pos.kind(t);
            }
        }
        men
    }

    /// The man's own non-capturing targets (a pawn's step and double step).
    #[inline]
    fn own_quiet(pos: &Position, s: Square, man: Piece) -> Bitboard {
        super::quiet_targets(pos, s, man)
    }

    /// The non-capturing targets the man on `s` borrows from the enemy men reaching it.
    #[inline]
    fn borrowed(&self, pos: &Position, s: Square, man: Piece, reach: &Reach) -> Bitboard {
        let rules = pos.rules();
        let occ = pos.occupied();
        let them = man.color().flip();
        let mut q = Bitboard::EMPTY;
        for t in crate::position::types_of(reach.types) {
            if !reach.by_type[t.index()].has(s) {
                continue;
            }
            let Some(def) = rules.piece(t) else {
                continue;
            };
            // the lender's pattern from the borrower's square; a pawn's step goes the
            // borrower's way (CN-2) or the lender's (RF-R2), never a double step
            let c = if t == PieceType::PAWN && !self.attacker_step {
                man.color()
            } else {
                them
            };
            q |= def.moves.quiet_targets(c, s, occ, rules.board);
        }
        q
    }

    /// Every non-capturing target of the man on `s` (one of [`Borrow::movers`]) that this
    /// module generates.
    #[inline]
    fn targets(&self, pos: &Position, s: Square, man: Piece, reach: &Reach) -> Bitboard {
        let rules = pos.rules();
        let mut q = if !reach.all.has(s) {
            // only with `replace`: a man not attacked moves normally
            Borrow::own_quiet(pos, s, man)
        } else if self.replace {
            self.borrowed(pos, s, man, reach)
        } else {
            // ruling 2: a borrowed move equal to an own move is that ordinary move
            self.borrowed(pos, s, man, reach) & !Borrow::own_quiet(pos, s, man)
        };
        if man.kind() == PieceType::PAWN {
            if !self.first_rank {
                q &= !reach.first;
            }
            // a pawn's move onto the en-passant square is the capture there (FIDE 3.7.d: the
            // passed pawn is taken as though it stood on that square), never a quiet twin
            if let Some(ep) = pos.ep_square() {
                if man.color() == pos.side_to_move()
                    && TABLES.pawn[man.color().index()][s.index()].has(ep)
                {
                    q &= !ep.bb();
                }
            }
        }
        q & rules.region(man.color(), man.kind())
    }

    /// Where the man promotes: its promotion zone if it is a pawn.
    #[inline(always)]
    fn zone(pos: &Position, man: Piece) -> Bitboard {
        if man.kind() == PieceType::PAWN {
            pos.rules().promotion_region[man.color().index()]
        } else {
            Bitboard::EMPTY
        }
    }

    /// The number of moves a pawn has to the square `t` of its promotion zone (P2: each
    /// promotion choice is a move), as [`Borrow::push`] lists them.
    #[inline]
    fn choices(pos: &Position, man: Piece, t: Square) -> usize {
        let rules = pos.rules();
        let promotions = rules
            .promotion_types
            .iter()
            .filter(|&&p| rules.region(man.color(), p).has(t))
            .count();
        promotions + usize::from(!rules.mandatory_promotion)
    }

    /// Appends the moves of the man on `s` to the squares `q`.
    #[inline]
    fn push(pos: &Position, s: Square, man: Piece, q: Bitboard, out: &mut MoveList) {
        let rules = pos.rules();
        let zone = Borrow::zone(pos, man);
        for t in q & !zone {
            out.push(Move::normal(s, t));
        }
        for t in q & zone {
            if !rules.mandatory_promotion {
                out.push(Move::normal(s, t));
            }
            for &p in &rules.promotion_types {
                if rules.region(man.color(), p).has(t) {
                    out.push(Move::promotion(s, t, p));
                }
            }
        }
    }
}

impl Mechanic for Borrow {
    /// A man moves from one square to another, by powers the position gives it.
    fn moves_fit_chess_guis(&self) -> bool {
        true
    }

    fn spec(&self) -> &'static MechanicSpec {
        &SPEC
    }

    fn hooks(&self) -> Hooks {
        Hooks::MOVES.with(Hooks::MOBILITY)
    }

    /// The quiet targets `color`'s watched men gain by borrowing (with `replace`, minus their
    /// own ones, which they lose). With `add` only the side to move's count: the opponent's
    /// gains come from men the side to move attacks, which it may take before they are used.
    fn mobility(&self, pos: &Position, color: Color) -> i32 {
        if !self.replace && color != pos.side_to_move() {
            return 0;
        }
        let rules = pos.rules();
        let reach = Borrow::reach(pos, color.flip());
        let mut squares = 0;
        for s in pos.pieces(color) & reach.all {
            let man = pos.piece_at(s);
            if !self.borrows(rules, man.kind()) {
                continue;
            }
            squares += self.targets(pos, s, man, &reach).count() as i32;
            if self.replace {
                squares -= Borrow::own_quiet(pos, s, man).count() as i32;
            }
        }
        squares
    }

    fn generate(&self, pos: &Position, list: &mut MoveList) {
        let us = pos.side_to_move();
        let reach = Borrow::reach(pos, us.flip());
        for s in self.movers(pos, &reach) {
            let man = pos.piece_at(s);
            let q = self.targets(pos, s, man, &reach);
            Borrow::push(pos, s, man, q, list);
        }
    }

    fn moves_are_distinct(&self) -> bool {
        // own and borrowed targets are merged per man before moves are made, and every move
        // goes to an empty square (the generic moves are captures, castling, or, with `add`,
        // the own quiet moves left out here)
        true
    }

    fn count_moves(&self, pos: &mut Position, lg: &Legality) -> Option<usize> {
        let masks = lg.masks();
        let us = pos.side_to_move();
        let reach = Borrow::reach(pos, us.flip());
        let rules = pos.rules();
        let mut n = 0;
        let mut listed = MoveList::new();
        for s in self.movers(pos, &reach) {
            let man = pos.piece_at(s);
            let q = self.targets(pos, s, man, &reach);
            if q.is_empty() {
                continue;
            }
            if masks.test_from.has(s) || kingly(rules, man.kind()) {
                Borrow::push(pos, s, man, q, &mut listed);
                continue;
            }
            // judged by the masks (a promotion changes the occupancy as a normal move does)
            let ok = q & masks.target & !masks.test_to;
            let zone = Borrow::zone(pos, man);
            n += (ok & !zone).count() as usize;
            for t in ok & zone {
                n += Borrow::choices(pos, man, t);
            }
            for t in q & masks.test_to {
                Borrow::push(pos, s, man, t.bb(), &mut listed);
            }
        }
        let played = listed
            .iter()
            .filter(|&&m| crate::movegen::generic::legal_when_played(pos, m))
            .count();
        Some(n + played)
    }
}
