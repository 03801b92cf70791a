//! `chimera learn`: from a variant's rules to a net that plays it better, in one command.
//!
//! A run is rounds of three stages, recorded in the work folder's manifest (`learn.manifest`)
//! after each step, so a stop at any moment resumes where it was:
//!
//! 1. **generate**: self-play with the best evaluation the variant has so far (its own at
//!    first, then the last accepted net), in chunks of games (`data/round-R-NNNN.bin`), each
//!    seeded from the run's seed, the round and its number and written whole; a stop loses
//!    at most the chunk being played.
//! 2. **train**: a net on every chunk so far, from the last accepted net, else the nearest
//!    net whose men and board fit (a built-in net such as chess's), else from zero; a
//!    checkpoint after every epoch (`nets/round-R.ckpt`).
//! 3. **gate**: the new net against the evaluation it would replace, by SPRT at a fast
//!    control (`chimera match` with `-resume`, games in `gates/round-R.pgn`). Accepted: the
//!    net is installed (`VARIANT.nnue` in the work folder, written whole) and the next round
//!    plays with it. Rejected or undecided: the run ends with the best net so far.
//!
//! Every file is written under a temporary name and renamed when whole (`write_whole`), so
//! nothing half-written is read or installed. The report (`report.md`) lists every command
//! that rebuilds the data and the nets, and every gate's result.

use super::datagen::{generate, DataFormat, DatagenConfig};
use super::packed::{read_header, RECORD_BYTES};
use super::train::{load, train, Data, TrainConfig};
use super::write_whole;
use crate::eval::nnue::{embedded, file, Network};
use crate::openings::genfens;
use crate::position::Variant;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

/// The manifest's file name in the work folder.
pub const MANIFEST: &str = "learn.manifest";

/// What `chimera learn` was asked for.
#[derive(Clone, Debug)]
pub struct LearnConfig {
    /// The variant (two colours).
    pub variant: String,
    /// A user variants.ini loaded on top of the built-in one (also given to the engines).
    pub variants_file: Option<String>,
    /// The work folder.
    pub work: PathBuf,
    /// Threads for generation and training, games at once in the gate.
    pub threads: usize,
    /// Wall-clock budget: no stage starts, and a gate stops, once it is spent.
    pub hours: Option<f64>,
    /// Positions each round's generation adds.
    pub positions: u64,
    /// Nodes a move in self-play.
    pub nodes: u64,
    /// Games a data chunk.
    pub chunk_games: usize,
    /// The run's seed.
    pub seed: u64,
    /// Hidden width when no net to start from fits; wider than the start net's widens it,
    /// narrower trains from zero.
    pub hidden: Option<usize>,
    /// Output buckets by the men on the board (0: as the trainer's default).
    pub men_buckets: usize,
    /// Training epochs a round.
    pub epochs: usize,
    /// The share of the search score in the training target (`None`: the trainer's default;
    /// lower weighs the game results more, for variants whose results the scores predict
    /// poorly).
    pub lambda: Option<f32>,
    /// Adam's first rate in training (`None`: the trainer's default); a lower rate keeps more
    /// of a start net whose judgement carries over.
    pub rate: Option<f32>,
    /// Also train on each position reflected left to right (for rules symmetric that way).
    pub mirror: bool,
    /// The gate's time control (`chimera match`'s `tc=`).
    pub tc: String,
    /// How far past its clock a gate's move may come before it loses on time, in
    /// milliseconds (`chimera match`'s `timemargin=`): a gate run beside other jobs should
    /// measure the nets, not the machine's lag.
    pub time_margin: u64,
    /// The gate's SPRT bounds and error rates.
    pub elo0: f64,
    /// See `elo0`.
    pub elo1: f64,
    /// See `elo0`.
    pub alpha: f64,
    /// See `elo0`.
    pub beta: f64,
    /// The most games a gate plays before it counts as undecided.
    pub gate_games: u32,
    /// The most rounds.
    pub rounds: usize,
    /// The net the first round trains from, instead of the nearest fitting one: a built-in
    /// net's name (`chess.nnue`), a net file, or `none` (from zero).
    pub start: Option<String>,
    /// The engine the gate runs (this binary).
    pub exe: PathBuf,
    /// Generate only these chunks of the current round (first and last number) and stop: a
    /// share of a round's data for another machine or process, merged by `merge`.
    pub chunks: Option<(usize, usize)>,
    /// Work folders of the same run (variant and seed) whose data chunks join this one's
    /// (each chunk this folder lacks is copied in, with the command that made it).
    pub merge: Vec<PathBuf>,
}

/// Where a round stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    Generate,
    Train,
    Gate,
    Done,
}

impl Stage {
    fn name(self) -> &'static str {
        match self {
            Stage::Generate => "generate",
            Stage::Train => "train",
            Stage::Gate => "gate",
            Stage::Done => "done",
        }
    }

    fn parse(s: &str) -> Option<Stage> {
        [Stage::Generate, Stage::Train, Stage::Gate, Stage::Done]
            .into_iter()
            .find(|st| st.name() == s)
    }
}

/// The work folder's record of a run.
#[derive(Clone, Debug)]
struct Manifest {
    variant: String,
    seed: u64,
    /// The net training starts from in round 1 (`none`: from zero).
    start: String,
    hidden: usize,
    /// Output buckets by men (0: none); written only when there are some, so folders made
    /// before the key existed read the same.
    men_buckets: usize,
    round: usize,
    stage: Stage,
    /// The accepted net (a file in the work folder), or `None`: the variant's own evaluation.
    best: Option<String>,
    /// One line per finished gate.
    gates: Vec<String>,
    /// Every command that rebuilds the data and the nets, in order.
    commands: Vec<String>,
}

impl Manifest {
    fn text(&self) -> String {
        let mut t = format!(
            "# chimera learn: the work folder of {}; read by 'chimera learn', do not edit\n\
             variant = {}\nseed = {}\nstart = {}\nhidden = {}\nround = {}\nstage = {}\nbest = {}\n",
            self.variant,
            self.variant,
            self.seed,
            self.start,
            self.hidden,
            self.round,
            self.stage.name(),
            self.best.as_deref().unwrap_or("-")
        );
        if self.men_buckets > 0 {
            t += &format!("men_buckets = {}\n", self.men_buckets);
        }
        for g in &self.gates {
            t += &format!("gate = {g}\n");
        }
        for c in &self.commands {
            t += &format!("command = {c}\n");
        }
        t
    }

    fn parse(text: &str, path: &Path) -> Result<Manifest, String> {
        let mut m = Manifest {
            variant: String::new(),
            seed: 0,
            start: String::new(),
            hidden: 0,
            men_buckets: 0,
            round: 0,
            stage: Stage::Generate,
            best: None,
            gates: Vec::new(),
            commands: Vec::new(),
        };
        let mut seen = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let bad = |why: &str| format!("{}:{}: {why}", path.display(), n + 1);
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (key, value) = line
                .split_once(" = ")
                .ok_or_else(|| bad("expected 'key = value'"))?;
            let number = |v: &str| v.parse::<u64>().map_err(|_| bad("not a number"));
            match key {
                "variant" => m.variant = value.to_string(),
                "seed" => m.seed = number(value)?,
                "start" => m.start = value.to_string(),
                "hidden" => m.hidden = number(value)? as usize,
                "men_buckets" => m.men_buckets = number(value)? as usize,
                "round" => m.round = number(value)? as usize,
                "stage" => m.stage = Stage::parse(value).ok_or_else(|| bad("unknown stage"))?,
                "best" => m.best = (value != "-").then(|| value.to_string()),
                "gate" => m.gates.push(value.to_string()),
                "command" => m.commands.push(value.to_string()),
                _ => return Err(bad(&format!("unknown key '{key}'"))),
            }
            seen.push(key);
        }
        for key in [
            "variant", "seed", "start", "hidden", "round", "stage", "best",
        ] {
            if !seen.contains(&key) {
                return Err(format!("{}: damaged: no '{key}' line", path.display()));
            }
        }
        // the trainer allocates `hidden` values per input and a net file holds at most
        // MAX_HIDDEN: a wider one could exhaust memory or train a net nothing can read
        let widest = file::MAX_HIDDEN;
        if m.men_buckets > file::MAX_BUCKETS {
            return Err(format!(
                "{}: damaged: {} output buckets by men (at most {})",
                path.display(),
                m.men_buckets,
                file::MAX_BUCKETS
            ));
        }
        if m.round == 0 || m.hidden == 0 || !m.hidden.is_multiple_of(16) || m.hidden > widest {
            return Err(format!(
                "{}: damaged: round {} or hidden {} out of range (round from 1, hidden a \
                 multiple of 16 up to {widest})",
                path.display(),
                m.round,
                m.hidden
            ));
        }
        Ok(m)
    }
}

/// How the run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LearnSummary {
    /// The accepted net, if any round's net passed its gate.
    pub best: Option<PathBuf>,
    /// Whether the run is finished (rather than stopped by its budget).
    pub finished: bool,
    /// Positions in the work folder's data.
    pub positions: u64,
}

/// The net a variant's training starts from: its own built-in net, the one it plays with
/// (`nnueVariant`), else any built-in net whose men and board are the variant's (chess's
/// first); with its name.
pub fn nearest_net(rules: &Variant) -> Option<(String, Arc<Network>)> {
    let mut names: Vec<&str> = Vec::new();
    if let Some(own) = &rules.nnue_file {
        names.push(own.name.as_str());
    }
    for name in embedded::built_in_names() {
        names.push(name);
    }
    let mut fitting: Vec<(String, Arc<Network>)> = names
        .into_iter()
        .filter_map(|name| {
            let net = embedded::built_in(name)?.ok()?;
            net.check_inputs(rules)
                .is_ok()
                .then(|| (name.to_string(), net))
        })
        .collect();
    // the variant's own, then the one it borrows, then chess's, then the rest in order
    let rank = |(name, net): &(String, Arc<Network>)| {
        let own = rules.nnue_file.as_ref().is_some_and(|f| &f.name == name);
        let borrowed = rules.nnue_variant.as_ref() == Some(&net.variant);
        (!own, !borrowed, name != "chess.nnue")
    };
    fitting.sort_by_key(rank);
    fitting.into_iter().next()
}

/// A line on the terminal for a stage's progress.
fn progress(line: &str) {
    eprintln!("learn: {line}");
}

/// Runs (or resumes) the pipeline for `rules`.
pub fn run(rules: &'static Variant, cfg: &LearnConfig) -> Result<LearnSummary, String> {
    let started = Instant::now();
    let deadline = cfg.hours.map(|h| h * 3600.0);
    let out_of_time = || deadline.is_some_and(|d| started.elapsed().as_secs_f64() >= d);
    for dir in ["", "data", "nets", "gates"] {
        let d = cfg.work.join(dir);
        std::fs::create_dir_all(&d).map_err(|e| format!("{}: {e}", d.display()))?;
    }
    remove_parts(&cfg.work)?;
    let mut m = open_manifest(rules, cfg)?;
    let manifest_path = cfg.work.join(MANIFEST);
    save(&manifest_path, &m)?;
    let book = cfg.work.join("book.fen");
    if !book.exists() {
        make_book(rules, cfg, &book, &mut m)?;
        save(&manifest_path, &m)?;
    }
    for other in &cfg.merge {
        merge_chunks(cfg, &mut m, other)?;
        save(&manifest_path, &m)?;
    }
    if let Some(range) = cfg.chunks {
        return generate_share(rules, cfg, &mut m, range, &out_of_time);
    }
    reopen_undecided_gate(cfg, &mut m);
    loop {
        if m.stage == Stage::Done {
            break;
        }
        if out_of_time() {
            progress("the time budget is spent; run the same command again to go on");
            break;
        }
        let stage = m.stage;
        match stage {
            Stage::Generate => {
                generate_round(rules, cfg, &mut m, &out_of_time)?;
                if round_positions(&cfg.work, m.round)? >= cfg.positions {
                    m.stage = Stage::Train;
                }
            }
            Stage::Train => {
                train_round(rules, cfg, &mut m)?;
                m.stage = Stage::Gate;
            }
            Stage::Gate => match gate_round(cfg, &mut m, deadline, started)? {
                Some(true) => {
                    let net = cfg
                        .work
                        .join("nets")
                        .join(format!("round-{}.nnue", m.round));
                    let installed = format!("{}.nnue", m.variant);
                    let bytes =
                        std::fs::read(&net).map_err(|e| format!("{}: {e}", net.display()))?;
                    write_whole(&cfg.work.join(&installed), &bytes)?;
                    m.best = Some(installed);
                    progress(&format!(
                        "round {} accepted: installed {}",
                        m.round,
                        cfg.work.join(m.best.as_deref().expect("set")).display()
                    ));
                    m.round += 1;
                    m.stage = if m.round > cfg.rounds {
                        Stage::Done
                    } else {
                        Stage::Generate
                    };
                }
                Some(false) => m.stage = Stage::Done,
                // stopped by the budget or from outside: the same command goes on
                None => break,
            },
            Stage::Done => {}
        }
        save(&manifest_path, &m)?;
        write_report(cfg, &m, None)?;
    }
    write_report(cfg, &m, Some(rules))?;
    Ok(LearnSummary {
        best: m.best.as_ref().map(|b| cfg.work.join(b)),
        finished: m.stage == Stage::Done,
        positions: all_chunks(&cfg.work)?.iter().map(|c| c.1).sum(),
    })
}

/// The manifest of the work folder, checked against the run asked for, or a new one.
fn open_manifest(rules: &'static Variant, cfg: &LearnConfig) -> Result<Manifest, String> {
    let path = cfg.work.join(MANIFEST);
    match std::fs::read_to_string(&path) {
        Ok(text) => {
            let m = Manifest::parse(&text, &path)?;
            if m.variant != rules.name {
                return Err(format!(
                    "{}: this work folder learns {}, not {} (give another --work)",
                    path.display(),
                    m.variant,
                    rules.name
                ));
            }
            if let Some(asked) = &cfg.start {
                let asked = start_name(asked);
                if asked != m.start {
                    return Err(format!(
                        "{}: this work folder's training started from {}, not {asked} (give \
                         --start {}, or another --work)",
                        path.display(),
                        m.start,
                        m.start
                    ));
                }
            }
            if m.men_buckets != cfg.men_buckets {
                return Err(format!(
                    "{}: this work folder trains {} output buckets by men, not {} (give \
                     --men-buckets {}, or another --work)",
                    path.display(),
                    m.men_buckets,
                    cfg.men_buckets,
                    m.men_buckets
                ));
            }
            progress(&format!(
                "resuming {} at round {}, stage {} (seed {})",
                path.display(),
                m.round,
                m.stage.name(),
                m.seed
            ));
            Ok(m)
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let start = match &cfg.start {
                Some(asked) => asked_start(rules, cfg, asked)?,
                None => {
                    nearest_net(rules).filter(|(_, net)| cfg.hidden.is_none_or(|h| h >= net.hidden))
                }
            }
            .map(|(name, net)| (name, net.hidden));
            let (start, hidden) = match start {
                Some((name, narrow)) => {
                    let hidden = cfg.hidden.unwrap_or(narrow);
                    let widened = if hidden > narrow {
                        format!(", widened from {narrow} to {hidden} hidden values")
                    } else {
                        String::new()
                    };
                    progress(&format!(
                        "{}: training starts from {name}, whose men and board fit{widened}",
                        rules.name
                    ));
                    (name, hidden)
                }
                None => {
                    let hidden = cfg.hidden.unwrap_or(TrainConfig::default().hidden);
                    progress(&format!(
                        "{}: no net fits (or --hidden asks for another width): training starts from zero, {hidden} hidden",
                        rules.name
                    ));
                    ("none".to_string(), hidden)
                }
            };
            Ok(Manifest {
                variant: rules.name.clone(),
                seed: cfg.seed,
                start,
                hidden,
                men_buckets: cfg.men_buckets,
                round: 1,
                stage: Stage::Generate,
                best: None,
                gates: Vec::new(),
                commands: Vec::new(),
            })
        }
        Err(e) => Err(format!("{}: {e}", path.display())),
    }
}

/// How a start net is named in the manifest: `none`, a built-in net's name, or a file's
/// absolute path.
fn start_name(asked: &str) -> String {
    if asked == "none" || embedded::built_in(asked).is_some() {
        asked.to_string()
    } else {
        absolute(Path::new(asked)).display().to_string()
    }
}

/// The net `name` names: a built-in net's name (`chess.nnue`) or a net file, loaded (what
/// `learn --start` and `train --init` take).
pub fn start_net(name: &str) -> Result<Arc<Network>, String> {
    match embedded::built_in(name) {
        Some(net) => net.map_err(|e| format!("built-in net {name}: {e}")),
        None => embedded::read(Path::new(name))
            .map(Arc::new)
            .map_err(|e| format!("{name}: {e}")),
    }
}

/// The start net `--start` asks for, checked against the variant's men and board and the
/// width asked for (`None`: from zero).
fn asked_start(
    rules: &Variant,
    cfg: &LearnConfig,
    asked: &str,
) -> Result<Option<(String, Arc<Network>)>, String> {
    if asked == "none" {
        return Ok(None);
    }
    let name = start_name(asked);
    let net = start_net(&name)?;
    net.check_inputs(rules)
        .map_err(|e| format!("--start {asked}: {e}"))?;
    if cfg.hidden.is_some_and(|h| h < net.hidden) {
        return Err(format!(
            "--start {asked}: the net has {} hidden values, more than --hidden asks for",
            net.hidden
        ));
    }
    Ok(Some((name, net)))
}

fn save(path: &Path, m: &Manifest) -> Result<(), String> {
    write_whole(path, m.text().as_bytes())
}

/// Deletes what a stop left half-written (`*.part`).
fn remove_parts(work: &Path) -> Result<(), String> {
    for dir in ["", "data", "nets", "gates"] {
        let d = work.join(dir);
        let entries = std::fs::read_dir(&d).map_err(|e| format!("{}: {e}", d.display()))?;
        for entry in entries.flatten() {
            let path = entry.path();
            if path.extension().is_some_and(|x| x == "part") {
                let _ = std::fs::remove_file(&path);
            }
        }
    }
    Ok(())
}

/// The chess-style options every command of the run shares.
fn variants_arg(cfg: &LearnConfig) -> String {
    cfg.variants_file
        .as_ref()
        .map_or(String::new(), |f| format!(" --variants {f}"))
}

/// The gate's openings: balanced openings as `genfens` makes them, one FEN a line.
fn make_book(
    rules: &'static Variant,
    cfg: &LearnConfig,
    path: &Path,
    m: &mut Manifest,
) -> Result<(), String> {
    let text = genfens::balanced_openings(rules, 200, m.seed)?;
    write_whole(path, text.as_bytes())?;
    m.commands.push(format!(
        "chimera \"genfens 200 seed {} book None variant {} plies 8 nodes 1000\" quit  # the gate's openings, {}{}",
        m.seed,
        rules.name,
        path.display(),
        variants_arg(cfg)
    ));
    Ok(())
}

/// Every data chunk in the work folder: its path, positions and round, in order.
fn all_chunks(work: &Path) -> Result<Vec<(PathBuf, u64, usize)>, String> {
    let dir = work.join("data");
    let mut chunks = Vec::new();
    let entries = std::fs::read_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for entry in entries.flatten() {
        let path = entry.path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        let Some(round) = name
            .strip_prefix("round-")
            .and_then(|r| r.split('-').next())
            .and_then(|r| r.parse::<usize>().ok())
        else {
            continue;
        };
        if !name.ends_with(".bin") {
            continue;
        }
        let io = |e: std::io::Error| format!("{}: {e}", path.display());
        let size = std::fs::metadata(&path).map_err(io)?.len();
        let mut head = Vec::new();
        std::io::Read::read_to_end(
            &mut std::io::Read::take(std::fs::File::open(&path).map_err(io)?, 512),
            &mut head,
        )
        .map_err(io)?;
        let (.., start) =
            read_header(&head).map_err(|e| format!("{}: damaged chunk: {e}", path.display()))?;
        chunks.push((path, (size - start as u64) / RECORD_BYTES as u64, round));
    }
    chunks.sort();
    Ok(chunks)
}

fn round_positions(work: &Path, round: usize) -> Result<u64, String> {
    Ok(all_chunks(work)?
        .iter()
        .filter(|c| c.2 == round)
        .map(|c| c.1)
        .sum())
}

/// The evaluation self-play and the gate's opponent use: the accepted net, or the variant's own.
fn best_eval(cfg: &LearnConfig, m: &Manifest) -> Option<String> {
    m.best
        .as_ref()
        .map(|b| absolute(&cfg.work.join(b)).display().to_string())
}

fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

/// Plays chunks of self-play until the round has its positions (or the time is spent).
fn generate_round(
    rules: &'static Variant,
    cfg: &LearnConfig,
    m: &mut Manifest,
    out_of_time: &dyn Fn() -> bool,
) -> Result<(), String> {
    let eval_file = best_eval(cfg, m);
    let started = Instant::now();
    let mut made = 0u64;
    loop {
        let have = round_positions(&cfg.work, m.round)?;
        if have >= cfg.positions || out_of_time() {
            return Ok(());
        }
        // the lowest number not yet played (merged shares may have filled later ones)
        let chunk = (0..)
            .find(|&i| !chunk_path(&cfg.work, m.round, i).exists())
            .expect("a free number");
        let stats = play_chunk(rules, cfg, m, chunk, eval_file.clone())?;
        made += stats.positions as u64;
        let rate = made as f64 / started.elapsed().as_secs_f64().max(1e-9);
        let left = cfg.positions.saturating_sub(have + stats.positions as u64);
        progress(&format!(
            "round {} generate: {}/{} positions, {rate:.0} positions/s, ETA {}",
            m.round,
            have + stats.positions as u64,
            cfg.positions,
            duration(left as f64 / rate.max(1e-9))
        ));
    }
}

/// The file of chunk `chunk` of round `round`.
fn chunk_path(work: &Path, round: usize, chunk: usize) -> PathBuf {
    work.join("data")
        .join(format!("round-{round}-{chunk:04}.bin"))
}

/// Plays chunk number `chunk` of the manifest's round (its seed from the run's seed, the
/// round and the number, so any machine plays the same games), writes it whole and records
/// its command.
fn play_chunk(
    rules: &'static Variant,
    cfg: &LearnConfig,
    m: &mut Manifest,
    chunk: usize,
    eval_file: Option<String>,
) -> Result<super::datagen::DatagenStats, String> {
    let seed = m
        .seed
        .wrapping_mul(1_000_003)
        .wrapping_add(m.round as u64 * 10_007 + chunk as u64);
    let dcfg = DatagenConfig {
        games: cfg.chunk_games,
        nodes: cfg.nodes,
        threads: cfg.threads,
        seed,
        random_plies: 8,
        book: None,
        chess960: None,
        balance_nodes: 1000,
        format: DataFormat::Packed,
        eval_file: eval_file.clone(),
    };
    let path = chunk_path(&cfg.work, m.round, chunk);
    let mut bytes = Vec::new();
    let stats = generate(rules, &dcfg, &mut bytes, false)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    write_whole(&path, &bytes)?;
    m.commands.push(format!(
        "chimera datagen --variant {} --games {} --nodes {} --threads {} --seed {seed} --balance 1000{}{} --out {}",
        rules.name,
        cfg.chunk_games,
        cfg.nodes,
        cfg.threads,
        eval_file.as_ref().map_or(String::new(), |e| format!(" --eval-file {e}")),
        variants_arg(cfg),
        path.display()
    ));
    save(&cfg.work.join(MANIFEST), m)?;
    Ok(stats)
}

/// `--chunks FIRST-LAST`: plays the chunks of the current round in that range that are not
/// there yet, then stops (no training, no gate).
fn generate_share(
    rules: &'static Variant,
    cfg: &LearnConfig,
    m: &mut Manifest,
    (first, last): (usize, usize),
    out_of_time: &dyn Fn() -> bool,
) -> Result<LearnSummary, String> {
    if m.stage != Stage::Generate {
        return Err(format!(
            "{}: the run is at the {} stage of round {}; --chunks plays a round's data (copy \
             the folder as it was while generating, or let the run go on)",
            cfg.work.join(MANIFEST).display(),
            m.stage.name(),
            m.round
        ));
    }
    let eval_file = best_eval(cfg, m);
    for chunk in first..=last {
        if out_of_time() {
            progress("the time budget is spent; run the same command again to go on");
            break;
        }
        if chunk_path(&cfg.work, m.round, chunk).exists() {
            continue;
        }
        let stats = play_chunk(rules, cfg, m, chunk, eval_file.clone())?;
        progress(&format!(
            "round {} chunk {chunk} of {first}-{last}: {} positions",
            m.round, stats.positions
        ));
    }
    Ok(LearnSummary {
        best: m.best.as_ref().map(|b| cfg.work.join(b)),
        finished: false,
        positions: all_chunks(&cfg.work)?.iter().map(|c| c.1).sum(),
    })
}

/// `--merge OTHER`: copies every data chunk of OTHER (a work folder of the same variant and
/// seed, e.g. one that played `--chunks` on another machine) that this folder lacks, with the
/// command that made it (its paths turned into this folder's).
fn merge_chunks(cfg: &LearnConfig, m: &mut Manifest, other: &Path) -> Result<(), String> {
    let other_manifest = other.join(MANIFEST);
    let text = std::fs::read_to_string(&other_manifest)
        .map_err(|e| format!("--merge {}: {e}", other_manifest.display()))?;
    let theirs = Manifest::parse(&text, &other_manifest)?;
    if theirs.variant != m.variant || theirs.seed != m.seed {
        return Err(format!(
            "--merge {}: that folder learns {} with seed {}, this one {} with seed {}: its \
             games are not this run's",
            other.display(),
            theirs.variant,
            theirs.seed,
            m.variant,
            m.seed
        ));
    }
    let (from, to) = (
        absolute(other).display().to_string(),
        absolute(&cfg.work).display().to_string(),
    );
    let mut copied = 0;
    for (path, positions, _) in all_chunks(other)? {
        let name = path.file_name().expect("a chunk file").to_owned();
        let target = cfg.work.join("data").join(&name);
        if target.exists() {
            continue;
        }
        let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        write_whole(&target, &bytes)?;
        let name = name.to_string_lossy().to_string();
        let made = theirs
            .commands
            .iter()
            .filter(|c| c.starts_with("chimera datagen ") && c.ends_with(&format!("/data/{name}")));
        for c in made {
            let c = c.replace(&from, &to).replace(
                &format!("{}/data/", other.display()),
                &format!("{}/data/", cfg.work.display()),
            );
            m.commands.push(c);
        }
        copied += 1;
        progress(&format!(
            "merged {name} ({positions} positions) from {}",
            other.display()
        ));
    }
    progress(&format!(
        "--merge {}: {copied} chunk(s) copied",
        other.display()
    ));
    Ok(())
}

fn duration(seconds: f64) -> String {
    let s = seconds.round() as u64;
    format!("{}h{:02}m{:02}s", s / 3600, s / 60 % 60, s % 60)
}

/// Trains the round's net on every chunk so far.
fn train_round(rules: &'static Variant, cfg: &LearnConfig, m: &mut Manifest) -> Result<(), String> {
    let chunks = all_chunks(&cfg.work)?;
    let mut data: Option<Data> = None;
    for (path, ..) in &chunks {
        let part = load(&path.display().to_string(), rules)?;
        match &mut data {
            None => data = Some(part),
            Some(d) => d.records.extend(part.records),
        }
    }
    let data = data.ok_or("no data to train on")?;
    let (init, init_name) = match &m.best {
        Some(b) => {
            let path = cfg.work.join(b);
            let net = embedded::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            (Some(Arc::new(net)), absolute(&path).display().to_string())
        }
        None if m.start != "none" => (Some(start_net(&m.start)?), m.start.clone()),
        None => (None, String::new()),
    };
    let nets = cfg.work.join("nets");
    let out = nets.join(format!("round-{}.nnue", m.round));
    let tcfg = TrainConfig {
        hidden: m.hidden,
        epochs: cfg.epochs,
        seed: m.seed + m.round as u64,
        threads: cfg.threads,
        init,
        checkpoint: Some(nets.join(format!("round-{}.ckpt", m.round))),
        lambda: cfg.lambda.unwrap_or(TrainConfig::default().lambda),
        rate: cfg.rate.unwrap_or(TrainConfig::default().rate),
        mirror: cfg.mirror,
        men_buckets: m.men_buckets,
        ..TrainConfig::default()
    };
    progress(&format!(
        "round {} train: {} positions from {} chunks, {}",
        m.round,
        data.records.len(),
        chunks.len(),
        if init_name.is_empty() {
            "from zero".to_string()
        } else {
            format!("from {init_name}")
        }
    ));
    let net = train(&data, &tcfg, |r, _, k| {
        progress(&format!(
            "round {} train: epoch {}/{}: train {:.6}, validation {:.6}, K {k:.0}, {:.1} s{}",
            m.round,
            r.epoch,
            cfg.epochs,
            r.train,
            r.validation,
            r.seconds,
            if r.best { " (best)" } else { "" }
        ));
    })?;
    write_whole(&out, &file::serialize(&net))?;
    let files: Vec<String> = chunks.iter().map(|c| c.0.display().to_string()).collect();
    m.commands.push(format!(
        "chimera train --variant {} --data {} --hidden {} --epochs {} --seed {} --threads {}{}{}{} --out {}",
        rules.name,
        files.join(","),
        m.hidden,
        cfg.epochs,
        tcfg.seed,
        cfg.threads,
        cfg.lambda
            .map_or_else(String::new, |l| format!(" --lambda {l}"))
            + &cfg.rate.map_or_else(String::new, |r| format!(" --rate {r}"))
            + if cfg.mirror { " --mirror true" } else { "" }
            + &match m.men_buckets {
                0 => String::new(),
                n => format!(" --men-buckets {n}"),
            },
        if init_name.is_empty() {
            String::new()
        } else {
            format!(" --init {init_name}")
        },
        variants_arg(cfg),
        out.display()
    ));
    Ok(())
}

/// The gate's `chimera match` arguments.
fn gate_args(cfg: &LearnConfig, m: &Manifest) -> Vec<String> {
    let exe = cfg.exe.display().to_string();
    let net = absolute(
        &cfg.work
            .join("nets")
            .join(format!("round-{}.nnue", m.round)),
    );
    let base = best_eval(cfg, m).unwrap_or_else(|| "<default>".to_string());
    let pgn = cfg
        .work
        .join("gates")
        .join(format!("round-{}.pgn", m.round));
    let mut each = format!(
        "tc={} timemargin={} option.Hash=16",
        cfg.tc, cfg.time_margin
    );
    if let Some(f) = &cfg.variants_file {
        each += &format!(" option.VariantPath={}", absolute(Path::new(f)).display());
    }
    let mut args: Vec<String> = vec!["match".into(), "-variant".into(), m.variant.clone()];
    if let Some(f) = &cfg.variants_file {
        args.extend(["-variants".into(), f.clone()]);
    }
    args.extend([
        "-engine".into(),
        format!("cmd={exe}"),
        format!("name=round-{}", m.round),
        format!("option.EvalFile={}", net.display()),
        "-engine".into(),
        format!("cmd={exe}"),
        "name=current".into(),
        format!("option.EvalFile={base}"),
        "-each".into(),
    ]);
    args.extend(each.split(' ').map(str::to_string));
    args.extend([
        "-games".into(),
        "2".into(),
        "-rounds".into(),
        cfg.gate_games.div_ceil(2).to_string(),
        "-repeat".into(),
        "-openings".into(),
        format!("file={}", cfg.work.join("book.fen").display()),
        "format=fen".into(),
        "order=random".into(),
        "-srand".into(),
        (m.seed + m.round as u64).to_string(),
        "-concurrency".into(),
        cfg.threads.to_string(),
        "-sprt".into(),
        format!("elo0={}", cfg.elo0),
        format!("elo1={}", cfg.elo1),
        format!("alpha={}", cfg.alpha),
        format!("beta={}", cfg.beta),
        "-ratinginterval".into(),
        "10".into(),
        "-pgnout".into(),
        pgn.display().to_string(),
        "-resume".into(),
    ]);
    args
}

/// Plays the gate: `Some(true)` H1, `Some(false)` H0 or undecided at the cap, `None` stopped by
/// the time budget (the games so far are kept for the resume).
fn gate_round(
    cfg: &LearnConfig,
    m: &mut Manifest,
    deadline: Option<f64>,
    started: Instant,
) -> Result<Option<bool>, String> {
    let args = gate_args(cfg, m);
    progress(&format!(
        "round {} gate: the new net against {} at {} (SPRT elo0 {} elo1 {}, at most {} games)",
        m.round,
        m.best.as_deref().unwrap_or("the variant's own evaluation"),
        cfg.tc,
        cfg.elo0,
        cfg.elo1,
        cfg.gate_games
    ));
    let mut child = std::process::Command::new(&cfg.exe)
        .args(&args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| format!("{}: {e}", cfg.exe.display()))?;
    let stdout = child.stdout.take().expect("piped");
    let pid = child.id();
    // the budget: a watcher asks the match to stop (SIGINT: it finishes its PGN)
    let stopped = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let watcher = deadline.map(|d| {
        let stopped = stopped.clone();
        std::thread::spawn(move || loop {
            if stopped.load(std::sync::atomic::Ordering::Relaxed) {
                return;
            }
            if started.elapsed().as_secs_f64() >= d {
                interrupt(pid);
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(500));
        })
    });
    let (mut score, mut sprt, mut elo) = (String::new(), String::new(), String::new());
    // the game pairs' outcomes (0 to 2 points), which the SPRT counts
    let mut pairs = String::new();
    for line in BufReader::new(stdout).lines().map_while(Result::ok) {
        if let Some(s) = line.strip_prefix("Score of ") {
            score = s.to_string();
        } else if let Some(s) = line.strip_prefix("SPRT: ") {
            if s != sprt {
                progress(&format!("round {} gate: {score}; {s}", m.round));
            }
            sprt = s.to_string();
        } else if let Some(s) = line.strip_prefix("Elo difference: ") {
            elo = s.to_string();
        } else if let Some(s) = line.strip_prefix("Ptnml(0-2): ") {
            pairs = format!("; pairs {s}");
        }
    }
    let status = child.wait().map_err(|e| e.to_string())?;
    stopped.store(true, std::sync::atomic::Ordering::Relaxed);
    if let Some(w) = watcher {
        let _ = w.join();
    }
    let mut stderr = String::new();
    if let Some(mut e) = child.stderr.take() {
        let _ = std::io::Read::read_to_string(&mut e, &mut stderr);
    }
    if status.code() == Some(130) {
        return Ok(None);
    }
    if !status.success() {
        return Err(format!("the gate's match failed: {}", stderr.trim()));
    }
    // the score line ends with the games played
    let played: u32 = score
        .split_whitespace()
        .last()
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    let verdict = if sprt.contains("H1 was accepted") {
        "H1 accepted"
    } else if sprt.contains("H0 was accepted") {
        "H0 accepted"
    } else if played >= cfg.gate_games {
        "undecided"
    } else {
        // ended early without a verdict (stopped from outside): the same command goes on
        progress(&format!(
            "round {} gate: the match ended after {played} of {} games without a verdict; run the same command again to go on",
            m.round, cfg.gate_games
        ));
        return Ok(None);
    };
    let line = format!(
        "round {}: {verdict}: {} (Score of {score}; Elo {elo}{pairs}; {sprt})",
        m.round,
        m.best.as_deref().unwrap_or("the variant's own evaluation"),
    );
    progress(&line);
    m.gates.push(line);
    let quoted: Vec<String> = args.iter().map(|a| shell_word(a)).collect();
    m.commands.push(format!("chimera {}", quoted.join(" ")));
    Ok(Some(verdict == "H1 accepted"))
}

/// The games an undecided gate's line says it played (`... [0.539] 400; ...`).
fn undecided_games(line: &str) -> Option<u32> {
    if !line.contains(": undecided: ") {
        return None;
    }
    let after = &line[line.find("] ")? + 2..];
    after[..after.find(';')?].trim().parse().ok()
}

/// A run that ended on an undecided gate goes on with it when asked for more games
/// (`--gate-games` above those played): the gate's match resumes from its PGN, and its old
/// line and command give way to the new ones.
fn reopen_undecided_gate(cfg: &LearnConfig, m: &mut Manifest) {
    if m.stage != Stage::Done {
        return;
    }
    let round = format!("round {}: ", m.round);
    let Some(played) = m
        .gates
        .last()
        .filter(|g| g.starts_with(&round))
        .and_then(|g| undecided_games(g))
    else {
        return;
    };
    if cfg.gate_games <= played {
        return;
    }
    progress(&format!(
        "round {} gate: undecided after {played} games; going on to at most {}",
        m.round, cfg.gate_games
    ));
    m.gates.pop();
    if let Some(i) = m
        .commands
        .iter()
        .rposition(|c| c.starts_with("chimera match "))
    {
        m.commands.remove(i);
    }
    m.stage = Stage::Gate;
}

/// `word` as a shell reads it back: quoted where it holds more than safe characters.
fn shell_word(word: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "-_=.,/+:@%".contains(c);
    if !word.is_empty() && word.chars().all(safe) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

#[cfg(unix)]
fn interrupt(pid: u32) {
    // SAFETY: sends a signal to our own child process.
    unsafe {
        libc::kill(pid as libc::pid_t, libc::SIGINT);
    }
}

#[cfg(not(unix))]
fn interrupt(_pid: u32) {}

/// The SHA-256 of a file, in hex.
pub fn sha256_file(path: &Path) -> Result<String, String> {
    use sha2::Digest;
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(sha2::Sha256::digest(&bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect())
}

/// The `wdlModel` line of the report: the model fitted to all the data (or why there is none).
fn wdl_line(rules: &'static Variant, chunks: &[(PathBuf, u64, usize)]) -> String {
    let mut outcomes = Vec::new();
    for (path, _, _) in chunks {
        match super::train::load(&path.to_string_lossy(), rules) {
            Ok(data) => outcomes.extend(super::wdl_fit::outcomes(&data)),
            Err(e) => return format!("- wdlModel: not fitted ({e})\n"),
        }
    }
    match super::wdl_fit::fit(&outcomes) {
        Ok(model) => format!(
            "- wdlModel = {model} (fitted to the data's {} positions: write it into the \
             variant's section so analysis and UCI's wdl read its scores right)\n",
            outcomes.len()
        ),
        Err(e) => format!("- wdlModel: not fitted ({e})\n"),
    }
}

/// `report.md`: the net, its hash, the data, every command and every gate; at the end of a
/// run (`rules` given) also the win/draw/loss model fitted to the data.
fn write_report(
    cfg: &LearnConfig,
    m: &Manifest,
    rules: Option<&'static Variant>,
) -> Result<(), String> {
    let chunks = all_chunks(&cfg.work)?;
    let positions: u64 = chunks.iter().map(|c| c.1).sum();
    let mut r = format!("# chimera learn: {}\n\n", m.variant);
    match &m.best {
        Some(b) => {
            let path = cfg.work.join(b);
            r += &format!(
                "- net: {} (sha256 {})\n- play it: `setoption name EvalFile value {}`, or `nnueFile = {}` in a variants.ini\n",
                path.display(),
                sha256_file(&path)?,
                absolute(&path).display(),
                absolute(&path).display()
            );
        }
        None => r += "- net: none accepted yet (the variant keeps its own evaluation)\n",
    }
    r += &format!(
        "- started from: {}; hidden {}; seed {}\n- data: {positions} positions in {} chunks ({} bytes)\n- now: round {}, stage {}\n\n## Gates\n\n",
        m.start,
        m.hidden,
        m.seed,
        chunks.len(),
        chunks
            .iter()
            .map(|c| std::fs::metadata(&c.0).map_or(0, |md| md.len()))
            .sum::<u64>(),
        m.round,
        m.stage.name()
    );
    if let Some(rules) = rules {
        r = r.replacen(
            "\n\n## Gates",
            &format!("\n{}\n## Gates", wdl_line(rules, &chunks)),
            1,
        );
    }
    for g in &m.gates {
        r += &format!("- {g}\n");
    }
    r += "\n## Commands\n\nEach rebuilds its file exactly (the gates' games depend on timing).\n\n";
    for c in &m.commands {
        r += &format!("    {c}\n");
    }
    write_whole(&cfg.work.join("report.md"), r.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Only an undecided gate's line is read for its games; a decided one, or a line damaged
    /// by hand, gives none (so no gate is reopened from it).
    #[test]
    fn the_games_of_an_undecided_gate_are_read_from_its_line() {
        let undecided = "round 1: undecided: the variant's own evaluation (Score of round-1 vs \
                         current: 213 - 182 - 5  [0.539] 400; Elo 27.0 +/- 34.0; llr 0.736)";
        assert_eq!(undecided_games(undecided), Some(400));
        let with_pairs = undecided.replace("34.0;", "34.0; pairs [3, 40, 90, 52, 15];");
        assert_eq!(undecided_games(&with_pairs), Some(400));
        let accepted = undecided.replace("undecided", "H1 accepted");
        assert_eq!(undecided_games(&accepted), None);
        assert_eq!(undecided_games("round 1: undecided: no score"), None);
        assert_eq!(undecided_games("round 1: undecided: [0.5] many;"), None);
    }

    /// A manifest whose hidden width is beyond what a net file holds is damaged: resuming it
    /// at its train stage asked the trainer for that many values per input (for 2^40, memory
    /// no process has) or trained a net no engine reads. The learn target of
    /// tests/suite/file_fuzz.rs fails on the old code (a manifest with hidden 65536 taken).
    #[test]
    fn a_manifest_wider_than_a_net_is_refused() {
        let text = |hidden: u64| {
            format!(
                "variant = chess\nseed = 1\nstart = none\nhidden = {hidden}\nround = 1\n\
                 stage = train\nbest = -\n"
            )
        };
        let path = Path::new("w/learn.manifest");
        assert!(Manifest::parse(&text(file::MAX_HIDDEN as u64), path).is_ok());
        for hidden in [file::MAX_HIDDEN as u64 + 16, 1 << 40] {
            let err = Manifest::parse(&text(hidden), path).expect_err("too wide");
            assert!(
                err.contains("w/learn.manifest") && err.contains(&format!("hidden {hidden}")),
                "{err}"
            );
        }
    }
}
