//! The table-driven generator for every variant: pseudo-legal moves from the compiled Betza
//! tables, the variant's regions and pawn rules, the rule module's special moves, then
//! legality by make / test / unmake, and finally the merging of moves with the same effect.

use crate::geometry::attacks::between;
use crate::geometry::{Color, Square};
use crate::moves::{Move, MoveKind, MoveList};
use crate::piece::PieceType;
use crate::position::Position;
use crate::variant::SpecialMoves;

/// Whether `sq` is attacked by `by`, generically.
pub fn is_attacked(pos: &Position, sq: Square, by: Color) -> bool {
    let rules = pos.rules();
    let occ = pos.occupied();
    for t in rules.piece_types() {
        let men = pos.pieces_of(by, t);
        if men.is_empty() {
            continue;
        }
        let def = rules.piece(t).expect("type in use");
        if def.moves.attacks_from_any(by, men, sq, occ, rules.board) {
            return true;
        }
    }
    false
}

#[inline]
fn push_pawn_move(pos: &Position, list: &mut MoveList, from: Square, to: Square) {
    let rules = pos.rules();
    let us = pos.side_to_move();
    if rules.promotion_region[us.index()].has(to) {
        for &t in &rules.promotion_types {
            if rules.region(us, t).has(to) {
                list.push(Move::promotion(from, to, t));
            }
        }
        if !rules.mandatory_promotion {
            list.push(Move::normal(from, to));
        }
    } else {
        list.push(Move::normal(from, to));
    }
}

/// Pseudo-legal moves of the data-described kinds (pieces, pawns, castling).
pub fn pseudo_moves(pos: &Position, list: &mut MoveList) {
    let rules = pos.rules();
    let us = pos.side_to_move();
    let them = us.flip();
    let occ = pos.occupied();
    let enemy = pos.pieces(them);
    let board = rules.board;
    for t in rules.piece_types() {
        let men = pos.pieces_of(us, t);
        if men.is_empty() {
            continue;
        }
        let def = rules.piece(t).expect("type in use");
        let region = rules.region(us, t);
        for from in men {
            let quiet = def.moves.quiet_targets(us, from, occ, board) & region;
            let caps = def.moves.capture_targets(us, from, occ, board) & enemy & region;
            if t == PieceType::PAWN {
                for to in quiet | caps {
                    push_pawn_move(pos, list, from, to);
                }
                if rules.double_step && rules.double_step_region[us.index()].has(from) {
                    let f = us.forward();
                    if let (Some(one), Some(two)) = (from.offset(0, f), from.offset(0, 2 * f)) {
                        if !occ.has(one) && !occ.has(two) && board.has(two) && region.has(two) {
                            push_pawn_move(pos, list, from, two);
                        }
                    }
                }
                if let Some(ep) = pos.ep_square() {
                    if (def.moves.capture_targets(us, from, occ, board) & region).has(ep) {
                        list.push(Move::en_passant(from, ep));
                    }
                }
            } else {
                for to in quiet | caps {
                    list.push(Move::normal(from, to));
                }
            }
        }
    }
    if rules.castling {
        castling_moves(pos, list);
    }
}

fn castling_moves(pos: &Position, list: &mut MoveList) {
    let rules = pos.rules();
    let us = pos.side_to_move();
    let rights = pos.castling_rights() >> (2 * us.index()) & 3;
    if rights == 0 {
        return;
    }
    let Some(king) = pos.king_square(us) else {
        return;
    };
    if rules.checking && is_attacked(pos, king, us.flip()) {
        return;
    }
    for side in 0..2 {
        if rights >> side & 1 == 0 {
            continue;
        }
        let Some(rook) = pos.castle_rook(2 * us.index() + side) else {
            continue;
        };
        let (kf, rf) = if side == 0 {
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
        let (Some(kto), Some(rto)) = (
            Square::from_coords(kf, king.rank()),
            Square::from_coords(rf, king.rank()),
        ) else {
            continue;
        };
        if !rules.region(us, PieceType::KING).has(kto)
            || !rules.region(us, rules.castling_rook).has(rto)
        {
            continue;
        }
        let must_be_empty = (between(king, kto) | kto.bb() | between(rook, rto) | rto.bb())
            & !king.bb()
            & !rook.bb();
        if (must_be_empty & pos.occupied()).any() {
            continue;
        }
        if rules.checking
            && between(king, kto)
                .iter()
                .any(|s| is_attacked(pos, s, us.flip()))
        {
            continue;
        }
        list.push(Move::castling(king, kto, rook, rto));
    }
}

/// Whether the position after a move is illegal for the side that just moved.
#[inline]
fn leaves_king_exposed(pos: &Position) -> bool {
    let rules = pos.rules();
    let mover = pos.side_to_move().flip();
    if rules.flying_general {
        if let (Some(a), Some(b)) = (pos.king_square(Color::White), pos.king_square(Color::Black)) {
            if a.file() == b.file() && (between(a, b) & pos.occupied()).is_empty() {
                return true;
            }
        }
    }
    if !rules.checking {
        return false;
    }
    match pos.king_square(mover) {
        Some(k) => is_attacked(pos, k, pos.side_to_move()),
        None => true,
    }
}

/// Legal moves, generically.
pub fn legal_moves(pos: &mut Position, list: &mut MoveList) {
    let mut pseudo = MoveList::new();
    pseudo_moves(pos, &mut pseudo);
    let special = pos.rules().special;
    if special != SpecialMoves::None {
        crate::rules::generate_special(special, pos, &mut pseudo);
    }
    for &m in pseudo.iter() {
        pos.make(m);
        let bad = leaves_king_exposed(pos);
        pos.unmake();
        if !bad {
            list.push(m);
        }
    }
    if special != SpecialMoves::None {
        merge_same_effect(pos, list);
    }
}

/// Keeps one move per resulting position: the canonical spelling (fewest legs, then ASCII).
fn merge_same_effect(pos: &mut Position, list: &mut MoveList) {
    let n = list.len();
    let mut keys = [(0u64, Move::NONE); MoveList::CAPACITY];
    for (i, &m) in list.iter().enumerate() {
        pos.make(m);
        keys[i] = (pos.key(), m);
        pos.unmake();
    }
    let keys = &mut keys[..n];
    keys.sort_unstable_by_key(|k| k.0);
    let mut dup = false;
    for w in keys.windows(2) {
        if w[0].0 == w[1].0 {
            dup = true;
            break;
        }
    }
    if !dup {
        return;
    }
    list.clear();
    let mut i = 0;
    while i < n {
        let mut best = keys[i].1;
        let mut j = i + 1;
        while j < n && keys[j].0 == keys[i].0 {
            if canonical_before(pos, keys[j].1, best) {
                best = keys[j].1;
            }
            j += 1;
        }
        list.push(best);
        i = j;
    }
}

fn canonical_before(pos: &Position, a: Move, b: Move) -> bool {
    let sa = crate::movegen::move_to_string(pos, a);
    let sb = crate::movegen::move_to_string(pos, b);
    (sa.legs(), sa.as_str()) < (sb.legs(), sb.as_str())
}

/// Whether a move captures (a man of the other colour disappears).
pub fn is_capture(pos: &Position, m: Move) -> bool {
    match m.kind() {
        MoveKind::EnPassant => true,
        MoveKind::Castling => false,
        MoveKind::Normal => pos.piece_at(m.to()).is_some(),
        MoveKind::Special => {
            let edits = pos.edits_of(m);
            let them = pos.side_to_move().flip();
            edits.as_slice().iter().any(|e| {
                let p = pos.piece_at(e.sq);
                p.is_some() && p.color() == them && !(e.after.is_some() && e.after.color() == them)
            })
        }
    }
}
