//! Dead material (`deadMaterial`): positions drawn at once by the men on the board, whoever is
//! to move (Espionage's B.4: the spy cannot mate, so K+S v K is dead). The key lists pairs of
//! complete armies as letters, `k:k ks:k`, either side having either army.

use crate::geometry::Color;
use crate::piece::{PieceType, MAX_PIECE_TYPES};
use crate::position::{Built, Hooks, Mechanic, MechanicSpec, Position, StateLayout};
use crate::variant::{material_signature, Rules, Section};

/// Registration: `deadMaterial`.
pub const SPEC: MechanicSpec = MechanicSpec {
    name: "dead material",
    keys: &["deadMaterial"],
    selected_by: None,
    build,
};

/// The dead pairs of armies.
#[derive(Clone, Debug)]
pub struct DeadMaterial {
    /// Pairs of material signatures ([`material_signature`]).
    pairs: Vec<(u64, u64)>,
    /// Most men on the board of any pair, so the test is skipped cheaply.
    most_men: u32,
}

fn build(ctx: &Section, rules: &mut Rules, _state: &mut StateLayout) -> Built {
    let Some(v) = ctx.get("deadMaterial").filter(|v| v.trim() != "-") else {
        return Ok(None);
    };
    let has_king = rules.piece(PieceType::KING).is_some();
    let mut dead = DeadMaterial {
        pairs: Vec::new(),
        most_men: 0,
    };
    for item in v.split_whitespace() {
        let bad = |why: String| {
            ctx.err(
                "deadMaterial",
                format!("'{item}': {why} (expected pairs such as 'k:k kb:k')"),
            )
        };
        let Some((a, b)) = item.split_once(':') else {
            return Err(bad("not a pair 'men:men'".into()));
        };
        let mut sigs = [0u64; 2];
        for (side, letters) in [a, b].into_iter().enumerate() {
            let mut counts = [0u32; MAX_PIECE_TYPES];
            for c in letters.chars() {
                let t = rules
                    .type_of_letter(c)
                    .filter(|_| !c.is_ascii_uppercase())
                    .ok_or_else(|| bad(format!("no piece has the letter '{c}'")))?;
                counts[t.index()] += 1;
            }
            if has_king && counts[PieceType::KING.index()] != 1 {
                return Err(bad("each side needs exactly one king".into()));
            }
            sigs[side] = material_signature(
                counts
                    .iter()
                    .enumerate()
                    .map(|(i, &n)| (PieceType(i as u8), n)),
            );
        }
        dead.most_men = dead
            .most_men
            .max((a.chars().count() + b.chars().count()) as u32);
        dead.pairs.push((sigs[0], sigs[1]));
    }
    Ok(Some(Box::new(dead)))
}

impl Mechanic for DeadMaterial {
    fn spec(&self) -> &'static MechanicSpec {
        &SPEC
    }

    fn hooks(&self) -> Hooks {
        Hooks::END
    }

    /// One side has exactly one army of a pair and the other side the other.
    #[inline]
    fn is_dead(&self, pos: &Position) -> bool {
        if pos.occupied().count() > self.most_men {
            return false;
        }
        let rules = pos.rules();
        let side = |c: Color| {
            material_signature(
                rules
                    .piece_types()
                    .map(|t| (t, pos.pieces_of(c, t).count())),
            )
        };
        let (w, b) = (side(Color::White), side(Color::Black));
        self.pairs
            .iter()
            .any(|&(x, y)| (w, b) == (x, y) || (w, b) == (y, x))
    }

    fn dead_reason(&self) -> &'static str {
        "dead position (insufficient material)"
    }
}
