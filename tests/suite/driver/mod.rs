//! Driving the built binary over a pipe in integration tests.
#![allow(dead_code)]

pub mod referee;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

/// A running engine process.
pub struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// Every line read so far.
    pub seen: Vec<String>,
}

impl Engine {
    /// Starts the binary with no arguments (protocol mode).
    pub fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_chimera"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the engine binary starts");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines: rx,
            seen: Vec::new(),
        }
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("engine reads stdin");
        self.stdin.flush().expect("flush");
    }

    /// Reads lines until one satisfies `pred` (returned), failing after `secs` seconds.
    pub fn expect(&mut self, secs: u64, pred: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + Duration::from_secs(secs);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) => {
                    self.seen.push(l.clone());
                    if pred(&l) {
                        return l;
                    }
                }
                Err(_) => panic!("timed out; lines so far:\n{}", self.seen.join("\n")),
            }
        }
    }

    /// Reads the lines that arrive within `ms` milliseconds.
    pub fn drain(&mut self, ms: u64) -> Vec<String> {
        let mut out = Vec::new();
        let deadline = Instant::now() + Duration::from_millis(ms);
        while let Ok(l) = self
            .lines
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            self.seen.push(l.clone());
            out.push(l);
        }
        out
    }

    /// Sends `quit` and waits for the process to exit; returns whether it exited cleanly.
    pub fn quit(mut self) -> bool {
        self.send("quit");
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                return status.success();
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        false
    }
}
