//! The command line's grammar, in clap's builder API: every subcommand with its options, their
//! types and ranges, and its help. Two subcommands keep grammars users rely on and are read
//! elsewhere: `match` (cutechess-cli's `-engine cmd=... name=...`, `tournament::config`) and
//! OpenBench's one-argument `genfens N seed S book B` (`openings::genfens`); the help lists them.

use clap::builder::ValueParser;
use clap::{value_parser, Arg, ArgAction, Command};

/// What the top-level help says after the subcommands.
const AFTER: &str = "\
Without a subcommand the engine names itself and reads UCI commands from standard input
(XBoard's when the first is 'xboard'; 'help' there lists them).

Two subcommands keep the grammars their users' tools speak:
  match -engine cmd=PROG ... -engine cmd=PROG ... -each tc=10+0.1 [OPTIONS]
          referee a match or a tournament of UCI/XBoard engines in any variant, with
          cutechess-cli's options ('chimera match -help' lists them)
  \"genfens N seed S book <None|FILE> [variant V] [plies P] [nodes K]\"
          OpenBench's opening generation, one argument as its client passes it: N lines
          'info string genfens FEN', each the start (or a random book line) plus P random
          plies (default 8) that a K-node search (default 1000) finds within 300 cp of level

--moves takes the moves after it up to the next option or a plain number (DEPTH).
perft, divide and moves with --variant foreignpolicy (three players) take an FP-FEN and
coordinate moves (docs/variants/foreignpolicy.md).";

/// `--NAME VALUE`.
fn opt(name: &'static str, value: &'static str, help: &'static str) -> Arg {
    // a negative number is a value (refused by its range), not an unknown flag
    Arg::new(name)
        .long(name)
        .value_name(value)
        .help(help)
        .allow_negative_numbers(true)
}

/// A float in `lo..=hi`.
fn float_in(lo: f64, hi: f64) -> ValueParser {
    ValueParser::new(move |s: &str| -> Result<f64, String> {
        s.parse::<f64>()
            .ok()
            .filter(|x| (lo..=hi).contains(x))
            .ok_or_else(|| format!("takes a number from {lo} to {hi}"))
    })
}

/// `--variants INI`, which every subcommand takes.
fn variants_file() -> Arg {
    opt(
        "variants",
        "INI",
        "load a user variants.ini on top of the built-in one",
    )
}

/// `--variant`, `--fen`, `--moves`: a position.
fn position_args(cmd: Command) -> Command {
    cmd.arg(opt("variant", "NAME", "the variant").default_value("chess"))
        .arg(opt(
            "fen",
            "FEN",
            "the position (default the start; an FP-FEN in foreignpolicy)",
        ))
        .arg(
            opt(
                "moves",
                "MOVE",
                "moves played from it (up to the next option or DEPTH)",
            )
            .action(ArgAction::Append),
        )
}

/// `--threads N`.
fn threads(default: &'static str) -> Arg {
    opt("threads", "N", "threads")
        .value_parser(value_parser!(u64).range(1..=1024))
        .default_value(default)
}

/// `--variant V` of datagen, tune and train: required, a two-player variant.
fn two_player_variant() -> Arg {
    opt("variant", "NAME", "the variant (two players)").required(true)
}

fn perft(name: &'static str, about: &'static str) -> Command {
    position_args(Command::new(name).about(about))
        .arg(threads("1"))
        .arg(variants_file())
        .arg(
            Arg::new("DEPTH")
                .required(true)
                .value_parser(value_parser!(u32).range(0..=64))
                .help("plies, 0 to 64"),
        )
}

fn datagen() -> Command {
    Command::new("datagen")
        .about("self-play games at K nodes a move from the start (or a random line of the book FILE, or with --variant fischerandom a random Chess960 start) plus P random plies, kept only if an N-node search finds them within 300 cp of level; writes quiet positions with White's result and search score: packed 32-byte records for train (docs/strength.md has the layout), or text lines 'FEN | RESULT | SCORE' for tune")
        .arg(two_player_variant())
        .arg(opt("games", "N", "games to play").required(true).value_parser(value_parser!(u64).range(1..=100_000_000)))
        .arg(opt("out", "FILE", "the data file written").required(true))
        .arg(opt("nodes", "K", "nodes a move").value_parser(value_parser!(u64).range(1..=1_000_000_000)).default_value("5000"))
        .arg(threads("1"))
        .arg(opt("seed", "S", "the random seed").value_parser(value_parser!(u64)).default_value("1"))
        .arg(opt("random-plies", "P", "random plies after the start").value_parser(value_parser!(u64).range(0..=200)).default_value("8"))
        .arg(opt("book", "FILE", "start from a random line of this EPD/FEN file"))
        .arg(opt("chess960", "single|double", "fischerandom: random start arrays (double: each side its own)").value_parser(["single", "double"]))
        .arg(opt("balance", "N", "keep an opening only if an N-node search finds it within 300 cp (0: no check)").value_parser(value_parser!(u64).range(0..=100_000_000)).default_value("0"))
        .arg(opt("format", "packed|text", "packed records for train, text lines for tune").value_parser(["packed", "text"]).default_value("packed"))
        .arg(opt("eval-file", "NET", "play with this net (a built-in name or a file made for the variant), or <none> for the rules-derived evaluation (default: the variant's own)"))
        .arg(variants_file())
}

fn tune() -> Command {
    Command::new("tune")
        .about("fit the evaluation weights (Texel method, Adam) to L * sigmoid(score) + (1 - L) * result, pulled to the built-in weights by C * sum((w - w0)^2) and kept within D of them; a share of the positions (blocks of 1000) is held out and the epoch with the best validation error is kept")
        .arg(two_player_variant())
        .arg(opt("data", "FILE", "datagen's text data").required(true))
        .arg(opt("epochs", "E", "epochs").value_parser(value_parser!(u64).range(0..=1_000_000)).default_value("300"))
        .arg(opt("rate", "R", "Adam's rate").value_parser(float_in(1e-9, 1e6)).default_value("1"))
        .arg(opt("lambda", "L", "the share of the score in the target").value_parser(float_in(0.0, 1.0)))
        .arg(opt("l2", "C", "the pull to the built-in weights").value_parser(float_in(0.0, 1e6)))
        .arg(opt("max-change", "D", "the largest change of a weight").value_parser(float_in(0.0, 1e6)))
        .arg(opt("validation", "F", "the share held out").value_parser(float_in(0.0, 0.5)))
        .arg(opt("write", "PATH", "rewrite the table of this weights.rs"))
        .arg(variants_file())
}

fn train() -> Command {
    Command::new("train")
        .about("fit a net (inputs -> H x 2 -> 1) to datagen's data (packed or text): target L * sigmoid(score/K) + (1 - L) * result (K fitted to the results unless given), Adam at rate R falling to R * F over E epochs; a share V is held out and the net of the best validation epoch is written (after every such epoch)")
        .arg(two_player_variant())
        .arg(opt("data", "FILE[,FILE...]", "datagen's files").required(true))
        .arg(opt("out", "NET", "the net file written").required(true))
        .arg(opt("hidden", "H", "hidden width").value_parser(value_parser!(u64).range(16..=crate::eval::nnue::file::MAX_HIDDEN as u64)))
        .arg(opt("epochs", "E", "epochs (default 20)").value_parser(value_parser!(u64).range(1..=100_000)))
        .arg(opt("batch", "B", "positions a batch").value_parser(value_parser!(u64).range(1..=10_000_000)))
        .arg(opt("rate", "R", "Adam's rate (default 0.001)").value_parser(float_in(1e-7, 1.0)))
        .arg(opt("final-rate", "F", "the last rate over the first (default 0.05)").value_parser(float_in(1e-6, 1.0)))
        .arg(opt("lambda", "L", "the share of the score in the target (default 0.5)").value_parser(float_in(0.0, 1.0)))
        .arg(opt("scale", "K", "the score scale in centipawns (default: fitted)").value_parser(float_in(1.0, 100_000.0)))
        .arg(opt("validation", "V", "the share held out (default 0.05)").value_parser(float_in(0.001, 0.5)))
        .arg(opt("seed", "S", "the random seed").value_parser(value_parser!(u64)))
        .arg(opt("threads", "T", "threads").value_parser(value_parser!(u64).range(1..=1024)))
        .arg(opt("mirror", "true|false", "also show each position reflected left to right (for rules symmetric that way)").value_parser(value_parser!(bool)))
        .arg(opt("init", "NET", "start from a net (a built-in name such as chess.nnue, or a file) with the same men and board and a hidden size no wider than --hidden (a narrower one is widened: the added values start silent)"))
        .arg(opt("turn-buckets", "true|false", "an output bucket per turn phase where turns have phases (the 007 family; default true)").value_parser(value_parser!(bool)))
        .arg(opt("men-buckets", "N", "output buckets by the men on the board, in equal bands (at most 8; 0: none; not with turn buckets)").value_parser(value_parser!(u64)))
        .arg(opt("king-buckets", "N", "input buckets by each side's king: 1, 2, 4 or 8 (by its rank and how near an edge file it stands; default 1)").value_parser(value_parser!(u8)))
        .arg(opt("king-mirror", "true|false", "each side sees its board reflected left to right while its king stands on the right half (default false)").value_parser(value_parser!(bool)))
        .arg(opt("checkpoint", "FILE", "keep the run's state here after every epoch, and go on from it when the run is started again with the same data and settings"))
        .arg(variants_file())
}

fn analyse() -> Command {
    Command::new("analyse")
        .visible_alias("analyze")
        .about("analyse whole games: search every position of each game in a PGN file (any variant; several games) and write the games back with [%eval] after every move, ?!/?/?? marks from the drop in expected score with the better line, and each player's accuracy and mark counts in the header (docs/analysis.md)")
        .arg(Arg::new("PGN").required(true).help("the PGN file ('-' reads standard input)"))
        .arg(opt("variant", "NAME", "the variant of games without a Variant tag (default chess)"))
        .arg(opt("movetime", "MS", "milliseconds a position (the default: 500)").value_parser(value_parser!(u64).range(1..=86_400_000)).conflicts_with_all(["depth", "nodes"]))
        .arg(opt("depth", "D", "search each position to this depth").value_parser(value_parser!(u32).range(1..=64)).conflicts_with("nodes"))
        .arg(opt("nodes", "N", "search each position for N nodes").value_parser(value_parser!(u64).range(1..=u64::MAX)))
        .arg(threads("1"))
        .arg(opt("hash", "MB", "hash table size (default 64)").value_parser(value_parser!(u64).range(1..=crate::engine::MAX_HASH_MB as u64)))
        .arg(opt("multipv", "N", "lines searched a position; a marked move shows them all (default 1)").value_parser(value_parser!(u64).range(1..=16)))
        .arg(opt("thresholds", "I,M,B", "losses of expected score that mark an inaccuracy, a mistake, a blunder (default 0.05,0.10,0.15)"))
        .arg(opt("out", "FILE", "write the annotated PGN here (default: standard output)"))
        .arg(Arg::new("quiet").long("quiet").action(ArgAction::SetTrue).help("no progress bar"))
        .arg(variants_file())
}

fn fitwdl() -> Command {
    Command::new("fitwdl")
        .about("fit the variant's win/draw/loss model (wdlModel = A B in variants.ini: P(win) = sigmoid((score - A) / B)) to datagen's data by maximum likelihood, and print how well it and the variant's present model predict the results")
        .arg(two_player_variant())
        .arg(opt("data", "FILE[,FILE...]", "datagen's files").required(true))
        .arg(variants_file())
}

fn learn() -> Command {
    Command::new("learn")
        .about("from a variant's rules to a net that plays it better: rounds of self-play with its best evaluation, a net trained on all the data (from the nearest net whose men and board fit, else from zero), and an SPRT of the new net against the evaluation it would replace; an accepted net is installed as WORK/VARIANT.nnue and the next round plays with it. Stop it at any moment: the same command resumes from the work folder (docs/nnue.md)")
        .arg(two_player_variant())
        .arg(opt("work", "DIR", "the work folder (default: a folder named after the variant in the current directory)"))
        .arg(threads("2"))
        .arg(opt("hours", "H", "stop once H hours are spent (the same command goes on later)").value_parser(float_in(0.0, 1e6)))
        .arg(opt("positions", "N", "positions each round's self-play adds").value_parser(value_parser!(u64).range(1..=10_000_000_000)).default_value("1500000"))
        .arg(opt("nodes", "K", "nodes a move in self-play").value_parser(value_parser!(u64).range(1..=1_000_000_000)).default_value("5000"))
        .arg(opt("chunk-games", "G", "games a data chunk (a stop loses at most one chunk)").value_parser(value_parser!(u64).range(1..=1_000_000)).default_value("200"))
        .arg(opt("seed", "S", "the run's seed").value_parser(value_parser!(u64)).default_value("1"))
        .arg(opt("hidden", "H", "hidden width (default: the start net's, else 256; a wider one widens the start net, a narrower one trains from zero)").value_parser(value_parser!(u64).range(16..=crate::eval::nnue::file::MAX_HIDDEN as u64)))
        .arg(opt("men-buckets", "N", "output buckets by the men on the board (at most 8; default none; a work folder keeps its choice)").value_parser(value_parser!(u64).range(0..=8)))
        .arg(opt("start", "NET", "the net the first round trains from: a built-in net (chess.nnue), a net file, or none (from zero); default the nearest whose men and board fit; a work folder keeps its choice"))
        .arg(opt("epochs", "E", "training epochs a round").value_parser(value_parser!(u64).range(1..=100_000)).default_value("20"))
        .arg(opt("lambda", "L", "the share of the search score in the training target (default 0.5; lower weighs the game results more)").value_parser(float_in(0.0, 1.0)))
        .arg(opt("rate", "R", "Adam's first rate in training (default 0.001; lower keeps more of a start net whose judgement carries over)").value_parser(float_in(1e-7, 1.0)))
        .arg(opt("mirror", "true|false", "also train on each position reflected left to right (for rules symmetric that way; default false)").value_parser(value_parser!(bool)))
        .arg(opt("tc", "TC", "the gate's time control, as chimera match's tc=").default_value("3+0.03"))
        .arg(opt("time-margin", "MS", "how late past its clock a gate's move may come before it loses on time, in milliseconds (match's timemargin=)").value_parser(value_parser!(u64).range(0..=60_000)).default_value("100"))
        .arg(opt("elo0", "E0", "the gate's SPRT: H0's Elo").value_parser(float_in(-1000.0, 1000.0)).default_value("0"))
        .arg(opt("elo1", "E1", "the gate's SPRT: H1's Elo").value_parser(float_in(-1000.0, 1000.0)).default_value("10"))
        .arg(opt("alpha", "A", "the gate's SPRT: false H1 rate").value_parser(float_in(0.001, 0.5)).default_value("0.05"))
        .arg(opt("beta", "B", "the gate's SPRT: false H0 rate").value_parser(float_in(0.001, 0.5)).default_value("0.05"))
        .arg(opt("gate-games", "N", "the most games a gate plays (undecided then ends the run)").value_parser(value_parser!(u64).range(2..=1_000_000)).default_value("2000"))
        .arg(opt("rounds", "R", "the most rounds").value_parser(value_parser!(u64).range(1..=1000)).default_value("10"))
        .arg(opt("chunks", "FIRST-LAST", "play only these data chunks of the round (numbered from 0) and stop: a share of the data for another machine or process, merged with --merge"))
        .arg(opt("merge", "DIR[,DIR...]", "copy in the data chunks of these work folders of the same run (variant and seed) that this one lacks, with their commands, then go on"))
        .arg(variants_file())
}

fn spsa() -> Command {
    Command::new("spsa")
        .about("tune the search's constants by SPSA (as fishtest and OpenBench do): game pairs between the engine with the constants moved up and with them moved down, each constant stepped towards the side that won; stop it at any moment, the same command resumes from the work folder (docs/strength.md, \"Tuning by SPSA\")")
        .arg(opt("variant", "NAME", "the variant the games are played in (two players)").default_value("chess"))
        .arg(opt("work", "DIR", "the work folder (default: spsa-VARIANT in the current directory)"))
        .arg(opt("iterations", "N", "iterations of the run (the schedule's length)").value_parser(value_parser!(u64).range(1..=10_000_000)).default_value("1000"))
        .arg(opt("pairs", "P", "game pairs an iteration").value_parser(value_parser!(u64).range(1..=1000)).default_value("1"))
        .arg(opt("concurrency", "N", "games played at once").value_parser(value_parser!(u64).range(1..=256)).default_value("2"))
        .arg(opt("tc", "TC", "the games' time control, as chimera match's tc=").default_value("2+0.02"))
        .arg(opt("nodes", "N", "nodes a move instead of --tc").value_parser(value_parser!(u64).range(1..=1_000_000_000)))
        .arg(opt("hash", "MB", "hash table of each engine").value_parser(value_parser!(u64).range(1..=crate::engine::MAX_HASH_MB as u64)).default_value("16"))
        .arg(opt("book", "FILE", "openings, one FEN or EPD a line (default: 200 balanced openings made by genfens into the work folder)"))
        .arg(opt("params", "NAMES", "the constants tuned, comma-separated (default: all; --list shows them)").default_value("all"))
        .arg(opt("seed", "S", "the run's seed").value_parser(value_parser!(u64)).default_value("1"))
        .arg(opt("r-end", "R", "the learning rate at the run's end: the last steps are R * c_end a unit of result (fishtest's r_end; default 0.002)").value_parser(float_in(0.000001, 10.0)))
        .arg(opt("engine", "BIN", "the chimera binary played (default: this one)"))
        .arg(opt("hours", "H", "stop once H hours are spent (the same command goes on later)").value_parser(float_in(0.0, 1e6)))
        .arg(Arg::new("list").long("list").action(ArgAction::SetTrue).help("print the tunable constants in OpenBench's SPSA format (name, int, default, min, max, c_end, r_end) and stop"))
        .arg(variants_file())
}

fn serve() -> Command {
    Command::new("serve")
        .about("a web board to play, analyse and watch any variant; localhost only unless --host says otherwise (docs/serve.md)")
        .arg(opt("port", "N", "the port (0: any free port)").value_parser(value_parser!(u16)).default_value("8080"))
        .arg(opt("host", "ADDR", "the address to listen on").value_parser(value_parser!(std::net::IpAddr)))
        .arg(opt("hash", "MB", "hash table a game").value_parser(value_parser!(u64).range(1..=crate::engine::MAX_HASH_MB as u64)))
        .arg(opt("threads", "N", "search threads a game").value_parser(value_parser!(u64).range(1..=crate::engine::MAX_THREADS as u64)))
        .arg(opt("max-games", "N", "games open at once").value_parser(value_parser!(u64).range(1..=10_000)))
        .arg(variants_file())
}

/// The whole grammar.
pub fn command() -> Command {
    Command::new("chimera")
        .version(env!("CARGO_PKG_VERSION"))
        .about("Chimera, a chess-variant engine: UCI and XBoard, and tools for its variants")
        .after_help(AFTER)
        .subcommand(perft("perft", "count the leaves of the legal move tree"))
        .subcommand(perft("divide", "perft per root move"))
        .subcommand(
            position_args(Command::new("moves").about("list the legal moves (canonical spelling, ASCII order)"))
                .arg(variants_file()),
        )
        .subcommand(
            Command::new("check")
                .about("validate a variants.ini file (built-in variants are its parents) and describe each of its variants")
                .arg(Arg::new("FILE").required(true).help("the variants.ini"))
                .arg(variants_file()),
        )
        .subcommand(
            Command::new("bench")
                .about("fixed-depth searches of fixed positions (one thread); the last line is the node-count signature `Bench: <nodes> nodes <nps> nps`")
                .arg(Arg::new("DEPTH").value_parser(value_parser!(u32).range(1..=30)).default_value("9").help("search depth, 1 to 30")),
        )
        .subcommand(
            Command::new("variants")
                .about("list every variant the protocols offer with its board and number of players")
                .arg(Arg::new("names").long("names").action(ArgAction::SetTrue).help("the names alone, one a line"))
                .arg(variants_file()),
        )
        .subcommand(datagen())
        .subcommand(tune())
        .subcommand(train())
        .subcommand(learn())
        .subcommand(fitwdl())
        .subcommand(spsa())
        .subcommand(analyse())
        .subcommand(serve())
}

/// The arguments as clap reads them: each move after `--moves` gets its own `--moves`, and
/// the list ends at the next option or at a plain number (DEPTH, never a move).
pub fn expand_moves(args: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < args.len() {
        if args[i] != "--moves" {
            out.push(args[i].clone());
            i += 1;
            continue;
        }
        i += 1;
        let mut any = false;
        while i < args.len()
            && !args[i].starts_with("--")
            && !args[i].bytes().all(|b| b.is_ascii_digit())
        {
            out.push("--moves".into());
            out.push(args[i].clone());
            any = true;
            i += 1;
        }
        if !any {
            // `--moves` with nothing after it: clap says the value is missing
            out.push("--moves".into());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn the_grammar_is_consistent() {
        command().debug_assert();
    }

    #[test]
    fn moves_end_at_an_option_or_a_number() {
        assert_eq!(
            expand_moves(&words("perft --moves e2e4 e7e5 2")),
            words("perft --moves e2e4 --moves e7e5 2")
        );
        assert_eq!(
            expand_moves(&words("perft --moves e2e4 --threads 2 1")),
            words("perft --moves e2e4 --threads 2 1")
        );
        let m = command()
            .try_get_matches_from(
                std::iter::once("chimera".to_string())
                    .chain(expand_moves(&words("divide --moves e2e4 e7e5 3"))),
            )
            .expect("valid");
        let (_, sub) = m.subcommand().expect("divide");
        let moves: Vec<&String> = sub.get_many("moves").expect("moves").collect();
        assert_eq!(moves, ["e2e4", "e7e5"]);
        assert_eq!(sub.get_one::<u32>("DEPTH"), Some(&3));
    }
}
