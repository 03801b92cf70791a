//! An engine process: its pipes, a reader thread, and reads that never block the referee for
//! longer than a deadline.
//!
//! Standard output is read on its own thread into a channel, each line stamped with the moment
//! it arrived (so the referee's clock does not include its own delays). Writing to a dead
//! engine is an error, not a signal (Rust ignores SIGPIPE). On Unix the engine runs in its own
//! process group, so a Ctrl-C at the terminal reaches only the referee, which then ends the
//! engines itself. Dropping the process kills and reaps it: no zombies.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How to start an engine.
#[derive(Clone, Debug, Default)]
pub struct Launch {
    /// Program to run.
    pub cmd: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// Working directory.
    pub dir: Option<String>,
    /// File to append the engine's standard error to (`None`: discarded).
    pub stderr: Option<String>,
}

/// What a read produced.
#[derive(Debug, PartialEq, Eq)]
pub enum Read {
    /// A line and when it arrived.
    Line(String, Instant),
    /// The deadline passed.
    Timeout,
    /// The engine closed its output (it exited or crashed).
    Closed,
    /// The referee is being interrupted (Ctrl-C).
    Interrupted,
}

/// A running engine.
pub struct Process {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<(String, Instant)>,
    name: String,
    debug: bool,
    closed: bool,
}

/// Longest slice a read waits before looking at the interrupt flag again.
const POLL: Duration = Duration::from_millis(50);

impl Process {
    /// Starts the engine. `name` labels debug output.
    pub fn spawn(launch: &Launch, name: &str, debug: bool) -> Result<Process, String> {
        let mut cmd = Command::new(&launch.cmd);
        cmd.args(&launch.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped());
        match &launch.stderr {
            Some(path) => {
                let f = std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .map_err(|e| {
                        format!("engine '{name}': cannot open stderr file '{path}': {e}")
                    })?;
                cmd.stderr(f);
            }
            None => {
                cmd.stderr(Stdio::null());
            }
        }
        if let Some(d) = &launch.dir {
            cmd.current_dir(d);
        }
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            // Ctrl-C at the terminal goes to the foreground process group; the referee alone
            // decides when engines end, so games in progress are not reported as crashes.
            cmd.process_group(0);
        }
        let mut child = cmd
            .spawn()
            .map_err(|e| format!("engine '{name}': cannot start '{}': {e}", launch.cmd))?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take();
        let (tx, rx) = channel();
        if let Some(out) = stdout {
            let spawned = std::thread::Builder::new()
                .name(format!("read {name}"))
                .spawn(move || {
                    let mut r = BufReader::new(out);
                    let mut buf = Vec::new();
                    loop {
                        buf.clear();
                        // bytes, not read_line: an engine printing invalid UTF-8 is read lossily
                        match r.read_until(b'\n', &mut buf) {
                            Ok(0) | Err(_) => break,
                            Ok(_) => {
                                let line = String::from_utf8_lossy(&buf)
                                    .trim_end_matches(['\r', '\n'])
                                    .to_string();
                                if tx.send((line, Instant::now())).is_err() {
                                    break;
                                }
                            }
                        }
                    }
                });
            if let Err(e) = spawned {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("cannot start a reader thread: {e}"));
            }
        }
        Ok(Process {
            child,
            stdin,
            lines: rx,
            name: name.to_string(),
            debug,
            closed: false,
        })
    }

    /// The operating system's id of the process.
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// Sends one line; an error means the engine is gone.
    pub fn send(&mut self, line: &str) -> Result<(), String> {
        if self.debug {
            eprintln!("{} < {line}", self.name);
        }
        let Some(stdin) = self.stdin.as_mut() else {
            return Err("its input is closed".into());
        };
        stdin
            .write_all(line.as_bytes())
            .and_then(|()| stdin.write_all(b"\n"))
            .and_then(|()| stdin.flush())
            .map_err(|e| format!("cannot write to it ({e})"))
    }

    /// Reads the next line, waiting until `deadline` at most; `interrupt` is looked at every
    /// few milliseconds.
    pub fn read(&mut self, deadline: Instant, interrupt: &AtomicBool) -> Read {
        if self.closed {
            return Read::Closed;
        }
        loop {
            if interrupt.load(Ordering::Relaxed) {
                return Read::Interrupted;
            }
            let now = Instant::now();
            if now >= deadline {
                // a line already waiting still counts: the reader stamped when it arrived
                return match self.lines.try_recv() {
                    Ok((l, t)) => self.got(l, t),
                    Err(_) => Read::Timeout,
                };
            }
            match self.lines.recv_timeout((deadline - now).min(POLL)) {
                Ok((l, t)) => return self.got(l, t),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => {
                    self.closed = true;
                    return Read::Closed;
                }
            }
        }
    }

    fn got(&self, line: String, at: Instant) -> Read {
        if self.debug {
            eprintln!("{} > {line}", self.name);
        }
        Read::Line(line, at)
    }

    /// Asks the engine to quit with `quit_line`, waits up to `grace`, then kills it; always
    /// reaps the process.
    pub fn shutdown(mut self, quit_line: &str, grace: Duration) {
        if !self.closed && self.send(quit_line).is_ok() {
            // closing stdin too: some engines quit on end of input rather than on `quit`
            self.stdin = None;
            let end = Instant::now() + grace;
            while Instant::now() < end {
                if let Ok(Some(_)) = self.child.try_wait() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
        }
        // Drop kills and reaps
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.stdin = None;
        if let Ok(Some(_)) = self.child.try_wait() {
            return;
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
