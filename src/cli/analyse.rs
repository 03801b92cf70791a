//! `chimera analyse`: every game of a PGN file analysed and written back annotated
//! (`crate::analysis`), with a progress bar on standard error. A game that cannot be read
//! is reported and skipped; the others are still analysed and written.

use super::{count, value};
use crate::analysis::judge::Thresholds;
use crate::analysis::record::{read_records, GameRecord};
use crate::analysis::{analyse_game, annotate::annotated_pgn, configure, GameAnalysis, Settings};
use crate::engine::{Engine, SearchLimits};
use clap::ArgMatches;
use std::io::{IsTerminal, Write};
use std::time::Instant;

/// The settings the options ask for.
fn settings(m: &ArgMatches) -> Result<Settings, String> {
    let d = Settings::default();
    let limits = SearchLimits {
        depth: value(m, "depth"),
        nodes: value(m, "nodes"),
        movetime: value(m, "movetime"),
        ..Default::default()
    };
    let any = limits.depth.is_some() || limits.nodes.is_some() || limits.movetime.is_some();
    Ok(Settings {
        limits: if any { limits } else { d.limits },
        threads: count(m, "threads", d.threads),
        hash_mb: count(m, "hash", d.hash_mb),
        multipv: count(m, "multipv", d.multipv),
        thresholds: match value::<String>(m, "thresholds") {
            Some(t) => Thresholds::parse(&t).map_err(|e| format!("--thresholds: {e}"))?,
            None => d.thresholds,
        },
        line_plies: d.line_plies,
    })
}

/// The progress bar: games, positions and the time left at the pace so far.
struct Progress {
    shown: bool,
    start: Instant,
    total: usize,
    done: usize,
    games: usize,
}

impl Progress {
    fn draw(&self, game: usize, in_game: usize, of_game: usize) {
        if !self.shown {
            return;
        }
        const WIDTH: usize = 24;
        let filled = WIDTH * self.done / self.total.max(1);
        let elapsed = self.start.elapsed().as_secs_f64();
        let eta = if self.done > 0 {
            let left = elapsed / self.done as f64 * (self.total - self.done) as f64;
            format!("{}:{:02}", left as u64 / 60, left as u64 % 60)
        } else {
            "-".into()
        };
        eprint!(
            "\ranalyse: [{}{}] game {game}/{}, position {in_game}/{of_game}, ETA {eta}   ",
            "#".repeat(filled),
            "-".repeat(WIDTH - filled),
            self.games
        );
    }

    fn clear(&self) {
        if self.shown {
            eprint!("\r{}\r", " ".repeat(90));
        }
    }
}

/// One line about a game done, on standard error.
fn report(a: &GameAnalysis) {
    let players: Vec<String> = a
        .players
        .iter()
        .zip(&a.summaries)
        .map(|(p, s)| {
            let acc = s.accuracy.map_or("-".into(), |x| format!("{x:.1} %"));
            format!(
                "{p} {acc} ({} ?!, {} ?, {} ??)",
                s.inaccuracies, s.mistakes, s.blunders
            )
        })
        .collect();
    eprintln!(
        "analyse: game {} ({}, {} moves): {}",
        a.record.number,
        a.record.variant,
        a.moves.len(),
        players.join(", ")
    );
}

/// Runs `chimera analyse`.
pub fn run(m: &ArgMatches) -> Result<(), String> {
    crate::geometry::attacks::init();
    let path = value::<String>(m, "PGN").unwrap_or_default();
    let text = if path == "-" {
        let mut t = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut t)
            .map_err(|e| format!("standard input: {e}"))?;
        t
    } else {
        std::fs::read_to_string(&path).map_err(|e| format!("{path}: {e}"))?
    };
    let settings = settings(m)?;
    let mut engine = Engine::new();
    if let Some(ini) = value::<String>(m, "variants") {
        engine.load_variants(&ini).map_err(|e| e.to_string())?;
    }
    configure(&mut engine, &settings)?;
    let records = read_records(&text, value::<String>(m, "variant").as_deref(), &mut engine);
    if records.is_empty() {
        return Err(format!("{path}: no game in it"));
    }
    let mut out: Box<dyn Write> = match value::<String>(m, "out") {
        Some(f) => Box::new(std::fs::File::create(&f).map_err(|e| format!("{f}: {e}"))?),
        None => Box::new(std::io::stdout()),
    };
    let readable: Vec<&GameRecord> = records.iter().filter_map(|r| r.as_ref().ok()).collect();
    let mut progress = Progress {
        shown: !m.get_flag("quiet") && std::io::stderr().is_terminal(),
        start: Instant::now(),
        total: readable.iter().map(|r| r.moves.len() + 1).sum(),
        done: 0,
        games: records.len(),
    };
    let annotator = format!("Chimera {}", env!("CARGO_PKG_VERSION"));
    let mut failed = 0;
    for record in &records {
        let record = match record {
            Ok(r) => r,
            Err(e) => {
                progress.clear();
                eprintln!("analyse: {e}; skipped");
                failed += 1;
                continue;
            }
        };
        let before = progress.done;
        let positions = record.moves.len() + 1;
        let mut tick = |n: usize| {
            progress.done = before + n;
            progress.draw(record.number, n, positions);
        };
        match analyse_game(&mut engine, record, &settings, &mut tick, &|| false) {
            Ok(a) => {
                progress.clear();
                report(&a);
                out.write_all(annotated_pgn(&a, &annotator).as_bytes())
                    .and_then(|()| out.flush())
                    .map_err(|e| format!("cannot write the PGN: {e}"))?;
            }
            Err(e) => {
                progress.clear();
                eprintln!("analyse: game {}: {e}; skipped", record.number);
                failed += 1;
            }
        }
    }
    match failed {
        0 => Ok(()),
        n => Err(format!(
            "{n} of {} games could not be analysed (see above)",
            records.len()
        )),
    }
}
