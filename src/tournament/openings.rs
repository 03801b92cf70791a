//! Openings: positions from an EPD/FEN file or move sequences from a PGN file, validated with
//! the variant's rules when loaded, used in order or shuffled with a seed.
//!
//! An EPD line is four FEN fields, optionally the two counters, then operations (`id "x";`);
//! a FEN line is a whole FEN (a variant's extension fields included). Lines that are empty or
//! start with `#` are skipped. A position equal to the variant's start position is kept as
//! "no FEN", so XBoard engines without `setboard` (fairymax) can still play it.

use crate::engine::pgn::{parse_pgn_move, read_games};
use crate::movegen::move_to_string;
use crate::position::Position;
use crate::position::Variant;

/// One opening: a start position and moves from it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Opening {
    /// The FEN, or `None` for the variant's start position.
    pub fen: Option<String>,
    /// Moves from there, in canonical notation.
    pub moves: Vec<String>,
}

/// The format of an openings file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// EPD or FEN lines.
    Epd,
    /// PGN games (their `FEN` tag and first moves).
    Pgn,
}

/// Where openings come from and how they are used.
#[derive(Clone, Debug)]
pub struct OpeningsSpec {
    /// The file.
    pub file: String,
    /// Its format.
    pub format: Format,
    /// Shuffle (with `seed`) rather than use in file order.
    pub random: bool,
    /// Shuffle seed.
    pub seed: u64,
    /// PGN: at most this many plies of each game.
    pub plies: Option<usize>,
    /// Start from this opening (1-based, as cutechess-cli's `start=`).
    pub start: usize,
    /// Chess960 start positions by number (`chess960=N,A-B` or `random`) instead of a file.
    pub chess960: Option<Vec<u32>>,
}

impl OpeningsSpec {
    /// Chess960's start positions `numbers`, in that order or shuffled with `seed`.
    pub fn chess960(numbers: Vec<u32>, random: bool, seed: u64) -> OpeningsSpec {
        OpeningsSpec {
            file: String::new(),
            format: Format::Epd,
            random,
            seed,
            plies: None,
            start: 1,
            chess960: Some(numbers),
        }
    }
}

/// A list of Chess960 start numbers: `random` (all 960), or numbers and ranges `A-B` joined by
/// commas, each from 0 to 959.
pub fn parse_chess960_list(text: &str) -> Result<Vec<u32>, String> {
    if text == "random" {
        return Ok((0..960).collect());
    }
    let number = |t: &str| {
        t.trim()
            .parse::<u32>()
            .ok()
            .filter(|n| *n < 960)
            .ok_or_else(|| format!("'{t}' is not a Chess960 start number (0 to 959)"))
    };
    let mut out = Vec::new();
    for part in text.split(',') {
        match part.split_once('-') {
            Some((a, b)) => {
                let (a, b) = (number(a)?, number(b)?);
                if a > b {
                    return Err(format!("the range '{part}' runs backwards"));
                }
                out.extend(a..=b);
            }
            None => out.push(number(part)?),
        }
    }
    Ok(out)
}

/// The FEN as given, or `None` if it is the variant's start position.
fn fen_or_start(rules: &'static Variant, pos: &Position) -> Option<String> {
    let start = Position::startpos(rules);
    (pos.fen() != start.fen()).then(|| pos.fen())
}

/// Parses one EPD/FEN line into a position.
fn parse_epd_line(rules: &'static Variant, line: &str) -> Result<Position, String> {
    let whole = line.trim().trim_end_matches(';').trim();
    let first_error = match Position::from_fen(rules, whole) {
        Ok(p) => return Ok(p),
        Err(e) => e.to_string(),
    };
    // EPD: four fields, optional counters, then operations
    let before_ops = line.split(';').next().unwrap_or("");
    let fields: Vec<&str> = before_ops.split_whitespace().collect();
    if fields.len() >= 4 {
        let mut fen: Vec<&str> = fields[..4].to_vec();
        let counters: Vec<&str> = fields[4..]
            .iter()
            .take(2)
            .copied()
            .take_while(|f| f.bytes().all(|b| b.is_ascii_digit()))
            .collect();
        if counters.len() == 2 {
            fen.extend(counters);
        } else {
            fen.extend(["0", "1"]);
        }
        if let Ok(p) = Position::from_fen(rules, &fen.join(" ")) {
            return Ok(p);
        }
    }
    Err(first_error)
}

/// Loads and validates every opening of the file.
pub fn load(spec: &OpeningsSpec, rules: &'static Variant) -> Result<Vec<Opening>, String> {
    if let Some(numbers) = &spec.chess960 {
        return chess960_openings(spec, numbers, rules);
    }
    let text = std::fs::read_to_string(&spec.file)
        .map_err(|e| format!("cannot read openings file '{}': {e}", spec.file))?;
    let mut out = Vec::new();
    match spec.format {
        Format::Epd => {
            for (i, line) in text.lines().enumerate() {
                let t = line.trim();
                if t.is_empty() || t.starts_with('#') {
                    continue;
                }
                let pos = parse_epd_line(rules, t).map_err(|e| {
                    format!(
                        "{}:{}: not a {} position: {e}",
                        spec.file,
                        i + 1,
                        rules.name
                    )
                })?;
                out.push(Opening {
                    fen: fen_or_start(rules, &pos),
                    moves: Vec::new(),
                });
            }
        }
        Format::Pgn => {
            for (gi, g) in read_games(&text).iter().enumerate() {
                let where_ = || format!("{}: game {}", spec.file, gi + 1);
                let mut pos = match g.tag("FEN") {
                    Some(f) => Position::from_fen(rules, f)
                        .map_err(|e| format!("{}: bad FEN tag: {e}", where_()))?,
                    None => Position::startpos(rules),
                };
                let fen = fen_or_start(rules, &pos);
                let mut moves = Vec::new();
                for t in g.moves.iter().take(spec.plies.unwrap_or(usize::MAX)) {
                    let m = parse_pgn_move(&mut pos, t).ok_or_else(|| {
                        format!(
                            "{}: move '{t}' is not legal in {} after {}",
                            where_(),
                            rules.name,
                            pos.fen()
                        )
                    })?;
                    moves.push(move_to_string(&pos, m).to_string());
                    pos.make(m);
                }
                out.push(Opening { fen, moves });
            }
        }
    }
    if out.is_empty() {
        return Err(format!("openings file '{}' holds no openings", spec.file));
    }
    Ok(ordered(spec, out))
}

/// The Chess960 start positions `numbers` as openings (in a variant with `chess960 = true`).
fn chess960_openings(
    spec: &OpeningsSpec,
    numbers: &[u32],
    rules: &'static Variant,
) -> Result<Vec<Opening>, String> {
    if !rules.chess960 {
        return Err(format!(
            "-openings chess960=... needs a Chess960 variant (fischerandom), not {}",
            rules.name
        ));
    }
    let mut out = Vec::new();
    for &n in numbers {
        let fen = crate::position::chess960::start_fen(n, n)
            .ok_or_else(|| format!("{n} is not a Chess960 start number"))?;
        let pos = Position::from_fen(rules, &fen).map_err(|e| format!("start {n}: {e}"))?;
        out.push(Opening {
            fen: fen_or_start(rules, &pos),
            moves: Vec::new(),
        });
    }
    if out.is_empty() {
        return Err("-openings chess960= names no start position".into());
    }
    Ok(ordered(spec, out))
}

/// `out` shuffled where the spec asks, from its start.
fn ordered(spec: &OpeningsSpec, mut out: Vec<Opening>) -> Vec<Opening> {
    if spec.random {
        shuffle(&mut out, spec.seed);
    }
    if spec.start > 1 {
        let k = (spec.start - 1) % out.len();
        out.rotate_left(k);
    }
    out
}

/// SplitMix64: a small, well-mixed generator, so a seed gives the same order everywhere.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Fisher-Yates shuffle driven by the seed.
pub fn shuffle<T>(v: &mut [T], seed: u64) {
    let mut s = seed;
    for i in (1..v.len()).rev() {
        let j = (splitmix(&mut s) % (i as u64 + 1)) as usize;
        v.swap(i, j);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::builtin_variants;

    fn write(name: &str, text: &str) -> String {
        let dir = std::env::temp_dir().join(format!("chimera-openings-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let p = dir.join(name);
        std::fs::write(&p, text).expect("write");
        p.to_string_lossy().into_owned()
    }

    fn spec(file: String, format: Format) -> OpeningsSpec {
        OpeningsSpec {
            file,
            format,
            random: false,
            seed: 0,
            plies: None,
            start: 1,
            chess960: None,
        }
    }

    /// Chess960 starts by number: lists and ranges, `random`, refusals, and the positions
    /// they set up (518 is the variant's own start, so it stays "no FEN").
    #[test]
    fn chess960_openings_by_number() {
        assert_eq!(parse_chess960_list("0,5-7,959"), Ok(vec![0, 5, 6, 7, 959]));
        assert_eq!(parse_chess960_list("random").map(|v| v.len()), Ok(960));
        for bad in ["960", "7-3", "x", ""] {
            assert!(parse_chess960_list(bad).is_err(), "{bad}");
        }
        let set = builtin_variants();
        let frc = set.get("fischerandom").expect("fischerandom");
        let spec = OpeningsSpec::chess960(vec![518, 0], false, 0);
        let o = load(&spec, frc).expect("loads");
        assert_eq!(o[0].fen, None);
        assert_eq!(
            o[1].fen.as_deref(),
            Some("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1")
        );
        let shuffled =
            load(&OpeningsSpec::chess960((0..960).collect(), true, 5), frc).expect("loads");
        assert_eq!(shuffled.len(), 960);
        assert_ne!(shuffled[0], o[1], "shuffled");
        let chess = set.get("chess").expect("chess");
        let e = load(&spec, chess).expect_err("not a Chess960 variant");
        assert!(e.contains("fischerandom"), "{e}");
    }

    #[test]
    fn epd_fen_and_pgn_openings() {
        let chess = builtin_variants().get("chess").expect("chess");
        let f = write(
            "a.epd",
            "# comment\n\
             rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - hmvc 0; id \"e4\";\n\
             rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n\n\
             r1bqkbnr/pppppppp/2n5/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 2 2\n",
        );
        let o = load(&spec(f, Format::Epd), chess).expect("loads");
        assert_eq!(o.len(), 3);
        assert!(o[0].fen.as_deref().is_some_and(|f| f.contains(" b KQkq")));
        assert_eq!(o[1].fen, None, "the start position needs no FEN");
        let bad = write(
            "b.epd",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w\nxx\n",
        );
        let e = load(&spec(bad, Format::Epd), chess).expect_err("malformed");
        assert!(e.contains(":2:"), "{e}");
        let p = write(
            "c.pgn",
            "[Event \"o\"]\n\n1. e4 c5 2. Nf3 *\n\n1. d4 Nf6 *\n",
        );
        let mut s = spec(p, Format::Pgn);
        s.plies = Some(2);
        let o = load(&s, chess).expect("pgn");
        assert_eq!(o[0].moves, vec!["e2e4", "c7c5"]);
        assert_eq!(o[1].moves, vec!["d2d4", "g8f6"]);
        let illegal = write("d.pgn", "1. e5 *\n");
        assert!(load(&spec(illegal, Format::Pgn), chess).is_err());
        assert!(load(&spec("/nonexistent/x.epd".into(), Format::Epd), chess).is_err());
    }

    #[test]
    fn shuffle_is_seeded() {
        let mut a: Vec<u32> = (0..20).collect();
        let mut b = a.clone();
        shuffle(&mut a, 7);
        shuffle(&mut b, 7);
        assert_eq!(a, b);
        assert_ne!(a, (0..20).collect::<Vec<_>>());
        let mut sorted = a.clone();
        sorted.sort();
        assert_eq!(sorted, (0..20).collect::<Vec<_>>());
    }
}
