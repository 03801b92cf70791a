//! Protocols: UCI and XBoard (CECP v2) over one engine facade. The engine names itself in one
//! line, then the first command decides: `xboard` (or `protover`) starts an XBoard session,
//! anything else a UCI one (so a person at a terminal can type `d` or `go` at once, as with
//! Stockfish).
//!
//! Input is read on its own thread and fed, together with "search finished" events, into one
//! channel, so the session loop stays responsive while a search runs (`stop`, `isready`,
//! `?` are answered at once) and the engine is only touched by the loop.

pub mod uci;
pub mod xboard;

use std::io::{BufRead, Write};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Mutex};

/// Whether the search's tunable constants are offered as options (`uci`'s list, XBoard's
/// features): only when the environment variable `CHIMERA_TUNE` is set to something other
/// than `0`, as for a tuning run (docs/strength.md, "Tuning by SPSA"), or the engine was
/// built for tuning (`make TUNE=1`, which sets `CHIMERA_TUNE_BUILD`: OpenBench's workers
/// build with make and cannot set the variable), so a GUI's option dialog keeps to what a
/// user sets. They are accepted by `setoption` either way.
pub fn tunables_offered() -> bool {
    let on = |v: &str| !v.is_empty() && v != "0";
    option_env!("CHIMERA_TUNE_BUILD").is_some_and(on)
        || std::env::var("CHIMERA_TUNE").is_ok_and(|v| on(&v))
}

/// Something for the session loop to handle.
pub enum Event {
    /// A line from the GUI.
    Line(String),
    /// The GUI closed the input.
    Eof,
    /// A background search finished.
    SearchDone(Box<Finished>),
}

/// A finished search with its moves already spelled (the engine spells them).
pub use crate::engine::SearchDone as Finished;

/// A shared, line-buffered output.
#[derive(Clone)]
pub struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    /// Output to standard output.
    pub fn stdout() -> Output {
        Output(Arc::new(Mutex::new(Box::new(std::io::stdout()))))
    }

    /// Output to any writer (tests).
    pub fn new(w: Box<dyn Write + Send>) -> Output {
        Output(Arc::new(Mutex::new(w)))
    }

    /// Writes one line and flushes.
    pub fn line(&self, s: &str) {
        if let Ok(mut w) = self.0.lock() {
            let _ = writeln!(w, "{s}");
            let _ = w.flush();
        }
    }
}

/// Spawns the input reader; returns the event channel.
pub fn spawn_reader(input: Box<dyn BufRead + Send>) -> (Sender<Event>, Receiver<Event>) {
    let (tx, rx) = channel();
    let reader_tx = tx.clone();
    let _ = std::thread::Builder::new()
        .name("input".into())
        .spawn(move || {
            // raw lines: a line that is not UTF-8 is read with replacement characters and
            // refused like any unknown command, instead of ending the session
            for line in input.split(b'\n') {
                let Ok(bytes) = line else { break };
                let text = String::from_utf8_lossy(&bytes);
                let text = text.strip_suffix('\r').unwrap_or(&text).to_string();
                if reader_tx.send(Event::Line(text)).is_err() {
                    return;
                }
            }
            let _ = reader_tx.send(Event::Eof);
        });
    (tx, rx)
}

/// The line a person sees on starting the engine in a terminal (GUIs ignore it).
pub fn banner() -> String {
    format!(
        "Chimera {} by the Chimera developers (UCI; 'xboard' switches to XBoard, 'help' lists the commands)",
        env!("CARGO_PKG_VERSION")
    )
}

/// Runs a session: names the engine, then speaks UCI from the first command on, or XBoard
/// when that command is `xboard` (or `protover`), until `quit`.
pub fn run(input: Box<dyn BufRead + Send>, out: Output) {
    out.line(&banner());
    let (tx, rx) = spawn_reader(input);
    loop {
        let Ok(ev) = rx.recv() else { return };
        match ev {
            Event::Line(l) => {
                let cmd = l.trim();
                match cmd.split_whitespace().next() {
                    None => continue,
                    Some("xboard") => return xboard::session(rx, tx, out, false),
                    Some("protover") => return xboard::session_with_first(rx, tx, out, cmd),
                    Some("quit") => return,
                    Some(_) => return uci::session_with_first(rx, tx, out, cmd),
                }
            }
            Event::Eof => return,
            Event::SearchDone(_) => {}
        }
    }
}
