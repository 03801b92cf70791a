//! Mirror leaps (`mirrorLeap`, Kaleidoscope in modest-proposals-2.md): the named men may also
//! leap, without capturing, to the squares mirroring theirs across the board's centre lines.
//! The leaps are table data, so the mechanic only reads its key and adds them to the named
//! pieces' tables when the variant is loaded; it has no hook at play time (and the tables it
//! changes keep the variant off the orthodox generator).

use crate::position::{Built, Hooks, Mechanic, MechanicSpec, StateLayout};
use crate::variant::{Rules, Section};

/// Registration: `mirrorLeap`.
pub const SPEC: MechanicSpec = MechanicSpec {
    name: "mirror",
    keys: &["mirrorLeap"],
    selected_by: None,
    build,
};

/// Kaleidoscope's mirror leaps (data only; kept in the variant's list of mechanics so the
/// variant says what it has).
#[derive(Clone, Copy, Debug)]
pub struct MirrorLeaps;

fn build(ctx: &Section, rules: &mut Rules, _state: &mut StateLayout) -> Built {
    let Some(v) = ctx.get("mirrorLeap").filter(|v| *v != "-") else {
        return Ok(None);
    };
    let shape = rules.shape;
    for l in v.chars().filter(|c| !c.is_whitespace()) {
        let Some(def) = rules.pieces.iter_mut().flatten().find(|d| d.letter == l) else {
            return Err(ctx.err("mirrorLeap", format!("no piece has the letter '{l}'")));
        };
        def.moves.add_mirror_leaps(shape);
    }
    Ok(Some(Box::new(MirrorLeaps)))
}

impl Mechanic for MirrorLeaps {
    fn spec(&self) -> &'static MechanicSpec {
        &SPEC
    }

    fn hooks(&self) -> Hooks {
        Hooks::NONE
    }
}
