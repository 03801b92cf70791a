//! `chimera datagen` and `chimera tune` through the binary: datagen writes
//! `FEN | RESULT | SCORE` lines whose FENs load, whose results are 0, 0.5 or 1 and whose
//! scores are moderate; tune runs on a small file (three-field lines, or old two-field lines
//! with `--lambda 0`), holds out validation blocks and keeps the best epoch, and its `--write`
//! output reads back to the weights it printed; bad input gets a clear message (`FILE:LINE`
//! for a bad line) and a non-zero exit code.

use chimera::eval::weights::{FEATURES, WEIGHTS};
use chimera::position::Position;
use chimera::rules::builtin_variants;
use chimera::tune::{parse_line, parse_weights};
use std::path::PathBuf;
use std::process::{Command, Output};

fn chimera(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_chimera"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
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
    let source = include_str!("../src/eval/weights.rs");
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
            &format!("{option} takes a number"),
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
    fails_with(&["tune", "--variant", "chess"], "--data is required");
    fails_with(
        &["tune", "--variant", "chess", "--data", bad, "--epochs", "x"],
        "--epochs",
    );
    let datagen = |extra: &[&'static str]| -> Vec<String> {
        let mut a = vec!["datagen", "--games", "1", "--out", out];
        a.extend_from_slice(extra);
        a.into_iter().map(String::from).collect()
    };
    fails_with(&datagen(&["--variant", "foreignpolicy"]), "three players");
    fails_with(
        &datagen(&["--variant", "nosuch"]),
        "unknown variant 'nosuch'",
    );
    fails_with(&datagen(&["--variant", "chess", "--nodes", "0"]), "--nodes");
    fails_with(
        &datagen(&["--variant", "chess", "--bogus", "1"]),
        "unknown option '--bogus'",
    );
    fails_with(
        &datagen(&["--variant", "chess", "--games", "2"]),
        "--games is given twice",
    );
    fails_with(
        &["datagen", "--variant", "chess", "--out", out],
        "--games is required",
    );
    let _ = std::fs::remove_dir_all(&dir);
}
