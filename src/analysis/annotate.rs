//! The annotated PGN of an analysed game: after every move its evaluation as
//! `{ [%eval 0.35,18] }` (pawns from White's view, or `#N` for a mate, with the depth; the
//! form lichess and python-chess read), a NAG (`$6` ?!, `$2` ?, `$4` ??) on a marked move
//! with the better line as a variation, and per player the accuracy and the count of each
//! mark in the header.

use super::{GameAnalysis, Judged, Line, PositionEval, Spelled};
use crate::engine::pgn::{quote, wrap};
use crate::engine::ReportedScore;

/// Tags this writer sets (an input's own values of them are replaced).
fn is_ours(key: &str, players: &[&str]) -> bool {
    key == "Annotator"
        || players.iter().any(|p| {
            key.strip_prefix(p).is_some_and(|rest| {
                matches!(rest, "Accuracy" | "Inaccuracies" | "Mistakes" | "Blunders")
            })
        })
}

/// A score as `[%eval]` writes it: pawns with two decimals, or `#N`.
pub fn eval_text(score: ReportedScore) -> String {
    match score {
        ReportedScore::Cp(cp) => format!("{:.2}", cp as f64 / 100.0),
        ReportedScore::Mate(m) => format!("#{m}"),
    }
}

/// The number of a move where it needs one: always where it opens its number, and after a
/// comment or variation (`resumed`) otherwise.
fn number(s: &Spelled, resumed: bool) -> Option<String> {
    if s.label.opens {
        Some(format!("{}.", s.label.number))
    } else if resumed {
        Some(format!("{}...", s.label.number))
    } else {
        None
    }
}

/// A line as a variation: `(12... Nf6 13. Nc3)`.
fn variation(line: &Line) -> String {
    let mut tokens = Vec::new();
    for (i, s) in line.moves.iter().enumerate() {
        if let Some(n) = number(s, i == 0) {
            tokens.push(n);
        }
        tokens.push(s.text.clone());
    }
    format!("({})", tokens.join(" "))
}

/// The comment after a move: the evaluation of the position it reached, and for a marked
/// move what it was and what was better.
fn comment(after: &PositionEval, judged: &Judged, before: &PositionEval) -> Option<String> {
    let mut parts = Vec::new();
    if let Some(score) = after.score {
        parts.push(format!("[%eval {},{}]", eval_text(score), after.depth));
    }
    if !after.utilities.is_empty() && after.over.is_none() {
        let pawns: Vec<String> = after
            .utilities
            .iter()
            .map(|&u| format!("{:.2}", u as f64 / 100.0))
            .collect();
        let points: Vec<String> = after.expected.iter().map(|p| format!("{p:.3}")).collect();
        parts.push(format!(
            "[%utilities {},{}] [%points {}]",
            pawns.join(","),
            after.depth,
            points.join(",")
        ));
    }
    if let (Some(mark), Some(best)) = (judged.mark, before.lines.first()) {
        let expected = |e: &PositionEval| e.expected[judged.mover];
        parts.push(format!(
            "{}. Expected score {:.2} -> {:.2}; {} was best.",
            mark.word(),
            expected(before),
            (expected(before) - judged.loss).max(0.0),
            best.moves
                .first()
                .map_or(best.first.as_str(), |m| m.text.as_str())
        ));
    }
    if let Some(reason) = &after.over {
        parts.push(format!("Game over: {reason}."));
    }
    (!parts.is_empty()).then(|| parts.join(" ").replace('}', ")"))
}

/// The header tags: the game's own, then the annotator and each player's summary.
fn tags(a: &GameAnalysis, annotator: &str) -> Vec<(String, String)> {
    let mut tags: Vec<(String, String)> = a
        .record
        .tags
        .iter()
        .filter(|(k, _)| !is_ours(k, &a.players))
        .cloned()
        .collect();
    let has = |tags: &[(String, String)], k: &str| tags.iter().any(|(t, _)| t == k);
    if !has(&tags, "Variant") && a.record.variant != "chess" {
        tags.push(("Variant".into(), a.record.variant.clone()));
    }
    if !has(&tags, "Result") {
        tags.push(("Result".into(), a.record.result.clone()));
    }
    tags.push((
        "Annotator".into(),
        format!("{annotator} ({} a position)", a.searched),
    ));
    for (name, s) in a.players.iter().zip(&a.summaries) {
        if let Some(acc) = s.accuracy {
            tags.push((format!("{name}Accuracy"), format!("{acc:.1}")));
        }
        tags.push((format!("{name}Inaccuracies"), s.inaccuracies.to_string()));
        tags.push((format!("{name}Mistakes"), s.mistakes.to_string()));
        tags.push((format!("{name}Blunders"), s.blunders.to_string()));
    }
    tags
}

/// The annotated PGN of `a`, ending with a blank line; `annotator` names the engine.
pub fn annotated_pgn(a: &GameAnalysis, annotator: &str) -> String {
    let mut out = String::new();
    for (k, v) in tags(a, annotator) {
        out.push_str(&format!("[{k} \"{}\"]\n", quote(&v)));
    }
    out.push('\n');
    let mut tokens = Vec::new();
    let mut resumed = true;
    for (i, j) in a.moves.iter().enumerate() {
        let (before, after) = (&a.positions[i], &a.positions[i + 1]);
        if let Some(n) = number(&j.played, resumed) {
            tokens.push(n);
        }
        tokens.push(j.played.text.clone());
        resumed = false;
        if let Some(mark) = j.mark {
            tokens.push(mark.nag().to_string());
        }
        if let Some(c) = comment(after, j, before) {
            tokens.push(format!("{{ {c} }}"));
            resumed = true;
        }
        if j.mark.is_some() {
            for line in before.lines.iter().filter(|l| l.first != a.record.moves[i]) {
                if !line.moves.is_empty() {
                    tokens.push(variation(line));
                    resumed = true;
                }
            }
        }
    }
    tokens.push(a.record.result.clone());
    out.push_str(&wrap(&tokens));
    out.push_str("\n\n");
    out
}
