//! PGN: writing finished games, SAN for orthodox chess, and reading back what a previous run
//! wrote (to resume) or an openings file.
//!
//! Move text is SAN when the variant's rules are exactly orthodox chess (`Rules::orthodox`), so
//! any PGN reader can replay those games; every other variant gets our canonical notation, one
//! token per move with legs joined by commas, because SAN has no spelling for compound moves.
//! A game is written with one `write_all` and a flush, so an interrupted run leaves only whole
//! games (and `-resume` drops a torn tail if the process was killed mid-write).

use crate::geometry::Color;
use crate::movegen::{castling_name, in_check, legal_moves, move_to_string, parse_move};
use crate::moves::{Move, MoveKind, MoveList};
use crate::piece::PieceType;
use crate::position::Position;

/// SAN of a legal move of an orthodox-chess position.
pub fn san(pos: &mut Position, mv: Move) -> String {
    let mut s = String::new();
    let from = mv.from();
    let to = mv.to();
    let kind = pos.piece_at(from).kind();
    let sq = |q: crate::geometry::Square| {
        format!(
            "{}{}",
            (b'a' + q.file() as u8) as char,
            (b'1' + q.rank() as u8) as char
        )
    };
    if let Some(name) = castling_name(mv) {
        s.push_str(name);
    } else {
        let capture = mv.kind() == MoveKind::EnPassant || pos.piece_at(to).is_some();
        if kind == PieceType::PAWN {
            if capture {
                s.push((b'a' + from.file() as u8) as char);
            }
        } else {
            s.push(pos.rules().letter(kind).to_ascii_uppercase());
            let mut list = MoveList::new();
            legal_moves(pos, &mut list);
            let rivals: Vec<Move> = list
                .iter()
                .copied()
                .filter(|m| {
                    m.to() == to
                        && m.from() != from
                        && m.kind() != MoveKind::Castling
                        && pos.piece_at(m.from()).kind() == kind
                })
                .collect();
            if !rivals.is_empty() {
                let same_file = rivals.iter().any(|m| m.from().file() == from.file());
                let same_rank = rivals.iter().any(|m| m.from().rank() == from.rank());
                if !same_file {
                    s.push((b'a' + from.file() as u8) as char);
                } else if !same_rank {
                    s.push((b'1' + from.rank() as u8) as char);
                } else {
                    s.push_str(&sq(from));
                }
            }
        }
        if capture {
            s.push('x');
        }
        s.push_str(&sq(to));
        if let Some(p) = mv.promotion_type() {
            s.push('=');
            s.push(pos.rules().letter(p).to_ascii_uppercase());
        }
    }
    pos.make(mv);
    if in_check(pos) {
        let mut list = MoveList::new();
        legal_moves(pos, &mut list);
        s.push(if list.is_empty() { '#' } else { '+' });
    }
    pos.unmake();
    s
}

/// How a move is written in this variant's PGN: SAN for orthodox chess (played by the orthodox
/// generator: no mechanic adds moves), canonical otherwise.
pub fn pgn_move(pos: &mut Position, mv: Move) -> String {
    if pos.rules().orthodox && crate::variant::data_is_orthodox(pos.rules()) {
        san(pos, mv)
    } else {
        move_to_string(pos, mv).to_string()
    }
}

/// Parses a PGN move token: SAN (orthodox chess, check marks and annotations optional) or any
/// spelling `parse_move` accepts.
pub fn parse_pgn_move(pos: &mut Position, token: &str) -> Option<Move> {
    let t = token.trim_end_matches(['+', '#', '!', '?']);
    if let Ok(m) = parse_move(pos, t) {
        return Some(m);
    }
    let norm = |s: &str| s.replace("0-0", "O-O").replace(['x', '='], "");
    let want = norm(t);
    let mut list = MoveList::new();
    legal_moves(pos, &mut list);
    list.iter().copied().find(|&m| {
        let s = san(pos, m);
        norm(s.trim_end_matches(['+', '#'])) == want
    })
}

/// The PGN of a game of `rules` from `start_fen` (or the variant's start) through `moves`
/// (any spelling the engine reads), with `tags` after the variant's own (`Variant`, and `FEN`
/// and `SetUp` where the start is not the variant's), ending in `result` and `reason`.
pub fn game_text(
    rules: &'static crate::position::Variant,
    start_fen: Option<&str>,
    moves: &[String],
    tags: Vec<(&'static str, String)>,
    result: &str,
    reason: &str,
) -> Result<String, String> {
    let start = match start_fen {
        Some(f) => Position::from_fen(rules, f).map_err(|e| format!("bad FEN '{f}': {e}"))?,
        None => Position::startpos(rules),
    };
    let mut pos = start.clone();
    let mut played = Vec::with_capacity(moves.len());
    for (i, t) in moves.iter().enumerate() {
        let m = parse_move(&mut pos, t).map_err(|e| format!("move {}: {e}", i + 1))?;
        played.push(m);
        pos.make(m);
    }
    let mut tags = tags;
    tags.push(("Result", result.to_string()));
    tags.push(("Variant", rules.name.clone()));
    if start.fen() != Position::startpos(rules).fen() {
        tags.push(("FEN", start.fen()));
        tags.push(("SetUp", "1".into()));
    }
    Ok(render(&PgnGame {
        tags,
        start: &start,
        moves: &played,
        notes: &[],
        result,
        comment: reason,
    }))
}

/// How a move list is shown to people: each ply's text (SAN where the variant is orthodox
/// chess, with check and mate marks; our notation elsewhere), the number of the first move and
/// whether Black plays it.
pub fn display_moves(
    rules: &'static crate::position::Variant,
    start_fen: Option<&str>,
    moves: &[String],
) -> Result<(Vec<String>, u32, bool), String> {
    let mut pos = match start_fen {
        Some(f) => Position::from_fen(rules, f).map_err(|e| format!("bad FEN '{f}': {e}"))?,
        None => Position::startpos(rules),
    };
    let first = (pos.fullmove_number(), pos.side_to_move() == Color::Black);
    let mut out = Vec::with_capacity(moves.len());
    for (i, t) in moves.iter().enumerate() {
        let m = parse_move(&mut pos, t).map_err(|e| format!("move {}: {e}", i + 1))?;
        out.push(pgn_move(&mut pos, m));
        pos.make(m);
    }
    Ok((out, first.0, first.1))
}

/// A game read from PGN text for `rules`: its start FEN (from the `FEN` tag) and its moves in
/// canonical spelling. The first game of the text is read; a move that is not legal is refused
/// with its number and the position it was tried in.
pub fn read_game(
    rules: &'static crate::position::Variant,
    text: &str,
) -> Result<(Option<String>, Vec<String>), String> {
    let games = read_games(text);
    let g = games.first().ok_or("no game in the PGN text")?;
    let fen = g.tag("FEN").map(str::to_string);
    let mut pos = match &fen {
        Some(f) => Position::from_fen(rules, f).map_err(|e| format!("the FEN tag '{f}': {e}"))?,
        None => Position::startpos(rules),
    };
    let mut moves = Vec::with_capacity(g.moves.len());
    for (i, token) in g.moves.iter().enumerate() {
        let number = pos.fullmove_number();
        let dots = if pos.side_to_move() == Color::White {
            "."
        } else {
            "..."
        };
        let m = parse_pgn_move(&mut pos, token).ok_or_else(|| {
            format!(
                "move {number}{dots} {token} (ply {}) is not legal in {} after {}",
                i + 1,
                rules.name,
                pos.fen()
            )
        })?;
        moves.push(move_to_string(&pos, m).to_string());
        pos.make(m);
    }
    Ok((fen, moves))
}

/// One finished game, ready to write.
pub struct PgnGame<'a> {
    /// Tag pairs in order (the seven-tag roster first).
    pub tags: Vec<(&'static str, String)>,
    /// Start position of the game (before the first move written).
    pub start: &'a Position,
    /// The moves played, oldest first.
    pub moves: &'a [Move],
    /// A comment after each move (none where empty or missing): what the engine said.
    pub notes: &'a [String],
    /// The result token.
    pub result: &'a str,
    /// Why the game ended, as a comment after the last move.
    pub comment: &'a str,
}

/// Quotes a tag value (backslash and quote escaped, as PGN says).
pub fn quote(v: &str) -> String {
    v.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The PGN text of a game, ending with a blank line.
pub fn render(g: &PgnGame) -> String {
    let mut out = String::new();
    for (k, v) in &g.tags {
        out.push_str(&format!("[{k} \"{}\"]\n", quote(v)));
    }
    out.push('\n');
    let mut tokens = Vec::new();
    let mut pos = g.start.clone();
    for (i, &mv) in g.moves.iter().enumerate() {
        let n = pos.fullmove_number();
        if pos.side_to_move() == Color::White {
            tokens.push(format!("{n}."));
        } else if i == 0 {
            tokens.push(format!("{n}..."));
        }
        tokens.push(pgn_move(&mut pos, mv));
        pos.make(mv);
        if let Some(note) = g.notes.get(i).filter(|n| !n.is_empty()) {
            tokens.push(format!("{{{}}}", note.replace('}', ")")));
        }
    }
    if !g.comment.is_empty() {
        tokens.push(format!("{{{}}}", g.comment.replace('}', ")")));
    }
    tokens.push(g.result.to_string());
    out.push_str(&wrap(&tokens));
    out.push_str("\n\n");
    out
}

/// Tokens joined into lines of at most 79 characters (a long token gets its own line).
pub fn wrap(tokens: &[String]) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for t in tokens {
        if !line.is_empty() && line.len() + 1 + t.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(t);
    }
    out.push_str(&line);
    out
}

/// A game read back from a PGN file: its tags and move tokens.
#[derive(Clone, Debug, Default)]
pub struct ReadGame {
    /// Tag pairs as read.
    pub tags: Vec<(String, String)>,
    /// Move tokens (numbers, comments, variations and NAGs removed).
    pub moves: Vec<String>,
    /// The game termination marker, if the movetext ended with one.
    pub result: Option<String>,
    /// Byte offset just after the game's text.
    pub end: usize,
}

impl ReadGame {
    /// A tag's value.
    pub fn tag(&self, key: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

/// A game termination marker: two players' (`1-0`, `0-1`, `1/2-1/2`, `*`), or three players'
/// points that add up to one (`1-0-0`, `1/2-1/2-0`, `1/3-1/3-1/3`; never `0-0-0`, castling).
fn is_result(t: &str) -> bool {
    if matches!(t, "1-0" | "0-1" | "1/2-1/2" | "*") {
        return true;
    }
    let thirds = |p: &str| match p {
        "0" => Some(0),
        "1" => Some(6),
        "1/2" => Some(3),
        "1/3" => Some(2),
        _ => None,
    };
    let parts: Option<Vec<u32>> = t.split('-').map(thirds).collect();
    parts.is_some_and(|p| p.len() == 3 && p.iter().sum::<u32>() == 6)
}

/// Reads the games of a PGN text. A game is complete when its movetext ends with a result;
/// a trailing game without one (a torn write) is returned with `result: None`.
pub fn read_games(text: &str) -> Vec<ReadGame> {
    let mut games = Vec::new();
    let mut cur = ReadGame::default();
    let mut in_moves = false;
    let mut offset = 0;
    let mut comment_depth = 0usize;
    let mut variation_depth = 0usize;
    for raw in text.split_inclusive('\n') {
        let line_end = offset + raw.len();
        offset = line_end;
        let line = raw.trim();
        if comment_depth == 0 && line.starts_with('[') && line.ends_with(']') {
            if in_moves {
                // a new game's tags without a result: the previous game was torn
                games.push(std::mem::take(&mut cur));
                in_moves = false;
            }
            let inner = &line[1..line.len() - 1];
            if let Some((k, v)) = inner.split_once(char::is_whitespace) {
                let v = v.trim();
                let v = v.strip_prefix('"').unwrap_or(v);
                let v = v.strip_suffix('"').unwrap_or(v);
                cur.tags
                    .push((k.to_string(), v.replace("\\\"", "\"").replace("\\\\", "\\")));
            }
            continue;
        }
        if line.starts_with('%') || (line.is_empty() && comment_depth == 0) {
            continue;
        }
        in_moves = true;
        let mut word = String::new();
        let flush = |word: &mut String, cur: &mut ReadGame| -> bool {
            let w = std::mem::take(word);
            if w.is_empty() {
                return false;
            }
            if is_result(&w) {
                cur.result = Some(w);
                return true;
            }
            // a move number ("12.", "12...", "12.e4"), never castling in zeros ("0-0")
            let digits = w.len() - w.trim_start_matches(|c: char| c.is_ascii_digit()).len();
            let w = if w[digits..].starts_with('.') {
                w[digits..].trim_start_matches('.')
            } else {
                w.as_str()
            };
            if !w.is_empty() && !w.starts_with('$') {
                cur.moves.push(w.to_string());
            }
            false
        };
        let mut ended = false;
        for c in line.chars() {
            if comment_depth > 0 {
                if c == '}' {
                    comment_depth = 0;
                }
                continue;
            }
            match c {
                '{' => {
                    ended |= flush(&mut word, &mut cur);
                    comment_depth = 1;
                }
                ';' => {
                    ended |= flush(&mut word, &mut cur);
                    break;
                }
                '(' => {
                    ended |= flush(&mut word, &mut cur);
                    variation_depth += 1;
                }
                ')' => {
                    word.clear();
                    variation_depth = variation_depth.saturating_sub(1);
                }
                c if c.is_whitespace() => {
                    if variation_depth == 0 {
                        ended |= flush(&mut word, &mut cur);
                    } else {
                        word.clear();
                    }
                }
                c => word.push(c),
            }
        }
        if variation_depth == 0 {
            ended |= flush(&mut word, &mut cur);
        }
        if ended {
            cur.end = line_end;
            games.push(std::mem::take(&mut cur));
            in_moves = false;
        }
    }
    if in_moves || !cur.tags.is_empty() {
        cur.end = offset;
        games.push(cur);
    }
    games
}

/// The engine's name of a PGN `Variant` tag: chess and Chess960 under the names other
/// programs give them (lichess's `Standard` and `From Position`, `Chess960`), else the tag.
pub fn variant_of_tag(tag: &str) -> String {
    match tag.trim().to_ascii_lowercase().as_str() {
        "standard" | "from position" | "normal" | "chess" => "chess".into(),
        "chess960" | "chess 960" | "fischerandom" | "fischer random" | "fischerrandom" => {
            "fischerandom".into()
        }
        other => other.to_string(),
    }
}

/// Today's date as PGN writes it (`YYYY.MM.DD`, UTC).
pub fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let days = (secs / 86_400) as i64;
    // civil-from-days (Howard Hinnant's algorithm)
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::builtin_variants;

    fn chess(fen: &str) -> Position {
        Position::from_fen(builtin_variants().get("chess").expect("chess"), fen).expect("fen")
    }

    fn san_of(fen: &str, m: &str) -> String {
        let mut p = chess(fen);
        let mv = parse_move(&mut p, m).expect("legal");
        san(&mut p, mv)
    }

    #[test]
    fn san_spellings() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(san_of(start, "e2e4"), "e4");
        assert_eq!(san_of(start, "g1f3"), "Nf3");
        // castling both ways, with check
        let castle = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        assert_eq!(san_of(castle, "e1g1"), "O-O");
        assert_eq!(san_of(castle, "e1c1"), "O-O-O");
        // Chess960: the king on b8 castles long with the a8 rook by stepping right, to c8
        let set = builtin_variants();
        let frc = set.get("fischerandom").expect("fischerandom");
        let mut pos = Position::from_fen(frc, "rk4nr/8/8/8/8/8/8/RK5R b KQkq - 0 1").expect("fen");
        let m = parse_move(&mut pos, "b8a8").expect("legal");
        assert_eq!(san(&mut pos, m), "O-O-O");
        // file and rank disambiguation, both needed
        assert_eq!(san_of("3k4/8/8/8/8/8/4K3/R6R w - - 0 1", "a1d1"), "Rad1+");
        assert_eq!(san_of("3k4/8/8/R7/8/8/8/R3K3 w - - 0 1", "a1a3"), "R1a3");
        assert_eq!(san_of("8/7k/8/8/8/Q7/8/Q1Q1K3 w - - 0 1", "a1b2"), "Qa1b2");
        // en passant, promotion with capture and mate
        assert_eq!(san_of("k7/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6"), "exd6");
        assert_eq!(san_of("1r5k/P7/7K/8/8/8/8/8 w - - 0 1", "a7b8q"), "axb8=Q#");
        assert_eq!(san_of("7k/8/6K1/8/8/8/8/R7 w - - 0 1", "a1a8"), "Ra8#");
    }

    #[test]
    fn san_parses_back() {
        let mut p = chess("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        for t in [
            "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Bxc6", "dxc6", "O-O", "Bg4",
        ] {
            let m = parse_pgn_move(&mut p, t).unwrap_or_else(|| panic!("{t}"));
            p.make(m);
        }
        assert!(parse_pgn_move(&mut p, "Ke2").is_none());
        assert!(parse_pgn_move(&mut p, "zz").is_none());
    }

    #[test]
    fn reads_games_and_finds_a_torn_tail() {
        let text = "[Event \"x\"]\n[Round \"1\"]\n\n1. e4 {book} e5 (1... c5 2. Nf3) 2. Nf3 $1 1-0\n\n\
                    [Event \"x\"]\n[Round \"2\"]\n\n1. d4 d5 1/2-1/2\n\n[Event \"x\"]\n[Round \"3\"]\n\n1. c4";
        let g = read_games(text);
        assert_eq!(g.len(), 3);
        assert_eq!(g[0].moves, vec!["e4", "e5", "Nf3"]);
        assert_eq!(g[0].result.as_deref(), Some("1-0"));
        assert_eq!(g[1].tag("Round"), Some("2"));
        assert_eq!(g[1].result.as_deref(), Some("1/2-1/2"));
        assert!(text[..g[1].end].ends_with("1/2-1/2\n"));
        assert_eq!(g[2].result, None);
        // three players' results end a game; queenside castling in zeros does not
        let three =
            "[Variant \"foreignpolicy\"]\n\n1. b1a3 b8a6 h3f1 1/2-1/2-0\n\n1. 0-0-0 1/3-1/3-1/3";
        let g = read_games(three);
        assert_eq!(g[0].result.as_deref(), Some("1/2-1/2-0"));
        assert_eq!(g[1].moves, vec!["0-0-0"]);
        assert_eq!(g[1].result.as_deref(), Some("1/3-1/3-1/3"));
    }

    #[test]
    fn date_is_well_formed() {
        let d = today();
        assert_eq!(d.len(), 10);
        assert!(d.starts_with("20"));
    }
}
