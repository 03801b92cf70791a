//! OpenBench's opening generation: the client runs
//! `./ENGINE "genfens N seed S book <None|FILE> [extra]" "quit"` and reads every line
//! `info string genfens <FEN>`, N of them, as the openings of a test or a data-generation run.
//!
//! Each opening is a start (the variant's start position, or a random line of the book: an
//! EPD or FEN file, one position a line) followed by random legal plies, kept when the game
//! goes on and a short search finds it no more than
//! [`super::MAX_IMBALANCE`] centipawns from level ([`super`]).
//! The same N, seed, book and extra give the same openings. `extra` may hold `variant NAME`
//! (default chess; `fischerandom` without a book draws random Chess960 arrays, and
//! `chess960 single|double` asks for it with one array or one a side), `plies P` (random
//! plies, default 8) and `nodes K` (the search, default
//! 1000; 0 keeps every opening that goes on). OpenBench splits a FEN into its fields and takes
//! the last two as the clocks, so the line carries the six fields GUIs know
//! ([`crate::variant::Rules::gui_start_fen`]).

use super::{Checker, OpeningSource, Rng, ATTEMPTS};
use crate::eval::EvalParams;
use crate::position::{Position, Variant};
use crate::search::HistoryPool;
use crate::tt::TranspositionTable;

/// A parsed genfens request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// Openings to print.
    pub count: usize,
    /// Seed.
    pub seed: u64,
    /// Book file (`None`: the start position).
    pub book: Option<String>,
    /// Variant.
    pub variant: String,
    /// Random plies.
    pub plies: usize,
    /// Nodes of the balance check (0: none).
    pub nodes: u64,
    /// In a Chess960 variant without a book: double Chess960 (each side its own array).
    pub double960: bool,
}

/// Parses `genfens N seed S book <None|FILE> [extra]`.
pub fn parse(line: &str) -> Result<Request, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let usage = "usage: genfens N seed S book <None|FILE> [variant V] [plies P] [nodes K] \
                 [chess960 single|double]";
    let (count, seed, book, extra) = match words[..] {
        ["genfens", n, "seed", s, "book", b, ref extra @ ..] => (n, s, b, extra),
        _ => return Err(usage.into()),
    };
    let count = count
        .parse()
        .map_err(|_| format!("genfens: N must be a whole number, not '{count}'"))?;
    // OpenBench's seeds are whole numbers; a negative one is taken as its two's complement
    let seed = seed
        .parse::<u64>()
        .or_else(|_| seed.parse::<i64>().map(|s| s as u64))
        .map_err(|_| format!("genfens: the seed must be a whole number, not '{seed}'"))?;
    let mut r = Request {
        count,
        seed,
        book: (!book.eq_ignore_ascii_case("none")).then(|| book.to_string()),
        variant: "chess".into(),
        plies: 8,
        nodes: 1000,
        double960: false,
    };
    let mut it = extra.iter();
    while let Some(&key) = it.next() {
        let value = it
            .next()
            .ok_or_else(|| format!("genfens: '{key}' needs a value; {usage}"))?;
        let number = |max: u64| {
            value
                .parse::<u64>()
                .ok()
                .filter(|v| *v <= max)
                .ok_or_else(|| format!("genfens: {key} must be 0..{max}, not '{value}'"))
        };
        match key {
            "variant" => r.variant = value.to_string(),
            "plies" => r.plies = number(200)? as usize,
            "nodes" => r.nodes = number(100_000_000)?,
            "chess960" => {
                r.double960 = match *value {
                    "single" => false,
                    "double" => true,
                    _ => {
                        return Err(format!(
                            "genfens: chess960 takes single or double, not '{value}'"
                        ))
                    }
                };
                r.variant = "fischerandom".into();
            }
            _ => return Err(format!("genfens: unknown option '{key}'; {usage}")),
        }
    }
    Ok(r)
}

/// The six-field FEN of `pos` (the rule modules' seventh field dropped when it is empty).
fn six_fields(pos: &Position) -> String {
    let fen = pos.fen();
    match fen.rsplit_once(' ') {
        Some((six, "-")) if fen.split_whitespace().count() == 7 => six.to_string(),
        _ => fen,
    }
}

/// `count` balanced openings of `rules` from its start position (8 random plies, each kept
/// when a 1,000-node search finds it level), one FEN a line: the book `chimera learn`'s gates
/// and `chimera spsa` make for themselves, `genfens COUNT seed SEED book None variant V plies
/// 8 nodes 1000` as a command.
pub fn balanced_openings(
    rules: &'static Variant,
    count: usize,
    seed: u64,
) -> Result<String, String> {
    let req = Request {
        count,
        seed,
        book: None,
        variant: rules.name.clone(),
        plies: 8,
        nodes: 1000,
        double960: false,
    };
    let mut text = String::new();
    generate(&req, rules, |fen| {
        text += fen;
        text.push('\n');
    })?;
    Ok(text)
}

/// Generates the openings of `req` for `rules`, handing each FEN to `emit`.
pub fn generate(
    req: &Request,
    rules: &'static Variant,
    mut emit: impl FnMut(&str),
) -> Result<(), String> {
    let mut source = OpeningSource::new(rules, req.book.as_deref(), req.plies, req.nodes)
        .map_err(|e| format!("genfens: {e}"))?;
    // a Chess960 variant without a book starts from random arrays, as OpenBench's FRC tests do
    if rules.chess960 && req.book.is_none() {
        source = source
            .with_chess960(rules, req.double960)
            .map_err(|e| format!("genfens: {e}"))?;
    }
    let mut rng = Rng(req.seed ^ 0x6E6F_7065_6E73);
    let (tt, histories, eval) = (
        TranspositionTable::new(2),
        HistoryPool::new(),
        EvalParams::new(rules),
    );
    let checker = Checker {
        tt: &tt,
        histories: &histories,
        eval: &eval,
    };
    for made in 0..req.count {
        let pos = source.draw(&mut rng, &checker).ok_or_else(|| {
            format!(
                "genfens: no opening found after {ATTEMPTS} tries ({made} of {} made)",
                req.count
            )
        })?;
        emit(&six_fields(&pos));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::builtin_variants;

    #[test]
    fn requests_parse_as_openbench_sends_them() {
        let r = parse("genfens 12 seed 4242 book None").expect("parses");
        assert_eq!((r.count, r.seed, r.book.clone()), (12, 4242, None));
        assert_eq!((r.variant.as_str(), r.plies, r.nodes), ("chess", 8, 1000));
        let r = parse("genfens 3 seed -1 book Books/x.epd variant espionage plies 6 nodes 0")
            .expect("parses");
        assert_eq!(r.seed, u64::MAX);
        assert_eq!(r.book.as_deref(), Some("Books/x.epd"));
        assert_eq!((r.variant.as_str(), r.plies, r.nodes), ("espionage", 6, 0));
        for bad in [
            "genfens",
            "genfens x seed 1 book None",
            "genfens 1 seed y book None",
            "genfens 1 seed 1 book None plies",
            "genfens 1 seed 1 book None plies 999",
            "genfens 1 seed 1 book None colour white",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn openings_are_legal_reproducible_and_distinct() {
        crate::geometry::attacks::init();
        let chess = builtin_variants().get("chess").expect("chess");
        let req = parse("genfens 6 seed 7 book None nodes 300").expect("parses");
        let mut a = Vec::new();
        generate(&req, chess, |f| a.push(f.to_string())).expect("generates");
        let mut b = Vec::new();
        generate(&req, chess, |f| b.push(f.to_string())).expect("generates");
        assert_eq!(a, b);
        assert_eq!(a.len(), 6);
        for fen in &a {
            assert_eq!(fen.split_whitespace().count(), 6, "{fen}");
            let pos = Position::from_fen(chess, fen).expect("loads");
            assert_eq!(pos.fullmove_number(), 5, "{fen}: eight plies played");
        }
        let mut unique = a.clone();
        unique.sort();
        unique.dedup();
        assert!(unique.len() >= 5, "{a:?}");
    }

    /// Chess960: `chess960 single|double` (or `variant fischerandom`) starts from random
    /// arrays; with no random plies the openings are the arrays themselves.
    #[test]
    fn chess960_openings_are_random_arrays() {
        crate::geometry::attacks::init();
        let set = builtin_variants();
        let frc = set.get("fischerandom").expect("fischerandom");
        let ranks = |fen: &str| {
            let rows: Vec<String> = fen.split('/').map(str::to_string).collect();
            (
                rows[0].to_ascii_uppercase(),
                rows[7].split(' ').next().unwrap().to_string(),
            )
        };
        for (mode, double) in [("single", false), ("double", true)] {
            let line = format!("genfens 8 seed 3 book None chess960 {mode} plies 0 nodes 0");
            let req = parse(&line).expect("parses");
            assert_eq!(
                (req.variant.as_str(), req.double960),
                ("fischerandom", double)
            );
            let mut fens = Vec::new();
            generate(&req, frc, |f| fens.push(f.to_string())).expect("generates");
            let arrays: Vec<(String, String)> = fens.iter().map(|f| ranks(f)).collect();
            assert!(
                arrays.iter().all(|(b, w)| (b == w) != double),
                "{mode}: {fens:?}"
            );
            assert!(arrays.iter().any(|(_, w)| w != "RNBQKBNR"), "{fens:?}");
        }
        let e = parse("genfens 1 seed 1 book None chess960 triple").unwrap_err();
        assert!(e.contains("single or double"), "{e}");
    }
}
