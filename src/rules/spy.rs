//! Espionage's spy (shared/rules/007-espionage-foreignpolicy.md Part B, ESP-3..5, R-ESP-1/3/5/6):
//! a man of a spy type (`spyPieceTypes`) moves, attacks and checks as its Betza says, but may be
//! captured only while it is *exposed*: right after a ply in which it captured. Everything else
//! about the spy is data (`customPiece1 = s:Q`).
//!
//! State: the exposed spies, in a field of the position state claimed when the variant is
//! loaded (one square under the ruling, where only the spy that just captured is exposed; a
//! square set under `untilQuietMove`), so the Zobrist key (TT, repetition) and `unmake` carry
//! it.
//! With `spyExposure = nextPly` (the ruling, R-ESP-1 (a)) the set holds at most the spy that
//! captured on the last ply; with `untilQuietMove` (option (b)) a spy stays in it until it moves
//! without capturing (or is captured), whatever else is played meanwhile.
//!
//! FEN: the extension field after the move number, `-` or the exposed squares joined by commas
//! (`d4`; B.5 of the rules file). Absent means `-`.

use crate::geometry::{Bitboard, Square};
use crate::moves::Move;
use crate::piece::PieceType;
use crate::position::{
    types_of, Built, EditList, FenError, Hooks, Mechanic, MechanicSpec, Position, SquareField,
    SquareSetField, StateLayout,
};
use crate::variant::{Rules, Section};

/// How long a spy stays capturable after it captured (`spyExposure`, ruling R-ESP-1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpyExposure {
    /// Only on the ply right after its capture (`nextPly`, the ruling).
    NextPly,
    /// From its capture until it next moves without capturing (`untilQuietMove`, option (b)).
    UntilQuietMove,
}

/// The spy mechanic: its types, its exposure rule and the field of exposed spies.
#[derive(Clone, Copy, Debug)]
pub struct Spy {
    /// The spy types as a bit set (bit `t` for type `t`).
    types: u16,
    /// How long a spy that captured stays capturable.
    exposure: SpyExposure,
    /// The exposed spies.
    exposed: Exposed,
}

/// Where the exposed spies are kept.
#[derive(Clone, Copy, Debug)]
enum Exposed {
    /// At most one (`nextPly`).
    One(SquareField),
    /// Any number (`untilQuietMove`).
    Set(SquareSetField),
}

/// Registration: `spyPieceTypes`, `spyExposure`.
pub const SPEC: MechanicSpec = MechanicSpec {
    name: "spy",
    keys: &["spyPieceTypes", "spyExposure"],
    selected_by: None,
    build,
};

fn build(ctx: &Section, rules: &mut Rules, state: &mut StateLayout) -> Built {
    let spy_types = ctx.letters("spyPieceTypes", rules)?;
    if spy_types.contains(&PieceType::KING) {
        return Err(ctx.err(
            "spyPieceTypes",
            format!(
                "the king '{}' cannot be a spy: it is never captured while checking = true",
                rules.letter(PieceType::KING)
            ),
        ));
    }
    let exposure = match ctx.get("spyExposure") {
        None => SpyExposure::NextPly,
        Some("nextPly") => SpyExposure::NextPly,
        Some("untilQuietMove") => SpyExposure::UntilQuietMove,
        Some(v) => {
            return Err(ctx.err(
                "spyExposure",
                format!("expected nextPly or untilQuietMove, found '{v}'"),
            ))
        }
    };
    if spy_types.is_empty() {
        if ctx.sets("spyExposure") {
            return Err(ctx.err(
                "spyExposure",
                "spyPieceTypes names no spy, so the key has no effect".into(),
            ));
        }
        return Ok(None);
    }
    let exposed = match exposure {
        SpyExposure::NextPly => state.square("spy").map(Exposed::One),
        SpyExposure::UntilQuietMove => state.square_set("spy").map(Exposed::Set),
    }
    .map_err(|e| ctx.err("spyPieceTypes", e))?;
    Ok(Some(Box::new(Spy {
        types: spy_types.iter().fold(0, |m, t| m | 1 << t.0),
        exposure,
        exposed,
    })))
}

impl Mechanic for Spy {
    fn spec(&self) -> &'static MechanicSpec {
        &SPEC
    }

    fn hooks(&self) -> Hooks {
        Hooks::IMMUNE.with(Hooks::AFTER_MOVE).with(Hooks::FEN)
    }

    /// Every spy that is not exposed.
    #[inline]
    fn immune(&self, pos: &Position) -> Bitboard {
        self.spies(pos) & !self.exposed(pos)
    }

    fn after_move(&self, pos: &mut Position, m: Move) {
        let before = pos.last_edits();
        self.update(pos, m, &before);
    }

    fn fen_fields(&self) -> usize {
        1
    }

    fn read_fen(&self, pos: &mut Position, fields: &[&str]) -> Result<(), FenError> {
        let set = match fields.first() {
            None => Bitboard::EMPTY,
            Some(field) => self
                .parse_fen_field(pos, field)
                .map_err(FenError::Extension)?,
        };
        self.set_exposed(pos, set);
        Ok(())
    }

    fn write_fen(&self, pos: &Position, out: &mut String) {
        out.push(' ');
        let set = self.exposed(pos);
        if set.is_empty() {
            out.push('-');
            return;
        }
        for (i, sq) in set.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str(&sq.to_string());
        }
    }
}

impl Spy {
    /// The spies of both colours.
    #[inline]
    fn spies(&self, pos: &Position) -> Bitboard {
        types_of(self.types).fold(Bitboard::EMPTY, |men, t| men | pos.kind(t))
    }

    /// The exposed spies (capturable now).
    #[inline(always)]
    pub fn exposed(&self, pos: &Position) -> Bitboard {
        match self.exposed {
            Exposed::One(f) => pos.square_in(f).map_or(Bitboard::EMPTY, |s| s.bb()),
            Exposed::Set(f) => pos.square_set(f),
        }
    }

    /// Stores the exposed spies (at most one under `nextPly`, which the callers keep).
    fn set_exposed(&self, pos: &mut Position, set: Bitboard) {
        match self.exposed {
            Exposed::One(f) => pos.set_square_in(f, set.any().then(|| set.lsb())),
            Exposed::Set(f) => pos.set_square_set(f, set),
        }
    }

    /// Updates the exposed set after a ply: `m` was just played (`Move::NONE` for a pass), `before`
    /// holds each edited square's content before the move.
    #[inline]
    fn update(&self, pos: &mut Position, m: Move, before: &EditList) {
        let mut set = match self.exposure {
            SpyExposure::NextPly => 0,
            SpyExposure::UntilQuietMove => self.exposed(pos).0,
        };
        // a man on an edited square is no longer the spy that was exposed there (it moved on or was
        // captured); a spy that captured is put back below
        for e in before.as_slice() {
            set &= !e.sq.bb().0;
        }
        if !m.is_none() {
            let mover = before
                .as_slice()
                .iter()
                .find(|e| e.sq == m.from())
                .map(|e| e.after);
            if let Some(mover) = mover.filter(|p| p.is_some()) {
                let is_spy = self.types >> mover.kind().0 & 1 != 0;
                // an enemy man stood on an edited square: only captures edit enemy squares
                let captured = before
                    .as_slice()
                    .iter()
                    .any(|e| e.after.is_some() && e.after.color() != mover.color());
                // R-ESP-3: a promotion that captured made no spy capture (the mover was a pawn)
                if is_spy && captured && pos.piece_at(m.to()) == mover {
                    set |= m.to().bb().0;
                }
            }
        }
        self.set_exposed(pos, Bitboard(set));
    }

    /// Reads the FEN extension field into the position (whose board and side to move are set).
    fn parse_fen_field(&self, pos: &Position, field: &str) -> Result<Bitboard, String> {
        if field == "-" {
            return Ok(Bitboard::EMPTY);
        }
        let shape = pos.rules().shape;
        let mut set = Bitboard::EMPTY;
        for name in field.split(',') {
            let sq: Square = shape.parse_square(name).ok_or_else(|| {
                format!(
                    "'{name}' is not a square of this {}x{} board (expected '-' or the square of \
                     the capturable spy, e.g. 'd4')",
                    shape.files, shape.ranks
                )
            })?;
            if set.has(sq) {
                return Err(format!("'{name}' is given twice"));
            }
            let p = pos.piece_at(sq);
            if !(p.is_some() && self.types >> p.kind().0 & 1 != 0) {
                return Err(format!(
                    "no spy stands on {name}, so it cannot be capturable"
                ));
            }
            set |= sq.bb();
        }
        if self.exposure == SpyExposure::NextPly {
            if set.more_than_one() {
                return Err(format!(
                    "'{field}': only the spy that captured on the last ply can be capturable"
                ));
            }
            let sq = set.lsb();
            let mover = pos.side_to_move().flip();
            if pos.piece_at(sq).color() != mover {
                return Err(format!(
                    "the spy on {sq} is {}'s, but only a spy of the side that just moved ({}) can \
                     be capturable",
                    pos.piece_at(sq).color().name(),
                    mover.name()
                ));
            }
        }
        Ok(set)
    }
}
