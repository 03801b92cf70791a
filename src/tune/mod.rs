//! The evaluation tuner: `chimera datagen` plays the engine against itself and writes quiet
//! positions with the game results and the search's scores ([`crate::learn::datagen`]); `chimera tune`
//! reads them, traces each position's evaluation and fits the weights of `eval/weights.rs` to
//! a blend of results and scores, pulled towards the built-in weights and stopped at the
//! epoch with the best validation error ([`texel`]); this module reads the data file, splits
//! it and rewrites the weights table.
//! docs/strength.md ("Tuning") gives the commands and the method.

pub mod spsa;
pub mod texel;

use crate::eval::weights::{feature_name, FEATURES, WEIGHTS};
use crate::eval::{EvalParams, Score2};
pub use crate::learn::{parse_line, DataLine};
use crate::position::{Position, Variant};
use std::io::Write;
use std::time::Instant;
use texel::{Dataset, Objective, Progress, Schedule};

/// The line that opens the weights table in `eval/weights.rs`.
pub const WEIGHTS_OPENING: &str = "pub const WEIGHTS: [Score2; FEATURES] = [";

/// Reads a data file and traces every position with `eval` (blank lines and lines starting
/// with `#` are skipped); with `need_scores` a line without a score is an error. Errors name
/// the file and line.
pub fn load_data(
    path: &str,
    rules: &'static Variant,
    eval: &EvalParams,
    need_scores: bool,
) -> Result<Dataset, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let mut data = Dataset::new();
    for (n, line) in whole_lines(path, &text).lines().enumerate() {
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        let at = |e: String| format!("{path}:{}: {e}", n + 1);
        let d = parse_line(line).map_err(at)?;
        if need_scores && d.score.is_none() {
            return Err(at(NO_SCORE.into()));
        }
        let pos = Position::from_fen(rules, d.fen)
            .map_err(|e| at(format!("bad FEN '{}': {e}", d.fen)))?;
        data.push_trace(&eval.trace(&pos), d.result, d.score);
    }
    if data.is_empty() {
        return Err(format!("{path}: no positions"));
    }
    Ok(data)
}

/// `text` without a last line that lacks its line end: `datagen` ends every line, so such a
/// line was cut when a run was stopped, and a cut result or score can still parse (`0.` for
/// `0.5`, `-7` for `-71`). It is dropped with a warning on standard error.
fn whole_lines<'t>(path: &str, text: &'t str) -> &'t str {
    if text.is_empty() || text.ends_with('\n') {
        return text;
    }
    let end = text.rfind('\n').map_or(0, |i| i + 1);
    eprintln!(
        "{path}: the last line has no line end (cut by a stopped datagen?) and is skipped: {}",
        &text[end..]
    );
    &text[..end]
}

/// The error for a two-field line when the target blends in the scores.
const NO_SCORE: &str = "no score (a 'FEN | RESULT' line): data without scores can only be \
                        tuned with --lambda 0";

/// The body of the weights table: a header comment, then one `s(mg, eg), // name` line per
/// feature, the names aligned as rustfmt aligns them.
pub fn weights_body(weights: &[Score2], header: &str) -> String {
    let items: Vec<String> = weights
        .iter()
        .map(|w| format!("s({}, {}),", w.mg, w.eg))
        .collect();
    let width = items.iter().map(String::len).max().unwrap_or(0);
    let mut out = format!("    // {header}\n");
    for (f, item) in items.iter().enumerate() {
        out.push_str(&format!("    {item:width$} // {}\n", feature_name(f)));
    }
    out
}

/// `source` (the text of a weights.rs) with its weights table replaced.
pub fn rewrite_weights(source: &str, weights: &[Score2], header: &str) -> Result<String, String> {
    let open = source
        .find(WEIGHTS_OPENING)
        .ok_or_else(|| format!("no '{WEIGHTS_OPENING}' line"))?;
    let body = open + WEIGHTS_OPENING.len() + 1;
    let close = source[body..]
        .find("\n];")
        .map(|i| body + i + 1)
        .ok_or("the weights table does not end with a '];' line")?;
    Ok(format!(
        "{}{}{}",
        &source[..body],
        weights_body(weights, header),
        &source[close..]
    ))
}

/// The weights table of a weights.rs text, read back.
pub fn parse_weights(source: &str) -> Result<Vec<Score2>, String> {
    let open = source
        .find(WEIGHTS_OPENING)
        .ok_or_else(|| format!("no '{WEIGHTS_OPENING}' line"))?;
    let table = &source[open + WEIGHTS_OPENING.len()..];
    let table = &table[..table.find("\n];").ok_or("unterminated weights table")?];
    let mut out = Vec::new();
    for line in table.lines().map(str::trim) {
        let Some(args) = line.strip_prefix("s(") else {
            continue;
        };
        let args = args.split(')').next().unwrap_or("");
        let (mg, eg) = args.split_once(',').ok_or(format!("bad line '{line}'"))?;
        let num = |t: &str| {
            t.trim()
                .parse::<i32>()
                .map_err(|_| format!("bad line '{line}'"))
        };
        out.push(Score2 {
            mg: num(mg)?,
            eg: num(eg)?,
        });
    }
    Ok(out)
}

/// What `chimera tune` was asked for.
#[derive(Clone, Debug)]
pub struct TuneConfig {
    /// The data file (`FEN | RESULT | SCORE` or `FEN | RESULT` lines).
    pub data: String,
    /// Adam epochs.
    pub epochs: usize,
    /// Adam step size.
    pub rate: f64,
    /// The share of the search's score in the target (0: the results alone).
    pub lambda: f64,
    /// The L2 coefficient pulling the weights towards the built-in ones.
    pub l2: f64,
    /// The most a weight may move from the built-in one (`None`: no limit).
    pub max_change: Option<f64>,
    /// The share of the positions held out for validation.
    pub validation: f64,
    /// A weights.rs whose table is rewritten.
    pub write: Option<String>,
}

/// Every how many epochs the errors are printed.
pub const REPORT_EVERY: usize = 25;
/// Positions per validation block (a block holds about a dozen games whole).
pub const VALIDATION_BLOCK: usize = 1000;
/// Default `--lambda`.
pub const DEFAULT_LAMBDA: f64 = 0.5;
/// Default `--l2` (docs/strength.md, "Tuning", says why).
pub const DEFAULT_L2: f64 = 1e-7;
/// Default `--validation`.
pub const DEFAULT_VALIDATION: f64 = 0.1;

/// Runs `chimera tune`: loads, traces and splits the data, fits K, blends the targets, tunes,
/// prints old and new weights to `out` and rewrites the weights file if asked.
pub fn run_tune(
    rules: &'static Variant,
    cfg: &TuneConfig,
    out: &mut dyn Write,
) -> Result<(), String> {
    crate::geometry::attacks::init();
    let io = |e: std::io::Error| e.to_string();
    let start = Instant::now();
    let eval = EvalParams::new(rules);
    let all = load_data(&cfg.data, rules, &eval, cfg.lambda > 0.0)?;
    let (mut train, mut valid) = all.split(cfg.validation, VALIDATION_BLOCK);
    if train.is_empty() {
        return Err(format!("{}: no training positions", cfg.data));
    }
    writeln!(
        out,
        "loaded {} positions in {:.1} s: {} for training, {} for validation",
        all.len(),
        start.elapsed().as_secs_f64(),
        train.len(),
        valid.len()
    )
    .map_err(io)?;
    let prior = texel::to_pairs(&WEIGHTS);
    let k = texel::fit_k(&train, &prior);
    train.blend(k, cfg.lambda)?;
    valid.blend(k, cfg.lambda)?;
    writeln!(
        out,
        "K = {k:.4} (fitted on the results), lambda {}",
        cfg.lambda
    )
    .map_err(io)?;
    let obj = Objective {
        k,
        l2: cfg.l2,
        prior: &prior,
    };
    let schedule = Schedule {
        epochs: cfg.epochs,
        rate: cfg.rate,
        report_every: REPORT_EVERY,
        max_change: cfg.max_change,
    };
    let tuned = texel::tune(&train, &valid, &obj, &prior, schedule, |p| {
        let _ = writeln!(out, "{}", progress_line(&p));
    });
    writeln!(out, "tuned in {:.1} s", start.elapsed().as_secs_f64()).map_err(io)?;
    writeln!(out, "{}", best_line(&tuned.best_at)).map_err(io)?;
    let new = texel::to_scores(&tuned.best);
    print_table(&new, out).map_err(io)?;
    if let Some(path) = &cfg.write {
        let header = format!(
            "tuned: {} positions of {}, lambda {}, l2 {:e}, {}",
            all.len(),
            cfg.data,
            cfg.lambda,
            cfg.l2,
            best_line(&tuned.best_at)
        );
        write_weights(path, &new, &header)?;
        writeln!(out, "wrote {path}").map_err(io)?;
    }
    Ok(())
}

/// `epoch E  train T  validation V` (`-` without validation positions).
fn progress_line(p: &Progress) -> String {
    let v = p.validation.map_or("-".into(), |v| format!("{v:.6}"));
    format!("epoch {:4}  train {:.6}  validation {v}", p.epoch, p.train)
}

/// The epoch whose weights are kept, and why.
fn best_line(p: &Progress) -> String {
    match p.validation {
        Some(v) => format!(
            "best validation error {v:.6} at epoch {} (train {:.6})",
            p.epoch, p.train
        ),
        None => format!(
            "no validation positions: last epoch {} (train {:.6})",
            p.epoch, p.train
        ),
    }
}

/// Rewrites the weights table of the weights.rs at `path`.
fn write_weights(path: &str, new: &[Score2], header: &str) -> Result<(), String> {
    let source = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let text = rewrite_weights(&source, new, header).map_err(|e| format!("{path}: {e}"))?;
    std::fs::write(path, text).map_err(|e| format!("{path}: {e}"))
}

/// The old and new weights side by side, with the features' names.
fn print_table(new: &[Score2], out: &mut dyn Write) -> std::io::Result<()> {
    writeln!(
        out,
        "{:28} {:>12} {:>12}",
        "feature", "old mg, eg", "new mg, eg"
    )?;
    for f in 0..FEATURES {
        let (o, n) = (WEIGHTS[f], new[f]);
        let pair = |s: Score2| format!("{}, {}", s.mg, s.eg);
        writeln!(
            out,
            "{:28} {:>12} {:>12}",
            feature_name(f),
            pair(o),
            pair(n)
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_writer_round_trips_and_keeps_the_rest_of_the_file() {
        let source = include_str!("../eval/weights.rs");
        let mut w = WEIGHTS.to_vec();
        w[0].mg = -123;
        w[FEATURES - 1].eg = 77;
        let text = rewrite_weights(source, &w, "test header").expect("rewrite");
        assert_eq!(parse_weights(&text).expect("parse"), w);
        assert_eq!(parse_weights(source).expect("parse"), WEIGHTS.to_vec());
        let before = &source[..source.find(WEIGHTS_OPENING).expect("table")];
        assert!(text.starts_with(before));
        assert!(text.contains("    // test header\n"));
        let first = format!("s(-123, {}),", w[0].eg);
        let line = text.lines().find(|l| l.trim_start().starts_with(&first));
        let name = format!(" // {}", feature_name(0));
        assert!(line.is_some_and(|l| l.ends_with(&name)), "{text}");
        // the written table is as rustfmt leaves it
        let table = weights_body(&WEIGHTS, "x");
        assert!(source.contains(&table[table.find('\n').expect("header")..]));
        assert!(text.trim_end().ends_with("];"));
    }

    #[test]
    fn data_lines() {
        let line = |fen, result, score| DataLine { fen, result, score };
        assert_eq!(
            parse_line("8/8 w - - 0 1 | 0.5"),
            Ok(line("8/8 w - - 0 1", 0.5, None))
        );
        assert_eq!(
            parse_line("8/8 w - - 0 1 | 1.0 | -35"),
            Ok(line("8/8 w - - 0 1", 1.0, Some(-35.0)))
        );
        assert!(parse_line("8/8 w - - 0 1").is_err());
        assert!(parse_line("8/8 w - - 0 1 | 2").is_err());
        assert!(parse_line("8/8 w - - 0 1 | x").is_err());
        assert!(parse_line("8/8 w - - 0 1 | 1.0 | 12 | 3").is_err());
        assert!(parse_line("8/8 w - - 0 1 | 1.0 |").is_err());
        let err = parse_line("8/8 w - - 0 1 | 1.0 | inf").expect_err("not finite");
        assert!(err.contains("score 'inf'"), "{err}");
    }
}
