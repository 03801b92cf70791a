//! Garrison Chess (modest-proposals-2.md §4): every move must end with the moved man
//! *supported*: in the position after the move it defends a friendly man (one of its capture
//! squares holds one) or is defended (another friendly man has its square among its capture
//! squares). Defence is geometric (pins ignored), with every man where it stands after the move
//! (GA-R1); pawns defend diagonally forward (GA-R2); a promoted pawn is judged as its new piece;
//! the King counts as defender and as defended man (GA-R3; `garrisonKings = false` is the
//! flagged alternative, where no King counts as the friend that supports or is supported); for castling only the King is
//! judged (GA-R4). Checks are orthodox: a man attacks the enemy King whether or not it could
//! "move" there. A player with no legal move loses (`stalemateValue = loss`).

use super::retain;
use crate::geometry::{Bitboard, Color, Square};
use crate::moves::{Move, MoveKind, MoveList};
use crate::piece::PieceType;
use crate::position::{Hooks, Mechanic, MechanicSpec, Position, StateLayout};
use crate::variant::{IniError, Rules, Section};

/// Garrison's settings.
#[derive(Clone, Copy, Debug)]
pub struct Garrison {
    /// Kings count as defenders and as defended men (`garrisonKings`, GA-R3).
    kings: bool,
}

/// Registration: `restriction = garrison`, `garrisonKings`.
pub const SPEC: MechanicSpec = MechanicSpec {
    name: "garrison",
    keys: &["restriction", "garrisonKings"],
    selected_by: Some(("restriction", "garrison")),
    build,
};

fn build(
    ctx: &Section,
    _rules: &mut Rules,
    _state: &mut StateLayout,
) -> Result<Option<Box<dyn Mechanic>>, IniError> {
    let kings = ctx.bool("garrisonKings", true)?;
    if ctx.get("restriction") != Some("garrison") {
        if ctx.sets("garrisonKings") {
            return Err(ctx.err(
                "garrisonKings",
                "only restriction = garrison reads this key, so it has no effect".into(),
            ));
        }
        return Ok(None);
    }
    Ok(Some(Box::new(Garrison { kings })))
}

impl Mechanic for Garrison {
    fn name(&self) -> &'static str {
        "garrison"
    }

    fn ini_key(&self) -> &'static str {
        "restriction"
    }

    fn hooks(&self) -> Hooks {
        Hooks::FILTER
    }

    fn conflict(&self, other: &dyn Mechanic) -> Option<String> {
        super::restriction_conflict(other, true)
    }

    fn filter(&self, pos: &mut Position, list: &mut MoveList) {
        retain(list, |m| allows(pos, m, self.kings));
    }
}

/// Whether the ordinarily legal move `m` leaves the moved man supported (`kings`: Kings count,
/// GA-R3). A normal move is judged on the board as it would be (origin empty, the man,
/// promoted if it promotes, on its destination); other kinds are played and undone.
pub fn allows(pos: &mut Position, m: Move, kings: bool) -> bool {
    if m.kind() != MoveKind::Normal {
        pos.make(m);
        // for castling `to` is the King's destination, for en passant the pawn's
        let to = m.to();
        let mover = pos.side_to_move().flip();
        let ok = supported(
            pos,
            to,
            pos.piece_at(to).kind(),
            mover,
            pos.occupied(),
            kings,
        );
        pos.unmake();
        return ok;
    }
    let (from, to) = (m.from(), m.to());
    let moved = pos.piece_at(from);
    let placed = m.promotion_type().unwrap_or(moved.kind());
    let occ = (pos.occupied() & !from.bb()) | to.bb();
    supported(pos, to, placed, moved.color(), occ, kings)
}

/// Whether a man of type `t` and colour `us` on `sq` defends a friend or is defended by one,
/// with occupancy `occ`; friends are the men of `us` on the board other than on `sq` and
/// outside `occ` (so a man that has just left a square no longer counts there).
fn supported(
    pos: &Position,
    sq: Square,
    t: PieceType,
    us: Color,
    occ: Bitboard,
    kings: bool,
) -> bool {
    let rules = pos.rules();
    let mut friends = pos.pieces(us) & occ & !sq.bb();
    if !kings {
        // GA-R3's alternative: a King is no friend to support or be supported by (a moved
        // King still needs a friend of another kind)
        friends &= !pos.kind(PieceType::KING);
    }
    if let Some(def) = rules.piece(t) {
        if (def.moves.capture_targets(us, sq, occ, rules.board) & friends).any() {
            return true;
        }
    }
    rules.piece_types().any(|t| {
        let men = pos.pieces_of(us, t) & friends;
        men.any()
            && rules
                .piece(t)
                .is_some_and(|d| d.moves.attacks_from_any(us, men, sq, occ, rules.board))
    })
}
