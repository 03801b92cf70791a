//! Static exchange evaluation: whether the exchange a capture starts on its target square is
//! worth at least a threshold, both sides recapturing with their least valuable attacker and
//! either side free to stop.
//!
//! Attackers come from the same relation as the attack tests: the hand-written orthodox tables
//! where the rules are orthodox, the compiled piece tables otherwise (leaps, slides and rays,
//! hoppers included). After each capture the attackers are recomputed with the reduced
//! occupancy, which reveals x-rays (a rook behind a rook, a cannon gaining a screen).
//!
//! Pins and checks are ignored, as usual. The caller decides where the board's capture rules
//! are the pieces' alone (no mechanic changing captures); see `Game::see_ge`.

use crate::geometry::attacks::{bishop_attacks, rook_attacks, sliders, TABLES};
use crate::geometry::{Bitboard, Color, Square};
use crate::moves::{Move, MoveKind};
use crate::piece::PieceType;
use crate::position::{types_of, Position};

/// Whether capturing (or moving) with `m`, a legal move of `pos`, wins at least `threshold`
/// by static exchange, with piece values `values` (indexed by piece type). Moves other than
/// normal ones (en passant, castling, promotions, a mechanic's moves) count as an even
/// exchange: `0 >= threshold`.
pub fn see_ge(pos: &Position, m: Move, threshold: i32, values: &[i32]) -> bool {
    if m.kind() != MoveKind::Normal || m.promotion_type().is_some() {
        return threshold <= 0;
    }
    let (from, to) = (m.from(), m.to());
    let victim = pos.piece_at(to);
    let mut swap = if victim.is_some() {
        values[victim.kind().index()]
    } else {
        0
    } - threshold;
    if swap < 0 {
        return false;
    }
    let mover = pos.piece_at(from);
    swap = values[mover.kind().index()] - swap;
    if swap <= 0 {
        return true;
    }
    let mut occ = pos.occupied() ^ from.bb() ^ to.bb();
    let mut side = mover.color();
    let mut attackers = attackers_to(pos, to, occ);
    // `res` is 1 while the side that made the last capture comes out at the threshold
    let mut res = true;
    loop {
        side = side.flip();
        attackers &= occ;
        let ours = attackers & pos.pieces(side);
        if ours.is_empty() {
            break;
        }
        res = !res;
        let (t, sq) = least_valuable(pos, ours, values);
        if t == PieceType::KING {
            // the king may take only if nothing can take it back
            return if (attackers & pos.pieces(side.flip())).any() {
                !res
            } else {
                res
            };
        }
        swap = values[t.index()] - swap;
        if swap < res as i32 {
            break;
        }
        occ ^= sq.bb();
        attackers = attackers_to(pos, to, occ);
    }
    res
}

/// The cheapest man among `men` (a king last, whatever its value) and its square.
#[inline]
fn least_valuable(pos: &Position, men: Bitboard, values: &[i32]) -> (PieceType, Square) {
    let mut best: Option<(i32, PieceType, Bitboard)> = None;
    for t in types_of(pos.rules().type_mask) {
        let of_type = pos.kind(t) & men;
        if of_type.is_empty() {
            continue;
        }
        let v = if t == PieceType::KING {
            i32::MAX
        } else {
            values[t.index()]
        };
        if best.is_none_or(|(bv, _, _)| v < bv) {
            best = Some((v, t, of_type));
        }
    }
    let (_, t, bb) = best.expect("men is not empty");
    (t, bb.lsb())
}

/// The men of both sides among `occ` that capture on `sq` when the occupancy is `occ`.
#[inline]
pub fn attackers_to(pos: &Position, sq: Square, occ: Bitboard) -> Bitboard {
    // the compiled tables of orthodox men ignore regions too: the same relation, faster
    if pos.rules().orthodox_men {
        orthodox_attackers(pos, sq, occ)
    } else {
        compiled_attackers(pos, sq, occ)
    }
}

/// [`attackers_to`] for the orthodox men.
#[inline]
fn orthodox_attackers(pos: &Position, sq: Square, occ: Bitboard) -> Bitboard {
    let (t, s, i) = (&*TABLES, sliders(), sq.index());
    let queens = pos.kind(PieceType::QUEEN);
    let hits = (t.pawn[Color::Black.index()][i] & pos.pieces_of(Color::White, PieceType::PAWN))
        | (t.pawn[Color::White.index()][i] & pos.pieces_of(Color::Black, PieceType::PAWN))
        | (t.knight[i] & pos.kind(PieceType::KNIGHT))
        | (t.king[i] & pos.kind(PieceType::KING))
        | (s.bishop(sq, occ) & (pos.kind(PieceType::BISHOP) | queens))
        | (s.rook(sq, occ) & (pos.kind(PieceType::ROOK) | queens));
    hits & occ
}

/// The men of both sides among `occ` that capture on `sq`, from the compiled piece tables (one
/// pass over the types: a slider's lines are looked up once for both colours).
fn compiled_attackers(pos: &Position, sq: Square, occ: Bitboard) -> Bitboard {
    let rules = pos.rules();
    let sides = [
        pos.pieces(Color::White) & occ,
        pos.pieces(Color::Black) & occ,
    ];
    let mut found = Bitboard::EMPTY;
    let (mut orth, mut diag) = (None, None);
    for t in types_of(rules.type_mask) {
        let men = pos.kind(t) & occ;
        if men.is_empty() {
            continue;
        }
        let Some(def) = rules.piece(t) else {
            continue;
        };
        let m = &def.moves;
        for by in Color::ALL {
            found |= m.leap_capture_from[by.index()][sq.index()] & men & sides[by.index()];
        }
        let near = if m.no_adjacent_capture {
            men & !TABLES.king[sq.index()]
        } else {
            men
        };
        if let Some(slide) = m.rook_capture {
            let att = *orth.get_or_insert_with(|| rook_attacks(sq, occ));
            found |= slide.reach(att, sq) & near;
        }
        if let Some(slide) = m.bishop_capture {
            let att = *diag.get_or_insert_with(|| bishop_attacks(sq, occ));
            found |= slide.reach(att, sq) & near;
        }
        if m.has_rays() {
            // rays are walked one man at a time: only men standing where a ray could reach
            for by in Color::ALL {
                let zone = m.ray_capture_zone[by.index()][sq.index()];
                for from in (men & sides[by.index()] & zone & !found).iter() {
                    let one = from.bb();
                    if m.attacks_from_any(by, one, sq, occ, rules.board) {
                        found |= one;
                    }
                }
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movegen::{parse_move, walk};
    use crate::rules::builtin_variants;

    /// Chess values as the tests reason with them (pawn, knight, bishop, rook, queen, king).
    const VALUES: [i32; 16] = [100, 300, 300, 500, 900, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];

    /// The exact exchange value of `mv` on `fen`, found by bisecting `see_ge`.
    fn see_value(variant: &str, fen: &str, mv: &str) -> i32 {
        let rules = builtin_variants().get(variant).expect("built in");
        let mut pos = Position::from_fen(rules, fen).expect("fen");
        let m = parse_move(&mut pos, mv).expect("move");
        let (mut lo, mut hi) = (-2000, 2000);
        // invariant: see_ge(lo) holds, see_ge(hi) does not
        assert!(see_ge(&pos, m, lo, &VALUES) && !see_ge(&pos, m, hi, &VALUES));
        while hi - lo > 1 {
            let mid = (lo + hi) / 2;
            if see_ge(&pos, m, mid, &VALUES) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        lo
    }

    #[test]
    fn classic_exchanges() {
        let cases = [
            // an undefended pawn
            (
                "1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1",
                "e1e5",
                100,
            ),
            // a pawn defended by a knight, taken by a rook
            (
                "1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1",
                "d3e5",
                -200,
            ),
            ("4k3/3n4/8/4p3/8/8/8/K3R3 w - - 0 1", "e1e5", -400),
            // a rook behind a rook (an x-ray) takes the knight back: pawn and knight for a rook
            ("4k3/3n4/8/4p3/8/8/4R3/K3R3 w - - 0 1", "e2e5", -100),
            // bishop for knight, recaptured by a pawn
            ("4k3/8/2p5/3n4/8/5B2/8/K7 w - - 0 1", "f3d5", 0),
            // a queen taking a defended pawn
            ("4k3/3p4/4p3/8/8/8/8/K3Q3 w - - 0 1", "e1e6", -800),
            // quiet moves: to a safe square, or to one a pawn attacks
            ("4k3/8/3p4/8/8/1N6/8/K7 w - - 0 1", "b3c5", -300),
            ("4k3/8/3p4/8/8/8/8/K3N3 w - - 0 1", "e1c2", 0),
            ("4k3/8/3p4/8/3N4/8/8/K7 w - - 0 1", "d4c6", 0),
            ("4k3/8/3p4/8/1N6/8/8/K7 w - - 0 1", "b4c6", 0),
            ("4k3/8/8/3p4/8/1N6/8/K7 w - - 0 1", "b3c5", 0),
            ("4k3/8/8/3p4/8/8/3N4/K7 w - - 0 1", "d2c4", -300),
            // a king takes back only what nothing defends
            ("3k4/3p4/8/8/8/8/8/K2R4 w - - 0 1", "d1d7", -400),
            ("3k4/3p4/8/8/8/8/3R4/K2R4 w - - 0 1", "d2d7", 100),
        ];
        for (fen, mv, value) in cases {
            assert_eq!(see_value("chess", fen, mv), value, "{fen} {mv}");
        }
    }

    /// Both tables' attackers of every square of `pos`, compared.
    fn assert_tables_agree(pos: &Position, what: &str) {
        let occ = pos.occupied();
        for sq in pos.rules().board.iter() {
            let generic = compiled_attackers(pos, sq, occ);
            assert_eq!(orthodox_attackers(pos, sq, occ), generic, "{what} {sq:?}");
        }
    }

    #[test]
    fn generic_tables_agree_with_the_orthodox_ones() {
        let rules = builtin_variants().get("chess").expect("built in");
        for fen in [
            "1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1",
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
            "4k3/8/2p5/3n4/8/5B2/8/K7 w - - 0 1",
        ] {
            assert_tables_agree(&Position::from_fen(rules, fen).expect("fen"), fen);
        }
    }

    /// The one-pass attackers of both colours against each man asked alone, along a walk in
    /// every built-in variant (hoppers, range limits, men that capture only at a distance).
    #[test]
    fn compiled_attackers_are_the_men_that_capture_there_one_by_one() {
        let set = builtin_variants();
        for name in set.names() {
            let rules = set.get(name).expect("listed");
            walk(rules, 30, |_, pos| {
                let occ = pos.occupied();
                for sq in rules.board.iter() {
                    let mut one_by_one = Bitboard::EMPTY;
                    for from in occ.iter() {
                        let man = pos.piece_at(from);
                        let def = rules.piece(man.kind()).expect("type in use");
                        if def
                            .moves
                            .attacks_from_any(man.color(), from.bb(), sq, occ, rules.board)
                        {
                            one_by_one |= from.bb();
                        }
                    }
                    let fen = pos.fen();
                    assert_eq!(
                        compiled_attackers(pos, sq, occ),
                        one_by_one,
                        "{name} {fen} {sq:?}"
                    );
                }
            });
        }
    }

    /// `attackers_to` takes the orthodox tables wherever the men are orthodox, regions and
    /// other rules aside: there they must give what the compiled tables give, along games.
    #[test]
    fn variants_of_orthodox_men_attack_as_the_orthodox_tables_say() {
        let set = builtin_variants();
        for (name, men) in [
            ("periphery", true),
            ("interior", true),
            ("haven", true),
            ("garrison", true),
            ("jadoube", false),
            ("palace", false),
            ("missingfile", false),
        ] {
            let rules = set.get(name).expect("built in");
            assert_eq!(rules.orthodox_men, men, "{name}");
        }
        let mut checked = 0;
        for name in set.names() {
            let rules = set.get(name).expect("listed");
            if !rules.orthodox_men {
                continue;
            }
            walk(rules, 40, |_, pos| {
                assert_tables_agree(pos, &format!("{name} {}", pos.fen()))
            });
            checked += 1;
        }
        assert!(checked >= 10, "only {checked} variants of orthodox men");
    }
}
