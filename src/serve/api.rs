//! The HTTP API: routes, request checking and the JSON the page reads (docs/serve.md).
//!
//! Every body is parsed here, not by an extractor, so that every refusal is the same JSON
//! `{"error": "..."}` with a 400 (bad input), 404 (no such game or page), 409 (not now),
//! 413 (body too large) or 503 (too many games).

use super::games::{self, Game};
use super::setup::Refusal;
use super::watch::{Watch, WatchedGame};
use super::{assets, events, ServeConfig};
use crate::engine::{BoardView, Engine, SearchLimits};
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Path, RawQuery, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

/// Largest request body.
const BODY_LIMIT: usize = 64 * 1024;
/// Longest engine move the page may ask for, in ms.
const MAX_MOVETIME_MS: u64 = 600_000;
/// Deepest engine move the page may ask for.
const MAX_DEPTH: u32 = 64;

/// What the handlers share.
pub struct App {
    config: ServeConfig,
    games: Mutex<HashMap<u64, Arc<Mutex<Game>>>>,
    next_id: AtomicU64,
    /// A small engine that sets up positions for views of past plies and watched games.
    referee: Mutex<Engine>,
    variants: Vec<String>,
    watch: Arc<Watch>,
}

impl App {
    /// The shared state of a server with this configuration.
    pub fn new(config: ServeConfig, watch: Arc<Watch>) -> Arc<App> {
        let referee = super::setup::new_engine(&ServeConfig {
            hash_mb: 1,
            threads: 1,
            ..config.clone()
        })
        .unwrap_or_else(|_| Engine::new());
        Arc::new(App {
            variants: referee.variant_names(),
            config,
            games: Mutex::new(HashMap::new()),
            next_id: AtomicU64::new(1),
            referee: Mutex::new(referee),
            watch,
        })
    }

    /// Game `id` of the path, with its number.
    fn game(&self, id: &str) -> Result<(u64, Arc<Mutex<Game>>), ApiError> {
        let n: u64 = id
            .parse()
            .map_err(|_| ApiError::not_found(format!("no game '{id}'")))?;
        let game = lock(&self.games)?.get(&n).cloned();
        game.map(|g| (n, g))
            .ok_or_else(|| ApiError::not_found(format!("no game {n}")))
    }

    /// The board of variant `variant` from `fen` after `moves`, set up by the referee engine.
    fn view_of(
        &self,
        variant: &str,
        fen: Option<&str>,
        moves: &[String],
    ) -> Result<BoardView, ApiError> {
        let mut referee = lock(&self.referee)?;
        games::set_up(&mut referee, variant, fen, moves).map_err(ApiError::from)?;
        Ok(referee.board_view())
    }
}

/// A refusal as an HTTP answer.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    message: String,
}

impl ApiError {
    fn bad(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            message: message.into(),
        }
    }

    fn not_found(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::NOT_FOUND,
            message: message.into(),
        }
    }

    fn internal(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            message: message.into(),
        }
    }
}

impl From<Refusal> for ApiError {
    fn from(r: Refusal) -> ApiError {
        let status = match r {
            Refusal::Bad(_) => StatusCode::BAD_REQUEST,
            Refusal::Conflict(_) => StatusCode::CONFLICT,
        };
        ApiError {
            status,
            message: r.message().to_string(),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(json!({ "error": self.message }))).into_response()
    }
}

type ApiResult = Result<Json<Value>, ApiError>;

fn lock<T>(m: &Mutex<T>) -> Result<MutexGuard<'_, T>, ApiError> {
    m.lock()
        .map_err(|_| ApiError::internal("a game's state was lost to an earlier failure"))
}

/// A JSON body of type `T` (an empty body reads as `{}`).
fn parse_body<T: for<'de> Deserialize<'de>>(body: &Bytes) -> Result<T, ApiError> {
    let text = std::str::from_utf8(body).map_err(|_| ApiError::bad("the body is not UTF-8"))?;
    let text = if text.trim().is_empty() { "{}" } else { text };
    serde_json::from_str(text).map_err(|e| ApiError::bad(format!("bad JSON body: {e}")))
}

/// `ply=N` from the query, if given.
fn ply_of(query: &Option<String>) -> Result<Option<usize>, ApiError> {
    let Some(q) = query else { return Ok(None) };
    for pair in q.split('&') {
        if let Some(v) = pair.strip_prefix("ply=") {
            return v
                .parse()
                .map(Some)
                .map_err(|_| ApiError::bad(format!("ply must be a number, not '{v}'")));
        }
    }
    Ok(None)
}

/// The routes.
pub fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/", get(assets::index))
        .route("/{file}", get(assets::file))
        .route("/api/variants", get(variants))
        .route("/api/games", get(list_games).post(new_game))
        .route("/api/games/{id}", get(show_game).delete(close_game))
        .route("/api/games/{id}/move", post(play_move))
        .route("/api/games/{id}/pgn", get(game_pgn))
        .route("/api/games/{id}/undo", post(undo))
        .route("/api/games/{id}/position", post(set_position))
        .route("/api/games/{id}/engine", post(engine_move))
        .route("/api/games/{id}/analysis", post(analyse))
        .route("/api/games/{id}/stop", post(stop))
        .route(
            "/api/games/{id}/review",
            get(show_review).post(start_review).delete(cancel_review),
        )
        .route("/api/games/{id}/review/pgn", get(review_pgn))
        .route("/api/games/{id}/events", get(game_events))
        .route("/api/watch", get(list_watched))
        .route("/api/watch/events", get(watch_events))
        .route("/api/watch/{number}", get(show_watched))
        .fallback(|| async { ApiError::not_found("no such page") })
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .with_state(app)
}

/// The board's JSON: the view plus what the page needs to navigate.
fn board_json(v: &BoardView) -> Value {
    let men: Vec<Value> = v
        .men
        .iter()
        .map(|m| json!({"square": m.square, "letter": m.letter.to_string(), "kind": m.kind, "owner": m.owner}))
        .collect();
    let held: Vec<Value> = v
        .held
        .iter()
        .map(|h| json!({"owner": h.owner, "letter": h.letter.to_string(), "kind": h.kind, "count": h.count}))
        .collect();
    json!({
        "variant": v.variant,
        "files": v.files,
        "ranks": v.ranks,
        "holes": v.holes,
        "players": v.players,
        "men": men,
        "held": held,
        "to_move": v.to_move,
        "chooser": v.chooser,
        "turn": v.turn,
        "fen": v.fen,
        "legal": v.legal,
        "result": v.result.as_ref().map(|(score, reason)| json!({"score": score, "reason": reason})),
    })
}

/// A game's state at ply `ply` (its current position when `None`).
fn game_json(app: &App, id: u64, g: &Game, ply: Option<usize>) -> ApiResult {
    let total = g.history.len();
    let ply = ply.unwrap_or(total);
    if ply > total {
        return Err(ApiError::bad(format!(
            "ply {ply} is beyond the game's {total} plies"
        )));
    }
    let mut state = if ply == total {
        board_json(&g.engine.board_view())
    } else {
        let mut v = app.view_of(&g.variant, g.start_fen.as_deref(), &g.history[..ply])?;
        v.legal.clear(); // the past is shown, not played
        board_json(&v)
    };
    state["id"] = json!(id);
    state["history"] = json!(g.history);
    state["ply"] = json!(ply);
    state["plies"] = json!(total);
    state["start_fen"] = json!(g.start_fen);
    // the move list as people read it: SAN in chess, numbered from the start's move number
    if g.engine.three().is_none() {
        let shown =
            crate::engine::pgn::display_moves(g.engine.rules(), g.start_fen.as_deref(), &g.history);
        if let Ok((texts, number, black_first)) = shown {
            state["notation"] = json!(texts);
            state["first_move"] = json!({"number": number, "black": black_first});
        }
    }
    if ply == total {
        // promotionChooser = owner: the moves whose piece the pawn's owner picks
        state["owner_picks"] = json!(g.owner_picks());
    }
    state["analysing"] = json!(g.analysing);
    state["analysis_lines"] = json!(g.analysis_lines);
    state["thinking"] = json!(g.thinking);
    Ok(Json(state))
}

async fn variants(State(app): State<Arc<App>>) -> Json<Value> {
    Json(json!({ "variants": app.variants }))
}

async fn list_games(State(app): State<Arc<App>>) -> ApiResult {
    let games: Vec<(u64, Arc<Mutex<Game>>)> = lock(&app.games)?
        .iter()
        .map(|(id, g)| (*id, g.clone()))
        .collect();
    let mut list = Vec::new();
    for (id, g) in games {
        let g = lock(&g)?;
        list.push(json!({"id": id, "variant": g.variant, "plies": g.history.len()}));
    }
    list.sort_by_key(|v| v["id"].as_u64());
    Ok(Json(json!({ "games": list })))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewGame {
    variant: Option<String>,
    fen: Option<String>,
    /// A Chess960 start by number (fischerandom; random when absent).
    chess960: Option<u32>,
    /// A game in PGN to load (its `Variant` tag names the variant unless `variant` does).
    pgn: Option<String>,
}

async fn new_game(State(app): State<Arc<App>>, body: Bytes) -> Result<Response, ApiError> {
    let req: NewGame = parse_body(&body)?;
    let tagged = req.pgn.as_deref().and_then(|text| {
        crate::engine::pgn::read_games(text)
            .first()
            .and_then(|g| g.tag("Variant").map(crate::engine::pgn::variant_of_tag))
    });
    let variant = req.variant.or(tagged).unwrap_or_else(|| "chess".into());
    if lock(&app.games)?.len() >= app.config.max_games {
        return Err(ApiError {
            status: StatusCode::SERVICE_UNAVAILABLE,
            message: format!(
                "{} games are open, the most this server keeps; close one first",
                app.config.max_games
            ),
        });
    }
    let fen = req.fen.as_deref().map(str::trim).filter(|f| !f.is_empty());
    let config = app.config.clone();
    let variant_name = variant.clone();
    let fen_owned = fen.map(str::to_string);
    // an engine allocates and clears its table: not on the async workers
    let pgn = req.pgn;
    let game = tokio::task::spawn_blocking(move || match pgn {
        Some(text) => Game::from_pgn(&config, &variant_name, &text),
        None => Game::new(&config, &variant_name, fen_owned.as_deref(), req.chess960),
    })
    .await
    .map_err(|e| ApiError::internal(format!("game set-up failed: {e}")))??;
    let id = app.next_id.fetch_add(1, Ordering::Relaxed);
    let state = game_json(&app, id, &game, None)?;
    lock(&app.games)?.insert(id, Arc::new(Mutex::new(game)));
    Ok((StatusCode::CREATED, state).into_response())
}

/// A PGN text as the answer (`application/x-chess-pgn`).
fn pgn_response(text: String) -> Response {
    (
        [(
            axum::http::header::CONTENT_TYPE,
            "application/x-chess-pgn; charset=utf-8",
        )],
        text,
    )
        .into_response()
}

async fn game_pgn(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let (_, game) = app.game(&id)?;
    let text = lock(&game)?.pgn()?;
    Ok(pgn_response(text))
}

async fn show_game(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
) -> ApiResult {
    let ply = ply_of(&query)?;
    let (n, game) = app.game(&id)?;
    let g = lock(&game)?;
    game_json(&app, n, &g, ply)
}

async fn close_game(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    let (_, game) = app.game(&id)?;
    lock(&app.games)?.retain(|_, g| !Arc::ptr_eq(g, &game));
    tokio::task::spawn_blocking(move || {
        if let Ok(mut g) = game.lock() {
            g.close();
        }
    });
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveRequest {
    #[serde(rename = "move")]
    text: String,
}

/// Runs `f` on the locked game and answers with the game's state.
fn with_game(app: &App, id: &str, f: impl FnOnce(&mut Game) -> Result<(), Refusal>) -> ApiResult {
    let (n, game) = app.game(id)?;
    let mut g = lock(&game)?;
    f(&mut g)?;
    game_json(app, n, &g, None)
}

async fn play_move(State(app): State<Arc<App>>, Path(id): Path<String>, body: Bytes) -> ApiResult {
    let req: MoveRequest = parse_body(&body)?;
    with_game(&app, &id, |g| g.play(&req.text))
}

async fn undo(State(app): State<Arc<App>>, Path(id): Path<String>) -> ApiResult {
    with_game(&app, &id, Game::undo)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PositionRequest {
    fen: Option<String>,
}

async fn set_position(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    body: Bytes,
) -> ApiResult {
    let req: PositionRequest = parse_body(&body)?;
    let fen = req.fen.as_deref().map(str::trim).filter(|f| !f.is_empty());
    with_game(&app, &id, |g| g.reset(fen))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EngineRequest {
    movetime_ms: Option<u64>,
    depth: Option<u32>,
    /// Only these moves (the promotions of a pawn move, to ask its owner for the piece).
    #[serde(default)]
    searchmoves: Vec<String>,
    /// Where the engine's move is a promotion whose piece the pawn's owner picks, return it
    /// unplayed (`engine.unplayed`), so the page can ask the owner.
    #[serde(default)]
    hold_owner_pick: bool,
}

impl EngineRequest {
    fn limits(&self) -> Result<SearchLimits, ApiError> {
        let mut limits = SearchLimits::default();
        match (self.movetime_ms, self.depth) {
            (Some(ms), _) if !(1..=MAX_MOVETIME_MS).contains(&ms) => {
                return Err(ApiError::bad(format!(
                    "movetime_ms must be 1..{MAX_MOVETIME_MS}, not {ms}"
                )))
            }
            (_, Some(d)) if !(1..=MAX_DEPTH).contains(&d) => {
                return Err(ApiError::bad(format!(
                    "depth must be 1..{MAX_DEPTH}, not {d}"
                )))
            }
            (None, None) => limits.movetime = Some(1000),
            (ms, d) => {
                limits.movetime = ms;
                limits.depth = d;
            }
        }
        Ok(limits)
    }
}

async fn engine_move(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    body: Bytes,
) -> ApiResult {
    let req: EngineRequest = parse_body(&body)?;
    let limits = req.limits()?;
    let (n, game) = app.game(&id)?;
    let rx = lock(&game)?.start_engine_move(limits, &req.searchmoves, req.hold_owner_pick)?;
    // the move is played even if the page that asked goes away
    let finishing = game.clone();
    let task = tokio::spawn(async move {
        let done = rx.await;
        let mut g = lock(&finishing)?;
        match done {
            Ok(d) => {
                let held = g.finish_engine_move(&d)?;
                Ok((d, held))
            }
            Err(_) => {
                g.thinking = false;
                Err(ApiError::internal("the search ended without a result"))
            }
        }
    });
    let (done, held) = task
        .await
        .map_err(|e| ApiError::internal(format!("the engine's move failed: {e}")))??;
    let g = lock(&game)?;
    let mut state = game_json(&app, n, &g, None)?.0;
    state["engine"] = json!({
        "move": done.best,
        "depth": done.result.depth,
        "nodes": done.result.nodes,
        "notes": done.notes,
        "unplayed": held,
    });
    Ok(Json(state))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AnalysisRequest {
    /// Lines to show (MultiPV), 1..8.
    lines: Option<usize>,
}

async fn analyse(State(app): State<Arc<App>>, Path(id): Path<String>, body: Bytes) -> ApiResult {
    let req: AnalysisRequest = parse_body(&body)?;
    with_game(&app, &id, |g| g.start_analysis(req.lines))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ReviewRequest {
    /// Milliseconds a position (default 300).
    movetime: Option<u64>,
}

/// Slowest "Analyse game" the page may ask for, in ms a position.
const MAX_REVIEW_MS: u64 = 60_000;

async fn start_review(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Response, ApiError> {
    let req: ReviewRequest = parse_body(&body)?;
    let movetime = req.movetime.unwrap_or(300);
    if !(10..=MAX_REVIEW_MS).contains(&movetime) {
        return Err(ApiError::bad(format!(
            "movetime must be 10..{MAX_REVIEW_MS} ms a position, not {movetime}"
        )));
    }
    let (_, game) = app.game(&id)?;
    let config = app.config.clone();
    // an engine allocates and clears its table: not on the async workers
    let state = tokio::task::spawn_blocking(move || -> Result<Value, ApiError> {
        let mut g = lock(&game)?;
        g.start_review(&config, movetime)?;
        Ok(g.review.as_ref().map_or(Value::Null, |r| r.json()))
    })
    .await
    .map_err(|e| ApiError::internal(format!("the analysis did not start: {e}")))??;
    Ok((StatusCode::ACCEPTED, Json(state)).into_response())
}

/// The game's review (`{"status": "none"}` before the first).
fn review_json(app: &App, id: &str, cancel: bool) -> ApiResult {
    let (_, game) = app.game(id)?;
    let g = lock(&game)?;
    let Some(r) = g.review.as_ref() else {
        return Ok(Json(json!({"status": "none"})));
    };
    if cancel {
        r.cancel();
    }
    Ok(Json(r.json()))
}

async fn show_review(State(app): State<Arc<App>>, Path(id): Path<String>) -> ApiResult {
    review_json(&app, &id, false)
}

async fn cancel_review(State(app): State<Arc<App>>, Path(id): Path<String>) -> ApiResult {
    review_json(&app, &id, true)
}

async fn review_pgn(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let (_, game) = app.game(&id)?;
    let text = {
        let g = lock(&game)?;
        let r = g
            .review
            .as_ref()
            .ok_or_else(|| ApiError::not_found("the game has not been analysed"))?;
        r.pgn()?
    };
    Ok(pgn_response(text))
}

async fn stop(State(app): State<Arc<App>>, Path(id): Path<String>) -> ApiResult {
    with_game(&app, &id, |g| {
        g.stop();
        Ok(())
    })
}

async fn game_events(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let (_, game) = app.game(&id)?;
    let rx = lock(&game)?.events.subscribe();
    Ok(events::stream(rx).into_response())
}

fn watched_json(g: &WatchedGame) -> Value {
    json!({
        "number": g.number,
        "variant": g.variant,
        "players": g.players,
        "plies": g.moves.len(),
        "result": g.result,
    })
}

async fn list_watched(State(app): State<Arc<App>>) -> Json<Value> {
    let games: Vec<Value> = app.watch.list().iter().map(watched_json).collect();
    Json(json!({ "games": games }))
}

async fn show_watched(
    State(app): State<Arc<App>>,
    Path(number): Path<String>,
    RawQuery(query): RawQuery,
) -> ApiResult {
    let ply = ply_of(&query)?;
    let g = number
        .parse()
        .ok()
        .and_then(|n| app.watch.get(n))
        .ok_or_else(|| ApiError::not_found(format!("no match game '{number}'")))?;
    let total = g.moves.len();
    let ply = ply.unwrap_or(total).min(total);
    let mut v = app.view_of(&g.variant, g.start_fen.as_deref(), &g.moves[..ply])?;
    v.legal.clear();
    let mut state = board_json(&v);
    state["number"] = json!(g.number);
    state["players"] = json!(g.players);
    state["history"] = json!(g.moves);
    state["ply"] = json!(ply);
    state["plies"] = json!(total);
    state["match_result"] = json!(g.result);
    Ok(Json(state))
}

async fn watch_events(State(app): State<Arc<App>>) -> Response {
    events::stream(app.watch.subscribe()).into_response()
}
