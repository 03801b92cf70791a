//! The command line: `perft`, `divide`, `check`, `moves`, `variants`, `bench`, `datagen`,
//! `tune` and `train` (`crate::tune`), `serve`, and `match` and `genfens` (their own grammars,
//! `tournament::config` and `openings::genfens`). The grammar is clap's (`args`); errors go to
//! stderr with a non-zero exit code; nothing a user types can panic the program.

mod analyse;
mod args;

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
use clap::ArgMatches;
use std::time::Instant;

/// The common options of the position subcommands.
struct Options {
    variant: String,
    fen: Option<String>,
    moves: Vec<String>,
    threads: usize,
    variants_file: Option<String>,
}

impl Options {
    /// The options clap read (those a subcommand lacks keep their defaults).
    fn from(m: &ArgMatches) -> Options {
        let text = |name: &str| m.try_get_one::<String>(name).ok().flatten().cloned();
        Options {
            variant: text("variant").unwrap_or_else(|| "chess".into()),
            fen: text("fen"),
            moves: m
                .try_get_many::<String>("moves")
                .ok()
                .flatten()
                .map(|v| v.cloned().collect())
                .unwrap_or_default(),
            threads: m
                .try_get_one::<u64>("threads")
                .ok()
                .flatten()
                .map_or(1, |&t| t as usize),
            variants_file: text("variants"),
        }
    }

    /// Only a variant and the user's variants file.
    fn variant(name: &str, variants_file: Option<String>) -> Options {
        Options {
            variant: name.to_string(),
            fen: None,
            moves: Vec::new(),
            threads: 1,
            variants_file,
        }
    }
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

fn cmd_perft(o: &Options, depth: u32, per_move: bool) -> Result<(), String> {
    if o.variant == crate::foreignpolicy::NAME {
        return cmd_perft_fp(o, depth, per_move);
    }
    let pos = setup(o)?;
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
fn cmd_perft_fp(o: &Options, depth: u32, per_move: bool) -> Result<(), String> {
    use crate::foreignpolicy::perft;
    crate::geometry::attacks::init();
    let mut pos = setup_fp(o)?;
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

/// Every variant the protocols offer, Foreign Policy included, with its board and number of
/// players; with `names_only`, the names alone.
fn cmd_variants(o: &Options, names_only: bool) -> Result<(), String> {
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

fn cmd_check(o: &Options, file: &str) -> Result<(), String> {
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

fn cmd_bench(depth: u32) -> Result<(), String> {
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

/// A value clap read for `name` (with its default, where it has one).
fn value<T: Clone + Send + Sync + 'static>(m: &ArgMatches, name: &str) -> Option<T> {
    m.try_get_one::<T>(name).ok().flatten().cloned()
}

/// A count clap read for `name`, or `default`.
fn count(m: &ArgMatches, name: &str, default: usize) -> usize {
    value::<u64>(m, name).map_or(default, |n| n as usize)
}

/// Whether `--variant` names Foreign Policy (three players: datagen and train have a path of
/// their own for it).
fn is_three(m: &ArgMatches) -> bool {
    value::<String>(m, "variant").as_deref() == Some(crate::foreignpolicy::NAME)
}

/// Refuses the two-colour options among `names` that were given for Foreign Policy.
fn refuse_two_colour_options(m: &ArgMatches, names: &[&str], command: &str) -> Result<(), String> {
    match names
        .iter()
        .find(|n| m.value_source(n) == Some(clap::parser::ValueSource::CommandLine))
    {
        Some(n) => Err(format!(
            "{command} --variant {}: --{n} is for two-colour variants",
            crate::foreignpolicy::NAME
        )),
        None => Ok(()),
    }
}

/// The two-player variant named by `--variant` (loading `--variants` first).
fn tune_variant(m: &ArgMatches) -> Result<&'static crate::position::Variant, String> {
    let name = value::<String>(m, "variant").unwrap_or_default();
    if name == crate::foreignpolicy::NAME {
        return Err(format!(
            "{name} has three players; learn, tune, fitwdl and spsa take a two-player variant \
             (datagen and train make its three-player net: docs/nnue.md)"
        ));
    }
    Ok(setup(&Options::variant(&name, value(m, "variants")))?.rules())
}

fn cmd_datagen(m: &ArgMatches) -> Result<(), String> {
    use crate::learn::datagen::{generate, DataFormat, DatagenConfig};
    let out_path = value::<String>(m, "out").unwrap_or_default();
    let text = |name: &str| value::<String>(m, name);
    let cfg = DatagenConfig {
        games: count(m, "games", 1),
        nodes: value(m, "nodes").unwrap_or(5000),
        threads: count(m, "threads", 1),
        seed: value(m, "seed").unwrap_or(1),
        random_plies: count(m, "random-plies", 8),
        book: text("book"),
        chess960: text("chess960").map(|v| v == "double"),
        balance_nodes: value(m, "balance").unwrap_or(0),
        format: match text("format").as_deref() {
            Some("text") => DataFormat::Text,
            _ => DataFormat::Packed,
        },
        eval_file: text("eval-file"),
    };
    let three = is_three(m);
    if three {
        refuse_two_colour_options(m, &["book", "chess960", "balance", "format"], "datagen")?;
        crate::learn::datagen::evaluation_three(cfg.eval_file.as_deref())?;
    }
    let rules = if three { None } else { Some(tune_variant(m)?) };
    if let Some(rules) = rules {
        crate::learn::datagen::evaluation(rules, cfg.eval_file.as_deref())?;
    }
    let file = std::fs::File::create(&out_path).map_err(|e| format!("{out_path}: {e}"))?;
    let mut out = std::io::BufWriter::new(file);
    let stats = match rules {
        Some(rules) => generate(rules, &cfg, &mut out, true),
        None => crate::learn::datagen_three::generate(&cfg, &mut out, true),
    }
    .map_err(|e| format!("{out_path}: {e}"))?;
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

fn cmd_serve(m: &ArgMatches) -> Result<(), String> {
    use crate::serve::{start, ServeConfig};
    let defaults = ServeConfig::default();
    let config = ServeConfig {
        host: value(m, "host").unwrap_or(defaults.host),
        port: value(m, "port").unwrap_or(defaults.port),
        variants_file: value(m, "variants"),
        hash_mb: count(m, "hash", defaults.hash_mb),
        threads: count(m, "threads", defaults.threads),
        max_games: count(m, "max-games", defaults.max_games),
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

fn cmd_tune(m: &ArgMatches) -> Result<(), String> {
    use crate::tune::{run_tune, TuneConfig, DEFAULT_L2, DEFAULT_LAMBDA, DEFAULT_VALIDATION};
    let cfg = TuneConfig {
        data: value(m, "data").unwrap_or_default(),
        epochs: count(m, "epochs", 300),
        rate: value(m, "rate").unwrap_or(1.0),
        lambda: value(m, "lambda").unwrap_or(DEFAULT_LAMBDA),
        l2: value(m, "l2").unwrap_or(DEFAULT_L2),
        max_change: value(m, "max-change"),
        validation: value(m, "validation").unwrap_or(DEFAULT_VALIDATION),
        write: value(m, "write"),
    };
    let rules = tune_variant(m)?;
    run_tune(rules, &cfg, &mut std::io::stdout())
}

/// The net `train --init` starts from: a built-in net's name or a net file.
fn initial_net(name: &str) -> Result<std::sync::Arc<crate::eval::nnue::Network>, String> {
    crate::learn::pipeline::start_net(name).map_err(|e| format!("--init: {e}"))
}

fn cmd_train(m: &ArgMatches) -> Result<(), String> {
    use crate::learn::train::{load, train, Data, TrainConfig};
    let data_arg = value::<String>(m, "data").unwrap_or_default();
    let out = value::<String>(m, "out").unwrap_or_default();
    let d = TrainConfig::default();
    let real = |name: &str, default: f32| value::<f64>(m, name).map_or(default, |x| x as f32);
    let cfg = TrainConfig {
        hidden: count(m, "hidden", d.hidden),
        epochs: count(m, "epochs", d.epochs),
        batch: count(m, "batch", d.batch),
        rate: real("rate", d.rate),
        final_rate: real("final-rate", d.final_rate),
        lambda: real("lambda", d.lambda),
        scale: value::<f64>(m, "scale").map(|x| x as f32),
        validation: value(m, "validation").unwrap_or(d.validation),
        seed: value(m, "seed").unwrap_or(d.seed),
        threads: count(m, "threads", d.threads),
        mirror: value(m, "mirror").unwrap_or(d.mirror),
        turn_buckets: value(m, "turn-buckets").unwrap_or(d.turn_buckets),
        men_buckets: count(m, "men-buckets", d.men_buckets),
        kings: d.kings,
        init: match value::<String>(m, "init") {
            Some(name) => Some(initial_net(&name)?),
            None => None,
        },
        checkpoint: value::<String>(m, "checkpoint").map(std::path::PathBuf::from),
    };
    if is_three(m) {
        refuse_two_colour_options(
            m,
            &[
                "mirror",
                "turn-buckets",
                "men-buckets",
                "king-buckets",
                "king-mirror",
                "init",
                "checkpoint",
                "variants",
            ],
            "train",
        )?;
        return train_three(&data_arg, &out, &cfg);
    }
    let rules = tune_variant(m)?;
    let mut cfg = cfg;
    cfg.kings = crate::eval::nnue::KingBuckets::preset(
        value::<u8>(m, "king-buckets").unwrap_or(1),
        value::<bool>(m, "king-mirror").unwrap_or(false),
        rules.shape.files,
    )
    .map_err(|e| format!("--king-buckets: {e}"))?;
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
        epoch_line(r, cfg.epochs, k);
        if r.best {
            let bytes = crate::eval::nnue::file::serialize(best);
            if let Err(e) = crate::learn::write_whole(std::path::Path::new(&out), &bytes) {
                eprintln!("train: {e}");
            }
        }
    })?;
    let bytes = crate::eval::nnue::file::serialize(&net);
    crate::learn::write_whole(std::path::Path::new(&out), &bytes)?;
    eprintln!(
        "train: {} positions, {:.1} s; net written to {out}",
        data.records.len(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// The progress line of one training epoch.
fn epoch_line(r: &crate::learn::train::EpochReport, epochs: usize, k: f32) {
    eprintln!(
        "train: epoch {}/{epochs}: train {:.6}, validation {:.6}, rate {:.2e}, K {k:.1}, {:.1} s{}",
        r.epoch,
        r.train,
        r.validation,
        r.rate,
        r.seconds,
        if r.best { " (best, saved)" } else { "" }
    );
}

/// `train --variant foreignpolicy`: the three-player net ([`crate::learn::train_three`]).
fn train_three(
    data_arg: &str,
    out: &str,
    cfg: &crate::learn::train::TrainConfig,
) -> Result<(), String> {
    use crate::eval::nnue::three::serialize;
    use crate::learn::train_three::{load, train};
    let paths: Vec<String> = data_arg.split(',').map(str::to_string).collect();
    let data = load(&paths)?;
    eprintln!("train: {} positions from {data_arg}", data.len());
    let started = std::time::Instant::now();
    let out_path = std::path::Path::new(out);
    let net = train(&data, cfg, |r, best, k| {
        epoch_line(r, cfg.epochs, k);
        if r.best {
            if let Err(e) = crate::learn::write_whole(out_path, &serialize(best)) {
                eprintln!("train: {e}");
            }
        }
    })?;
    crate::learn::write_whole(out_path, &serialize(&net))?;
    eprintln!(
        "train: {} positions, {:.1} s; net written to {out}",
        data.len(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// `--chunks FIRST-LAST` (or one number).
fn chunk_range(text: &str) -> Result<(usize, usize), String> {
    let bad = || format!("--chunks takes FIRST-LAST (chunk numbers, e.g. 16-31), not '{text}'");
    let (a, b) = text.split_once('-').unwrap_or((text, text));
    let first: usize = a.trim().parse().map_err(|_| bad())?;
    let last: usize = b.trim().parse().map_err(|_| bad())?;
    if first > last || last > 9999 {
        return Err(bad());
    }
    Ok((first, last))
}

fn cmd_learn(m: &ArgMatches) -> Result<(), String> {
    use crate::learn::pipeline::{run, LearnConfig};
    let rules = tune_variant(m)?;
    let real = |name: &str| value::<f64>(m, name).unwrap_or(0.0);
    let cfg = LearnConfig {
        variant: rules.name.clone(),
        variants_file: value(m, "variants"),
        work: value::<String>(m, "work")
            .map_or_else(|| std::path::PathBuf::from(&rules.name), Into::into),
        threads: count(m, "threads", 2),
        hours: value(m, "hours"),
        positions: value(m, "positions").unwrap_or(1_500_000),
        nodes: value(m, "nodes").unwrap_or(5000),
        chunk_games: count(m, "chunk-games", 200),
        seed: value(m, "seed").unwrap_or(1),
        hidden: value::<u64>(m, "hidden").map(|h| h as usize),
        men_buckets: count(m, "men-buckets", 0),
        epochs: count(m, "epochs", 20),
        lambda: value::<f64>(m, "lambda").map(|x| x as f32),
        rate: value::<f64>(m, "rate").map(|x| x as f32),
        mirror: value(m, "mirror").unwrap_or(false),
        tc: value(m, "tc").unwrap_or_else(|| "3+0.03".into()),
        time_margin: value(m, "time-margin").unwrap_or(100),
        elo0: real("elo0"),
        elo1: real("elo1"),
        alpha: real("alpha"),
        beta: real("beta"),
        gate_games: value::<u64>(m, "gate-games").unwrap_or(2000) as u32,
        rounds: count(m, "rounds", 10),
        start: value(m, "start"),
        exe: std::env::current_exe().map_err(|e| format!("this program's path: {e}"))?,
        chunks: value::<String>(m, "chunks")
            .map(|c| chunk_range(&c))
            .transpose()?,
        merge: value::<String>(m, "merge")
            .map(|d| d.split(',').map(Into::into).collect())
            .unwrap_or_default(),
    };
    if cfg.hidden.is_some_and(|h| h % 16 != 0) {
        return Err("--hidden must be a multiple of 16".into());
    }
    let summary = run(rules, &cfg)?;
    match &summary.best {
        Some(net) => say!(
            "learn: {}: best net {} (sha256 {}), {} positions; report in {}",
            rules.name,
            net.display(),
            crate::learn::pipeline::sha256_file(net)?,
            summary.positions,
            cfg.work.join("report.md").display()
        ),
        None => say!(
            "learn: {}: no net accepted{}; {} positions; report in {}",
            rules.name,
            if summary.finished { "" } else { " yet" },
            summary.positions,
            cfg.work.join("report.md").display()
        ),
    }
    Ok(())
}

/// `chimera spsa`: prints the tunables, or runs (resumes) a tuning run.
fn cmd_spsa(m: &ArgMatches) -> Result<(), String> {
    use crate::tune::spsa::{openbench_lines, run, select, SpsaConfig};
    if m.get_flag("list") {
        for line in openbench_lines() {
            say!("{line}");
        }
        return Ok(());
    }
    let rules = tune_variant(m)?;
    let exe = match value::<String>(m, "engine") {
        Some(e) => std::path::PathBuf::from(e),
        None => std::env::current_exe().map_err(|e| format!("this program's path: {e}"))?,
    };
    let cfg = SpsaConfig {
        variant: rules.name.clone(),
        variants_file: value(m, "variants"),
        work: value::<String>(m, "work").map_or_else(
            || std::path::PathBuf::from(format!("spsa-{}", rules.name)),
            Into::into,
        ),
        iterations: value(m, "iterations").unwrap_or(1000),
        pairs: value(m, "pairs").unwrap_or(1),
        concurrency: count(m, "concurrency", 2),
        tc: value(m, "tc").unwrap_or_else(|| "2+0.02".into()),
        nodes: value(m, "nodes"),
        hash: value(m, "hash").unwrap_or(16),
        book: value(m, "book"),
        params: select(&value::<String>(m, "params").unwrap_or_default())?,
        seed: value(m, "seed").unwrap_or(1),
        r_end: value(m, "r-end").unwrap_or(crate::search::params::R_END),
        engine: exe,
        hours: value(m, "hours"),
    };
    let st = run(rules, &cfg)?;
    say!(
        "spsa: {}; values (state in {}):",
        st.summary(&cfg),
        cfg.work.join("spsa.state").display()
    );
    for (t, v) in cfg.params.iter().zip(&st.theta) {
        say!(
            "setoption name {} value {}   # default {}",
            t.name,
            v.round(),
            t.default
        );
    }
    Ok(())
}

/// `genfens N seed S book <None|FILE> [extra]` (OpenBench), followed by nothing or `quit`.
fn cmd_fitwdl(m: &ArgMatches) -> Result<(), String> {
    use crate::learn::wdl_fit::{calibration, fit, mean_loss, outcomes};
    let rules = tune_variant(m)?;
    let mut all = Vec::new();
    for path in value::<String>(m, "data").unwrap_or_default().split(',') {
        let data = crate::learn::train::load(path, rules)?;
        let part = outcomes(&data);
        eprintln!("fitwdl: {path}: {} positions", part.len());
        all.extend(part);
    }
    let model = fit(&all)?;
    let share =
        |h: u8| 100.0 * all.iter().filter(|o| o.half_points == h).count() as f64 / all.len() as f64;
    say!(
        "{} positions: White won {:.1} %, drew {:.1} %, lost {:.1} %",
        all.len(),
        share(2),
        share(1),
        share(0)
    );
    say!(
        "loss per position: fitted {:.4}, the variant's present model ({}) {:.4}",
        mean_loss(&model, &all),
        rules.wdl,
        mean_loss(&rules.wdl, &all)
    );
    say!("score band (cp)    positions  expected  scored");
    for b in calibration(&model, &all) {
        say!(
            "{:>6} .. {:<6} {:>10}  {:>8.3}  {:>6.3}",
            b.from,
            b.to,
            b.positions,
            b.expected,
            b.scored
        );
    }
    say!("wdlModel = {model}");
    Ok(())
}

fn cmd_genfens(line: &str, rest: &[String]) -> Result<(), String> {
    use crate::openings::genfens::{generate, parse};
    if let Some(extra) = rest.iter().find(|a| a.as_str() != "quit") {
        return Err(format!(
            "genfens: unexpected argument '{extra}' (only 'quit' may follow)"
        ));
    }
    let req = parse(line)?;
    crate::geometry::attacks::init();
    let rules = setup(&Options::variant(&req.variant, None))
        .map_err(|e| format!("genfens: {e}"))?
        .rules();
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
    let is_match_help = cmd == "help" && rest.first().is_some_and(|a| a == "match");
    if cmd == "match" || is_match_help {
        // its own cutechess-cli-like options and exit codes (130 after Ctrl-C)
        let rest = if is_match_help {
            &["-help".to_string()][..]
        } else {
            rest
        };
        return crate::tournament::main(rest, &watch_on_board);
    }
    let result = if cmd.starts_with("genfens") {
        // OpenBench passes a command as one argument: `./ENGINE "genfens N seed S book B" quit`
        cmd_genfens(cmd, rest)
    } else {
        let argv = std::iter::once("chimera".to_string()).chain(args::expand_moves(args));
        match args::command().try_get_matches_from(argv) {
            Ok(m) => dispatch(&m),
            Err(e) => {
                // help and --version are answers, not errors
                let text = e.render().to_string();
                if e.use_stderr() {
                    eprint!("chimera: {text}");
                    return 1;
                }
                say!("{}", text.trim_end());
                return 0;
            }
        }
    };
    match result {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("chimera: {e}");
            1
        }
    }
}

/// Runs the subcommand clap read.
fn dispatch(m: &ArgMatches) -> Result<(), String> {
    let Some((name, sub)) = m.subcommand() else {
        return Ok(());
    };
    let o = Options::from(sub);
    let depth = || value::<u32>(sub, "DEPTH").unwrap_or(0);
    match name {
        "perft" => cmd_perft(&o, depth(), false),
        "divide" => cmd_perft(&o, depth(), true),
        "moves" => cmd_moves(&o),
        "check" => cmd_check(&o, &value::<String>(sub, "FILE").unwrap_or_default()),
        "bench" => cmd_bench(value(sub, "DEPTH").unwrap_or(9)),
        "variants" => cmd_variants(&o, sub.get_flag("names")),
        "datagen" => cmd_datagen(sub),
        "tune" => cmd_tune(sub),
        "train" => cmd_train(sub),
        "learn" => cmd_learn(sub),
        "fitwdl" => cmd_fitwdl(sub),
        "spsa" => cmd_spsa(sub),
        "analyse" => analyse::run(sub),
        "serve" => cmd_serve(sub),
        other => Err(format!("no subcommand '{other}' (try 'chimera help')")),
    }
}
