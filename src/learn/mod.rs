//! Learning: everything that turns a variant's rules into a trained net. [`datagen`] plays
//! the engine against itself and writes positions with their search scores and game results
//! in the packed format of [`packed`] (or as text lines, [`parse_line`]); [`train`] fits a net to them; [`pipeline`] is
//! `chimera learn`, which repeats generation, training and a gate by SPRT against the
//! evaluation a variant plays with, recorded in a work folder so a stop resumes where it was.
//! Openings come from [`crate::openings`]; the hand-made evaluation's Texel tuning stays in
//! [`crate::tune`].

pub mod datagen;
pub mod datagen_three;
pub mod packed;
pub mod pipeline;
pub mod train;
pub mod train_three;
pub mod wdl_fit;

/// One data line: `FEN | RESULT` (old files) or `FEN | RESULT | SCORE`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DataLine<'a> {
    /// The position.
    pub fen: &'a str,
    /// The game's result for White: 0, 0.5 or 1.
    pub result: f64,
    /// The score of the search that chose the move, centipawns for White (`None` on old
    /// two-field lines).
    pub score: Option<f64>,
}

/// Parses `FEN | RESULT` or `FEN | RESULT | SCORE`.
pub fn parse_line(line: &str) -> Result<DataLine<'_>, String> {
    let fields: Vec<&str> = line.split('|').map(str::trim).collect();
    let (fen, result, score) = match fields[..] {
        [fen, result] => (fen, result, None),
        [fen, result, score] => (fen, result, Some(score)),
        _ => return Err("expected 'FEN | RESULT' or 'FEN | RESULT | SCORE'".into()),
    };
    let r: f64 = result
        .parse()
        .map_err(|_| format!("result '{result}' is not a number"))?;
    if ![0.0, 0.5, 1.0].contains(&r) {
        return Err(format!("result {r} is not 1.0, 0.5 or 0.0"));
    }
    let score = match score {
        None => None,
        Some(s) => Some(
            s.parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| format!("score '{s}' is not a number of centipawns"))?,
        ),
    };
    Ok(DataLine {
        fen,
        result: r,
        score,
    })
}

/// Writes `bytes` to `path` whole or not at all: to `PATH.part` first, then renamed over
/// `path`, so a stop or a full disk never leaves a half-written file under the real name.
/// The error names the file.
pub fn write_whole(path: &std::path::Path, bytes: &[u8]) -> Result<(), String> {
    let part = part_name(path);
    let written = std::fs::File::create(&part).and_then(|mut f| {
        use std::io::Write;
        f.write_all(bytes)?;
        f.sync_all()
    });
    if let Err(e) = written.and_then(|()| std::fs::rename(&part, path)) {
        let _ = std::fs::remove_file(&part);
        return Err(format!("{}: {e}", path.display()));
    }
    Ok(())
}

/// Where [`write_whole`] writes before the rename.
pub fn part_name(path: &std::path::Path) -> std::path::PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".part");
    name.into()
}

/// A cursor over little-endian bytes (checkpoints).
struct Reader<'a> {
    bytes: &'a [u8],
}

impl<'a> Reader<'a> {
    fn new(bytes: &'a [u8]) -> Reader<'a> {
        Reader { bytes }
    }

    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        if self.bytes.len() < n {
            return None;
        }
        let (head, rest) = self.bytes.split_at(n);
        self.bytes = rest;
        Some(head)
    }

    fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.take(4)?.try_into().ok()?))
    }

    fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }

    /// A length, then that many f32s.
    fn f32s(&mut self) -> Option<Vec<f32>> {
        let n = usize::try_from(self.u64()?).ok()?;
        let bytes = self.take(n.checked_mul(4)?)?;
        Some(
            bytes
                .chunks_exact(4)
                .map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes")))
                .collect(),
        )
    }

    fn done(&self) -> bool {
        self.bytes.is_empty()
    }
}
