//! Static evaluation per player (C.5): material, a king left en prise, and the men an army
//! keeps near its king. Each player's utility is its material minus the mean of its remaining
//! opponents', so the three utilities compare positions for each seat on one scale; the
//! paranoid search reads the root player's entry.
//!
//! A king that either opponent can capture now is nearly lost unless its owner is to move (and
//! even then it costs a tempo to save): both opponents move before a player moves again (C.5).
//! Short of that, a king is exposed by the squares around it that opponents attack, and
//! sheltered by its own men beside it. Once the Peacekeeper has removed a Foreign, FP-9 gives
//! it the better prospects: it can still win, the survivor at best draw.

use super::player::Player;
use super::position::FpPosition;
use crate::geometry::attacks::TABLES;
use crate::piece::PieceType;

/// Material values in centipawns, by piece type (pawn, knight, bishop, rook, queen, king).
pub const VALUES: [i32; 6] = [100, 310, 330, 500, 920, 0];
/// A king that an opponent can capture before its owner moves again.
pub const KING_EN_PRISE: i32 = 700;
/// A king its owner must save on this move.
pub const KING_ATTACKED: i32 = 60;
/// The utility of a player whose army has been removed.
pub const ELIMINATED: i32 = -30_000;
/// The Peacekeeper's edge once it has removed one Foreign: it can still win, the surviving
/// Foreign at best draw (FP-9, R-FP-8).
pub const PEACEKEEPER_DUEL: i32 = 600;
/// Each square next to a king that an opponent attacks (counted per opponent).
pub const KING_ZONE_ATTACKED: i32 = 12;
/// Each man of its own army next to a king.
pub const KING_SHELTER: i32 = 6;

/// How exposed `p`'s king is: opponents' attacks on the squares around it, less its own men
/// there (positive is worse).
fn king_exposure(pos: &FpPosition, p: Player) -> i32 {
    let Some(k) = pos.king_square(p) else {
        return 0;
    };
    let zone = TABLES.king[k.index()];
    let mut exposure = 0;
    for q in pos.alive().iter().filter(|&q| q != p) {
        let hit = zone.iter().filter(|&s| pos.attackers(s, q).any()).count() as i32;
        exposure += KING_ZONE_ATTACKED * hit;
    }
    let shelter = (zone & pos.men(p) & !pos.pieces(p, PieceType::KING)).count() as i32;
    exposure - KING_SHELTER * shelter
}

/// The material of `p`'s army.
fn material(pos: &FpPosition, p: Player) -> i32 {
    pos.material(p)
        .iter()
        .zip(VALUES)
        .map(|(&n, v)| n as i32 * v)
        .sum()
}

/// Each player's utility (indexed by `Player::index`), in centipawns.
pub fn utilities(pos: &FpPosition) -> [i32; 3] {
    let alive = pos.alive();
    let mut m = [0; 3];
    for p in alive.iter() {
        m[p.index()] = material(pos, p);
    }
    let mut u = [ELIMINATED; 3];
    for p in alive.iter() {
        let (mut sum, mut n) = (0, 0);
        for q in alive.iter().filter(|&q| q != p) {
            sum += m[q.index()];
            n += 1;
        }
        let mut v = m[p.index()] - if n > 0 { sum / n } else { 0 } - king_exposure(pos, p);
        for q in alive.iter().filter(|&q| q != p) {
            if pos.king_capturable(p, q) {
                v -= if pos.side_to_move() == p {
                    KING_ATTACKED
                } else {
                    KING_EN_PRISE
                };
            }
        }
        u[p.index()] = v;
    }
    let foreigns = [Player::South, Player::North].map(|f| alive.has(f));
    if alive.has(Player::Peacekeeper) && foreigns[0] != foreigns[1] {
        // only the Peacekeeper removes a Foreign without ending the game
        let survivor = if foreigns[0] {
            Player::South
        } else {
            Player::North
        };
        u[Player::Peacekeeper.index()] += PEACEKEEPER_DUEL;
        u[survivor.index()] -= PEACEKEEPER_DUEL;
    }
    u
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::foreignpolicy::START_FEN;

    #[test]
    fn the_start_is_even_and_material_counts() {
        let start = FpPosition::from_fen(START_FEN).expect("start");
        let u = utilities(&start);
        // South and North have the same army (the Peacekeeper's queen on h4 is nearer South,
        // so their kings' surroundings differ a little); the Peacekeeper's army differs
        assert!((u[0] - u[1]).abs() <= 2 * KING_ZONE_ATTACKED, "{u:?}");
        // TF-2's position: the Peacekeeper is gone
        let fen =
            "nR,nN,nK,nB,nP,3/1,nP,nP,nP,4/nP,7/7,sB/8/8/sP,sP,sP,sP,4/sR,sN,sK,1,sP,3 n sn - 0 2";
        let p = FpPosition::from_fen(fen).expect("TF-2");
        let u = utilities(&p);
        assert_eq!(u[2], ELIMINATED);
        // South took a pawn and the king: the Foreigns' armies are equal again
        assert!((u[0] - u[1]).abs() <= 2 * KING_ZONE_ATTACKED, "{u:?}");
        // a Foreign a rook up
        let p = FpPosition::from_fen("nK,7/8/8/8/8/8/8/sK,sR,5,pK s snp - 0 1").expect("fen");
        let u = utilities(&p);
        assert!(u[0] > u[1] && u[0] > u[2], "{u:?}");
    }

    #[test]
    fn the_peacekeeper_gains_by_removing_a_foreign() {
        // TF-7 after g1xa1: South is gone; the Peacekeeper's queen alone against North's king
        let before = FpPosition::from_fen("nK,7/8/8/8/8/8/8/sK,5,pQ,pK p snp - 0 1").expect("fen");
        let after = FpPosition::from_fen("nK,7/8/8/8/8/8/8/pQ,6,pK n np - 0 1").expect("fen");
        let (b, a) = (utilities(&before), utilities(&after));
        assert!(a[2] > b[2] + PEACEKEEPER_DUEL / 2, "{b:?} {a:?}");
        assert!(a[1] < b[1], "{b:?} {a:?}");
    }

    #[test]
    fn an_attacked_king_zone_costs_and_own_men_shelter() {
        // North's king on d5 alone; then South's rook on c1 hits the c-file beside it; then a
        // North pawn stands beside the king
        let alone = FpPosition::from_fen("8/8/8/3,nK,4/8/8/8/sK,6,pK s snp - 0 1").expect("fen");
        let hit = FpPosition::from_fen("8/8/8/3,nK,4/8/8/8/sK,1,sR,4,pK s snp - 0 1").expect("fen");
        let kept =
            FpPosition::from_fen("8/8/4,nP,3/3,nK,4/8/8/8/sK,6,pK s snp - 0 1").expect("fen");
        assert_eq!(king_exposure(&alone, Player::North), 0);
        assert_eq!(king_exposure(&hit, Player::North), 3 * KING_ZONE_ATTACKED);
        assert_eq!(king_exposure(&kept, Player::North), -KING_SHELTER);
    }

    #[test]
    fn a_king_en_prise_costs_most_when_its_owner_is_not_to_move() {
        // South's rook on a1 attacks North's king on a8: North not to move, then to move
        let waiting = FpPosition::from_fen("nK,7/8/8/8/8/8/8/sR,6,pK p snp - 0 1").expect("fen");
        let moving = FpPosition::from_fen("nK,7/8/8/8/8/8/8/sR,6,pK n snp - 0 1").expect("fen");
        let (w, m) = (utilities(&waiting), utilities(&moving));
        assert!(w[1] < m[1], "{w:?} {m:?}");
        assert_eq!(m[1] - w[1], KING_EN_PRISE - KING_ATTACKED);
    }
}
