//! `chimera datagen` and `chimera tune` through the binary: datagen writes
//! `FEN | RESULT | SCORE` lines whose FENs load, whose results are 0, 0.5 or 1 and whose
//! scores are moderate; tune runs on a small file (three-field lines, or old two-field lines
//! with `--lambda 0`), holds out validation blocks and keeps the best epoch, and its `--write`
//! output reads back to the weights it printed; bad input gets a clear message (`FILE:LINE`
//! for a bad line) and a non-zero exit code. Datagen's packed records unpack to the positions
//! they were made from, and `chimera train` fits a net to them that the engine loads
//! (`EvalFile`) and plays with; damaged data is refused with the file and record named.

use chimera::eval::weights::{FEATURES, WEIGHTS};
use chimera::position::Position;
use chimera::rules::builtin_variants;
use chimera::tune::{parse_line, parse_weights};
use std::path::PathBuf;
use std::process::{Command, Output};

pub(crate) fn chimera(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_chimera"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// A fresh scratch directory for one test.
pub(crate) fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chimera-tune-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

/// Fails unless the command failed with a message containing `needle`.
fn fails_with<S: AsRef<str> + std::fmt::Debug>(args: &[S], needle: &str) {
    let args: Vec<&str> = args.iter().map(AsRef::as_ref).collect();
    let out = chimera(&args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{args:?} succeeded");
    assert!(
        err.contains(needle),
        "{args:?}: stderr '{err}' lacks '{needle}'"
    );
}

#[test]
fn datagen_writes_loadable_positions_with_results() {
    let dir = scratch("datagen");
    let file = dir.join("chess.txt");
    let path = file.to_str().expect("utf-8 path");
    let args = [
        "datagen",
        "--variant",
        "chess",
        "--games",
        "2",
        "--nodes",
        "500",
        "--out",
        path,
        "--format",
        "text",
    ];
    let out = chimera(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("positions/s"));
    let text = std::fs::read_to_string(&file).expect("data written");
    let chess = builtin_variants().get("chess").expect("chess");
    let mut lines = 0;
    for line in text.lines() {
        let d = parse_line(line).expect("a FEN | RESULT | SCORE line");
        assert!([0.0, 0.5, 1.0].contains(&d.result), "{line}");
        let score = d.score.expect("a score");
        assert!(score.abs() <= 1500.0 && score.fract() == 0.0, "{line}");
        Position::from_fen(chess, d.fen).expect("the FEN loads");
        lines += 1;
    }
    assert!(lines > 0, "no positions written");
    // the same seed gives the same file, whatever the number of threads
    let again = dir.join("again.txt");
    let again_path = again.to_str().expect("utf-8 path");
    let mut args2 = args.to_vec();
    args2[8] = again_path;
    args2.extend(["--threads", "2"]);
    assert!(chimera(&args2).status.success());
    assert_eq!(std::fs::read_to_string(&again).expect("written"), text);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Fails unless `weights` (a weights.rs) compiles as a module beside a `Score2`.
fn compiles(dir: &std::path::Path, weights: &str) {
    let krate = dir.join("krate");
    std::fs::create_dir_all(&krate).expect("directory");
    std::fs::write(krate.join("weights.rs"), weights).expect("write");
    std::fs::write(
        krate.join("lib.rs"),
        "#[derive(Clone, Copy)]\npub struct Score2 {\n    pub mg: i32,\n    pub eg: i32,\n}\n\
         pub mod weights;\n",
    )
    .expect("write");
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let out = Command::new(rustc)
        .args(["--edition", "2021", "--crate-type", "lib", "--out-dir"])
        .arg(&krate)
        .arg(krate.join("lib.rs"))
        .output()
        .expect("rustc runs");
    assert!(
        out.status.success(),
        "the written weights.rs does not compile:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Four positions with results and scores, a comment and a blank line.
const DATA: &str = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 | 1.0 | 30\n\
                    # a comment\n\
                    \n\
                    4k3/8/8/3P4/8/8/8/4K3 w - - 0 1 | 1.0 | 250\n\
                    4k3/pp6/8/8/8/8/8/4K3 b - - 0 1 | 0.0 | -310\n\
                    r3k2r/ppp2ppp/8/8/8/8/PPP2PPP/R3K2R w KQkq - 0 1 | 0.5 | 5\n";

/// Runs `chimera tune` on `data` (written to the scratch directory) with `--write` into a
/// copy of weights.rs and the `extra` options; returns standard output and the written file,
/// after checking that the printed table is the written one and that the file compiles.
fn tune_and_write(dir: &std::path::Path, data: &str, extra: &[&str]) -> (String, String) {
    let data_file = dir.join("data.txt");
    std::fs::write(&data_file, data).expect("data");
    let weights = dir.join("weights.rs");
    let source = include_str!("../../src/eval/weights.rs");
    std::fs::write(&weights, source).expect("copy of weights.rs");
    let mut args = vec![
        "tune",
        "--variant",
        "chess",
        "--data",
        data_file.to_str().expect("utf-8"),
        "--write",
        weights.to_str().expect("utf-8"),
    ];
    args.extend_from_slice(extra);
    let out = chimera(&args);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // the printed new weights are the written ones
    let written = std::fs::read_to_string(&weights).expect("rewritten");
    let table = parse_weights(&written).expect("the table parses");
    assert_eq!(table.len(), FEATURES);
    for (f, w) in table.iter().enumerate() {
        let name = chimera::eval::weights::feature_name(f);
        let row = stdout
            .lines()
            .find(|l| l.starts_with(&format!("{name:28} ")))
            .expect("a row per feature");
        assert!(
            row.ends_with(&format!("{}, {}", w.mg, w.eg)),
            "{row} vs {w:?}"
        );
    }
    compiles(dir, &written);
    // the rest of the file is untouched, and the old table parses as WEIGHTS
    let head = &source[..source.find("pub const WEIGHTS").expect("table")];
    assert!(written.starts_with(head));
    assert_eq!(parse_weights(source).expect("parses"), WEIGHTS.to_vec());
    (stdout, written)
}

#[test]
fn tune_runs_and_writes_a_table_that_reads_back() {
    let dir = scratch("tune");
    let (stdout, written) = tune_and_write(&dir, DATA, &["--epochs", "30"]);
    assert!(
        stdout.contains("K = ") && stdout.contains("lambda 0.5"),
        "{stdout}"
    );
    // four positions are less than a validation block: all train, the last epoch is kept
    assert!(
        stdout.contains("4 for training, 0 for validation"),
        "{stdout}"
    );
    assert!(stdout.contains("epoch   25  train "), "{stdout}");
    assert!(
        stdout.contains("no validation positions: last epoch 30"),
        "{stdout}"
    );
    assert!(written.contains("4 positions of"), "header: {written}");
    assert!(written.contains("lambda 0.5, l2 1e-7, no validation positions: last epoch 30"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn old_two_field_lines_tune_with_lambda_zero_only() {
    let dir = scratch("old");
    let old: String = DATA
        .lines()
        .map(|l| match l.rsplit_once(" | ") {
            Some((head, _)) if l.matches('|').count() == 2 => format!("{head}\n"),
            _ => format!("{l}\n"),
        })
        .collect();
    assert!(
        old.contains("KQkq - 0 1 | 1.0\n") && !old.contains("| 30"),
        "{old}"
    );
    let (stdout, _) = tune_and_write(&dir, &old, &["--epochs", "5", "--lambda", "0"]);
    assert!(stdout.contains("lambda 0\n"), "{stdout}");
    let file = dir.join("old.txt");
    std::fs::write(&file, &old).expect("data");
    let path = file.to_str().expect("utf-8");
    fails_with(
        &["tune", "--variant", "chess", "--data", path],
        &format!("{path}:1: no score"),
    );
    fails_with(
        &[
            "tune",
            "--variant",
            "chess",
            "--data",
            path,
            "--lambda",
            "0.1",
        ],
        "--lambda 0",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_last_line_cut_by_a_stopped_datagen_is_skipped() {
    let dir = scratch("cut");
    let whole = DATA.lines().filter(|l| l.contains('|')).count();
    // the end of a stopped run: a result cut from 0.5 to "0." still parses as a number
    let cut_line = "4k3/8/8/3P4/8/8/8/4K3 w - - 0 1 | 0.";
    let file = dir.join("cut.txt");
    std::fs::write(&file, format!("{DATA}{cut_line}")).expect("data");
    let path = file.to_str().expect("utf-8");
    let args = [
        "tune",
        "--variant",
        "chess",
        "--data",
        path,
        "--epochs",
        "5",
    ];
    let out = chimera(&args);
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("has no line end"), "{stderr}");
    assert!(
        stdout.contains(&format!("loaded {whole} positions")),
        "{stdout}"
    );
    // the same line with its line end is the file's own and is judged as such
    std::fs::write(&file, format!("{DATA}{cut_line}\n")).expect("data");
    let lines = DATA.lines().count() + 1;
    fails_with(&args, &format!("{path}:{lines}: no score"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_best_validation_epoch_is_written() {
    let dir = scratch("valid");
    let mut data = String::new();
    for _ in 0..500 {
        data.push_str(DATA);
    }
    // 2000 positions, blocks of 1000: with --validation 0.5 the second block is held out
    let (stdout, written) = tune_and_write(
        &dir,
        &data,
        &["--epochs", "60", "--validation", "0.5", "--max-change", "3"],
    );
    assert!(
        stdout.contains("1000 for training, 1000 for validation"),
        "{stdout}"
    );
    let line = stdout
        .lines()
        .find(|l| l.starts_with("best validation error "))
        .expect("the best epoch is named");
    assert!(line.contains(" at epoch "), "{line}");
    assert!(stdout.contains("epoch   50  train 0."), "{stdout}");
    assert!(
        stdout
            .lines()
            .filter(|l| l.starts_with("epoch "))
            .all(|l| l.contains("validation 0.")),
        "{stdout}"
    );
    assert!(written.contains(line), "header: {written}");
    // --max-change 3: no weight moved by more than 3
    let table = parse_weights(&written).expect("parses");
    for (new, old) in table.iter().zip(WEIGHTS.iter()) {
        assert!((new.mg - old.mg).abs() <= 3 && (new.eg - old.eg).abs() <= 3);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_input_is_refused_with_a_message() {
    let dir = scratch("bad");
    let bad = dir.join("bad.txt");
    std::fs::write(
        &bad,
        "4k3/8/8/3P4/8/8/8/4K3 w - - 0 1 | 1.0 | 10\n4k3/8/8/8 w - - | 0.5 | 0\n",
    )
    .expect("file");
    let bad = bad.to_str().expect("utf-8");
    let no_bar = dir.join("nobar.txt");
    std::fs::write(&no_bar, "4k3/8/8/3P4/8/8/8/4K3 w - - 0 1\n").expect("file");
    let no_bar = no_bar.to_str().expect("utf-8");
    let bad_score = dir.join("badscore.txt");
    std::fs::write(
        &bad_score,
        "4k3/8/8/3P4/8/8/8/4K3 w - - 0 1 | 1.0 | 20\n\n4k3/8/8/3P4/8/8/8/4K3 w - - 0 1 | 1.0 | x\n",
    )
    .expect("file");
    let bad_score = bad_score.to_str().expect("utf-8");
    let missing = dir.join("missing.txt");
    let missing = missing.to_str().expect("utf-8");
    let out = dir.join("out.txt");
    let out = out.to_str().expect("utf-8");
    fails_with(&["tune", "--variant", "chess", "--data", missing], missing);
    fails_with(
        &["tune", "--variant", "chess", "--data", bad],
        &format!("{bad}:2:"),
    );
    fails_with(
        &["tune", "--variant", "chess", "--data", no_bar],
        &format!("{no_bar}:1:"),
    );
    fails_with(
        &["tune", "--variant", "chess", "--data", bad_score],
        &format!("{bad_score}:3: score 'x' is not a number"),
    );
    for (option, value) in [
        ("--lambda", "1.5"),
        ("--l2", "-1"),
        ("--max-change", "x"),
        ("--validation", "0.9"),
    ] {
        fails_with(
            &[
                "tune",
                "--variant",
                "chess",
                "--data",
                bad_score,
                option,
                value,
            ],
            &format!("invalid value '{value}' for '{option} "),
        );
    }
    fails_with(
        &["tune", "--variant", "nosuch", "--data", bad],
        "unknown variant 'nosuch'",
    );
    fails_with(
        &["tune", "--variant", "foreignpolicy", "--data", bad],
        "three players",
    );
    fails_with(
        &["tune", "--variant", "chess"],
        "required arguments were not provided:\n  --data <FILE>",
    );
    fails_with(
        &["tune", "--variant", "chess", "--data", bad, "--epochs", "x"],
        "--epochs",
    );
    let datagen = |extra: &[&'static str]| -> Vec<String> {
        let mut a = vec!["datagen", "--games", "1", "--out", out];
        a.extend_from_slice(extra);
        a.into_iter().map(String::from).collect()
    };
    fails_with(
        &datagen(&["--variant", "foreignpolicy", "--format", "text"]),
        "--format is for two-colour variants",
    );
    fails_with(
        &datagen(&["--variant", "nosuch"]),
        "unknown variant 'nosuch'",
    );
    fails_with(&datagen(&["--variant", "chess", "--nodes", "0"]), "--nodes");
    fails_with(
        &datagen(&["--variant", "chess", "--bogus", "1"]),
        "unexpected argument '--bogus'",
    );
    fails_with(
        &datagen(&["--variant", "chess", "--games", "2"]),
        "'--games <N>' cannot be used multiple times",
    );
    fails_with(
        &["datagen", "--variant", "chess", "--out", out],
        "required arguments were not provided:\n  --games <N>",
    );
    fails_with(
        &datagen(&["--variant", "chess", "--format", "csv"]),
        "invalid value 'csv' for '--format <packed|text>'",
    );
    fails_with(
        &datagen(&["--variant", "chess", "--book", "/no/such/book.epd"]),
        "/no/such/book.epd",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Packed data from datagen: the header names the variant, every record unpacks to men on the
/// board of both colours with a result and a moderate score, the same seed gives the same
/// bytes on any number of threads, and the text format of the same games holds the same
/// positions.
#[test]
fn packed_datagen_records_are_the_games_positions() {
    use chimera::learn::packed::{read_header, unpack, Layout, RECORD_BYTES};
    let dir = scratch("packed");
    let bin = dir.join("chess.bin");
    let txt = dir.join("chess.txt");
    let run = |out: &std::path::Path, extra: &[&str]| {
        let mut args = vec![
            "datagen",
            "--variant",
            "chess",
            "--games",
            "2",
            "--nodes",
            "400",
            "--seed",
            "5",
            "--out",
        ];
        args.push(out.to_str().expect("utf-8"));
        args.extend_from_slice(extra);
        let o = chimera(&args);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    };
    run(&bin, &[]);
    run(&txt, &["--format", "text"]);
    let bytes = std::fs::read(&bin).expect("written");
    let (variant, letters, files, ranks, start) = read_header(&bytes).expect("header");
    let chess = builtin_variants().get("chess").expect("chess");
    let layout = Layout::new(chess).expect("layout");
    assert_eq!((variant.as_str(), files, ranks), ("chess", 8, 8));
    assert_eq!(letters, layout.letters);
    let body = &bytes[start..];
    assert_eq!(body.len() % RECORD_BYTES, 0);
    let text = std::fs::read_to_string(&txt).expect("written");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        body.len() / RECORD_BYTES,
        lines.len(),
        "same positions in both formats"
    );
    for (chunk, line) in body.chunks_exact(RECORD_BYTES).zip(&lines) {
        let r = unpack(chunk.try_into().expect("record"), letters.len()).expect("unpacks");
        let d = parse_line(line).expect("line");
        let pos = Position::from_fen(chess, d.fen).expect("fen");
        assert_eq!(r.men.len(), pos.occupied().count() as usize, "{line}");
        for &(sq, colour, slot) in &r.men {
            let man = pos.piece_at(sq);
            assert!(man.is_some(), "{line}: nothing on {sq:?}");
            assert_eq!(man.color(), colour, "{line}");
            assert_eq!(
                layout.type_of_slot(slot as usize),
                Some(man.kind()),
                "{line}"
            );
        }
        assert_eq!(r.white_score as f64, d.score.expect("score"), "{line}");
        assert_eq!(r.white_half_points as f64, d.result * 2.0, "{line}");
        assert_eq!(r.stm, pos.side_to_move(), "{line}");
    }
    let again = dir.join("again.bin");
    run(&again, &["--threads", "2"]);
    assert_eq!(std::fs::read(&again).expect("written"), bytes);
    // --eval-file: the built-in net by name is chess's own evaluation; without a net the
    // scores are the rules-derived evaluation's
    let named = dir.join("named.bin");
    run(&named, &["--eval-file", "chess.nnue"]);
    assert_eq!(std::fs::read(&named).expect("written"), bytes);
    let rules_only = dir.join("rules.bin");
    run(&rules_only, &["--eval-file", "<none>"]);
    assert_ne!(std::fs::read(&rules_only).expect("written"), bytes);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `datagen --eval-file` refuses a net of another variant or a file that is no net before
/// it writes anything.
#[test]
fn datagen_refuses_an_eval_file_that_does_not_fit() {
    let dir = scratch("evalfile");
    let out = dir.join("never.bin");
    let out_s = out.to_str().expect("utf-8");
    let args = |net: &str| {
        [
            "datagen",
            "--variant",
            "espionage",
            "--games",
            "1",
            "--eval-file",
            net,
            "--out",
            out_s,
        ]
        .map(String::from)
    };
    fails_with(
        &args("chess.nnue"),
        "built-in net chess.nnue: made for another game: the net is for 'chess', the variant is 'espionage'",
    );
    let not_a_net = dir.join("notes.txt");
    std::fs::write(&not_a_net, "not a net").expect("write");
    fails_with(
        &args(not_a_net.to_str().expect("utf-8")),
        "not a Chimera net (no CHIMNNUE magic)",
    );
    assert!(!out.exists(), "nothing written");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `chimera train` on datagen's output writes a net the engine loads and searches with;
/// a damaged data file, a net for another variant, and a file that is no net are refused
/// with messages that name the file, and the engine keeps its evaluation.
#[test]
fn train_writes_a_net_the_engine_plays_with() {
    let dir = scratch("train");
    let data = dir.join("data.bin");
    let net = dir.join("tiny.nnue");
    let (data_s, net_s) = (data.to_str().expect("utf-8"), net.to_str().expect("utf-8"));
    let o = chimera(&[
        "datagen",
        "--variant",
        "chess",
        "--games",
        "4",
        "--nodes",
        "300",
        "--out",
        data_s,
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // a small net on the data, written to `out`, with `extra` options
    let train = |data: &str, out: &str, extra: &[&str]| {
        let mut args = vec![
            "train",
            "--variant",
            "chess",
            "--data",
            data,
            "--out",
            out,
            "--hidden",
            "16",
            "--batch",
            "64",
            "--validation",
            "0.3",
        ];
        args.extend_from_slice(extra);
        chimera(&args)
    };
    let o = train(data_s, net_s, &["--epochs", "3"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains("epoch 3/3") && err.contains("net written"),
        "{err}"
    );
    let bytes = std::fs::read(&net).expect("net written");
    assert_eq!(&bytes[..8], b"CHIMNNUE");
    // the same command gives the same net, on any number of threads
    let net2 = dir.join("tiny2.nnue");
    let o = train(
        data_s,
        net2.to_str().expect("utf-8"),
        &["--epochs", "3", "--threads", "2"],
    );
    assert!(o.status.success());
    assert_eq!(
        std::fs::read(&net2).expect("written"),
        bytes,
        "reproducible"
    );

    // the engine plays with it, and refuses what is not a net; a net of another variant
    // waits for that variant (referees and GUIs send EvalFile before UCI_Variant)
    let text = uci(&format!(
        "uci\nsetoption name EvalFile value {data_s}\nsetoption name UCI_Variant value espionage\n\
         setoption name EvalFile value {net_s}\n\
         setoption name UCI_Variant value chess\nposition startpos\ngo depth 3\n"
    ));
    assert!(text.contains("bestmove"), "{text}");
    assert!(
        text.contains("not a Chimera net") && text.contains("evaluation unchanged"),
        "{text}"
    );
    let waiting = format!(
        "info string EvalFile {net_s} is a net for chess, used when chess is chosen; \
         espionage: rules-derived evaluation (no net)"
    );
    let used = format!("info string chess: NNUE evaluation with {net_s}");
    let (w, u) = (text.find(&waiting), text.find(&used));
    assert!(
        w.is_some() && u.is_some() && w < u,
        "kept for chess, then used there: {text}"
    );

    // damaged data: a cut record is dropped with a warning; a bad record is named
    let mut cut = std::fs::read(&data).expect("data");
    cut.truncate(cut.len() - 5);
    let cut_path = dir.join("cut.bin");
    std::fs::write(&cut_path, &cut).expect("write");
    let o = train(cut_path.to_str().expect("utf-8"), net_s, &["--epochs", "1"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stderr).contains("cut short"));
    let mut bad = std::fs::read(&data).expect("data");
    let (.., start) = chimera::learn::packed::read_header(&bad).expect("header");
    bad[start + 32 + 26] = 7; // the second record's result byte
    let bad_path = dir.join("bad.bin");
    std::fs::write(&bad_path, &bad).expect("write");
    fails_with(
        &[
            "train",
            "--variant",
            "chess",
            "--data",
            bad_path.to_str().expect("utf-8"),
            "--out",
            net_s,
        ],
        "record 2",
    );
    fails_with(
        &[
            "train",
            "--variant",
            "espionage",
            "--data",
            data_s,
            "--out",
            net_s,
        ],
        "the data is for chess",
    );
    fails_with(
        &[
            "train",
            "--variant",
            "chess",
            "--data",
            data_s,
            "--out",
            net_s,
            "--hidden",
            "24",
        ],
        "multiple of 16",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs a UCI script that ends with a `go` through the binary, waits for its `bestmove`, then
/// quits; returns what it printed.
pub(crate) fn uci(script: &str) -> String {
    use std::io::{BufRead, Write};
    let mut child = Command::new(env!("CARGO_BIN_EXE_chimera"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("runs");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(script.as_bytes()).expect("written");
    stdin.flush().expect("flushed");
    let mut text = String::new();
    let mut lines = std::io::BufReader::new(child.stdout.take().expect("stdout")).lines();
    for line in lines.by_ref() {
        let line = line.expect("utf-8");
        text.push_str(&line);
        text.push('\n');
        if line.starts_with("bestmove") {
            break;
        }
    }
    let _ = stdin.write_all(b"quit\n");
    drop(stdin);
    child.wait().expect("ends");
    text
}

/// A variant names its net in variants.ini (`nnueFile`, relative to the file): the engine
/// evaluates with it; a child variant does not inherit it; a net made for another variant is
/// refused by name when asked for.
#[test]
fn a_variants_file_names_its_net() {
    use chimera::eval::nnue::{file, Network};
    let dir = scratch("nnuefile");
    let net_for = |variant: &str| Network {
        variant: variant.into(),
        letters: "pnbrqk".into(),
        files: 8,
        ranks: 8,
        hidden: 16,
        scale: 400,
        ft_weights: (0..768 * 16)
            .map(|i| ((i * 7919) % 61) as i16 - 30)
            .collect(),
        ft_bias: vec![40; 16],
        buckets: 1,
        held_inputs: 0,
        kings: Default::default(),
        bucket_by: Default::default(),
        out_weights: (0..32).map(|i| (i % 9) as i16 - 4).collect(),
        out_bias: vec![0],
    };
    std::fs::write(dir.join("mine.nnue"), file::serialize(&net_for("mychess"))).expect("write");
    std::fs::write(dir.join("other.nnue"), file::serialize(&net_for("chess"))).expect("write");
    let ini = dir.join("mine.ini");
    std::fs::write(
        &ini,
        "[mychess:chess]\nnnueFile = mine.nnue\n[child:mychess]\n[wrong:chess]\nnnueFile = other.nnue\n\
         [alias:chess]\nnnueFile = other.nnue\nnnueVariant = chess\n",
    )
    .expect("write");
    let ini_s = ini.to_str().expect("utf-8");
    let text = uci(&format!(
        "uci\nsetoption name VariantPath value {ini_s}\nsetoption name UCI_Variant value mychess\n\
         setoption name EvalFile value <default>\nsetoption name UCI_Variant value child\n\
         setoption name EvalFile value <default>\nsetoption name UCI_Variant value wrong\n\
         setoption name EvalFile value <default>\nsetoption name UCI_Variant value alias\n\
         setoption name EvalFile value <default>\nposition startpos\ngo depth 2\n"
    ));
    assert!(
        text.contains("info string mychess: NNUE evaluation with") && text.contains("mine.nnue"),
        "{text}"
    );
    assert!(
        text.contains("info string child: rules-derived evaluation (no net)"),
        "{text}"
    );
    assert!(
        text.contains(
            "other.nnue: made for another game: the net is for 'chess', the variant is 'wrong'"
        ),
        "{text}"
    );
    // a variant may accept another variant's nets by name (fischerandom plays chess's)
    assert!(
        text.contains("info string alias: NNUE evaluation with") && text.contains("other.nnue"),
        "{text}"
    );
    assert!(text.contains("bestmove"), "the engine goes on: {text}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// OpenBench's call, word for word: one argument holding the command, then `quit`; the
/// client reads the `info string genfens` lines and splits each FEN into six fields.
#[test]
fn genfens_answers_openbench() {
    let out = chimera(&["genfens 5 seed 31337 book None", "quit"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let fens: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("info string genfens "))
        .collect();
    assert_eq!(fens.len(), 5, "{text}");
    let chess = builtin_variants().get("chess").expect("chess");
    for fen in &fens {
        assert_eq!(fen.split_whitespace().count(), 6, "{fen}");
        Position::from_fen(chess, fen).expect("a legal chess position");
    }
    let again = chimera(&["genfens 5 seed 31337 book None", "quit"]);
    assert_eq!(
        again.stdout, out.stdout,
        "the same seed gives the same openings"
    );
    fails_with(
        &["genfens 5 seed 1 book /no/such/book.epd"],
        "no/such/book.epd",
    );
    fails_with(
        &["genfens 5 seed 1 book None variant nosuch"],
        "unknown variant",
    );
    fails_with(
        &["genfens five seed 1 book None"],
        "N must be a whole number",
    );
}

/// XBoard's `option EvalFile=...`: a missing file is an error naming it, `<none>` and
/// `<default>` switch between the rules-derived evaluation and the built-in net.
#[test]
fn xboard_sets_the_eval_file() {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_chimera"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(
            b"xboard\nprotover 2\noption EvalFile=/no/such/net.nnue\noption EvalFile=<none>\n\
              option EvalFile=<default>\nquit\n",
        )
        .expect("written");
    let out = child.wait_with_output().expect("ends");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("feature option=\"EvalFile -file <default>\""),
        "{text}"
    );
    assert!(
        text.contains("Error (EvalFile /no/such/net.nnue: cannot read it"),
        "{text}"
    );
    assert!(
        text.contains("# chess: rules-derived evaluation (no net)"),
        "{text}"
    );
    assert!(
        text.contains("# chess: NNUE evaluation with built-in net chess.nnue"),
        "{text}"
    );
}

/// `datagen --chess960`: games of fischerandom from random Chess960 arrays, the same for both
/// sides (single) or each side its own (double); refused outside a Chess960 variant.
#[test]
fn datagen_starts_from_chess960_arrays() {
    let dir = scratch("chess960");
    let first_fen = |mode: &str| {
        let out = dir.join(format!("{mode}.txt"));
        let o = out.to_str().expect("utf-8");
        let r = chimera(&[
            "datagen",
            "--variant",
            "fischerandom",
            "--chess960",
            mode,
            "--games",
            "1",
            "--nodes",
            "200",
            "--random-plies",
            "0",
            "--seed",
            "3",
            "--format",
            "text",
            "--out",
            o,
        ]);
        assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
        let text = std::fs::read_to_string(&out).expect("written");
        text.lines()
            .next()
            .expect("a position")
            .split('|')
            .next()
            .unwrap()
            .trim()
            .to_string()
    };
    let ranks = |fen: &str| {
        let rows: Vec<&str> = fen.split(' ').next().expect("board").split('/').collect();
        (rows[0].to_string(), rows[7].to_string())
    };
    let (black, white) = ranks(&first_fen("single"));
    assert_eq!(
        black.to_ascii_uppercase(),
        white,
        "one array for both sides"
    );
    assert_ne!(
        white, "RNBQKBNR",
        "a Chess960 array (seed 3 does not draw 518)"
    );
    let (black, white) = ranks(&first_fen("double"));
    assert_ne!(black.to_ascii_uppercase(), white, "each side its own array");
    fails_with(
        &[
            "datagen",
            "--variant",
            "chess",
            "--chess960",
            "single",
            "--games",
            "1",
            "--out",
            dir.join("x.bin").to_str().expect("utf-8"),
        ],
        "need a Chess960 variant",
    );
    fails_with(
        &[
            "datagen",
            "--variant",
            "fischerandom",
            "--chess960",
            "triple",
            "--games",
            "1",
            "--out",
            dir.join("y.bin").to_str().expect("utf-8"),
        ],
        "[possible values: single, double]",
    );
    let _ = std::fs::remove_dir_all(&dir);
}
