//! What the two-seat runner and the three-seat runner share: each worker's pool of engine
//! processes, the worker threads, the PGN file opened for appending, the progress lines.

use super::client::Client;
use super::config::MatchConfig;
use std::io::Write;
use std::sync::atomic::AtomicBool;

/// Prints a line to standard output, ignoring a closed pipe.
pub fn say(s: &str) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{s}");
    let _ = out.flush();
}

/// The engine processes one worker keeps between games, by `-engine` index.
pub struct Pool {
    clients: Vec<Option<Client>>,
}

impl Pool {
    /// An empty pool for the event's engines.
    pub fn new(engines: usize) -> Pool {
        Pool {
            clients: (0..engines).map(|_| None).collect(),
        }
    }

    /// The clients of the engines in `seats`, in seat order: those kept from the last game
    /// where they play again, fresh ones elsewhere; an engine kept that does not play is
    /// ended. On failure every client is ended.
    pub fn seat(
        &mut self,
        cfg: &MatchConfig,
        variant: &str,
        seats: &[usize],
        interrupt: &AtomicBool,
    ) -> Result<Vec<Client>, String> {
        for (e, c) in self.clients.iter_mut().enumerate() {
            if !seats.contains(&e) {
                if let Some(c) = c.take() {
                    c.quit();
                }
            }
        }
        let mut ready = Vec::new();
        for &e in seats {
            let c = match self.clients[e].take() {
                Some(c) => Ok(c),
                None => Client::start(&cfg.engines[e], variant, cfg.debug, interrupt),
            };
            match c {
                Ok(c) => ready.push(c),
                Err(err) => {
                    ready.into_iter().for_each(Client::quit);
                    self.end();
                    return Err(err);
                }
            }
        }
        Ok(ready)
    }

    /// Keeps `client` for engine `e`'s next game.
    pub fn keep(&mut self, e: usize, client: Client) {
        self.clients[e] = Some(client);
    }

    /// Ends every client kept.
    pub fn end(&mut self) {
        self.clients
            .iter_mut()
            .filter_map(Option::take)
            .for_each(Client::quit);
    }
}

/// Opens the PGN file for appending.
pub fn open_pgn(path: &str) -> Result<std::fs::File, String> {
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| format!("cannot open the PGN file '{path}': {e}"))
}

/// Cuts a torn game (a write cut short) off the end of the PGN file `path`, whose first
/// `keep` bytes of `text` are whole games.
pub fn cut_torn_game(path: &str, text: &str, keep: usize) -> Result<(), String> {
    if text[keep..].trim().is_empty() {
        return Ok(());
    }
    eprintln!("chimera: '{path}': dropping an unfinished game at the end of the file");
    let f = std::fs::OpenOptions::new()
        .write(true)
        .open(path)
        .map_err(|e| format!("cannot open '{path}': {e}"))?;
    f.set_len(keep as u64)
        .map_err(|e| format!("cannot truncate '{path}': {e}"))
}

/// Runs `work` on `n` threads and waits for them; the error of a thread that could not start.
pub fn run_workers(n: usize, work: &(dyn Fn() + Sync)) -> Option<String> {
    let mut error = None;
    std::thread::scope(|scope| {
        for w in 0..n {
            let spawned = std::thread::Builder::new()
                .name(format!("match worker {w}"))
                .spawn_scoped(scope, work);
            if let Err(e) = spawned {
                error.get_or_insert(format!("cannot start a worker thread: {e}"));
            }
        }
    });
    error
}
