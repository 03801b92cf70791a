//! Random input to the UCI and XBoard sessions never panics the engine, and the session keeps
//! answering (`isready` / `ping` sent last are answered).

use chimera::protocol::{run, Output};
use proptest::prelude::*;
use std::io::{Cursor, Write};
use std::sync::{Arc, Mutex};

#[derive(Clone, Default)]
struct Sink(Arc<Mutex<Vec<u8>>>);

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().expect("sink").extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn session(lines: &[String]) -> String {
    let sink = Sink::default();
    let text = lines.join("\n") + "\n";
    run(
        Box::new(Cursor::new(text.into_bytes())),
        Output::new(Box::new(sink.clone())),
    );
    let out = sink.0.lock().expect("sink").clone();
    String::from_utf8_lossy(&out).into_owned()
}

const WORDS: &[&str] = &[
    "position",
    "startpos",
    "fen",
    "moves",
    "go",
    "depth",
    "1",
    "2",
    "nodes",
    "50",
    "movetime",
    "5",
    "wtime",
    "btime",
    "winc",
    "100",
    "-3",
    "searchmoves",
    "e2e4",
    "e7e5",
    "g1f3",
    "c2d4,d4c5,d4e3",
    "e7e8q",
    "N@d1",
    "zz",
    "setoption",
    "name",
    "value",
    "Hash",
    "Threads",
    "MultiPV",
    "UCI_Variant",
    "palace",
    "haven",
    "bracket",
    "eviction",
    "chess",
    "stop",
    "ponderhit",
    "isready",
    "ucinewgame",
    "d",
    "perft",
    "usermove",
    "new",
    "force",
    "variant",
    "setboard",
    "undo",
    "remove",
    "level",
    "40",
    "0:30",
    "st",
    "sd",
    "time",
    "otim",
    "ping",
    "post",
    "analyze",
    "exit",
    ".",
    "?",
    "hint",
    "memory",
    "cores",
    "option",
    "result",
    "8/8/8",
    "w",
    "b",
    "KQkq",
    "-",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
    "\u{e9}",
    "",
];

fn line() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(WORDS), 0..8).prop_map(|w| w.join(" "))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn uci_survives_random_commands(lines in prop::collection::vec(line(), 0..25)) {
        let mut all = vec!["uci".to_string()];
        all.extend(lines.into_iter().filter(|l| !l.contains("quit")));
        all.push("stop".into());
        all.push("isready".into());
        let out = session(&all);
        prop_assert!(out.contains("uciok"));
        prop_assert!(out.contains("readyok"), "{}", out);
    }

    #[test]
    fn xboard_survives_random_commands(lines in prop::collection::vec(line(), 0..25)) {
        let mut all = vec!["xboard".to_string(), "protover 2".to_string()];
        all.extend(lines.into_iter().filter(|l| !l.contains("quit")));
        all.push("force".into());
        all.push("ping 99".into());
        let out = session(&all);
        prop_assert!(out.contains("feature done=1"));
        prop_assert!(out.contains("pong 99"), "{}", out);
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        let sink = Sink::default();
        let mut input = b"uci\n".to_vec();
        input.extend_from_slice(&bytes);
        input.extend_from_slice(b"\nstop\n");
        run(Box::new(Cursor::new(input)), Output::new(Box::new(sink)));
    }
}
