//! `chimera match`: a tournament referee for engines in every variant Chimera knows.
//!
//! Other tournament managers know a fixed list of variants and forfeit an engine whose move
//! they cannot parse; here our own rules judge every move. One file per concept:
//! `config` (the cutechess-cli-like command line), `process` (engine processes and reads with
//! deadlines), `client` (UCI and XBoard), `timecontrol` (limits and clocks), `openings`,
//! `referee` (one game), `referee3` and `three` (Foreign Policy's three seats and trios),
//! `stats` (Elo, LOS, SPRT of a pair), `rating` (Elo of a field, crosstable), `schedule` (who
//! meets whom: round robin, gauntlet, knockout), `observer` (games followed live, for
//! `-serve`) and `runner` (workers, concurrency, output). See docs/match.md.

pub mod client;
pub mod config;
pub mod observer;
pub mod openings;

pub mod process;
pub mod rating;
pub mod referee;
pub mod referee3;
pub mod runner;
pub mod schedule;
pub mod stats;
pub mod three;
pub mod timecontrol;
pub mod workers;

use observer::GameObserver;
use std::sync::atomic::{AtomicBool, Ordering};

/// Set by Ctrl-C (SIGINT): games in progress are abandoned, finished games are kept.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

#[cfg(unix)]
extern "C" fn on_sigint(_: libc::c_int) {
    // only async-signal-safe work here: a second Ctrl-C ends the process at once
    if INTERRUPTED.swap(true, Ordering::SeqCst) {
        unsafe { libc::_exit(130) };
    }
}

/// Routes SIGINT to the interrupt flag (engines run in their own process groups, so they do
/// not see it and the referee ends them itself).
fn catch_ctrl_c() {
    #[cfg(unix)]
    // SAFETY: installs a handler that only touches an atomic and calls _exit.
    unsafe {
        let handler: extern "C" fn(libc::c_int) = on_sigint;
        libc::signal(libc::SIGINT, handler as libc::sighandler_t);
    }
}

/// Starts whatever follows the games for `-serve PORT` (the web board, set up by the
/// command line, which may reach it).
pub type Connect<'a> = &'a dyn Fn(u16, Option<&str>) -> Result<Box<dyn GameObserver>, String>;

/// Runs `chimera match ARGS`; returns the exit code (0 done, 1 error, 130 interrupted).
pub fn main(args: &[String], connect: Connect) -> i32 {
    let cfg = match config::parse(args) {
        Ok(Some(c)) => c,
        Ok(None) => {
            println!("{}", config::MATCH_USAGE);
            return 0;
        }
        Err(e) => {
            eprintln!("chimera match: {e}");
            return 1;
        }
    };
    let observer = match cfg.serve {
        Some(port) => match connect(port, cfg.variants_file.as_deref()) {
            Ok(o) => Some(o),
            Err(e) => {
                eprintln!("chimera match: -serve {port}: {e}");
                return 1;
            }
        },
        None => None,
    };
    catch_ctrl_c();
    let observer = observer.as_deref();
    let ran = if cfg.variant == crate::foreignpolicy::NAME {
        three::run(&cfg, &INTERRUPTED, observer)
    } else {
        runner::run(&cfg, &INTERRUPTED, observer)
    };
    match ran {
        Ok(runner::Ending::Complete) => 0,
        Ok(runner::Ending::Interrupted) => 130,
        Err(e) => {
            eprintln!("chimera match: {e}");
            1
        }
    }
}
