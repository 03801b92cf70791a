//! The model of the relocation variants, written from the rules text alone:
//! Bump (shared/rules/modest-proposals-1.md §2, BU-1..BU-5), Displacement (§11, DI-1..DI-5)
//! and Launch (modest-proposals-2.md §10, LA-R1..LA-R4), with the conventions of §0 (approach,
//! P2 promotion, P3 first-rank ban, 0.7 no null move) and README ruling 3 (en passant, applied
//! by `M::play`). Identity by effect comes from `M::children`, which keys results by FEN.

use super::{add, on, Reloc, Sq, BISHOP_DIRS, KING, KNIGHT, M, ROOK_DIRS};

/// How the relocated man moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum How {
    /// One move of A's type: Knight leap, Rook orthogonal step, Bishop diagonal step, Queen or
    /// King any step, pawn one step straight forward (BU-2).
    Bump,
    /// One square back along A's line of approach; after a Knight's leap, A's origin (DI-1).
    Displace,
    /// Exactly two squares: diagonally after a move along a rank or file, along a rank or file
    /// after a diagonal move or a Knight's leap (Launch rules).
    Launch,
}

/// What a side in check may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Check {
    /// Anything the King test allows (Launch).
    Allowed,
    /// A King in check may not be B (BU-4).
    KingNotB,
    /// No relocation at all (DI-4).
    Forbidden,
}

/// One reading of the rules: a variant and its options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reading {
    pub how: How,
    /// Pawn approach geometries: straight step, double step from the 2nd rank, diagonal step.
    pub straight: bool,
    pub double: bool,
    pub diagonal: bool,
    /// B may be of A's type.
    pub same_type: bool,
    pub check: Check,
    /// A relocated pawn may move backward.
    pub pawn_back: bool,
    /// The launched man may capture an enemy man on its landing square (LA-R1's alternative).
    pub capture: bool,
}

/// Bump as ruled: all three pawn geometries approach (BU-1 ruling), B of a different type,
/// a checked King is never B, pawns never move backward (BU-3).
pub const BUMP: Reading = Reading {
    how: How::Bump,
    straight: true,
    double: true,
    diagonal: true,
    same_type: false,
    check: Check::KingNotB,
    pawn_back: false,
    capture: false,
};

/// Displacement as ruled: pawns displace diagonally only (DI-2), B of a different type, no
/// displacement in check (DI-4), pawns displaced in any direction but onto their first rank.
pub const DISPLACEMENT: Reading = Reading {
    how: How::Displace,
    straight: false,
    double: false,
    diagonal: true,
    same_type: false,
    check: Check::Forbidden,
    pawn_back: true,
    capture: false,
};

/// Launch as ruled: pawns approach as if capturing, any friendly man may be B, check changes
/// nothing, launched pawns never backward (LA-R2), landing square empty (LA-R1).
pub const LAUNCH: Reading = Reading {
    how: How::Launch,
    straight: false,
    double: false,
    diagonal: true,
    same_type: true,
    check: Check::Allowed,
    pawn_back: false,
    capture: false,
};

impl M {
    /// Every relocation of the side to move under `r`, literally.
    pub(super) fn relocate(&self, r: Reading, out: &mut Vec<M>) {
        let w = self.white;
        let f = M::fwd(w);
        let check = self.in_check();
        if check && r.check == Check::Forbidden {
            return;
        }
        let (first, second, last) = if w { (0, 1, 7) } else { (7, 6, 0) };
        for o in self.men() {
            let ka = self.at(o).to_ascii_uppercase();
            // the squares A approaches (0.2 "approach")
            let mut approach: Vec<Sq> = Vec::new();
            if ka == 'P' {
                if r.straight {
                    approach.push((o.0, o.1 + f));
                }
                if r.double && o.1 == second && self.empty((o.0, o.1 + f)) {
                    approach.push((o.0, o.1 + 2 * f));
                }
                if r.diagonal {
                    approach.push((o.0 - 1, o.1 + f));
                    approach.push((o.0 + 1, o.1 + f));
                }
            } else {
                approach = self.reach(ka, w, o);
            }
            for s in approach {
                if !self.own(s) {
                    continue;
                }
                let kb = self.at(s).to_ascii_uppercase();
                if (!r.same_type && ka == kb) || (check && r.check == Check::KingNotB && kb == 'K')
                {
                    continue;
                }
                // the board once A has left its square
                let mut gone = self.clone();
                gone.set(o, '.');
                for t in self.landings(r, ka, o, s) {
                    if !on(t) {
                        continue;
                    }
                    // the King is never captured (no chess move takes it)
                    let capture =
                        r.capture && self.enemy(t) && !self.at(t).eq_ignore_ascii_case(&'K');
                    if !gone.empty(t) && !capture {
                        continue;
                    }
                    if kb == 'P' && ((!r.pawn_back && (t.1 - s.1) * f < 0) || t.1 == first) {
                        continue;
                    }
                    let promos = |k: char, p: Sq| -> Vec<Option<char>> {
                        if k == 'P' && p.1 == last {
                            vec![Some('Q'), Some('R'), Some('B'), Some('N')]
                        } else {
                            vec![None]
                        }
                    };
                    let removed: Vec<Sq> = if capture { vec![t] } else { vec![] };
                    for qa in promos(ka, s) {
                        for qb in promos(kb, t) {
                            let legs = [
                                Reloc {
                                    from: o,
                                    to: s,
                                    promo: qa,
                                },
                                Reloc {
                                    from: s,
                                    to: t,
                                    promo: qb,
                                },
                            ];
                            if let Some(n) = self.play(&legs, &removed) {
                                // 0.7: a move that leaves every square as it was is no move
                                if n.board != self.board {
                                    out.push(n);
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// Where B on `s` may go, approached by a man of kind `ka` from `o` (board limits, emptiness
    /// and pawn rules are checked by the caller).
    fn landings(&self, r: Reading, ka: char, o: Sq, s: Sq) -> Vec<Sq> {
        let f = M::fwd(self.white);
        match r.how {
            How::Bump => {
                let steps: Vec<Sq> = match ka {
                    'N' => KNIGHT.to_vec(),
                    'R' => ROOK_DIRS.to_vec(),
                    'B' => BISHOP_DIRS.to_vec(),
                    'Q' | 'K' => KING.to_vec(),
                    _ => vec![(0, f)],
                };
                steps.into_iter().map(|d| add(s, d)).collect()
            }
            How::Displace => {
                if ka == 'N' {
                    vec![o]
                } else {
                    let d = ((s.0 - o.0).signum(), (s.1 - o.1).signum());
                    vec![(s.0 - d.0, s.1 - d.1)]
                }
            }
            How::Launch => {
                let along_line = ka != 'N' && (o.0 == s.0 || o.1 == s.1);
                let leaps: [Sq; 4] = if along_line {
                    [(2, 2), (2, -2), (-2, 2), (-2, -2)]
                } else {
                    [(2, 0), (-2, 0), (0, 2), (0, -2)]
                };
                leaps.iter().map(|&d| add(s, d)).collect()
            }
        }
    }
}
