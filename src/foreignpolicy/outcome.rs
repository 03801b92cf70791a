//! How a game ends: FP-9's table after a king capture, FP-11's draw rules, FP-12's points.

use super::player::{Alive, Player};
use crate::variant::GameValue;

/// Each player's result, indexed by `Player::index`.
pub type Results = [GameValue; 3];

/// The result after `capturer` took `victim`'s king with `before` the players in the game
/// until then; `None` while play goes on (FP-9, R-FP-7..R-FP-9).
pub(super) fn after_king_capture(
    before: Alive,
    capturer: Player,
    victim: Player,
) -> Option<Results> {
    let after = before.without(victim);
    let mut r = [GameValue::Loss; 3];
    if capturer.is_foreign() && victim.is_foreign() {
        // R-FP-7: a Foreign's goal reached; the Peacekeeper loses with the destroyed Foreign.
        r[capturer.index()] = GameValue::Win;
        return Some(r);
    }
    let foreigns_left = after.has(Player::South) as u32 + after.has(Player::North) as u32;
    if capturer == Player::Peacekeeper {
        // R-FP-8: the first Foreign king taken leaves a duel; the second wins the game.
        if foreigns_left > 0 {
            return None;
        }
        r[Player::Peacekeeper.index()] = GameValue::Win;
        return Some(r);
    }
    // A Foreign took the Peacekeeper's king: with the other Foreign still in, a duel of the
    // Foreigns follows (R-FP-9); alone, it draws with the Peacekeeper (FP-9).
    if foreigns_left == 2 {
        return None;
    }
    r[capturer.index()] = GameValue::Draw;
    r[Player::Peacekeeper.index()] = GameValue::Draw;
    Some(r)
}

/// A draw among the players in `alive`; the eliminated have lost (R-FP-11).
pub fn shared_draw(alive: Alive) -> Results {
    let mut r = [GameValue::Loss; 3];
    for p in alive.iter() {
        r[p.index()] = GameValue::Draw;
    }
    r
}

/// FP-12's points of a result: a win 1, a loss 0, the drawing players share 1.
pub fn points(r: &Results) -> [f64; 3] {
    let drawers = r.iter().filter(|v| **v == GameValue::Draw).count();
    r.map(|v| match v {
        GameValue::Win => 1.0,
        GameValue::Loss => 0.0,
        GameValue::Draw => 1.0 / drawers as f64,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use GameValue::*;

    #[test]
    fn fp9_table() {
        let all = Alive::ALL;
        let (s, n, p) = (Player::South, Player::North, Player::Peacekeeper);
        assert_eq!(after_king_capture(all, s, n), Some([Win, Loss, Loss]));
        assert_eq!(after_king_capture(all, p, n), None);
        assert_eq!(after_king_capture(all, n, p), None);
        let sp = all.without(n);
        assert_eq!(after_king_capture(sp, p, s), Some([Loss, Loss, Win]));
        assert_eq!(after_king_capture(sp, s, p), Some([Draw, Loss, Draw]));
        let sn = all.without(p);
        assert_eq!(after_king_capture(sn, n, s), Some([Loss, Win, Loss]));
    }

    #[test]
    fn points_sum_to_one() {
        assert_eq!(points(&[Win, Loss, Loss]), [1.0, 0.0, 0.0]);
        assert_eq!(points(&[Draw, Loss, Draw]), [0.5, 0.0, 0.5]);
        let third = points(&shared_draw(Alive::ALL));
        assert!((third.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    }
}
