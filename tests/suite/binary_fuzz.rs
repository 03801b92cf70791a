//! Fuzzing the whole engine from outside: random mutations of valid UCI and XBoard sessions
//! (bad FENs, moves and options, huge and binary lines, commands during a search) sent to the
//! built binary over a pipe. A session fails on a crash (the process ends), a panic message
//! on stderr, or a hang (no `readyok` / `pong` within the bound after the last line).
//! The in-process parser fuzz is tests/suite/protocol_fuzz.rs.

use proptest::prelude::*;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc::{channel, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How long the engine may take to answer the final `isready` / `ping`.
const ANSWER_BOUND: Duration = Duration::from_secs(20);

/// One line of a session: text, or raw bytes that need not be UTF-8.
#[derive(Clone, Debug)]
enum Line {
    Text(String),
    Bytes(Vec<u8>),
}

/// Runs a session and checks the engine answers `probe` with `answer`, alive and calm.
fn survives(lines: &[Line], probe: &str, answer: &str) -> Result<(), String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chimera"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start the engine: {e}"))?;
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        for l in BufReader::new(stdout).split(b'\n').map_while(Result::ok) {
            if tx.send(String::from_utf8_lossy(&l).into_owned()).is_err() {
                break;
            }
        }
    });
    let errors = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text);
        text
    });
    let mut write = |bytes: &[u8]| stdin.write_all(bytes).and_then(|_| stdin.write_all(b"\n"));
    let mut sent = Ok(());
    for l in lines {
        sent = sent.and_then(|_| match l {
            Line::Text(t) => write(t.as_bytes()),
            Line::Bytes(b) => write(b),
        });
    }
    let sent = sent.and_then(|_| write(probe.as_bytes()));
    let deadline = Instant::now() + ANSWER_BOUND;
    let mut answered = false;
    let mut last_lines = std::collections::VecDeque::new();
    let mut closed = false;
    loop {
        match rx.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            Ok(l) if l.trim() == answer => {
                answered = true;
                break;
            }
            Ok(l) => {
                if last_lines.len() == 5 {
                    last_lines.pop_front();
                }
                last_lines.push_back(l);
            }
            Err(RecvTimeoutError::Disconnected) => {
                closed = true;
                break;
            }
            Err(RecvTimeoutError::Timeout) => break,
        }
    }
    // output closed before the answer: the engine ended, which is not a hang
    let died = if closed && !answered {
        child.wait().ok()
    } else {
        None
    };
    let _ = write(b"quit");
    drop(stdin);
    let alive_until_quit = match child.try_wait() {
        Ok(Some(status)) => !answered || status.success(),
        _ => true,
    };
    let _ = child.kill();
    let _ = child.wait();
    let errors = errors.join().unwrap_or_default();
    if let Err(e) = sent {
        return Err(format!("the engine stopped reading: {e}"));
    }
    if errors.contains("panicked") {
        return Err(format!("a panic: {errors}"));
    }
    if let Some(status) = died {
        return Err(format!(
            "the engine exited ({status}) before answering; stderr: {errors}; last lines: \
             {last_lines:?}"
        ));
    }
    if !answered {
        return Err(format!(
            "no '{answer}' within {ANSWER_BOUND:?}; stderr: {errors}; last lines: {last_lines:?}"
        ));
    }
    if !alive_until_quit {
        return Err("the engine exited badly".into());
    }
    Ok(())
}

const VARIANTS: &[&str] = &[
    "chess",
    "espionage",
    "007detente",
    "bracket",
    "eviction",
    "emissary",
    "garrison",
    "foreignpolicy",
    "nosuchvariant",
];

const FENS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
    "4k3/8/8/8/8/8/3P1P2/3QK3[N] w - - 0 1",
    "k6/2K4/7/7/7/7/6R w - - 0 1",
    "8/8/8/8/8/8/8/8 w - - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
    "9/9/9 w - - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -5 99999999999",
    "",
];

const MOVES: &[&str] = &[
    "e2e4",
    "e7e5",
    "g1f3",
    "d1e2,e2e4",
    "N@d1",
    "d1a4,N@d1",
    "e2e5",
    "a1a1",
    "0000",
    "e7e8q",
    "O-O",
    "zz",
    "e2",
    "c2d4,d4c5,d4e3,e3f4,f4g5,g5h6,h6g7,g7h8,h8a1",
];

const UCI: &[&str] = &[
    "uci",
    "isready",
    "ucinewgame",
    "position startpos",
    "stop",
    "ponderhit",
    "go depth 2",
    "go movetime 30",
    "go nodes 500",
    "go infinite",
    "go wtime 100 btime 100 winc 0 binc 0",
    "go depth -1",
    "go mate 2",
    "setoption name Hash value 1",
    "setoption name Hash value 99999999",
    "setoption name Threads value 2",
    "setoption name MultiPV value 3",
    "setoption name Bogus value 1",
    "setoption name VariantPath value /nonexistent.ini",
    "d",
    "debug on",
];

const XBOARD: &[&str] = &[
    "xboard",
    "protover 2",
    "new",
    "force",
    "go",
    "playother",
    "undo",
    "remove",
    "sd 2",
    "st 0.05",
    "level 0 1 0",
    "time 100",
    "otim 100",
    "post",
    "nopost",
    "analyze",
    "exit",
    ".",
    "hint",
    "result 1-0 {x}",
    "?",
    "memory 1",
    "cores 2",
    "option MultiPV=2",
    "option Nonsense=5",
    "ping 3",
];

/// A line of a UCI or XBoard session: a command, one with a variant, FEN or moves, or junk.
fn line(uci: bool) -> impl Strategy<Value = Line> {
    let commands = if uci { UCI } else { XBOARD };
    let variant = prop::sample::select(VARIANTS);
    let fen = prop::sample::select(FENS);
    let mv = prop::sample::select(MOVES);
    let moves = prop::collection::vec(prop::sample::select(MOVES), 0..6);
    prop_oneof![
        6 => prop::sample::select(commands).prop_map(|c| Line::Text(c.to_string())),
        2 => variant.prop_map(move |v| Line::Text(if uci {
            format!("setoption name UCI_Variant value {v}")
        } else {
            format!("variant {v}")
        })),
        2 => fen.prop_map(move |f| Line::Text(if uci {
            format!("position fen {f}")
        } else {
            format!("setboard {f}")
        })),
        2 => moves.prop_map(move |m| Line::Text(if uci {
            format!("position startpos moves {}", m.join(" "))
        } else {
            format!("usermove {}", m.first().copied().unwrap_or(""))
        })),
        1 => mv.prop_map(|m| Line::Text(m.to_string())),
        1 => prop::collection::vec(any::<u8>(), 0..200).prop_map(Line::Bytes),
        1 => (1usize..200_000).prop_map(|n| Line::Text("e2e4 ".repeat(n / 5 + 1))),
        1 => "[ -~]{0,60}".prop_map(Line::Text),
    ]
}

/// A valid session's start with random lines after it (and a stop for a running search).
fn session(uci: bool) -> impl Strategy<Value = Vec<Line>> {
    let start: Vec<Line> = if uci {
        vec![Line::Text("uci".into())]
    } else {
        vec![Line::Text("xboard".into()), Line::Text("protover 2".into())]
    };
    prop::collection::vec(line(uci), 1..30).prop_map(move |rest| {
        let mut all = start.clone();
        all.extend(rest);
        // an `analyze` or `go infinite` searches until told: end it as a GUI would
        all.push(Line::Text(if uci { "stop" } else { "exit" }.into()));
        all
    })
}

fn cases() -> u32 {
    std::env::var("CHIMERA_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1000)
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: cases(),
        failure_persistence: None,
        .. ProptestConfig::default()
    })]

    #[test]
    fn the_uci_engine_survives_mutated_sessions(lines in session(true)) {
        if let Err(e) = survives(&lines, "isready", "readyok") {
            prop_assert!(false, "{e}\nsession: {lines:?}");
        }
    }

    #[test]
    fn the_xboard_engine_survives_mutated_sessions(lines in session(false)) {
        if let Err(e) = survives(&lines, "ping 4242", "pong 4242") {
            prop_assert!(false, "{e}\nsession: {lines:?}");
        }
    }
}
