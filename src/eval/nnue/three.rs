//! A net for Foreign Policy's three players (issue 45, point 4).
//!
//! Two-colour nets see the board from two perspectives that mirror each other; Foreign
//! Policy's three armies stand on three different edges (South on rank 1, North on rank 8,
//! the Peacekeeper on the h-file) and move different ways, so no reflection maps one onto
//! another. The net therefore has one accumulator over absolute inputs (owner, man type,
//! square: 3 x 6 x 64) and a small output head per (player valued, player to move): nine
//! heads, each reading the whole accumulator through a squared clipped ReLU. A player's head
//! gives its logit in centipawns; the logits of the players still in the game, centred on
//! their mean, are the utilities the paranoid and max-n searches read, the same zero-sum shape
//! as the rules-derived evaluation's. Trained so that the softmax of the logits over a scale
//! K predicts each player's share of FP-12's points (`chimera train --variant
//! foreignpolicy`).
//!
//! The accumulator is computed afresh for each evaluation (at most 48 men): Foreign Policy's
//! searches are slow enough per node that an incremental update would buy little.

use super::file::{fnv1a, Reader};
use super::{NetError, QA, QB};
use crate::foreignpolicy::eval::ELIMINATED;
use crate::foreignpolicy::{FpPosition, Player};
use crate::piece::PieceType;

/// The first bytes of a three-player net file.
pub const MAGIC: &[u8; 8] = b"CHIMNN3P";
/// The format version written and read.
pub const VERSION: u32 = 1;
/// Men types per army (pawn, knight, bishop, rook, queen, king).
pub const TYPES: usize = 6;
/// Inputs: owner x type x square.
pub const INPUTS: usize = 3 * TYPES * 64;
/// Output heads: player valued x player to move.
pub const HEADS: usize = 9;
/// The widest accumulator read (the evaluation keeps it on the stack).
pub const MAX_HIDDEN: usize = 512;
/// Utilities are kept within this many centipawns of the mean, well inside the search's
/// score range and above [`ELIMINATED`].
pub const MAX_UTILITY: i32 = 10_000;
/// The variant a three-player net is made for.
pub const VARIANT: &str = crate::foreignpolicy::NAME;

/// A quantised three-player net.
#[derive(Clone, PartialEq, Eq)]
pub struct ThreeNet {
    /// Accumulator width.
    pub hidden: usize,
    /// Centipawns per unit of output.
    pub scale: i32,
    /// Feature weights, `INPUTS * hidden`, input-major, at scale [`QA`].
    pub ft_weights: Vec<i16>,
    /// Feature biases, `hidden`, at scale [`QA`].
    pub ft_bias: Vec<i16>,
    /// Head weights, `HEADS * hidden` (head `valued * 3 + to_move`), at scale [`QB`].
    pub head_weights: Vec<i16>,
    /// Head biases, at scale `QA * QB`.
    pub head_bias: Vec<i32>,
}

impl std::fmt::Debug for ThreeNet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "ThreeNet({VARIANT}, {INPUTS} -> {} -> {HEADS} heads)",
            self.hidden
        )
    }
}

/// The input of `owner`'s man of type `t` on square index `sq`.
#[inline(always)]
pub fn feature(owner: Player, t: PieceType, sq: usize) -> usize {
    (owner.index() * TYPES + t.index()) * 64 + sq
}

/// The inputs of every man on the board of `pos`, in a fixed order, into `out`; returns how
/// many.
pub fn features(pos: &FpPosition, out: &mut [u16; 48]) -> usize {
    let mut n = 0;
    for p in Player::ALL {
        for t in 0..TYPES {
            for sq in pos.pieces(p, PieceType(t as u8)).iter() {
                if n < out.len() {
                    out[n] = feature(p, PieceType(t as u8), sq.index()) as u16;
                    n += 1;
                }
            }
        }
    }
    n
}

impl ThreeNet {
    /// Each player's logit in centipawns from the accumulator's activations, for the player
    /// to move `mover` (entries of players not in `alive` are left 0).
    fn logits(&self, act: &[i32], mover: Player, alive: [bool; 3]) -> [i64; 3] {
        let h = self.hidden;
        let mut out = [0i64; 3];
        for p in Player::ALL {
            if !alive[p.index()] {
                continue;
            }
            let head = p.index() * 3 + mover.index();
            let w = &self.head_weights[head * h..(head + 1) * h];
            let dot: i64 = act.iter().zip(w).map(|(&a, &w)| a as i64 * w as i64).sum();
            let raw = dot / QA as i64 + self.head_bias[head] as i64;
            out[p.index()] = raw * self.scale as i64 / (QA * QB) as i64;
        }
        out
    }

    /// Each player's utility in centipawns (indexed by `Player::index`): the logits of the
    /// players in the game centred on their mean, [`ELIMINATED`] for the others.
    pub fn utilities(&self, pos: &FpPosition) -> [i32; 3] {
        let h = self.hidden;
        let mut acc = [0i32; MAX_HIDDEN];
        let acc = &mut acc[..h];
        for (a, &b) in acc.iter_mut().zip(&self.ft_bias) {
            *a = b as i32;
        }
        let mut feats = [0u16; 48];
        let n = features(pos, &mut feats);
        for &f in &feats[..n] {
            let row = &self.ft_weights[f as usize * h..(f as usize + 1) * h];
            for (a, &w) in acc.iter_mut().zip(row) {
                *a += w as i32;
            }
        }
        for a in acc.iter_mut() {
            let c = (*a).clamp(0, QA);
            *a = c * c;
        }
        let alive_set = pos.alive();
        let alive = Player::ALL.map(|p| alive_set.has(p));
        let logits = self.logits(acc, pos.side_to_move(), alive);
        let count = alive.iter().filter(|&&a| a).count().max(1) as i64;
        let mean = logits.iter().sum::<i64>() / count;
        let mut u = [ELIMINATED; 3];
        for p in 0..3 {
            if alive[p] {
                u[p] = (logits[p] - mean).clamp(-MAX_UTILITY as i64, MAX_UTILITY as i64) as i32;
            }
        }
        u
    }
}

/// Reads a three-player net from its bytes; the error says what is wrong.
pub fn parse(bytes: &[u8]) -> Result<ThreeNet, NetError> {
    if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
        if bytes.starts_with(super::file::MAGIC) {
            return Err(NetError::Mismatch(
                "a two-player net; Foreign Policy needs a three-player net (CHIMNN3P)".into(),
            ));
        }
        return Err(NetError::NotANet);
    }
    let mut r = Reader {
        bytes,
        at: MAGIC.len(),
    };
    let version = r.u32("header")?;
    if version != VERSION {
        return Err(NetError::Version(version));
    }
    let variant = r.text("variant name")?;
    if variant != VARIANT {
        return Err(NetError::Mismatch(format!(
            "the net is for '{variant}', three-player nets are for '{VARIANT}'"
        )));
    }
    let hidden = r.u16("header")? as usize;
    if hidden == 0 || !hidden.is_multiple_of(16) || hidden > MAX_HIDDEN {
        return Err(NetError::Header(format!(
            "hidden size {hidden} (a multiple of 16 up to {MAX_HIDDEN})"
        )));
    }
    let (qa, qb, scale) = (r.u16("header")?, r.u16("header")?, r.u16("header")?);
    if qa as i32 != QA || qb as i32 != QB || scale == 0 {
        return Err(NetError::Header(format!(
            "scales {qa}/{qb}/{scale} (this engine computes with {QA}/{QB} and a non-zero scale)"
        )));
    }
    let ft_weights = r.i16s(INPUTS * hidden, "feature weights")?;
    let ft_bias = r.i16s(hidden, "feature biases")?;
    let head_weights = r.i16s(HEADS * hidden, "head weights")?;
    if let Some(w) = head_weights
        .iter()
        .find(|w| w.unsigned_abs() > super::file::MAX_OUTPUT_WEIGHT as u16)
    {
        return Err(NetError::Header(format!(
            "head weight {w} beyond ±{}",
            super::file::MAX_OUTPUT_WEIGHT
        )));
    }
    let head_bias = (0..HEADS)
        .map(|_| r.u32("head bias").map(|b| b as i32))
        .collect::<Result<Vec<i32>, NetError>>()?;
    r.check_hash()?;
    Ok(ThreeNet {
        hidden,
        scale: scale as i32,
        ft_weights,
        ft_bias,
        head_weights,
        head_bias,
    })
}

/// Writes a three-player net as the bytes of its file.
pub fn serialize(net: &ThreeNet) -> Vec<u8> {
    let mut out = Vec::with_capacity(64 + 2 * net.ft_weights.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.push(VARIANT.len() as u8);
    out.extend_from_slice(VARIANT.as_bytes());
    for v in [net.hidden as u16, QA as u16, QB as u16, net.scale as u16] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    for part in [&net.ft_weights, &net.ft_bias, &net.head_weights] {
        for w in part.iter() {
            out.extend_from_slice(&w.to_le_bytes());
        }
    }
    for b in &net.head_bias {
        out.extend_from_slice(&b.to_le_bytes());
    }
    let hash = fnv1a(&out);
    out.extend_from_slice(&hash.to_le_bytes());
    out
}

/// The name of Foreign Policy's own net, where one is built in.
pub const BUILT_IN_NAME: &str = "foreignpolicy.nnue";

/// The net `EvalFile = value` gives Foreign Policy: its built-in net for `<default>` (if
/// one is built in), none for `<none>`, else the net `value` names (a built-in name or a
/// file); the error names the file and what is wrong.
pub fn for_eval_file(value: &str) -> Result<Option<std::sync::Arc<ThreeNet>>, String> {
    use crate::eval::{EVAL_FILE_DEFAULT, EVAL_FILE_NONE};
    match value {
        EVAL_FILE_NONE => Ok(None),
        EVAL_FILE_DEFAULT => {
            let built_in = super::embedded::built_in_three_names().any(|n| n == BUILT_IN_NAME);
            built_in.then(|| load(BUILT_IN_NAME)).transpose()
        }
        name => load(name).map(Some),
    }
}

/// The three-player net in the file at `path` (or the built-in net of that name); the error
/// names the file and what is wrong.
pub fn load(name: &str) -> Result<std::sync::Arc<ThreeNet>, String> {
    if super::embedded::built_in_three_names().any(|n| n == name) {
        let bytes = super::embedded::built_in_bytes(name).expect("built in");
        return parse(&bytes)
            .map(std::sync::Arc::new)
            .map_err(|e| format!("built-in net {name}: {e}"));
    }
    if super::embedded::built_in_names().any(|n| n == name) {
        return Err(format!(
            "built-in net {name}: a two-player net; Foreign Policy needs a three-player net"
        ));
    }
    let bytes = std::fs::read(name).map_err(|e| format!("{name}: cannot read it: {e}"))?;
    parse(&bytes)
        .map(std::sync::Arc::new)
        .map_err(|e| format!("{name}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small net with every weight set from a simple formula.
    fn net() -> ThreeNet {
        let hidden = 16;
        ThreeNet {
            hidden,
            scale: 400,
            ft_weights: (0..INPUTS * hidden)
                .map(|i| ((i * 7919) % 61) as i16 - 30)
                .collect(),
            ft_bias: vec![40; hidden],
            head_weights: (0..HEADS * hidden)
                .map(|i| ((i * 31) % 51) as i16 - 25)
                .collect(),
            head_bias: (0..HEADS as i32).map(|i| i * 1000).collect(),
        }
    }

    #[test]
    fn round_trip_and_damage() {
        let n = net();
        let bytes = serialize(&n);
        assert_eq!(parse(&bytes).unwrap(), n);
        let mut flipped = bytes.clone();
        flipped[100] ^= 1;
        assert_eq!(parse(&flipped), Err(NetError::Checksum));
        assert_eq!(
            parse(&bytes[..bytes.len() - 3]),
            Err(NetError::Truncated("hash"))
        );
        let mut longer = bytes.clone();
        longer.push(0);
        assert_eq!(parse(&longer), Err(NetError::TrailingBytes(1)));
        assert_eq!(parse(b"hello"), Err(NetError::NotANet));
        assert!(matches!(
            parse(b"CHIMNNUE\x01\0\0\0"),
            Err(NetError::Mismatch(_))
        ));
    }

    #[test]
    fn utilities_are_centred_and_follow_the_mover() {
        crate::geometry::attacks::init();
        let n = net();
        let pos = FpPosition::startpos();
        let u = n.utilities(&pos);
        assert!(u.iter().sum::<i32>().abs() <= 2, "{u:?}");
        // the same men with another player to move read other heads
        let fen = FpPosition::startpos().to_fen().replacen(" s ", " n ", 1);
        let other = FpPosition::from_fen(&fen).unwrap();
        assert_ne!(n.utilities(&other), u);
        // an eliminated player's utility is fixed; the others still sum to zero
        let gone = FpPosition::from_fen(
            "nR,nN,nK,nB,nP,3/nP,nP,nP,nP,4/8/8/8/8/sP,sP,sP,sP,4/sR,sN,sK,sB,sP,3 s sn - 0 1",
        )
        .unwrap();
        let v = n.utilities(&gone);
        assert_eq!(v[2], ELIMINATED);
        assert!((v[0] + v[1]).abs() <= 1, "{v:?}");
    }

    #[test]
    fn features_are_distinct_per_man() {
        let pos = FpPosition::startpos();
        let mut f = [0u16; 48];
        let n = features(&pos, &mut f);
        assert_eq!(n, pos.occupied().count() as usize);
        let mut sorted = f[..n].to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), n);
        assert!(sorted.iter().all(|&x| (x as usize) < INPUTS));
    }
}
