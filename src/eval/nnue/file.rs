//! The net file: a small header that says what the net is for, then the quantised weights.
//!
//! Layout (all integers little-endian):
//!
//! | bytes | content |
//! | --- | --- |
//! | 8 | magic `CHIMNNUE` |
//! | 4 | format version (1 to 5) |
//! | 1 + n | the variant's name (length, then ASCII) |
//! | 1 + t | the man types' FEN letters in input order (length, then lower-case ASCII) |
//! | 1, 1 | the board's files and ranks |
//! | 2 | hidden size `H` (a multiple of 16, at most [`MAX_HIDDEN`]) |
//! | 2, 2, 2 | the accumulator scale `QA`, the output scale `QB`, the centipawn scale |
//! | 1 | versions 2 to 4: output buckets `B` (1..=[`MAX_BUCKETS`]); version 1 has one |
//! | 1 | versions 3 and 4: held-man inputs `M` per colour and type (1..=[`MAX_HELD_INPUTS`] in version 3, 0..= in 4); older versions have none |
//! | 1 | versions 4 and 5: what picks the bucket, 0 the turn's phase, 1 the men on the board; older versions: the phase |
//! | 1, 1, 64 | version 5: input buckets by the king `K` (1..=[`MAX_KING_BUCKETS`]), the mirror (0 or 1), each king square's bucket; older versions: one bucket, no mirror |
//! | 2 * I * H | feature weights, i16, input-major (`I = K * 2 * t * 64 + 2 * t * M` inputs) |
//! | 2 * H | feature biases, i16 |
//! | B * 2 * 2H | output weights, i16, per bucket (the side to move's half first), each within ±127 |
//! | B * 4 | output biases, i32 |
//! | 8 | FNV-1a hash of every byte before it |
//!
//! A net of one bucket is written as version 1, a net without held-man inputs as version 1
//! or 2, and version 4 only for buckets by men, so files made before buckets, held men or
//! buckets by men existed and files made since without them are the same bytes; version 5
//! only for king buckets.
//! A file is accepted whole or not at all: the length must be exactly what the header implies
//! and the hash must match, so a truncated or damaged file is refused, never half-loaded.

use super::{BucketBy, KingBuckets, Network, MAX_KING_BUCKETS, QA, QB};
use std::fmt;

/// The magic that starts every net file.
pub const MAGIC: &[u8; 8] = b"CHIMNNUE";
/// The newest format version this engine reads and writes (it reads every older one too).
pub const VERSION: u32 = 5;
/// Most held-man inputs per colour and type a net file may declare.
pub const MAX_HELD_INPUTS: u8 = 16;
/// Most output buckets a net file may declare.
pub const MAX_BUCKETS: usize = 8;
/// Largest hidden layer a net file may declare.
pub const MAX_HIDDEN: usize = 2048;
/// Largest output weight (the SIMD output multiplies an 8-bit activation by it in 16 bits).
pub const MAX_OUTPUT_WEIGHT: i16 = 127;

/// Why a net was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetError {
    /// The file could not be read.
    Io(String),
    /// The first bytes are not [`MAGIC`]: not a net file.
    NotANet,
    /// A version this engine does not read.
    Version(u32),
    /// The file ends before the part named.
    Truncated(&'static str),
    /// Bytes follow the end of the net.
    TrailingBytes(usize),
    /// The stored hash does not match the content.
    Checksum,
    /// A header value out of range (which, and why).
    Header(String),
    /// The net was made for another game (what differs).
    Mismatch(String),
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::Io(e) => write!(f, "cannot read it: {e}"),
            NetError::NotANet => write!(f, "not a Chimera net (no CHIMNNUE magic)"),
            NetError::Version(v) => {
                write!(
                    f,
                    "net format version {v}, this engine reads 1 to {VERSION}"
                )
            }
            NetError::Truncated(part) => write!(f, "the file ends inside the {part}"),
            NetError::TrailingBytes(n) => write!(f, "{n} bytes after the end of the net"),
            NetError::Checksum => write!(f, "the content does not match its hash (damaged file)"),
            NetError::Header(s) => write!(f, "bad header: {s}"),
            NetError::Mismatch(s) => write!(f, "made for another game: {s}"),
        }
    }
}

impl std::error::Error for NetError {}

/// FNV-1a over `bytes`.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// A cursor over the file's bytes that names what it was reading when they ran out.
pub(super) struct Reader<'a> {
    pub(super) bytes: &'a [u8],
    pub(super) at: usize,
}

impl<'a> Reader<'a> {
    pub(super) fn take(&mut self, n: usize, part: &'static str) -> Result<&'a [u8], NetError> {
        let end = self.at.checked_add(n).ok_or(NetError::Truncated(part))?;
        let s = self
            .bytes
            .get(self.at..end)
            .ok_or(NetError::Truncated(part))?;
        self.at = end;
        Ok(s)
    }
    pub(super) fn u8(&mut self, part: &'static str) -> Result<u8, NetError> {
        Ok(self.take(1, part)?[0])
    }
    pub(super) fn u16(&mut self, part: &'static str) -> Result<u16, NetError> {
        let b = self.take(2, part)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }
    pub(super) fn u32(&mut self, part: &'static str) -> Result<u32, NetError> {
        let b = self.take(4, part)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    pub(super) fn text(&mut self, part: &'static str) -> Result<String, NetError> {
        let n = self.u8(part)? as usize;
        let b = self.take(n, part)?;
        if !b.iter().all(|c| c.is_ascii_graphic()) {
            return Err(NetError::Header(format!(
                "the {part} is not printable ASCII"
            )));
        }
        Ok(String::from_utf8_lossy(b).into_owned())
    }
    /// Reads the closing hash: it must end the file and match everything before it.
    pub(super) fn check_hash(&mut self) -> Result<(), NetError> {
        let body_end = self.at;
        let stored = self.take(8, "hash")?;
        if self.at != self.bytes.len() {
            return Err(NetError::TrailingBytes(self.bytes.len() - self.at));
        }
        let mut hash = [0u8; 8];
        hash.copy_from_slice(stored);
        if u64::from_le_bytes(hash) != fnv1a(&self.bytes[..body_end]) {
            return Err(NetError::Checksum);
        }
        Ok(())
    }
    pub(super) fn i16s(&mut self, n: usize, part: &'static str) -> Result<Vec<i16>, NetError> {
        let b = self.take(n.checked_mul(2).ok_or(NetError::Truncated(part))?, part)?;
        Ok(b.chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect())
    }
}

/// Reads a net from its bytes.
pub fn parse(bytes: &[u8]) -> Result<Network, NetError> {
    if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
        return Err(NetError::NotANet);
    }
    let mut r = Reader {
        bytes,
        at: MAGIC.len(),
    };
    let version = r.u32("header")?;
    if !(1..=VERSION).contains(&version) {
        return Err(NetError::Version(version));
    }
    let variant = r.text("variant name")?;
    let letters = r.text("man letters")?;
    if letters.is_empty() || letters.chars().any(|c| !c.is_ascii_lowercase()) {
        return Err(NetError::Header(format!(
            "man letters '{letters}' (lower-case letters expected)"
        )));
    }
    let (files, ranks) = (r.u8("header")?, r.u8("header")?);
    if !(1..=8).contains(&files) || !(1..=8).contains(&ranks) {
        return Err(NetError::Header(format!("board {files}x{ranks}")));
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
    let buckets = if version == 1 {
        1
    } else {
        r.u8("header")? as usize
    };
    if !(1..=MAX_BUCKETS).contains(&buckets) {
        return Err(NetError::Header(format!(
            "{buckets} output buckets (1 to {MAX_BUCKETS})"
        )));
    }
    let held_inputs = if version >= 3 { r.u8("header")? } else { 0 };
    let least_held = if version == 3 { 1 } else { 0 };
    if !(least_held..=MAX_HELD_INPUTS).contains(&held_inputs) {
        return Err(NetError::Header(format!(
            "{held_inputs} held-man inputs per type ({least_held} to {MAX_HELD_INPUTS} in a \
             version {version} file)"
        )));
    }
    let bucket_by = match version {
        4.. => match r.u8("header")? {
            0 => BucketBy::TurnPhase,
            1 => BucketBy::Men,
            k => {
                return Err(NetError::Header(format!(
                    "bucket choice {k} (0: the turn's phase, 1: the men on the board)"
                )))
            }
        },
        _ => BucketBy::TurnPhase,
    };
    let kings = if version >= 5 {
        read_kings(&mut r)?
    } else {
        KingBuckets::default()
    };
    let inputs = super::input_count(letters.len(), held_inputs, kings.count);
    let ft_weights = r.i16s(inputs * hidden, "feature weights")?;
    let ft_bias = r.i16s(hidden, "feature biases")?;
    let out_weights = r.i16s(buckets * 2 * hidden, "output weights")?;
    if let Some(w) = out_weights
        .iter()
        .find(|w| w.unsigned_abs() > MAX_OUTPUT_WEIGHT as u16)
    {
        return Err(NetError::Header(format!(
            "output weight {w} beyond ±{MAX_OUTPUT_WEIGHT}"
        )));
    }
    let out_bias = (0..buckets)
        .map(|_| r.u32("output bias").map(|b| b as i32))
        .collect::<Result<Vec<i32>, NetError>>()?;
    r.check_hash()?;
    Ok(Network {
        variant,
        letters,
        files,
        ranks,
        hidden,
        scale: scale as i32,
        ft_weights,
        ft_bias,
        buckets,
        bucket_by,
        held_inputs,
        kings,
        out_weights,
        out_bias,
    })
}

/// A version 5 file's king buckets, checked.
fn read_kings(r: &mut Reader) -> Result<KingBuckets, NetError> {
    let count = r.u8("header")?;
    if !(1..=MAX_KING_BUCKETS as u8).contains(&count) {
        return Err(NetError::Header(format!(
            "{count} king buckets (1 to {MAX_KING_BUCKETS})"
        )));
    }
    let mirror = match r.u8("header")? {
        0 => false,
        1 => true,
        m => return Err(NetError::Header(format!("king mirror {m} (0 or 1)"))),
    };
    let mut map = [0u8; 64];
    map.copy_from_slice(r.take(64, "king bucket map")?);
    if let Some(sq) = map.iter().position(|&b| b >= count) {
        return Err(NetError::Header(format!(
            "king square {sq} in bucket {}, of {count}",
            map[sq]
        )));
    }
    Ok(KingBuckets { count, mirror, map })
}

/// Writes a net as the bytes of a net file.
pub fn serialize(net: &Network) -> Vec<u8> {
    let mut out = Vec::with_capacity(64 + 2 * net.ft_weights.len());
    out.extend_from_slice(MAGIC);
    let by_men = net.buckets > 1 && net.bucket_by == BucketBy::Men;
    let version: u32 = match (net.held_inputs, net.buckets) {
        _ if !net.kings.is_plain() => 5,
        _ if by_men => 4,
        (0, 1) => 1,
        (0, _) => 2,
        _ => 3,
    };
    out.extend_from_slice(&version.to_le_bytes());
    for text in [&net.variant, &net.letters] {
        out.push(text.len() as u8);
        out.extend_from_slice(text.as_bytes());
    }
    out.push(net.files);
    out.push(net.ranks);
    for v in [net.hidden as u16, QA as u16, QB as u16, net.scale as u16] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    if version > 1 {
        out.push(net.buckets as u8);
    }
    if version > 2 {
        out.push(net.held_inputs);
    }
    if version > 3 {
        out.push(by_men as u8);
    }
    if version > 4 {
        out.push(net.kings.count);
        out.push(net.kings.mirror as u8);
        out.extend_from_slice(&net.kings.map);
    }
    for part in [&net.ft_weights, &net.ft_bias, &net.out_weights] {
        for w in part.iter() {
            out.extend_from_slice(&w.to_le_bytes());
        }
    }
    for b in &net.out_bias {
        out.extend_from_slice(&b.to_le_bytes());
    }
    let hash = fnv1a(&out);
    out.extend_from_slice(&hash.to_le_bytes());
    out
}
