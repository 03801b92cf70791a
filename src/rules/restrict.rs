//! Dispatch of the legality filters: the facing rule (`facingPieces`, src/rules/facing.rs) and
//! the restriction modules (`restriction = hippophobic | garrison | nonlinear`). The generic
//! generator first finds the moves that are legal under the ordinary rules (the mover's king
//! not left attacked), then [`filter`] removes what the variant bars. Only variants with
//! `Rules::restricts` come here, so no other variant pays for it.

use super::{facing, garrison, hippophobic, nonlinear};
use crate::geometry::{Color, Square};
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::variant::Restriction;

/// Keeps the moves of `list` for which `keep` holds, in order.
#[inline]
pub(crate) fn retain(list: &mut MoveList, mut keep: impl FnMut(Move) -> bool) {
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

/// Removes from `list` (the moves legal under the ordinary rules) those the variant's facing
/// rule or restriction module bars.
pub fn filter(pos: &mut Position, list: &mut MoveList) {
    let rules = pos.rules();
    let facing = rules.facing != 0;
    let restriction = rules.restriction;
    let per_move = matches!(
        restriction,
        Restriction::Hippophobic | Restriction::Garrison
    );
    if facing || per_move {
        retain(list, |m| {
            !(facing && facing::faces_after(pos, m))
                && match restriction {
                    Restriction::Hippophobic => hippophobic::allows(pos, m),
                    Restriction::Garrison => garrison::allows(pos, m),
                    _ => true,
                }
        });
    }
    if restriction == Restriction::Nonlinear {
        nonlinear::filter(pos, list);
    }
}

/// Whether `sq` counts as attacked by `by` for the side to move's own status: whether it is
/// in check, and which squares its castling king may leave and cross. Hippophobic's attack
/// relation differs there (ruling HI-R3); every other variant uses the ordinary one.
pub fn attacked(pos: &Position, sq: Square, by: Color) -> bool {
    match pos.rules().restriction {
        Restriction::Hippophobic => hippophobic::attacked(pos, sq, by),
        _ => crate::movegen::generic::is_attacked(pos, sq, by),
    }
}

/// Checks what a set-up position must satisfy beyond the ordinary rules (no facing pieces,
/// no king of the side that just moved next to a Knight in Hippophobic).
pub fn validate(pos: &Position) -> Result<(), String> {
    if pos.rules().facing != 0 && facing::faces_now(pos) {
        return Err(
            "two men of the facing rule (facingPieces) face each other on an open line".into(),
        );
    }
    if pos.rules().restriction == Restriction::Hippophobic {
        hippophobic::validate(pos)?;
    }
    Ok(())
}
