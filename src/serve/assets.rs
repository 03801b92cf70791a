//! The page's files, embedded in the binary (no CDN, nothing fetched at build or run time).

use axum::extract::Path;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;

/// Each file with its content type.
const FILES: &[(&str, &str, &str)] = &[
    (
        "index.html",
        "text/html; charset=utf-8",
        include_str!("web/index.html"),
    ),
    (
        "board.js",
        "text/javascript; charset=utf-8",
        include_str!("web/board.js"),
    ),
    (
        "pieces.js",
        "text/javascript; charset=utf-8",
        include_str!("web/pieces.js"),
    ),
    (
        "style.css",
        "text/css; charset=utf-8",
        include_str!("web/style.css"),
    ),
];

fn serve(name: &str) -> Response {
    match FILES.iter().find(|f| f.0 == name) {
        Some((_, kind, body)) => ([(header::CONTENT_TYPE, *kind)], *body).into_response(),
        None => (
            StatusCode::NOT_FOUND,
            Json(json!({ "error": format!("no file '{name}'") })),
        )
            .into_response(),
    }
}

/// The page.
pub async fn index() -> Response {
    serve("index.html")
}

/// One of the page's files.
pub async fn file(Path(name): Path<String>) -> Response {
    serve(&name)
}
