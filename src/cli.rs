//! The command line: `perft`, `divide`, `check`, `moves`, `variants`, `bench`, `datagen` and
//! `tune` (`crate::tune`), and `match` (its own parser in `tournament::config`). Errors go to
//! stderr with a non-zero exit code; nothing a user types can panic the program.

/// Prints a line to standard output; a closed pipe (`chimera perft 5 | head -1`) is not an error.
macro_rules! say {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($t)*);
    }};
}

use crate::movegen::{legal_move_names, parse_move};
use crate::perft::{divide, perft_threads};
use crate::position::Position;
use crate::rules::{builtin_variants, VariantSet};
use std::time::Instant;

const HEADER: &str = "\
usage: chimera [SUBCOMMAND] [OPTIONS]

Without a subcommand the engine names itself and reads UCI commands from standard input
(XBoard's when the first is 'xboard'; 'help' there lists them).

";

/// Each subcommand's usage, in the order `chimera help` lists them.
const SUBCOMMANDS: &[(&str, &str)] = &[
    (
        "perft",
        "  perft  [--variant NAME] [--fen FEN] [--moves M1 M2 ...] [--threads N] DEPTH
                       count the leaves of the legal move tree",
    ),
    (
        "divide",
        "  divide [--variant NAME] [--fen FEN] [--moves M1 M2 ...] [--threads N] DEPTH
                       perft per root move",
    ),
    (
        "moves",
        "  moves  [--variant NAME] [--fen FEN] [--moves ...]
                       list the legal moves (canonical spelling, ASCII order)",
    ),
    (
        "check",
        "  check  FILE          validate a variants.ini file (built-in variants are its parents) and
                       describe each of its variants",
    ),
    (
        "bench",
        "  bench  [DEPTH]       fixed-depth searches of fixed positions (one thread); the last line
                       is the node-count signature `Bench: <nodes> nodes <nps> nps`",
    ),
    (
        "variants",
        "  variants [--names]   list every variant the protocols offer with its board and number
                       of players (--names: the names alone, one a line)",
    ),
    (
        "datagen",
        "  datagen --variant V --games N --out FILE [--nodes K] [--threads T] [--seed S]
          [--random-plies P] [--book FILE] [--chess960 single|double] [--balance N]
          [--format packed|text] [--variants INI]
                       self-play games at K nodes a move (default 5000) from the start
                       (or a random line of the book FILE, or with --variant fischerandom
                       a random Chess960 start, double: each side its own array) plus P
                       random plies (default
                       8), kept only if an N-node search finds them within 300 cp of level
                       (default 0: no check); writes quiet positions with
                       White's result and search score: packed 32-byte records for
                       train (the default; docs/strength.md has the layout), or text
                       lines 'FEN | RESULT | SCORE' for tune",
    ),
    (
        "tune",
        "  tune   --variant V --data FILE [--epochs E] [--rate R] [--lambda L] [--l2 C]
          [--max-change D] [--validation F] [--write PATH] [--variants INI]
                       fit the evaluation weights (Texel method, Adam, E epochs, default
                       300) to L * sigmoid(score) + (1 - L) * result (L default 0.5), pulled
                       to the built-in weights by C * sum((w - w0)^2) (default 1e-7) and
                       kept within D of them; the share F of the positions (default 0.1,
                       blocks of 1000) is held out and the epoch with the best validation
                       error is kept; --write rewrites the table of a weights.rs",
    ),
    (
        "train",
        "  train  --variant V --data FILE[,FILE...] --out NET [--hidden H] [--epochs E]
          [--batch B] [--rate R] [--final-rate F] [--lambda L] [--scale K]
          [--validation V] [--seed S] [--threads T] [--mirror true] [--init NET]
          [--turn-buckets false] [--variants INI]
                       fit a net (inputs -> H x 2 -> 1, default H 256) to datagen's data
                       (packed or text): target L * sigmoid(score/K) + (1 - L) * result
                       (L default 0.5, K fitted to the results unless given), Adam at
                       rate R (default 0.001) falling to R * F (F default 0.05) over E
                       epochs (default 20); the share V (default 0.05) is held out and the
                       net of the best validation epoch is written (after every such epoch);
                       --mirror true also shows each position reflected left to right
                       (half the time; for rules symmetric that way, such as chess);
                       --init NET starts from a net (a built-in name such as chess.nnue,
                       or a file) with the same men, board and hidden size, even one made
                       for another variant, instead of random weights; where turns have
                       phases (the 007 family) the output has a bucket per phase unless
                       --turn-buckets false",
    ),
    (
        "genfens",
        "  \"genfens N seed S book <None|FILE> [variant V] [plies P] [nodes K]\"
                       OpenBench's opening generation (one argument, as its client passes
                       it): N lines 'info string genfens FEN', each the start (or a random
                       book line) plus P random plies (default 8) that a K-node search
                       (default 1000) finds within 300 cp of level",
    ),
    (
        "match",
        "  match  -engine cmd=PROG ... -engine cmd=PROG ... -each tc=10+0.1 [OPTIONS]
                       referee a match between two UCI/XBoard engines in any variant
                       (PGN, Elo, SPRT; 'chimera match -help' lists the options)",
    ),
    (
        "serve",
        "  serve  [--port N] [--host ADDR] [--hash MB] [--threads N] [--max-games N] [--variants INI]
                       a web board on http://127.0.0.1:8080/ (port 0: any free port) to play,
                       analyse and watch any variant; localhost only unless --host says
                       otherwise (docs/serve.md)",
    ),
];

const FOOTER: &str = "\
common options:
  --variants FILE      load a user variants.ini on top of the built-in one

--moves takes the following arguments up to the next option or a plain number (DEPTH).
perft, divide and moves with --variant foreignpolicy (three players) take an FP-FEN and
coordinate moves (docs/variants/foreignpolicy.md).";

/// The whole usage text (`chimera help`).
fn usage() -> String {
    let mut text = format!("{HEADER}subcommands:\n");
    for (_, section) in SUBCOMMANDS {
        text.push_str(section);
        text.push('\n');
    }
    text.push_str(
        "  help [SUBCOMMAND]    this text, or one subcommand's (also SUBCOMMAND --help)\n  \
         --version            the engine's name and version\n\n",
    );
    text.push_str(FOOTER);
    text
}

/// One subcommand's usage (`chimera SUBCOMMAND --help`, `chimera help SUBCOMMAND`).
fn subcommand_usage(name: &str) -> Option<String> {
    let (_, section) = SUBCOMMANDS.iter().find(|(n, _)| *n == name)?;
    Some(format!(
        "usage: chimera {}\n\n{FOOTER}",
        section.trim_start()
    ))
}

/// Whether `args` ask for help (`--help` or `-h` anywhere).
fn asks_help(args: &[String]) -> bool {
    args.iter().any(|a| a == "--help" || a == "-h")
}

/// Parsed common options.
struct Options {
    variant: String,
    fen: Option<String>,
    moves: Vec<String>,
    threads: usize,
    variants_file: Option<String>,
    positional: Vec<String>,
    /// The options given, as written (to reject those a subcommand does not use).
    given: Vec<&'static str>,
}

/// The options each subcommand uses.
fn allowed_options(cmd: &str) -> &'static [&'static str] {
    match cmd {
        "perft" | "divide" => &["--variant", "--fen", "--moves", "--threads", "--variants"],
        "moves" => &["--variant", "--fen", "--moves", "--variants"],
        _ => &["--variants"],
    }
}

fn parse_options(args: &[String]) -> Result<Options, String> {
    let mut o = Options {
        variant: "chess".into(),
        fen: None,
        moves: Vec::new(),
        threads: 1,
        variants_file: None,
        positional: Vec::new(),
        given: Vec::new(),
    };
    let mut i = 0;
    let value = |i: usize, name: &str| -> Result<String, String> {
        args.get(i + 1)
            .cloned()
            .ok_or_else(|| format!("{name} needs a value"))
    };
    const KNOWN: [&str; 5] = ["--variant", "--fen", "--threads", "--variants", "--moves"];
    while i < args.len() {
        if let Some(name) = KNOWN.iter().find(|k| **k == args[i]) {
            if o.given.contains(name) {
                return Err(format!("{name} is given twice"));
            }
            o.given.push(name);
        }
        match args[i].as_str() {
            "--variant" => {
                o.variant = value(i, "--variant")?;
                i += 2;
            }
            "--fen" => {
                o.fen = Some(value(i, "--fen")?);
                i += 2;
            }
            "--threads" => {
                let v = value(i, "--threads")?;
                o.threads = v
                    .parse()
                    .ok()
                    .filter(|n| (1..=1024).contains(n))
                    .ok_or_else(|| format!("--threads takes a number from 1 to 1024, not '{v}'"))?;
                i += 2;
            }
            "--variants" => {
                o.variants_file = Some(value(i, "--variants")?);
                i += 2;
            }
            "--moves" => {
                // up to the next option, or a plain number: DEPTH, never a move
                i += 1;
                while i < args.len()
                    && !args[i].starts_with("--")
                    && !args[i].bytes().all(|b| b.is_ascii_digit())
                {
                    o.moves.push(args[i].clone());
                    i += 1;
                }
            }
            s if s.starts_with("--") => return Err(format!("unknown option '{s}'")),
            _ => {
                o.positional.push(args[i].clone());
                i += 1;
            }
        }
    }
    Ok(o)
}

fn load_variants(o: &Options) -> Result<VariantSet, String> {
    let mut set = builtin_variants();
    if let Some(f) = &o.variants_file {
        set.load_file(f).map_err(|e| e.to_string())?;
    }
    Ok(set)
}

fn setup(o: &Options) -> Result<Position, String> {
    let set = load_variants(o)?;
    let rules = set.get(&o.variant).ok_or_else(|| {
        format!(
            "unknown variant '{}' (known: {})",
            o.variant,
            set.names().join(", ")
        )
    })?;
    let mut pos = match &o.fen {
        Some(f) => Position::from_fen(rules, f).map_err(|e| format!("bad FEN '{f}': {e}"))?,
        None => Position::startpos(rules),
    };
    for (i, m) in o.moves.iter().enumerate() {
        let mv = parse_move(&mut pos, m)
            .map_err(|e| format!("--moves, move {} ('{m}') after '{}': {e}", i + 1, pos.fen()))?;
        pos.make(mv);
    }
    Ok(pos)
}

fn depth_arg(o: &Options) -> Result<u32, String> {
    match o.positional.as_slice() {
        [d] => d
            .parse()
            .ok()
            .filter(|d| *d <= 64)
            .ok_or_else(|| format!("DEPTH must be a number from 0 to 64, not '{d}'")),
        [] => Err("missing DEPTH".into()),
        _ => Err(format!("unexpected arguments: {}", o.positional.join(" "))),
    }
}

fn cmd_perft(o: &Options, per_move: bool) -> Result<(), String> {
    if o.variant == crate::foreignpolicy::NAME {
        return cmd_perft_fp(o, per_move);
    }
    let pos = setup(o)?;
    let depth = depth_arg(o)?;
    crate::geometry::attacks::init();
    let start = Instant::now();
    let nodes = if per_move {
        let d = divide(&pos, depth.max(1), o.threads);
        for (m, n) in &d {
            say!("{m}: {n}");
        }
        let total: u64 = if depth == 0 {
            1
        } else {
            d.iter().map(|x| x.1).sum()
        };
        say!();
        say!("Moves: {}", d.len());
        total
    } else {
        perft_threads(&pos, depth, o.threads)
    };
    let secs = start.elapsed().as_secs_f64();
    say!("Nodes: {nodes}");
    say!("Time: {:.3} s", secs);
    say!("NPS: {:.0}", nodes as f64 / secs.max(1e-9));
    Ok(())
}

/// The Foreign Policy position of `--fen` (an FP-FEN) and `--moves`.
fn setup_fp(o: &Options) -> Result<crate::foreignpolicy::FpPosition, String> {
    use crate::foreignpolicy::FpPosition;
    let mut pos = match &o.fen {
        Some(f) => FpPosition::from_fen(f).map_err(|e| format!("bad FP-FEN '{f}': {e}"))?,
        None => FpPosition::startpos(),
    };
    for (i, m) in o.moves.iter().enumerate() {
        let mv = pos.parse_move(m).map_err(|e| {
            format!(
                "--moves, move {} ('{m}') after '{}': {e}",
                i + 1,
                pos.to_fen()
            )
        })?;
        pos.make(mv);
    }
    Ok(pos)
}

/// Foreign Policy (three players) has its own position type: `--fen` takes an FP-FEN, and
/// `--threads` is accepted but the count runs on one thread.
fn cmd_perft_fp(o: &Options, per_move: bool) -> Result<(), String> {
    use crate::foreignpolicy::perft;
    crate::geometry::attacks::init();
    let mut pos = setup_fp(o)?;
    let depth = depth_arg(o)?;
    let start = Instant::now();
    let nodes = if per_move {
        let d = perft::divide(&mut pos, depth.max(1));
        for (m, n) in &d {
            say!("{m}: {n}");
        }
        say!();
        say!("Moves: {}", d.len());
        if depth == 0 {
            1
        } else {
            d.iter().map(|x| x.1).sum()
        }
    } else {
        perft::perft(&mut pos, depth)
    };
    let secs = start.elapsed().as_secs_f64();
    say!("Nodes: {nodes}");
    say!("Time: {:.3} s", secs);
    say!("NPS: {:.0}", nodes as f64 / secs.max(1e-9));
    Ok(())
}

fn no_positional(o: &Options, cmd: &str) -> Result<(), String> {
    match o.positional.as_slice() {
        [] => Ok(()),
        extra => Err(format!(
            "{cmd} takes no arguments, found: {}",
            extra.join(" ")
        )),
    }
}

/// Every variant the protocols offer, Foreign Policy included, with its board and number of
/// players; with `names_only`, the names alone.
fn cmd_variants(o: &Options, names_only: bool) -> Result<(), String> {
    no_positional(o, "variants")?;
    let set = load_variants(o)?;
    let mut rows: Vec<(String, String, usize)> = set
        .names()
        .iter()
        .filter_map(|n| set.get(n))
        .map(|v| {
            let board = format!("{}x{}", v.shape.files, v.shape.ranks);
            (v.name.clone(), board, 2)
        })
        .collect();
    rows.push((crate::foreignpolicy::NAME.into(), "8x8".into(), 3));
    if names_only {
        for (name, _, _) in &rows {
            say!("{name}");
        }
        return Ok(());
    }
    let width = rows.iter().map(|r| r.0.len()).max().unwrap_or(0).max(7);
    say!("{:width$}  board  players", "variant");
    for (name, board, players) in &rows {
        say!("{name:width$}  {board:5}  {players}");
    }
    Ok(())
}

fn cmd_moves(o: &Options) -> Result<(), String> {
    no_positional(o, "moves")?;
    if o.variant == crate::foreignpolicy::NAME {
        crate::geometry::attacks::init();
        let names = setup_fp(o)?.legal_move_names();
        say!("{}", names.join(" "));
        say!("Moves: {}", names.len());
        return Ok(());
    }
    let names = legal_move_names(&mut setup(o)?);
    say!("{}", names.join(" "));
    say!("Moves: {}", names.len());
    Ok(())
}

fn cmd_check(o: &Options) -> Result<(), String> {
    let [file] = o.positional.as_slice() else {
        return Err("check takes one FILE".into());
    };
    let mut set = load_variants(o)?;
    let names = set.load_file(file).map_err(|e| e.to_string())?;
    say!(
        "{file}: OK, {} variant(s): {}",
        names.len(),
        names.join(", ")
    );
    for name in &names {
        if let Some(rules) = set.get(name) {
            say!("{}", describe(rules));
        }
    }
    Ok(())
}

/// A few lines saying what a variant compiled to.
fn describe(r: &crate::position::Variant) -> String {
    let pieces: Vec<String> = r
        .piece_types()
        .filter_map(|t| r.piece(t))
        .map(|d| format!("{}={}", d.letter, d.betza))
        .collect();
    let letters =
        |ts: &[crate::piece::PieceType]| -> String { ts.iter().map(|&t| r.letter(t)).collect() };
    let mut out = format!(
        "  [{}] board {} files x {} ranks; {} move generator; mechanics: {}\n    pieces: {}",
        r.name,
        r.shape.files,
        r.shape.ranks,
        if r.orthodox {
            "orthodox (fast)"
        } else {
            "generic"
        },
        match r.mechanics.names() {
            names if names.is_empty() => "none".to_string(),
            names => names.join(", "),
        },
        pieces.join(" ")
    );
    out.push_str(&format!(
        "\n    castling: {}; promotion to: {}; double step: {}; en passant: {}; checking: {}",
        if r.castling {
            format!(
                "king to {}/{} with '{}'",
                (b'a' + r.castling_kingside_file as u8) as char,
                (b'a' + r.castling_queenside_file as u8) as char,
                r.letter(r.castling_rook)
            )
        } else {
            "off".into()
        },
        if r.promotion_types.is_empty() {
            "-".to_string()
        } else {
            letters(&r.promotion_types)
        },
        r.double_step,
        r.en_passant,
        r.checking
    ));
    out.push_str(&format!("\n    start: {}", r.start_fen));
    out
}

/// Positions searched by `bench`: variant and FEN.
const BENCH_POSITIONS: &[(&str, &str)] = &[
    (
        "chess",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ),
    (
        "chess",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ),
    ("chess", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"),
    (
        "chess",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    ),
    (
        "chess",
        "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8",
    ),
    ("chess", "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"),
    (
        "palace",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ),
    (
        "haven",
        "2b2b2/1rnqknr1/1pppppp1/8/8/1PPPPPP1/1RNQKNR1/2B2B2 w - - 0 1",
    ),
    (
        "missingfile",
        "1rnqkbnr/1ppppppp/8/8/8/8/1PPPPPPP/1RNQKBNR w KQkq - 0 1",
    ),
    (
        "jadoube",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ),
    (
        "interior",
        "rnb2bnr/3qk3/pppppppp/8/8/PPPPPPPP/3QK3/RNB2BNR w - - 0 1",
    ),
];

fn cmd_bench(o: &Options) -> Result<(), String> {
    let depth = match o.positional.as_slice() {
        [] => 9,
        [d] => d
            .parse()
            .ok()
            .filter(|d| (1..=30).contains(d))
            .ok_or_else(|| format!("DEPTH must be 1..30, not '{d}'"))?,
        _ => return Err(format!("unexpected arguments: {}", o.positional.join(" "))),
    };
    crate::geometry::attacks::init();
    let mut engine = crate::engine::Engine::new();
    let mut total = 0u64;
    let start = Instant::now();
    for (i, (variant, fen)) in BENCH_POSITIONS.iter().enumerate() {
        if engine.rules().name != *variant {
            engine.set_variant(variant).map_err(|e| e.to_string())?;
        }
        engine
            .set_position(Some(fen), &[])
            .map_err(|e| e.to_string())?;
        engine.clear_hash();
        let r = engine.best_move_at_depth(depth);
        let best = crate::movegen::move_to_string(engine.position(), r.best);
        say!(
            "position {:2} {:12} nodes {:10} best {}",
            i + 1,
            variant,
            r.nodes,
            best
        );
        total += r.nodes;
    }
    let secs = start.elapsed().as_secs_f64();
    say!(
        "Bench: {total} nodes {:.0} nps",
        total as f64 / secs.max(1e-9)
    );
    Ok(())
}

/// `--name value` pairs of the options in `allowed` (each at most once, no other arguments).
fn flag_values(
    cmd: &str,
    args: &[String],
    allowed: &[&str],
) -> Result<std::collections::HashMap<String, String>, String> {
    let mut map = std::collections::HashMap::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if !allowed.contains(&a.as_str()) {
            return Err(match a.starts_with("--") {
                true => format!("unknown option '{a}' for '{cmd}' (try 'chimera help')"),
                false => format!("unexpected argument '{a}' for '{cmd}'"),
            });
        }
        let v = it.next().ok_or_else(|| format!("{a} needs a value"))?;
        if map.insert(a.clone(), v.clone()).is_some() {
            return Err(format!("{a} is given twice"));
        }
    }
    Ok(map)
}

/// The number given for `name`, or `default`; it must lie in `range`.
fn number<T>(
    map: &std::collections::HashMap<String, String>,
    name: &str,
    default: T,
    range: std::ops::RangeInclusive<T>,
) -> Result<T, String>
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display + Copy,
{
    let Some(v) = map.get(name) else {
        return Ok(default);
    };
    v.parse().ok().filter(|n| range.contains(n)).ok_or_else(|| {
        format!(
            "{name} takes a number from {} to {}, not '{v}'",
            range.start(),
            range.end()
        )
    })
}

/// The two-player variant named by `--variant` (loading `--variants` first).
fn tune_variant(
    map: &std::collections::HashMap<String, String>,
) -> Result<&'static crate::position::Variant, String> {
    let name = map.get("--variant").ok_or("--variant is required")?;
    if name == crate::foreignpolicy::NAME {
        return Err(format!(
            "{name} has three players; datagen and tune take a two-player variant"
        ));
    }
    let o = Options {
        variant: name.clone(),
        fen: None,
        moves: Vec::new(),
        threads: 1,
        variants_file: map.get("--variants").cloned(),
        positional: Vec::new(),
        given: Vec::new(),
    };
    Ok(setup(&o)?.rules())
}

fn cmd_datagen(args: &[String]) -> Result<(), String> {
    use crate::tune::datagen::{generate, DataFormat, DatagenConfig};
    const ALLOWED: [&str; 12] = [
        "--chess960",
        "--variant",
        "--games",
        "--nodes",
        "--out",
        "--threads",
        "--seed",
        "--random-plies",
        "--book",
        "--balance",
        "--variants",
        "--format",
    ];
    let map = flag_values("datagen", args, &ALLOWED)?;
    let out_path = map.get("--out").ok_or("--out is required")?;
    if !map.contains_key("--games") {
        return Err("--games is required".into());
    }
    let cfg = DatagenConfig {
        games: number(&map, "--games", 1, 1..=100_000_000)?,
        nodes: number(&map, "--nodes", 5000, 1..=1_000_000_000)?,
        threads: number(&map, "--threads", 1, 1..=1024)?,
        seed: number(&map, "--seed", 1, 0..=u64::MAX)?,
        random_plies: number(&map, "--random-plies", 8, 0..=200)?,
        book: map.get("--book").cloned(),
        chess960: match map.get("--chess960").map(String::as_str) {
            None => None,
            Some("single") => Some(false),
            Some("double") => Some(true),
            Some(other) => return Err(format!("--chess960 takes single or double, not '{other}'")),
        },
        balance_nodes: number(&map, "--balance", 0, 0..=100_000_000)?,
        format: match map.get("--format").map(String::as_str) {
            None | Some("packed") => DataFormat::Packed,
            Some("text") => DataFormat::Text,
            Some(other) => {
                return Err(format!(
                    "--format must be 'packed' (for train) or 'text' (for tune), not '{other}'"
                ))
            }
        },
    };
    let rules = tune_variant(&map)?;
    let file = std::fs::File::create(out_path).map_err(|e| format!("{out_path}: {e}"))?;
    let mut out = std::io::BufWriter::new(file);
    let stats = generate(rules, &cfg, &mut out, true).map_err(|e| format!("{out_path}: {e}"))?;
    eprintln!(
        "datagen: {} games, {} positions in {:.1} s ({:.1} positions/s){}",
        stats.games,
        stats.positions,
        stats.seconds,
        stats.positions as f64 / stats.seconds.max(1e-9),
        match stats.skipped {
            0 => String::new(),
            n => format!(", {n} games skipped (no random opening that goes on)"),
        }
    );
    Ok(())
}

/// The web board, fed by a match's games (`chimera match -serve PORT`).
struct BoardFeed(crate::serve::Server);

impl crate::tournament::observer::GameObserver for BoardFeed {
    fn update(&self, g: &crate::tournament::observer::ObservedGame) {
        self.0.watch.update(g.clone());
    }
}

/// Starts the web board for `chimera match -serve PORT`.
fn watch_on_board(
    port: u16,
    variants_file: Option<&str>,
) -> Result<Box<dyn crate::tournament::observer::GameObserver>, String> {
    let server = crate::serve::start(crate::serve::ServeConfig {
        port,
        variants_file: variants_file.map(str::to_string),
        hash_mb: 16,
        ..Default::default()
    })?;
    println!("Watch the games at {}#watch=1", server.url());
    Ok(Box::new(BoardFeed(server)))
}

fn cmd_serve(args: &[String]) -> Result<(), String> {
    use crate::serve::{start, ServeConfig};
    const ALLOWED: [&str; 6] = [
        "--port",
        "--host",
        "--hash",
        "--threads",
        "--max-games",
        "--variants",
    ];
    let map = flag_values("serve", args, &ALLOWED)?;
    let defaults = ServeConfig::default();
    let host = match map.get("--host") {
        Some(h) => h
            .parse()
            .map_err(|_| format!("--host must be an IP address, not '{h}'"))?,
        None => defaults.host,
    };
    let config = ServeConfig {
        host,
        port: number(&map, "--port", defaults.port, 0..=u16::MAX)?,
        variants_file: map.get("--variants").cloned(),
        hash_mb: number(
            &map,
            "--hash",
            defaults.hash_mb,
            1..=crate::engine::MAX_HASH_MB,
        )?,
        threads: number(
            &map,
            "--threads",
            defaults.threads,
            1..=crate::engine::MAX_THREADS,
        )?,
        max_games: number(&map, "--max-games", defaults.max_games, 1..=10_000)?,
    };
    if let Some(path) = &config.variants_file {
        crate::engine::Engine::new()
            .load_variants(path)
            .map_err(|e| format!("{path}: {e}"))?;
    }
    crate::geometry::attacks::init();
    let server = start(config)?;
    say!("Chimera web board: {}", server.url());
    server.join();
    Ok(())
}

fn cmd_tune(args: &[String]) -> Result<(), String> {
    use crate::tune::{run_tune, TuneConfig, DEFAULT_L2, DEFAULT_LAMBDA, DEFAULT_VALIDATION};
    const ALLOWED: [&str; 10] = [
        "--variant",
        "--data",
        "--epochs",
        "--rate",
        "--lambda",
        "--l2",
        "--max-change",
        "--validation",
        "--write",
        "--variants",
    ];
    let map = flag_values("tune", args, &ALLOWED)?;
    let cfg = TuneConfig {
        data: map.get("--data").ok_or("--data is required")?.clone(),
        epochs: number(&map, "--epochs", 300, 0..=1_000_000)?,
        rate: number(&map, "--rate", 1.0, 1e-9..=1e6)?,
        lambda: number(&map, "--lambda", DEFAULT_LAMBDA, 0.0..=1.0)?,
        l2: number(&map, "--l2", DEFAULT_L2, 0.0..=1e6)?,
        max_change: match map.contains_key("--max-change") {
            true => Some(number(&map, "--max-change", 0.0, 0.0..=1e6)?),
            false => None,
        },
        validation: number(&map, "--validation", DEFAULT_VALIDATION, 0.0..=0.5)?,
        write: map.get("--write").cloned(),
    };
    let rules = tune_variant(&map)?;
    run_tune(rules, &cfg, &mut std::io::stdout())
}

/// The net `train --init` starts from: a built-in net's name or a net file.
fn initial_net(name: &str) -> Result<std::sync::Arc<crate::eval::nnue::Network>, String> {
    use crate::eval::nnue::embedded;
    match embedded::built_in(name) {
        Some(net) => net.map_err(|e| format!("--init: built-in net {name}: {e}")),
        None => embedded::read(std::path::Path::new(name))
            .map(std::sync::Arc::new)
            .map_err(|e| format!("--init: {name}: {e}")),
    }
}

fn cmd_train(args: &[String]) -> Result<(), String> {
    use crate::tune::train::{load, train, Data, TrainConfig};
    const ALLOWED: [&str; 17] = [
        "--mirror",
        "--turn-buckets",
        "--init",
        "--variant",
        "--data",
        "--out",
        "--hidden",
        "--epochs",
        "--batch",
        "--rate",
        "--final-rate",
        "--lambda",
        "--scale",
        "--validation",
        "--seed",
        "--threads",
        "--variants",
    ];
    let map = flag_values("train", args, &ALLOWED)?;
    let data_arg = map.get("--data").ok_or("--data is required")?;
    let out = map.get("--out").ok_or("--out is required")?.clone();
    let d = TrainConfig::default();
    let cfg = TrainConfig {
        hidden: number(
            &map,
            "--hidden",
            d.hidden,
            16..=crate::eval::nnue::file::MAX_HIDDEN,
        )?,
        epochs: number(&map, "--epochs", d.epochs, 1..=100_000)?,
        batch: number(&map, "--batch", d.batch, 1..=10_000_000)?,
        rate: number(&map, "--rate", d.rate, 1e-7..=1.0)?,
        final_rate: number(&map, "--final-rate", d.final_rate, 1e-6..=1.0)?,
        lambda: number(&map, "--lambda", d.lambda, 0.0..=1.0)?,
        scale: match map.contains_key("--scale") {
            true => Some(number(&map, "--scale", 1.0, 1.0..=100_000.0)?),
            false => None,
        },
        validation: number(&map, "--validation", d.validation, 0.001..=0.5)?,
        seed: number(&map, "--seed", d.seed, 0..=u64::MAX)?,
        threads: number(&map, "--threads", d.threads, 1..=1024)?,
        mirror: number(&map, "--mirror", d.mirror, false..=true)?,
        turn_buckets: number(&map, "--turn-buckets", d.turn_buckets, false..=true)?,
        init: match map.get("--init") {
            Some(name) => Some(initial_net(name)?),
            None => None,
        },
    };
    let rules = tune_variant(&map)?;
    let mut data: Option<Data> = None;
    for path in data_arg.split(',') {
        let part = load(path, rules)?;
        eprintln!("train: {path}: {} positions", part.records.len());
        match &mut data {
            None => data = Some(part),
            Some(d) => d.records.extend(part.records),
        }
    }
    let data = data.ok_or("--data names no file")?;
    let started = std::time::Instant::now();
    let net = train(&data, &cfg, |r, best, k| {
        eprintln!(
            "train: epoch {}/{}: train {:.6}, validation {:.6}, rate {:.2e}, K {k:.1}, {:.1} s{}",
            r.epoch,
            cfg.epochs,
            r.train,
            r.validation,
            r.rate,
            r.seconds,
            if r.best { " (best, saved)" } else { "" }
        );
        if r.best {
            if let Err(e) = std::fs::write(&out, crate::eval::nnue::file::serialize(best)) {
                eprintln!("train: {out}: {e}");
            }
        }
    })?;
    std::fs::write(&out, crate::eval::nnue::file::serialize(&net))
        .map_err(|e| format!("{out}: {e}"))?;
    eprintln!(
        "train: {} positions, {:.1} s; net written to {out}",
        data.records.len(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// `genfens N seed S book <None|FILE> [extra]` (OpenBench), followed by nothing or `quit`.
fn cmd_genfens(line: &str, rest: &[String]) -> Result<(), String> {
    use crate::tune::genfens::{generate, parse};
    if let Some(extra) = rest.iter().find(|a| a.as_str() != "quit") {
        return Err(format!(
            "genfens: unexpected argument '{extra}' (only 'quit' may follow)"
        ));
    }
    let req = parse(line)?;
    let o = Options {
        variant: req.variant.clone(),
        fen: None,
        moves: Vec::new(),
        threads: 1,
        positional: Vec::new(),
        given: Vec::new(),
        variants_file: None,
    };
    crate::geometry::attacks::init();
    let rules = setup(&o).map_err(|e| format!("genfens: {e}"))?.rules();
    generate(&req, rules, |fen| say!("info string genfens {fen}"))
}

/// Runs the command line; returns the process exit code.
pub fn run(args: &[String]) -> i32 {
    let Some(cmd) = args.first() else {
        crate::geometry::attacks::init();
        let stdin = std::io::BufReader::new(std::io::stdin());
        crate::protocol::run(Box::new(stdin), crate::protocol::Output::stdout());
        return 0;
    };
    let rest = &args[1..];
    let result = match cmd.as_str() {
        "help" | "--help" | "-h" => match rest.first() {
            None => {
                say!("{}", usage());
                Ok(())
            }
            Some(name) if name == "match" => {
                return crate::tournament::main(&["-help".to_string()], &watch_on_board)
            }
            Some(name) => match subcommand_usage(name) {
                Some(text) => {
                    say!("{text}");
                    Ok(())
                }
                None => Err(format!("no subcommand '{name}' (try 'chimera help')")),
            },
        },
        "--version" | "-V" | "version" => {
            say!("chimera {}", env!("CARGO_PKG_VERSION"));
            Ok(())
        }
        // its own cutechess-cli-like options and exit codes (130 after Ctrl-C)
        "match" => return crate::tournament::main(rest, &watch_on_board),
        c if asks_help(rest) && subcommand_usage(c).is_some() => {
            say!("{}", subcommand_usage(c).unwrap_or_default());
            Ok(())
        }
        "datagen" => cmd_datagen(rest),
        "tune" => cmd_tune(rest),
        "train" => cmd_train(rest),
        "serve" => cmd_serve(rest),
        // OpenBench passes a command as one argument: `./ENGINE "genfens N seed S book B" quit`
        c if c.starts_with("genfens") => cmd_genfens(c, rest),
        "perft" | "divide" | "moves" | "check" | "variants" | "bench" => {
            // `variants --names`: the bare list, for scripts
            let names_only = cmd == "variants" && rest.iter().any(|a| a == "--names");
            let rest: Vec<String> = rest
                .iter()
                .filter(|a| !(names_only && *a == "--names"))
                .cloned()
                .collect();
            match parse_options(&rest) {
                Err(e) => Err(e),
                Ok(o) => match o.given.iter().find(|g| !allowed_options(cmd).contains(g)) {
                    Some(g) => Err(format!(
                        "{g} does not apply to '{cmd}' (try 'chimera help')"
                    )),
                    None => match cmd.as_str() {
                        "perft" => cmd_perft(&o, false),
                        "divide" => cmd_perft(&o, true),
                        "moves" => cmd_moves(&o),
                        "check" => cmd_check(&o),
                        "bench" => cmd_bench(&o),
                        _ => cmd_variants(&o, names_only),
                    },
                },
            }
        }
        other => Err(format!("unknown subcommand '{other}' (try 'chimera help')")),
    };
    match result {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("chimera: {e}");
            1
        }
    }
}
