//! The evaluation tuner: `chimera datagen` plays the engine against itself and writes quiet
//! positions with the game results ([`datagen`]); `chimera tune` reads them, traces each
//! position's evaluation and fits the weights of `eval/weights.rs` to the results
//! ([`texel`]); this module reads the data file and rewrites the weights table.
//! docs/strength.md ("Tuning") gives the commands and the method.

pub mod datagen;
pub mod texel;

use crate::eval::weights::{feature_name, FEATURES, WEIGHTS};
use crate::eval::{EvalParams, Score2};
use crate::position::{Position, Variant};
use std::io::Write;
use std::time::Instant;
use texel::{Dataset, Schedule};

/// The line that opens the weights table in `eval/weights.rs`.
pub const WEIGHTS_OPENING: &str = "pub const WEIGHTS: [Score2; FEATURES] = [";

/// One data line, `FEN | RESULT`: the FEN and the result (0, 0.5 or 1).
pub fn parse_line(line: &str) -> Result<(&str, f64), String> {
    let (fen, result) = line.rsplit_once('|').ok_or("expected 'FEN | RESULT'")?;
    let r: f64 = result
        .trim()
        .parse()
        .map_err(|_| format!("result '{}' is not a number", result.trim()))?;
    if ![0.0, 0.5, 1.0].contains(&r) {
        return Err(format!("result {r} is not 1.0, 0.5 or 0.0"));
    }
    Ok((fen.trim(), r))
}

/// Reads a data file and traces every position with `eval` (blank lines and lines starting
/// with `#` are skipped); errors name the file and line.
pub fn load_data(
    path: &str,
    rules: &'static Variant,
    eval: &EvalParams,
) -> Result<Dataset, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let mut data = Dataset::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        let at = |e: String| format!("{path}:{}: {e}", n + 1);
        let (fen, result) = parse_line(line).map_err(at)?;
        let pos =
            Position::from_fen(rules, fen).map_err(|e| at(format!("bad FEN '{fen}': {e}")))?;
        data.push_trace(&eval.trace(&pos), result);
    }
    if data.is_empty() {
        return Err(format!("{path}: no positions"));
    }
    Ok(data)
}

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
    /// The data file (`FEN | RESULT` lines).
    pub data: String,
    /// Adam epochs.
    pub epochs: usize,
    /// Adam step size.
    pub rate: f64,
    /// A weights.rs whose table is rewritten.
    pub write: Option<String>,
}

/// Every how many epochs the error is printed.
pub const REPORT_EVERY: usize = 25;

/// Runs `chimera tune`: loads and traces the data, fits K, tunes, prints old and new weights
/// to `out` and rewrites the weights file if asked.
pub fn run_tune(
    rules: &'static Variant,
    cfg: &TuneConfig,
    out: &mut dyn Write,
) -> Result<(), String> {
    crate::geometry::attacks::init();
    let io = |e: std::io::Error| e.to_string();
    let start = Instant::now();
    let eval = EvalParams::new(rules);
    let data = load_data(&cfg.data, rules, &eval)?;
    writeln!(
        out,
        "loaded {} positions in {:.1} s",
        data.len(),
        start.elapsed().as_secs_f64()
    )
    .map_err(io)?;
    let old = texel::to_pairs(&WEIGHTS);
    let k = texel::fit_k(&data, &old);
    writeln!(out, "K = {k:.4}, error {:.6}", texel::mse(&data, k, &old)).map_err(io)?;
    let schedule = Schedule {
        epochs: cfg.epochs,
        rate: cfg.rate,
        report_every: REPORT_EVERY,
    };
    let mut final_error = 0.0;
    let tuned = texel::tune(&data, k, &old, schedule, |epoch, err| {
        final_error = err;
        let _ = writeln!(out, "epoch {epoch:4}  error {err:.6}");
    });
    writeln!(out, "tuned in {:.1} s", start.elapsed().as_secs_f64()).map_err(io)?;
    let new = texel::to_scores(&tuned);
    print_table(&new, out).map_err(io)?;
    if let Some(path) = &cfg.write {
        let header = format!(
            "tuned: {} positions of {}, {} epochs, final error {final_error:.6}",
            data.len(),
            cfg.data,
            cfg.epochs
        );
        let source = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
        let text = rewrite_weights(&source, &new, &header).map_err(|e| format!("{path}: {e}"))?;
        std::fs::write(path, text).map_err(|e| format!("{path}: {e}"))?;
        writeln!(out, "wrote {path}").map_err(io)?;
    }
    Ok(())
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
        assert_eq!(
            parse_line("8/8 w - - 0 1 | 0.5"),
            Ok(("8/8 w - - 0 1", 0.5))
        );
        assert!(parse_line("8/8 w - - 0 1").is_err());
        assert!(parse_line("8/8 w - - 0 1 | 2").is_err());
        assert!(parse_line("8/8 w - - 0 1 | x").is_err());
    }
}
