//! The `match` command line, modelled on cutechess-cli: `-engine key=value ...` per engine,
//! `-each key=value ...` for both, and match options (`-variant`, `-games`, `-rounds`,
//! `-openings`, `-pgnout`, `-draw`, `-resign`, `-sprt`, ...). Options are accepted with one or
//! two leading dashes. Every value is checked here, so a typo is an error message, not a
//! surprise halfway through a match.

use super::client::{EngineSpec, Proto};
use super::openings::{Format, OpeningsSpec};
use super::process::Launch;
use super::referee::{Adjudication, DrawRule, ResignRule};
use super::schedule::{self, Kind};
use super::stats::Sprt;
use super::timecontrol::{parse_positive_seconds, parse_tc, Limits};

/// Default stall limit: how long a handshake or a node/depth-limited move may take.
const DEFAULT_STALL_MS: u64 = 60_000;

/// A whole match, as the command line asked for it.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The engines: two or more (three or more for Foreign Policy).
    pub engines: Vec<EngineSpec>,
    /// Who meets whom (`-tournament`; a match of two engines is a round robin of one pair).
    pub tournament: Kind,
    /// The engine whose rating is held at 0 (`-anchor NAME`; the first by default).
    pub anchor: usize,
    /// The variant.
    pub variant: String,
    /// A user variants.ini loaded on top of the built-in variants.
    pub variants_file: Option<String>,
    /// Games per round.
    pub games: u32,
    /// Rounds.
    pub rounds: u32,
    /// Play each opening twice, colours reversed.
    pub repeat: bool,
    /// Games at once.
    pub concurrency: usize,
    /// Openings.
    pub openings: Option<OpeningsSpec>,
    /// `-srand`, the seed of every random order.
    pub srand: Option<u64>,
    /// PGN output file.
    pub pgnout: Option<String>,
    /// Continue a match whose games are already in the PGN file.
    pub resume: bool,
    /// PGN `Event` tag.
    pub event: String,
    /// PGN `Site` tag.
    pub site: String,
    /// Adjudication rules.
    pub adjudication: Adjudication,
    /// SPRT, if the match should stop when it decides.
    pub sprt: Option<Sprt>,
    /// Print the rating every this many games (0: only the score line and at the end).
    pub rating_interval: u32,
    /// Echo engine input and output to stderr.
    pub debug: bool,
    /// Show the games on the web board at this port (`-serve PORT`).
    pub serve: Option<u16>,
}

/// The help text of `chimera match`.
pub const MATCH_USAGE: &str = "\
usage: chimera match -engine KEY=VALUE... -engine KEY=VALUE... [-engine ...] [-each KEY=VALUE...]
                     [OPTIONS]

engine keys (for -engine, or -each for both engines):
  cmd=COMMAND          program to run (required)         arg=ARG     an argument (repeatable)
  name=NAME            name in the PGN and the results   dir=DIR     working directory
  proto=uci|xboard     protocol (default uci)            stderr=FILE append its stderr to FILE
  option.NAME=VALUE    UCI setoption / XBoard option     initstr=TEXT  a line sent after start-up
  tc=[MOVES/]TIME[+INC]  clock (seconds or m:ss; tc=inf: none)
  st=SECONDS           fixed time per move               nodes=N     nodes per move (UCI)
  depth=N              depth per move                    timemargin=MS  allowed overrun (default 0)
  stall=SECONDS        limit for start-up and node/depth-limited moves (default 60)
  restart=on|off       a fresh process every game (default off: only after a failure)

match options:
  -variant NAME        variant (default chess); -variants FILE loads a user variants.ini
  -tournament round-robin|gauntlet|knockout   with two engines or more (default round-robin:
                       every pair meets; gauntlet: the first engine meets each other;
                       knockout: the winner of each encounter goes on, top seeds get byes)
  -games N             games per encounter in a round (default 1)   -rounds N   rounds (default 1)
  -anchor NAME         the engine whose Elo is 0 in a tournament's table (default the first)
  -repeat              play each opening twice, colours reversed (colours always alternate)
  -openings file=FILE [format=epd|fen|pgn] [order=sequential|random] [seed=N] [plies=N] [start=N]
  -openings chess960=N,A-B|random [order=...] [seed=N]   Chess960 start positions by number
                       (fischerandom; without -openings it plays all 960 in -srand's order)
  -srand N             seed for order=random (same as seed=)
  -concurrency N       games at once (default 1)
  -pgnout FILE         append finished games to FILE     -resume   skip the games FILE holds
  -event NAME          PGN Event tag                     -site NAME   PGN Site tag
  -draw movenumber=N movecount=N score=CP    adjudicate a draw
  -resign movecount=N score=CP [twosided=true]  adjudicate a loss
  -maxmoves N          adjudicate a draw after N moves
  -sprt elo0=E0 elo1=E1 alpha=A beta=B       stop when the SPRT decides
  -ratinginterval N    print the Elo estimate (a tournament: the ratings and crosstable)
                       every N games
  -debug               show all engine communication on stderr
  -serve PORT          show the games live on the web board at http://127.0.0.1:PORT/
                       (docs/serve.md)

three seats (Foreign Policy): -variant foreignpolicy with three -engine options or more;
  every trio (or with -tournament gauntlet every trio with the first engine) plays -games
  games a round, seatings rotating over the six permutations (docs/match.md, \"Three seats\")

example:
  chimera match -engine cmd=target/release/chimera name=new -engine cmd=/usr/games/fairymax \\
      proto=xboard -each tc=10+0.1 -games 2 -rounds 20 -pgnout games.pgn
  chimera match -tournament round-robin -engine cmd=a -engine cmd=b -engine cmd=c \\
      -each tc=3+0.03 -games 2 -rounds 10 -concurrency 2 -ratinginterval 20 -pgnout rr.pgn";

/// Splits `key=value`.
fn key_value(s: &str, opt: &str) -> Result<(String, String), String> {
    s.split_once('=')
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .ok_or_else(|| format!("{opt}: expected KEY=VALUE, found '{s}'"))
}

fn number<T: std::str::FromStr>(what: &str, v: &str) -> Result<T, String> {
    v.parse()
        .map_err(|_| format!("{what} takes a number, not '{v}'"))
}

fn positive_u32(what: &str, v: &str) -> Result<u32, String> {
    number::<u32>(what, v)?
        .checked_sub(0)
        .filter(|&n| n > 0)
        .ok_or_else(|| format!("{what} must be at least 1, not '{v}'"))
}

fn flag(what: &str, v: &str) -> Result<bool, String> {
    match v {
        "on" | "true" | "1" | "yes" => Ok(true),
        "off" | "false" | "0" | "no" => Ok(false),
        _ => Err(format!("{what} takes on or off, not '{v}'")),
    }
}

/// An engine being described; `None` fields were not given.
#[derive(Default, Clone)]
struct EngineDraft {
    cmd: Option<String>,
    name: Option<String>,
    proto: Option<Proto>,
    args: Vec<String>,
    dir: Option<String>,
    stderr: Option<String>,
    options: Vec<(String, String)>,
    init: Vec<String>,
    tc: Option<Option<super::timecontrol::ClockRules>>,
    st: Option<u64>,
    nodes: Option<u64>,
    depth: Option<u32>,
    margin: Option<u64>,
    stall: Option<u64>,
    restart: Option<bool>,
}

impl EngineDraft {
    fn set(&mut self, k: &str, v: &str) -> Result<(), String> {
        if let Some(name) = k.strip_prefix("option.") {
            if name.is_empty() {
                return Err("option. needs a name (option.Hash=64)".into());
            }
            self.options.push((name.to_string(), v.to_string()));
            return Ok(());
        }
        match k {
            "cmd" => self.cmd = Some(v.to_string()),
            "name" => self.name = Some(v.to_string()),
            "arg" => self.args.push(v.to_string()),
            "dir" => self.dir = Some(v.to_string()),
            "stderr" => self.stderr = Some(v.to_string()),
            "initstr" => self.init.push(v.to_string()),
            "proto" => {
                self.proto = Some(match v {
                    "uci" => Proto::Uci,
                    "xboard" | "cecp" => Proto::Xboard,
                    _ => return Err(format!("proto takes uci or xboard, not '{v}'")),
                })
            }
            "tc" => self.tc = Some(parse_tc(v)?),
            "st" => self.st = Some(parse_positive_seconds("st", v)?),
            "nodes" => {
                let n: u64 = number("nodes", v)?;
                if n == 0 {
                    return Err("nodes must be at least 1".into());
                }
                self.nodes = Some(n);
            }
            "depth" => self.depth = Some(positive_u32("depth", v)?),
            "timemargin" => self.margin = Some(number("timemargin (milliseconds)", v)?),
            "stall" => self.stall = Some(parse_positive_seconds("stall", v)?),
            "restart" => self.restart = Some(flag("restart", v)?),
            _ => {
                return Err(format!(
                    "unknown engine key '{k}' (see 'chimera match -help')"
                ))
            }
        }
        Ok(())
    }

    /// This draft with `each` filling what it left open.
    fn finish(mut self, each: &EngineDraft, index: usize) -> Result<EngineSpec, String> {
        macro_rules! inherit {
            ($($f:ident),*) => {$( if self.$f.is_none() { self.$f = each.$f.clone(); } )*};
        }
        inherit!(cmd, name, proto, dir, stderr, tc, st, nodes, depth, margin, stall, restart);
        let mut options = each.options.clone();
        options.extend(self.options);
        let mut args = each.args.clone();
        args.extend(self.args);
        let mut init = each.init.clone();
        init.extend(self.init);
        let cmd = self
            .cmd
            .ok_or_else(|| format!("engine {}: cmd= is missing", index + 1))?;
        let name = self.name.unwrap_or_else(|| {
            std::path::Path::new(&cmd)
                .file_name()
                .map_or(cmd.clone(), |f| f.to_string_lossy().into_owned())
        });
        let proto = self.proto.unwrap_or(Proto::Uci);
        let clock = self.tc.flatten();
        let limits = Limits {
            clock,
            movetime_ms: self.st,
            nodes: self.nodes,
            depth: self.depth,
            infinite: self.tc.is_some() && clock.is_none(),
            margin_ms: self.margin.unwrap_or(0),
        };
        if !limits.is_bounded() {
            return Err(format!(
                "engine '{name}' has no time control: give tc=, st=, nodes= or depth= (e.g. -each tc=10+0.1)"
            ));
        }
        if proto == Proto::Xboard && limits.nodes.is_some() {
            return Err(format!(
                "engine '{name}': nodes= is for UCI engines (XBoard has no node limit per move)"
            ));
        }
        Ok(EngineSpec {
            name,
            launch: Launch {
                cmd,
                args,
                dir: self.dir,
                stderr: self.stderr,
            },
            proto,
            options,
            init,
            limits,
            stall_ms: self.stall.unwrap_or(DEFAULT_STALL_MS),
            restart: self.restart.unwrap_or(false),
        })
    }
}

/// Parses `chimera match` arguments. `Ok(None)` means help was asked for.
pub fn parse(args: &[String]) -> Result<Option<MatchConfig>, String> {
    let mut drafts: Vec<EngineDraft> = Vec::new();
    let mut each = EngineDraft::default();
    let mut c = MatchConfig {
        engines: Vec::new(),
        tournament: Kind::RoundRobin,
        anchor: 0,
        variant: "chess".into(),
        variants_file: None,
        games: 1,
        rounds: 1,
        repeat: false,
        concurrency: 1,
        openings: None,
        srand: None,
        pgnout: None,
        resume: false,
        event: "Chimera match".into(),
        site: "?".into(),
        adjudication: Adjudication::default(),
        sprt: None,
        rating_interval: 0,
        debug: false,
        serve: None,
    };
    let mut seed: Option<u64> = None;
    let mut openings_seed_given = false;
    let mut anchor: Option<String> = None;
    let mut i = 0;
    let is_option = |s: &str| {
        s.starts_with('-') && s.len() > 1 && !s[1..].starts_with(|c: char| c.is_ascii_digit())
    };
    while i < args.len() {
        let raw = &args[i];
        if !is_option(raw) {
            return Err(format!(
                "unexpected argument '{raw}' (options start with '-')"
            ));
        }
        let opt = raw.trim_start_matches('-');
        // the KEY=VALUE words after the option
        let mut words = Vec::new();
        let mut j = i + 1;
        while j < args.len() && !is_option(&args[j]) {
            words.push(args[j].as_str());
            j += 1;
        }
        let one = |what: &str| -> Result<&str, String> {
            match words.as_slice() {
                [v] => Ok(v),
                [] => Err(format!("-{what} needs a value")),
                _ => Err(format!(
                    "-{what} takes one value, found: {}",
                    words.join(" ")
                )),
            }
        };
        let none = |what: &str| -> Result<(), String> {
            if words.is_empty() {
                Ok(())
            } else {
                Err(format!(
                    "-{what} takes no value, found: {}",
                    words.join(" ")
                ))
            }
        };
        match opt {
            "help" | "h" => return Ok(None),
            "engine" | "each" => {
                let mut d = EngineDraft::default();
                for w in &words {
                    let (k, v) = key_value(w, raw)?;
                    d.set(&k, &v)?;
                }
                if opt == "engine" {
                    drafts.push(d);
                } else {
                    each = merge_each(std::mem::take(&mut each), d);
                }
            }
            "tournament" => c.tournament = Kind::parse(one("tournament")?)?,
            "anchor" => anchor = Some(one("anchor")?.to_string()),
            "variant" => c.variant = one("variant")?.to_string(),
            "variants" => c.variants_file = Some(one("variants")?.to_string()),
            "games" => c.games = positive_u32("-games", one("games")?)?,
            "rounds" => c.rounds = positive_u32("-rounds", one("rounds")?)?,
            "repeat" => {
                // cutechess-cli's `-repeat [N]`: only 2 (pairs of games) is supported
                match words.as_slice() {
                    [] | ["2"] => c.repeat = true,
                    _ => return Err("-repeat takes no value (each opening is played twice)".into()),
                }
            }
            "concurrency" => {
                let n = positive_u32("-concurrency", one("concurrency")?)?;
                if n > 256 {
                    return Err("-concurrency is at most 256".into());
                }
                c.concurrency = n as usize;
            }
            "srand" => seed = Some(number("-srand", one("srand")?)?),
            "pgnout" => {
                // cutechess-cli allows `min` and `fi` after the file; they change nothing here
                match words.as_slice() {
                    [f, rest @ ..] if rest.iter().all(|w| *w == "min" || *w == "fi") => {
                        c.pgnout = Some(f.to_string())
                    }
                    _ => return Err("-pgnout takes a FILE".into()),
                }
            }
            "resume" => {
                none("resume")?;
                c.resume = true;
            }
            "event" => c.event = one("event")?.to_string(),
            "site" => c.site = one("site")?.to_string(),
            "debug" => {
                none("debug")?;
                c.debug = true;
            }
            "serve" => {
                let port = one("serve")?;
                c.serve =
                    Some(port.parse().map_err(|_| {
                        format!("-serve takes a port number (0..65535), not '{port}'")
                    })?)
            }
            "ratinginterval" => {
                c.rating_interval = number("-ratinginterval", one("ratinginterval")?)?
            }
            "maxmoves" => {
                c.adjudication.max_moves = Some(positive_u32("-maxmoves", one("maxmoves")?)?)
            }
            "openings" => {
                let (spec, seed_given) = parse_openings(&words, raw)?;
                openings_seed_given |= seed_given;
                c.openings = Some(spec);
            }
            "draw" => c.adjudication.draw = Some(parse_draw(&words, raw)?),
            "resign" => c.adjudication.resign = Some(parse_resign(&words, raw)?),
            "sprt" => c.sprt = Some(parse_sprt(&words, raw)?),
            _ => {
                return Err(format!(
                    "unknown match option '{raw}' (see 'chimera match -help')"
                ))
            }
        }
        i = j;
    }
    c.srand = seed;
    if let Some(o) = c.openings.as_mut() {
        if let (Some(s), false) = (seed, openings_seed_given) {
            o.seed = s;
        }
    }
    check_engine_count(&c.variant, c.tournament, drafts.len())?;
    schedule::check(c.tournament, drafts.len(), c.rounds)?;
    for (i, d) in drafts.into_iter().enumerate() {
        c.engines.push(d.finish(&each, i)?);
    }
    distinct_names(&mut c.engines);
    if let Some(name) = anchor {
        c.anchor = c
            .engines
            .iter()
            .position(|e| e.name == name)
            .ok_or_else(|| {
                let all: Vec<&str> = c.engines.iter().map(|e| e.name.as_str()).collect();
                format!(
                    "-anchor {name}: no engine has that name (the engines: {})",
                    all.join(", ")
                )
            })?;
    }
    if c.variant == crate::foreignpolicy::NAME {
        check_three_seat_options(&c)?;
    }
    if c.sprt.is_some() && c.engines.len() != 2 {
        return Err("-sprt compares two engines; a tournament of more has no SPRT".into());
    }
    if c.sprt.is_some() && c.rounds == 1 && c.games == 1 {
        return Err(
            "-sprt needs room to decide: give -games and/or -rounds (the upper limit)".into(),
        );
    }
    Ok(Some(c))
}

/// At least two engines for a two-colour variant, at least three for Foreign Policy, whose
/// events are trios (no knockout).
fn check_engine_count(variant: &str, kind: Kind, n: usize) -> Result<(), String> {
    if variant != crate::foreignpolicy::NAME {
        return if n >= 2 {
            Ok(())
        } else {
            Err(format!(
                "a match needs at least two -engine options, found {n} (see 'chimera match -help')"
            ))
        };
    }
    if n < 3 {
        return Err(format!(
            "{variant} is a three-player game: it needs at least three -engine options (South, North and Peacekeeper seats rotate), found {n}"
        ));
    }
    if kind == Kind::Knockout {
        return Err(format!(
            "{variant} plays trios of engines: -tournament round-robin (every trio) or gauntlet (the trios with the first engine), not knockout"
        ));
    }
    Ok(())
}

/// Renames engines that share a name (`a`, `a-2`, `a-3`): the results and -resume tell
/// engines apart by name.
fn distinct_names(engines: &mut [EngineSpec]) {
    for i in 1..engines.len() {
        if engines[..i].iter().any(|e| e.name == engines[i].name) {
            engines[i].name.push_str(&format!("-{}", i + 1));
        }
    }
}

/// The options a three-seat match cannot honour: Elo-based SPRT and score-based adjudication
/// (a paranoid score of one player says nothing about the other two).
fn check_three_seat_options(c: &MatchConfig) -> Result<(), String> {
    let unsupported = [
        (
            c.sprt.is_some(),
            "-sprt (there is no Elo for three players)",
        ),
        (c.adjudication.draw.is_some(), "-draw"),
        (c.adjudication.resign.is_some(), "-resign"),
        (
            c.openings.as_ref().is_some_and(|o| o.format == Format::Pgn),
            "-openings format=pgn (give FP-FEN lines)",
        ),
    ];
    match unsupported.iter().find(|(given, _)| *given) {
        Some((_, what)) => Err(format!(
            "{what} is not available in a three-seat match (foreignpolicy)"
        )),
        None => Ok(()),
    }
}

/// `-each` keys given later override earlier ones; options, arguments and init strings add up.
fn merge_each(old: EngineDraft, new: EngineDraft) -> EngineDraft {
    let mut each = new;
    each.options = [old.options.clone(), each.options].concat();
    each.args = [old.args.clone(), each.args].concat();
    each.init = [old.init.clone(), each.init].concat();
    macro_rules! keep {
        ($($f:ident),*) => {$( if each.$f.is_none() { each.$f = old.$f.clone(); } )*};
    }
    keep!(cmd, name, proto, dir, stderr, tc, st, nodes, depth, margin, stall, restart);
    each
}

/// `-openings file=F [format=epd|fen|pgn] [order=sequential|random] [seed=N] [plies=N]
/// [start=N] [policy=...]`; also says whether a seed was given.
fn parse_openings(words: &[&str], raw: &str) -> Result<(OpeningsSpec, bool), String> {
    let mut s = OpeningsSpec {
        file: String::new(),
        format: Format::Epd,
        random: false,
        seed: 0,
        plies: None,
        start: 1,
        chess960: None,
    };
    let mut format_given = false;
    let mut seed_given = false;
    for w in words {
        let (k, v) = key_value(w, raw)?;
        match k.as_str() {
            "file" => s.file = v,
            "chess960" => {
                s.chess960 = Some(super::openings::parse_chess960_list(&v)?);
                s.random |= v == "random";
            }
            "format" => {
                format_given = true;
                s.format = match v.as_str() {
                    "epd" | "fen" => Format::Epd,
                    "pgn" => Format::Pgn,
                    _ => return Err(format!("-openings format takes epd, fen or pgn, not '{v}'")),
                }
            }
            "order" => {
                s.random = match v.as_str() {
                    "sequential" => false,
                    "random" => true,
                    _ => {
                        return Err(format!(
                            "-openings order takes sequential or random, not '{v}'"
                        ))
                    }
                }
            }
            "seed" => {
                s.seed = number("-openings seed", &v)?;
                seed_given = true;
            }
            "plies" => s.plies = Some(number("-openings plies", &v)?),
            "start" => s.start = positive_u32("-openings start", &v)? as usize,
            // cutechess-cli's opening policy: every game takes the next opening
            "policy" => {}
            _ => return Err(format!("unknown -openings key '{k}'")),
        }
    }
    if s.file.is_empty() == s.chess960.is_none() {
        return Err("-openings needs file=FILE or chess960=N,A-B|random (one of them)".into());
    }
    if !format_given && s.file.to_ascii_lowercase().ends_with(".pgn") {
        s.format = Format::Pgn;
    }
    Ok((s, seed_given))
}

/// `-draw movenumber=N movecount=N score=CP`.
fn parse_draw(words: &[&str], raw: &str) -> Result<DrawRule, String> {
    let (mut n, mut k, mut s) = (None, None, None);
    for w in words {
        let (key, v) = key_value(w, raw)?;
        match key.as_str() {
            "movenumber" => n = Some(number::<u32>("-draw movenumber", &v)?),
            "movecount" => k = Some(positive_u32("-draw movecount", &v)?),
            "score" => s = Some(number::<i32>("-draw score", &v)?.abs()),
            _ => {
                return Err(format!(
                    "unknown -draw key '{key}' (movenumber, movecount, score)"
                ))
            }
        }
    }
    match (n, k, s) {
        (Some(move_number), Some(move_count), Some(score)) => Ok(DrawRule {
            move_number,
            move_count,
            score,
        }),
        _ => Err("-draw needs movenumber=N movecount=N score=CP".into()),
    }
}

/// `-resign movecount=N score=CP [twosided=true]`.
fn parse_resign(words: &[&str], raw: &str) -> Result<ResignRule, String> {
    let (mut k, mut s, mut two) = (None, None, false);
    for w in words {
        let (key, v) = key_value(w, raw)?;
        match key.as_str() {
            "movecount" => k = Some(positive_u32("-resign movecount", &v)?),
            "score" => s = Some(number::<i32>("-resign score", &v)?.abs()),
            "twosided" => two = flag("-resign twosided", &v)?,
            _ => {
                return Err(format!(
                    "unknown -resign key '{key}' (movecount, score, twosided)"
                ))
            }
        }
    }
    match (k, s) {
        (Some(move_count), Some(score)) => Ok(ResignRule {
            move_count,
            score,
            two_sided: two,
        }),
        _ => Err("-resign needs movecount=N score=CP".into()),
    }
}

/// `-sprt elo0=E elo1=E alpha=A beta=B`.
fn parse_sprt(words: &[&str], raw: &str) -> Result<Sprt, String> {
    let (mut e0, mut e1, mut a, mut b) = (None, None, None, None);
    for w in words {
        let (key, v) = key_value(w, raw)?;
        let x: f64 = number(&format!("-sprt {key}"), &v)?;
        if !x.is_finite() {
            return Err(format!("-sprt {key} must be finite"));
        }
        match key.as_str() {
            "elo0" => e0 = Some(x),
            "elo1" => e1 = Some(x),
            "alpha" => a = Some(x),
            "beta" => b = Some(x),
            _ => {
                return Err(format!(
                    "unknown -sprt key '{key}' (elo0, elo1, alpha, beta)"
                ))
            }
        }
    }
    let (Some(elo0), Some(elo1), Some(alpha), Some(beta)) = (e0, e1, a, b) else {
        return Err("-sprt needs elo0= elo1= alpha= beta=".into());
    };
    if elo0 >= elo1 {
        return Err("-sprt: elo0 must be below elo1".into());
    }
    let ok = |p: f64| p > 0.0 && p < 0.5;
    if !ok(alpha) || !ok(beta) {
        return Err("-sprt: alpha and beta must be between 0 and 0.5".into());
    }
    Ok(Sprt {
        elo0,
        elo1,
        alpha,
        beta,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn parses_a_full_command_line() {
        let c = parse(&args(
            "-engine cmd=a name=A option.Hash=32 -engine cmd=b proto=xboard -each tc=40/60+0.5 timemargin=20 \
             -variant bracket -games 2 -rounds 3 -repeat -concurrency 2 -pgnout x.pgn -resume \
             -openings file=o.epd order=random -srand 9 -draw movenumber=30 movecount=4 score=8 \
             -resign movecount=3 score=600 twosided=true --sprt elo0=0 elo1=5 alpha=0.05 beta=0.1",
        ))
        .expect("valid")
        .expect("not help");
        assert_eq!(c.engines[0].name, "A");
        assert_eq!(c.engines[0].options, vec![("Hash".into(), "32".into())]);
        assert_eq!(c.engines[1].proto, Proto::Xboard);
        assert_eq!(c.engines[1].limits.clock.map(|k| k.moves), Some(40));
        assert_eq!(c.engines[1].limits.margin_ms, 20);
        assert_eq!(
            (c.games, c.rounds, c.repeat, c.concurrency),
            (2, 3, true, 2)
        );
        assert_eq!(
            c.openings.as_ref().map(|o| (o.random, o.seed)),
            Some((true, 9))
        );
        assert_eq!(c.adjudication.draw.map(|d| d.score), Some(8));
        assert!(c.adjudication.resign.is_some_and(|r| r.two_sided));
        assert_eq!(c.sprt.map(|s| s.beta), Some(0.1));
        assert_eq!(c.variant, "bracket");
    }

    #[test]
    fn rejects_bad_command_lines() {
        for bad in [
            "-engine cmd=a -each tc=1",
            "-engine cmd=a -engine cmd=b",
            "-engine cmd=a -engine cmd=b -each tc=x",
            "-engine cmd=a -engine cmd=b -each tc=1 bogus=1",
            "-engine cmd=a -engine name=b -each tc=1",
            "-engine cmd=a -engine cmd=b proto=cecp2 -each tc=1",
            "-engine cmd=a -engine cmd=b proto=xboard -each nodes=100",
            "-engine cmd=a -engine cmd=b -each tc=1 -games 0",
            "-engine cmd=a -engine cmd=b -each tc=1 -games",
            "-engine cmd=a -engine cmd=b -each tc=1 -frobnicate",
            "-engine cmd=a -engine cmd=b -each tc=1 -sprt elo0=5 elo1=0 alpha=0.05 beta=0.05 -games 9",
            "-engine cmd=a -engine cmd=b -each tc=1 -draw movecount=3",
            "-engine cmd=a -engine cmd=b -each tc=1 -openings order=random",
            "-engine cmd=a -engine cmd=b -each tc=1 stray",
        ] {
            assert!(parse(&args(bad)).is_err(), "{bad}");
        }
        assert!(matches!(parse(&args("-help")), Ok(None)));
        // same names are told apart
        let c = parse(&args("-engine cmd=x/a -engine cmd=y/a -each nodes=5"))
            .expect("valid")
            .expect("config");
        assert_eq!(
            (c.engines[0].name.as_str(), c.engines[1].name.as_str()),
            ("a", "a-2")
        );
    }

    #[test]
    fn tournaments_of_many_engines() {
        let c = parse(&args(
            "-variant foreignpolicy -engine cmd=x/a -engine cmd=y/a -engine cmd=z/a -each depth=2 -maxmoves 40",
        ))
        .expect("valid")
        .expect("config");
        let names: Vec<&str> = c.engines.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["a", "a-2", "a-3"]);
        let c = parse(&args(
            "-tournament gauntlet -engine cmd=a -engine cmd=b -engine cmd=c -each depth=1 -anchor c",
        ))
        .expect("valid")
        .expect("config");
        assert_eq!(
            (c.tournament, c.anchor, c.engines.len()),
            (Kind::Gauntlet, 2, 3)
        );
        let c = parse(&args(
            "-engine cmd=a -engine cmd=b -engine cmd=c -each depth=1",
        ))
        .expect("valid")
        .expect("config");
        assert_eq!(c.tournament, Kind::RoundRobin);
        for (bad, why) in [
            ("-engine cmd=a -each depth=1", "at least two"),
            ("-tournament swiss -engine cmd=a -engine cmd=b -each depth=1", "round-robin, gauntlet or knockout"),
            ("-tournament knockout -engine cmd=a -engine cmd=b -each depth=1 -rounds 2", "-rounds"),
            ("-engine cmd=a -engine cmd=b -engine cmd=c -each depth=1 -anchor d", "no engine has that name"),
            ("-engine cmd=a -engine cmd=b -engine cmd=c -each depth=1 -games 9 -sprt elo0=0 elo1=5 alpha=0.05 beta=0.05", "two engines"),
            ("-variant foreignpolicy -engine cmd=a -engine cmd=b -each depth=1", "at least three"),
            ("-variant foreignpolicy -tournament knockout -engine cmd=a -engine cmd=b -engine cmd=c -engine cmd=d -each depth=1", "not knockout"),
            ("-variant foreignpolicy -engine cmd=a -engine cmd=b -engine cmd=c -each depth=1 -draw movenumber=1 movecount=1 score=1", "-draw"),
        ] {
            let e = parse(&args(bad)).expect_err(bad);
            assert!(e.contains(why), "{bad}: {e}");
        }
    }
}
