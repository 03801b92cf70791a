//! Static evaluation per player (C.5): material, a king left en prise, and the men an army
//! keeps near its king. Each player's utility is its material minus the mean of its remaining
//! opponents', so the three utilities compare positions for each seat on one scale; the
//! paranoid search reads the root player's entry.
//!
//! King exposure follows C.5's note: both opponents move before a player moves again, so a king
//! that either opponent can capture now is nearly lost unless its owner is to move (and even
//! then it costs a tempo to save).

use super::player::Player;
use super::position::FpPosition;

/// Material values in centipawns, by piece type (pawn, knight, bishop, rook, queen, king).
pub const VALUES: [i32; 6] = [100, 310, 330, 500, 920, 0];
/// A king that an opponent can capture before its owner moves again.
pub const KING_EN_PRISE: i32 = 700;
/// A king its owner must save on this move.
pub const KING_ATTACKED: i32 = 60;
/// The utility of a player whose army has been removed.
pub const ELIMINATED: i32 = -30_000;

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
        let mut v = m[p.index()] - if n > 0 { sum / n } else { 0 };
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
        // South and North have the same army; the Peacekeeper's differs
        assert_eq!(u[0], u[1]);
        // TF-2's position: the Peacekeeper is gone
        let fen =
            "nR,nN,nK,nB,nP,3/1,nP,nP,nP,4/nP,7/7,sB/8/8/sP,sP,sP,sP,4/sR,sN,sK,1,sP,3 n sn - 0 2";
        let p = FpPosition::from_fen(fen).expect("TF-2");
        let u = utilities(&p);
        assert_eq!(u[2], ELIMINATED);
        // South took a pawn and the king: the Foreigns' armies are equal again
        assert_eq!(u[0], u[1]);
        // a Foreign a rook up
        let p = FpPosition::from_fen("nK,7/8/8/8/8/8/8/sK,sR,5,pK s snp - 0 1").expect("fen");
        let u = utilities(&p);
        assert!(u[0] > u[1] && u[0] > u[2], "{u:?}");
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
