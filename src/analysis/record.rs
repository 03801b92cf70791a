//! Reading the games to analyse: PGN as `match` and the web board write it (and as other
//! programs write chess), checked move by move in the game's variant. A game that cannot be
//! read is reported with its number, line and what is wrong; the others are still read.

use crate::engine::pgn::{parse_pgn_move, read_games, variant_of_tag, ReadGame};
use crate::engine::{move_to_string, Color, Engine};

/// One game ready to analyse.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// Its number in the file, from 1.
    pub number: usize,
    /// The line its text starts on, from 1.
    pub line: usize,
    /// The variant's name as the engine knows it.
    pub variant: String,
    /// The `FEN` tag, if the game did not start from the variant's start.
    pub start_fen: Option<String>,
    /// The moves in canonical spelling (Foreign Policy: its own notation).
    pub moves: Vec<String>,
    /// The tags as read, in order.
    pub tags: Vec<(String, String)>,
    /// The termination marker, `*` if the movetext had none.
    pub result: String,
}

impl GameRecord {
    /// A tag's value.
    pub fn tag(&self, key: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

/// The line (from 1) of byte `offset` of `text`.
fn line_of(text: &str, offset: usize) -> usize {
    1 + text.as_bytes()[..offset.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
}

/// What is malformed in one game's text, with its line: a tag pair that is not
/// `[Name "value"]`, or a comment never closed.
fn malformed(text: &str, first_line: usize) -> Option<String> {
    let mut open_comment: Option<usize> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        let number = first_line + i;
        if open_comment.is_none() && line.starts_with('[') {
            let well_formed = line.ends_with(']')
                && line[1..line.len() - 1]
                    .split_once(char::is_whitespace)
                    .is_some_and(|(k, v)| {
                        !k.is_empty()
                            && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                            && v.trim().len() >= 2
                            && v.trim().starts_with('"')
                            && v.trim().ends_with('"')
                    });
            if !well_formed {
                return Some(format!(
                    "line {number}: a tag pair must read [Name \"value\"], not '{}'",
                    line.chars().take(60).collect::<String>()
                ));
            }
            continue;
        }
        for c in line.chars() {
            match (c, open_comment) {
                ('{', None) => open_comment = Some(number),
                ('}', Some(_)) => open_comment = None,
                (';', None) => break,
                _ => {}
            }
        }
    }
    open_comment.map(|n| format!("line {n}: a comment opened here is never closed"))
}

/// Reads every game of `text`: each is either ready to analyse or the reason it is not.
/// `default_variant` is used where a game has no `Variant` tag (else chess). The engine is
/// only used for its variants; its position is left at the last game read.
pub fn read_records(
    text: &str,
    default_variant: Option<&str>,
    engine: &mut Engine,
) -> Vec<Result<GameRecord, String>> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, g) in read_games(text).into_iter().enumerate() {
        let body = &text[start..g.end.max(start)];
        let skipped = body.len() - body.trim_start().len();
        let line = line_of(text, start + skipped);
        start = g.end;
        let number = i + 1;
        let record = malformed(body.trim_start(), line)
            .map_or_else(|| check(g, number, line, default_variant, engine), Err)
            .map_err(|e| format!("game {number} (line {line}): {e}"));
        out.push(record);
    }
    out
}

/// A game read by `read_games`, checked in its variant.
fn check(
    g: ReadGame,
    number: usize,
    line: usize,
    default_variant: Option<&str>,
    engine: &mut Engine,
) -> Result<GameRecord, String> {
    let variant = match g.tag("Variant") {
        Some(v) => variant_of_tag(v),
        None => variant_of_tag(default_variant.unwrap_or("chess")),
    };
    engine.set_variant(&variant).map_err(|e| e.to_string())?;
    let start_fen = g.tag("FEN").map(str::to_string);
    let moves = if engine.three().is_some() {
        check_three(&g, start_fen.as_deref(), engine)?
    } else {
        check_two(&g, start_fen.as_deref(), engine)?
    };
    Ok(GameRecord {
        number,
        line,
        variant,
        start_fen,
        moves,
        result: g.result.clone().unwrap_or_else(|| "*".into()),
        tags: g.tags,
    })
}

/// The canonical moves of a two-player game.
fn check_two(g: &ReadGame, fen: Option<&str>, engine: &mut Engine) -> Result<Vec<String>, String> {
    engine
        .set_position(fen, &[])
        .map_err(|e| format!("the FEN tag: {e}"))?;
    let mut moves = Vec::with_capacity(g.moves.len());
    for token in &g.moves {
        let pos = engine.position_mut();
        let Some(m) = parse_pgn_move(pos, token) else {
            let number = pos.fullmove_number();
            let dots = if pos.side_to_move() == Color::White {
                "."
            } else {
                "..."
            };
            return Err(format!(
                "move {number}{dots} {token} is not legal in {} ({} legal moves there)",
                engine.variant_name(),
                engine.legal_moves().len()
            ));
        };
        moves.push(move_to_string(pos, m).to_string());
        pos.make(m);
    }
    Ok(moves)
}

/// The moves of a Foreign Policy record in canonical spelling, each checked in turn.
fn check_three(
    g: &ReadGame,
    fen: Option<&str>,
    engine: &mut Engine,
) -> Result<Vec<String>, String> {
    engine.set_position(fen, &[]).map_err(|e| e.to_string())?;
    let mut moves = Vec::with_capacity(g.moves.len());
    for (i, token) in g.moves.iter().enumerate() {
        let parsed = engine.three().map(|p| p.parse_move(token));
        let Some(Ok(m)) = parsed else {
            let why = match parsed {
                Some(Err(e)) => e.to_string(),
                _ => "not Foreign Policy".into(),
            };
            return Err(format!(
                "ply {} {token} is not legal in foreignpolicy ({} legal moves there): {why}",
                i + 1,
                engine.legal_moves().len()
            ));
        };
        let canonical = engine.move_text(m);
        engine.play_three(&canonical).map_err(|e| e.to_string())?;
        moves.push(canonical);
    }
    Ok(moves)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Vec<Result<GameRecord, String>> {
        crate::geometry::attacks::init();
        read_records(text, None, &mut Engine::new())
    }

    #[test]
    fn reads_several_games_and_names_the_bad_one() {
        let text = "[Event \"a\"]\n\n1. e4 e5 2. Nf3 1-0\n\n\
                    [Event \"b\"]\n\n1. d4 Ke7 0-1\n\n\
                    [Event \"c\"]\n[Variant \"nosuchgame\"]\n\n1. e4 *\n\n\
                    [Event \"d\"]\n[FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]\n\n1. O-O Kd7 *\n";
        let r = read(text);
        assert_eq!(r.len(), 4);
        let a = r[0].as_ref().expect("game 1 reads");
        assert_eq!(a.moves, vec!["e2e4", "e7e5", "g1f3"]);
        assert_eq!((a.number, a.line, a.result.as_str()), (1, 1, "1-0"));
        let b = r[1].as_ref().expect_err("Ke7 is illegal");
        assert!(
            b.contains("game 2 (line 5)") && b.contains("move 1... Ke7"),
            "{b}"
        );
        assert!(b.contains("20 legal moves"), "{b}");
        let c = r[2].as_ref().expect_err("unknown variant");
        assert!(
            c.contains("game 3") && c.contains("unknown variant 'nosuchgame'"),
            "{c}"
        );
        let d = r[3].as_ref().expect("game 4 reads");
        assert_eq!(d.moves, vec!["e1g1", "e8d7"]);
        assert!(d.start_fen.is_some());
    }

    #[test]
    fn malformed_text_is_named_with_its_line() {
        let r = read("[Event \"a\"]\n[Site x]\n\n1. e4 *\n");
        let e = r[0].as_ref().expect_err("bad tag");
        assert!(
            e.contains("line 2") && e.contains("[Name \"value\"]"),
            "{e}"
        );
        let r = read("[Event \"a\"]\n\n1. e4 {a note\ne5 2. Nf3 *\n");
        let e = r[0].as_ref().expect_err("open comment");
        assert!(e.contains("line 3") && e.contains("never closed"), "{e}");
        assert!(read("").is_empty());
    }

    #[test]
    fn other_programs_names_of_chess_are_chess() {
        let r = read("[Variant \"Standard\"]\n\n1. e4 *\n");
        assert_eq!(r[0].as_ref().expect("reads").variant, "chess");
    }
}
