//! `chimera serve`: a local web board for every variant the engine knows, including what no
//! chess GUI can draw (007's three-ply turns, compound moves, drops, three players).
//!
//! An HTTP server (axum on a small tokio runtime) serves the page, a JSON API over the
//! engine facade and server-sent event streams (analysis lines, moves, watched match games).
//! Nothing the browser sends is trusted: every move is parsed by the engine's rules, every
//! request body is checked, and an error is an HTTP status with a JSON message. It listens on
//! the loopback address unless told otherwise. docs/serve.md describes the API.

mod api;
mod assets;
mod events;
mod games;
mod review;
mod setup;
mod watch;

pub use watch::{Watch, WatchedGame};

use std::future::IntoFuture;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;

/// How the server is set up.
#[derive(Clone, Debug)]
pub struct ServeConfig {
    /// Address to listen on (loopback by default).
    pub host: IpAddr,
    /// Port (0: any free port).
    pub port: u16,
    /// A user variants.ini loaded into every game's engine.
    pub variants_file: Option<String>,
    /// Hash table per game, in MB.
    pub hash_mb: usize,
    /// Search threads per game.
    pub threads: usize,
    /// Most games open at once (each has an engine and its table).
    pub max_games: usize,
}

impl Default for ServeConfig {
    fn default() -> Self {
        ServeConfig {
            host: IpAddr::V4(Ipv4Addr::LOCALHOST),
            port: 8080,
            variants_file: None,
            hash_mb: 16,
            threads: 1,
            max_games: 64,
        }
    }
}

/// A running server.
pub struct Server {
    /// The address it listens on (with the port chosen when 0 was asked for).
    pub addr: SocketAddr,
    /// The match games it shows (`chimera match -serve`).
    pub watch: Arc<Watch>,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Server {
    /// The page's address.
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    /// Blocks until the server ends (it runs until the process is stopped).
    pub fn join(mut self) {
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// Lets a closed game's hash table go back to the system. glibc raises its threshold for
/// serving a block from its own mapping to the size of the last such block freed, so once
/// one game has closed, the next games' tables come from the heap and stay in the process
/// after those games close too (a server that opened and closed 8 games ten times held
/// 236 MB with none open). A fixed threshold keeps every table in a mapping of its own.
fn give_back_closed_tables() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets an allocator parameter; any value is valid to ask for
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 1 << 20);
    }
}

/// Starts the server on its own threads and returns once it listens.
pub fn start(config: ServeConfig) -> Result<Server, String> {
    give_back_closed_tables();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("serve")
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the web server's runtime: {e}"))?;
    let addr = SocketAddr::new(config.host, config.port);
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind(addr))
        .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
    let addr = listener
        .local_addr()
        .map_err(|e| format!("cannot read the listening address: {e}"))?;
    let watch = Arc::new(Watch::new());
    let app = api::router(api::App::new(config, watch.clone()));
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let thread = std::thread::Builder::new()
        .name("serve-main".into())
        .spawn(move || {
            runtime.block_on(async move {
                // a graceful shutdown would wait for open event streams: just stop serving
                tokio::select! {
                    served = axum::serve(listener, app).into_future() => {
                        if let Err(e) = served {
                            eprintln!("web server stopped: {e}");
                        }
                    }
                    _ = rx => {}
                }
            });
            runtime.shutdown_background();
        })
        .map_err(|e| format!("cannot start the web server's thread: {e}"))?;
    Ok(Server {
        addr,
        watch,
        shutdown: Some(tx),
        thread: Some(thread),
    })
}
