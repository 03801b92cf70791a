//! `chimera learn` end to end on a tiny budget, in a variant written for the test (a 6x6
//! game no built-in net fits, loaded with `--variants`): it generates, trains from zero and
//! gates; the net it writes loads and plays; a run stopped by its time budget and started
//! again writes the same data and the same net as a run that was never stopped; and bad
//! input (another variant's work folder, a damaged manifest, three players, an unknown
//! variant) is refused by name with a non-zero exit.

use crate::tune::{chimera, scratch, uci};
use std::path::Path;
use std::process::Output;

const MINI: &str = "[minichess:chess]\nmaxFile = 6\nmaxRank = 6\n\
    startFen = rnqknr/pppppp/6/6/PPPPPP/RNQKNR w - - 0 1\ncastling = false\ndoubleStep = false\n";

/// `chimera learn` on minichess with a tiny budget, in `work`, with `extra` options.
fn learn(ini: &Path, work: &Path, extra: &[&str]) -> Output {
    let args = learn_args(ini, work, extra);
    chimera(&args.iter().map(String::as_str).collect::<Vec<_>>())
}

/// The arguments of [`learn`].
fn learn_args(ini: &Path, work: &Path, extra: &[&str]) -> Vec<String> {
    let mut args = vec![
        "learn",
        "--variants",
        ini.to_str().expect("utf-8"),
        "--variant",
        "minichess",
        "--work",
        work.to_str().expect("utf-8"),
        "--positions",
        "1200",
        "--nodes",
        "200",
        "--chunk-games",
        "8",
        "--epochs",
        "2",
        "--hidden",
        "32",
        "--tc",
        "1+0.01",
        "--gate-games",
        "2",
        "--rounds",
        "1",
    ];
    // an option in `extra` replaces the default given above
    for flag in extra.iter().filter(|a| a.starts_with("--")) {
        if let Some(i) = args.iter().position(|a| a == flag) {
            args.drain(i..i + 2);
        }
    }
    args.extend_from_slice(extra);
    args.into_iter().map(String::from).collect()
}

/// [`learn`] with files limited to `blocks` of 512 bytes (`ulimit -f`), so that a write
/// past it fails as on a full disk (`keep_going`: the signal ignored, the write returns an
/// error) or kills the process in the middle of the write.
#[cfg(unix)]
fn learn_limited(ini: &Path, work: &Path, blocks: u32, keep_going: bool) -> Output {
    let trap = if keep_going { "trap '' XFSZ; " } else { "" };
    std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("{trap}ulimit -f {blocks}; exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_chimera"))
        .args(learn_args(ini, work, &[]))
        .output()
        .expect("sh runs")
}

/// The files below `work` whose names end in `.part`.
fn parts(work: &Path) -> Vec<String> {
    let mut found = Vec::new();
    for dir in ["", "data", "nets", "gates"] {
        if let Ok(entries) = std::fs::read_dir(work.join(dir)) {
            for e in entries.flatten() {
                let name = e.file_name().to_string_lossy().to_string();
                if name.ends_with(".part") {
                    found.push(name);
                }
            }
        }
    }
    found
}

/// A disk that fills while `learn` writes (a file-size limit fails the write as a full disk
/// would) and a process killed in the middle of a write: the error names the file, no net is
/// installed, nothing half-written is left under a real name, and the data already written
/// is used by the next run, which installs its net.
#[cfg(unix)]
#[test]
fn a_full_disk_or_a_kill_while_writing_loses_nothing_written() {
    use std::os::unix::process::ExitStatusExt;
    let dir = scratch("full");
    let ini = dir.join("mini.ini");
    std::fs::write(&ini, MINI).expect("ini");
    let work = dir.join("w");
    let nets = work.join("nets");
    // 200 blocks (100 KB): the data chunks (about 12 KB) fit, the training checkpoint does not
    let o = learn_limited(&ini, &work, 200, true);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    let ckpt = nets.join("round-1.ckpt");
    assert!(
        err.contains(&format!("{}: File too large", ckpt.display())),
        "{err}"
    );
    let data = files(&work);
    assert!(
        data.iter().all(|f| f.0.ends_with(".bin")) && data.len() >= 2,
        "{data:?}"
    );
    assert!(parts(&work).is_empty(), "{:?}", parts(&work));
    // killed by the limit's signal in the middle of writing the checkpoint
    let o = learn_limited(&ini, &work, 200, false);
    assert_eq!(o.status.signal(), Some(25), "SIGXFSZ: {:?}", o.status);
    assert_eq!(parts(&work), ["round-1.ckpt.part"]);
    assert!(!ckpt.exists());
    assert!(
        files(&work) == data,
        "nothing installed, the data unchanged"
    );
    // room again: the run trains on the data it has and installs its net
    let o = learn(&ini, &work, &[]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(
        !err.contains("generate:"),
        "the data was played again: {err}"
    );
    assert!(parts(&work).is_empty(), "{:?}", parts(&work));
    assert!(nets.join("round-1.nnue").exists());
    let after = files(&work);
    assert!(
        data.iter().all(|f| after.contains(f)),
        "the chunks were rewritten"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every data chunk and net of a work folder, by name.
fn files(work: &Path) -> Vec<(String, Vec<u8>)> {
    let mut all = Vec::new();
    for dir in ["data", "nets"] {
        for entry in std::fs::read_dir(work.join(dir)).expect("folder").flatten() {
            let name = entry.file_name().to_string_lossy().to_string();
            if name.ends_with(".bin") || name.ends_with(".nnue") {
                all.push((name, std::fs::read(entry.path()).expect("readable")));
            }
        }
    }
    all.sort();
    all
}

#[test]
fn learn_runs_end_to_end_and_resumes_to_the_same_files() {
    let dir = scratch("e2e");
    let ini = dir.join("mini.ini");
    std::fs::write(&ini, MINI).expect("ini");
    let work = dir.join("straight");
    let o = learn(&ini, &work, &[]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    for part in [
        "training starts from zero",
        "round 1 generate",
        "positions/s",
        "epoch 2/2",
        "round 1 gate",
        "llr",
    ] {
        assert!(err.contains(part), "{part}: {err}");
    }
    let manifest = std::fs::read_to_string(work.join("learn.manifest")).expect("manifest");
    assert!(manifest.contains("variant = minichess") && manifest.contains("stage = done"));
    let report = std::fs::read_to_string(work.join("report.md")).expect("report");
    for part in [
        "chimera datagen",
        "chimera train",
        "chimera match",
        // the gate's default margin past the clock
        "timemargin=100",
        "round 1:",
    ] {
        assert!(report.contains(part), "{part}: {report}");
    }
    // the net the round wrote loads in the engine and plays the variant
    let net = work.join("nets").join("round-1.nnue");
    let script = format!(
        "setoption name VariantPath value {}\nsetoption name UCI_Variant value minichess\n\
         setoption name EvalFile value {}\nposition startpos\ngo nodes 2000\n",
        ini.display(),
        net.display()
    );
    let text = uci(&script);
    assert!(
        text.contains("minichess: NNUE evaluation with") && text.contains("bestmove"),
        "{text}"
    );
    // a finished folder: the same command only says so
    let o = learn(&ini, &work, &[]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success() && err.contains("resuming"), "{err}");
    assert!(!err.contains("generate:"), "{err}");

    // stopped by the budget, half-written files left behind, then started again
    let stopped = dir.join("stopped");
    let mut runs = 0;
    loop {
        let o = learn(&ini, &stopped, &["--hours", "0.0002"]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        runs += 1;
        let m = std::fs::read_to_string(stopped.join("learn.manifest")).expect("manifest");
        if !m.contains("stage = generate") || runs == 20 {
            break;
        }
        std::fs::write(stopped.join("data").join("round-1-0099.bin.part"), b"half").expect("write");
    }
    let o = learn(&ini, &stopped, &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(runs > 1, "the budget stopped no run");
    assert!(!stopped.join("data").join("round-1-0099.bin.part").exists());
    let (a, b) = (files(&work), files(&stopped));
    assert_eq!(
        a.iter().map(|f| &f.0).collect::<Vec<_>>(),
        b.iter().map(|f| &f.0).collect::<Vec<_>>()
    );
    assert!(a == b, "the same chunks and net after the stops");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A round's data split between two folders (as between two machines): one plays a range of
/// chunks with `--chunks`, the other plays the rest and `--merge`s the first's; the data, the
/// net and the commands are those of a run that played everything itself.
#[test]
fn learn_splits_a_round_by_chunks_and_merges_it() {
    let dir = scratch("split");
    let ini = dir.join("mini.ini");
    std::fs::write(&ini, MINI).expect("ini");
    let full = dir.join("full");
    let o = learn(&ini, &full, &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let chunks = std::fs::read_dir(full.join("data")).expect("data").count();
    assert!(chunks >= 2, "the round needs several chunks ({chunks})");

    let share = dir.join("share");
    let range = format!("1-{}", chunks - 1);
    let o = learn(&ini, &share, &["--chunks", &range]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(err.contains(&format!("chunk 1 of {range}")), "{err}");
    assert!(!share.join("data").join("round-1-0000.bin").exists());
    assert!(
        !share.join("nets").join("round-1.nnue").exists(),
        "a share trains nothing"
    );

    let main = dir.join("main");
    let o = learn(&ini, &main, &["--merge", share.to_str().expect("utf-8")]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains(&format!("{} chunk(s) copied", chunks - 1)),
        "{err}"
    );
    assert!(
        files(&main) == files(&full),
        "the same chunks and net as one machine's run"
    );
    let report = std::fs::read_to_string(main.join("report.md")).expect("report");
    assert_eq!(
        report.matches("chimera datagen").count(),
        chunks,
        "{report}"
    );
    assert!(!report.contains(share.to_str().expect("utf-8")), "{report}");

    // another run's folder is not merged; a range must read FIRST-LAST
    let other = dir.join("other");
    let o = learn(&ini, &other, &["--seed", "2", "--chunks", "0-0"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = learn(&ini, &main, &["--merge", other.to_str().expect("utf-8")]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("with seed 2"));
    let o = learn(&ini, &dir.join("bad"), &["--chunks", "5-2"]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("--chunks takes FIRST-LAST"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn learn_refuses_bad_input_by_name() {
    let dir = scratch("bad");
    let ini = dir.join("mini.ini");
    std::fs::write(&ini, MINI).expect("ini");
    let work = dir.join("w");
    let w = work.to_str().expect("utf-8");
    let fails = |args: &[&str], needle: &str| {
        let o = chimera(args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success(), "{args:?} succeeded");
        assert!(err.contains(needle), "{args:?}: '{err}' lacks '{needle}'");
    };
    fails(
        &["learn", "--variant", "nosuch"],
        "unknown variant 'nosuch'",
    );
    fails(&["learn", "--variant", "foreignpolicy"], "three players");
    // a folder of another variant, and a damaged manifest, are named
    std::fs::create_dir_all(&work).expect("folder");
    let manifest = work.join("learn.manifest");
    std::fs::write(
        &manifest,
        "variant = minichess\nseed = 1\nstart = none\nhidden = 32\nround = 1\nstage = done\nbest = -\n",
    )
    .expect("write");
    fails(
        &["learn", "--variant", "chess", "--work", w],
        "learns minichess, not chess",
    );
    // a folder that trains buckets by men goes on only with the same choice
    std::fs::write(
        &manifest,
        "variant = minichess\nseed = 1\nstart = none\nhidden = 32\nmen_buckets = 4\nround = 1\nstage = done\nbest = -\n",
    )
    .expect("write");
    fails(
        &[
            "learn",
            "--variants",
            ini.to_str().expect("utf-8"),
            "--variant",
            "minichess",
            "--work",
            w,
        ],
        "trains 4 output buckets by men, not 0 (give --men-buckets 4",
    );
    std::fs::write(&manifest, "variant = chess\nstage = cooking\n").expect("write");
    fails(
        &["learn", "--variant", "chess", "--work", w],
        "learn.manifest:2: unknown stage",
    );
    std::fs::write(&manifest, "variant = chess\n").expect("write");
    fails(
        &["learn", "--variant", "chess", "--work", w],
        "no 'seed' line",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--men-buckets`: the round's net has output buckets by men (net file version 4), the
/// report's train command says so, and the manifest keeps the choice.
#[test]
fn learn_trains_output_buckets_by_men() {
    let dir = scratch("men");
    let ini = dir.join("mini.ini");
    std::fs::write(&ini, MINI).expect("ini");
    let work = dir.join("w");
    let o = learn(&ini, &work, &["--men-buckets", "4"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let net = std::fs::read(work.join("nets").join("round-1.nnue")).expect("net");
    assert_eq!(net[8], 4, "format version 4");
    let parsed = chimera::eval::nnue::file::parse(&net).expect("parses");
    assert_eq!(
        (parsed.buckets, parsed.bucket_by),
        (4, chimera::eval::nnue::BucketBy::Men)
    );
    let manifest = std::fs::read_to_string(work.join("learn.manifest")).expect("manifest");
    assert!(manifest.contains("men_buckets = 4"), "{manifest}");
    let report = std::fs::read_to_string(work.join("report.md")).expect("report");
    assert!(report.contains("--men-buckets 4"), "{report}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--rate` and `--mirror` reach the training: the round's train command in the report says
/// them, and run as written it rebuilds the round's net byte for byte.
#[test]
fn learn_trains_at_the_rate_and_mirroring_asked_for() {
    let dir = scratch("rate");
    let ini = dir.join("mini.ini");
    std::fs::write(&ini, MINI).expect("ini");
    let work = dir.join("w");
    let o = learn(
        &ini,
        &work,
        &["--rate", "0.0005", "--mirror", "true", "--lambda", "0.8"],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let report = std::fs::read_to_string(work.join("report.md")).expect("report");
    let command = report
        .lines()
        .map(str::trim)
        .find(|l| l.starts_with("chimera train "))
        .unwrap_or_else(|| panic!("no train command: {report}"));
    assert!(
        command.contains(" --lambda 0.8 --rate 0.0005 --mirror true"),
        "{command}"
    );
    let again = dir.join("again.nnue");
    let mut args: Vec<String> = command
        .split_whitespace()
        .skip(1)
        .map(String::from)
        .collect();
    let out = args.iter().position(|a| a == "--out").expect("--out") + 1;
    args[out] = again.display().to_string();
    let o = chimera(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let net = std::fs::read(work.join("nets").join("round-1.nnue")).expect("net");
    assert!(net == std::fs::read(&again).expect("rebuilt"), "{command}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--start`: training starts from the net asked for (a file here; a built-in net by name),
/// the manifest keeps it, a resumed run asking for another is refused, and a net whose men
/// or board do not fit, or that cannot be read, is refused by name.
#[test]
fn learn_starts_from_the_net_asked_for() {
    let dir = scratch("start");
    let ini = dir.join("mini.ini");
    std::fs::write(&ini, MINI).expect("ini");
    let first = dir.join("first");
    let o = learn(&ini, &first, &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let net = std::path::absolute(first.join("nets").join("round-1.nnue")).expect("path");
    let net_text = net.to_str().expect("utf-8");
    let work = dir.join("second");
    let o = learn(&ini, &work, &["--start", net_text]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains(&format!("training starts from {net_text}"))
            && err.contains("round 1 train: ")
            && err.contains(&format!("from {net_text}")),
        "{err}"
    );
    let manifest = std::fs::read_to_string(work.join("learn.manifest")).expect("manifest");
    assert!(
        manifest.contains(&format!("start = {net_text}")),
        "{manifest}"
    );
    let refused = |work: &Path, start: &str, needle: &str| {
        let o = learn(&ini, work, &["--start", start]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success(), "--start {start} succeeded");
        assert!(
            err.contains(needle),
            "--start {start}: '{err}' lacks '{needle}'"
        );
    };
    refused(
        &work,
        "none",
        &format!("started from {net_text}, not none (give --start {net_text}"),
    );
    let fresh = dir.join("third");
    refused(
        &fresh,
        "chess.nnue",
        "--start chess.nnue: made for another game: the net's board is 8x8, the variant's 6x6",
    );
    let missing = dir.join("nosuch.nnue");
    refused(
        &fresh,
        missing.to_str().expect("utf-8"),
        "nosuch.nnue: cannot read it",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A run that ended on an undecided gate goes on with that gate when given more
/// `--gate-games`: the match resumes from its PGN, and the manifest keeps one line and one
/// command for the gate; the same or fewer games leave the run as it was.
#[test]
fn learn_goes_on_with_an_undecided_gate_when_given_more_games() {
    let dir = scratch("regate");
    let ini = dir.join("mini.ini");
    std::fs::write(&ini, MINI).expect("ini");
    let work = dir.join("w");
    let o = learn(&ini, &work, &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let manifest = || std::fs::read_to_string(work.join("learn.manifest")).expect("manifest");
    let games = || {
        std::fs::read_to_string(work.join("gates").join("round-1.pgn"))
            .expect("pgn")
            .matches("[Result ")
            .count()
    };
    assert!(manifest().contains("undecided"), "{}", manifest());
    assert_eq!(games(), 2);
    // as many games as before: nothing to do
    let o = learn(&ini, &work, &["--gate-games", "2"]);
    assert!(o.status.success());
    assert!(!String::from_utf8_lossy(&o.stderr).contains("going on"));
    assert_eq!(games(), 2);
    // more: the gate goes on from its 2 games
    let o = learn(&ini, &work, &["--gate-games", "6"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains("round 1 gate: undecided after 2 games; going on to at most 6"),
        "{err}"
    );
    let m = manifest();
    assert!(games() > 2, "{m}");
    assert_eq!(m.matches("gate = round 1:").count(), 1, "{m}");
    assert_eq!(m.matches("command = chimera match ").count(), 1, "{m}");
    assert!(m.contains("-rounds 3 "), "{m}");
    let _ = std::fs::remove_dir_all(&dir);
}
