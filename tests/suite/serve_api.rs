//! The web board's HTTP API (`chimera serve`, docs/serve.md), driven over real sockets: games
//! in several variants, moves checked by the rules, engine moves, navigation, events,
//! watched match games, and bad requests that get an error while the server keeps serving.

use crate::common::dechunk;
use chimera::serve::{start, ServeConfig, Server, WatchedGame};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

fn server() -> Server {
    start(ServeConfig {
        port: 0,
        hash_mb: 4,
        ..Default::default()
    })
    .expect("the server starts")
}

/// One HTTP/1.1 request; returns the status and the body.
fn request(server: &Server, method: &str, path: &str, body: Option<&str>) -> (u16, String) {
    request_at(server.addr, method, path, body)
}

/// One HTTP/1.1 request to the server at `addr`.
fn request_at(addr: SocketAddr, method: &str, path: &str, body: Option<&str>) -> (u16, String) {
    let mut s = TcpStream::connect(addr).expect("connects");
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let body = body.unwrap_or("");
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).expect("an answer");
    let text = String::from_utf8_lossy(&raw).to_string();
    let status: u16 = text
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .expect("a status line");
    let (head, rest) = text.split_once("\r\n\r\n").expect("a header end");
    let body = if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        dechunk(rest)
    } else {
        rest.to_string()
    };
    (status, body)
}

fn json_of(server: &Server, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
    let text = body.map(|b| b.to_string());
    let (status, body) = request(server, method, path, text.as_deref());
    let v = if body.is_empty() {
        Value::Null
    } else {
        serde_json::from_str(&body).unwrap_or_else(|e| panic!("JSON from {path}: {e}: {body}"))
    };
    (status, v)
}

fn new_game(server: &Server, variant: &str) -> Value {
    let (status, state) = json_of(
        server,
        "POST",
        "/api/games",
        Some(json!({"variant": variant})),
    );
    assert_eq!(status, 201, "{state}");
    state
}

fn play(server: &Server, id: &Value, mv: &str) -> (u16, Value) {
    json_of(
        server,
        "POST",
        &format!("/api/games/{id}/move"),
        Some(json!({"move": mv})),
    )
}

fn man_on(state: &Value, square: &str) -> Option<String> {
    state["men"].as_array()?.iter().find_map(|m| {
        (m["square"] == square).then(|| format!("{}{}", m["owner"], m["letter"].as_str().unwrap()))
    })
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect()
}

#[test]
fn the_page_and_its_files_are_served_and_unknown_paths_get_a_json_404() {
    let s = server();
    let (status, page) = request(&s, "GET", "/", None);
    assert_eq!(status, 200);
    assert!(page.contains("<svg id=\"board\""));
    for file in ["board.js", "pieces.js", "style.css"] {
        assert_eq!(
            request(&s, "GET", &format!("/{file}"), None).0,
            200,
            "{file}"
        );
    }
    let (status, v) = json_of(&s, "GET", "/nothing-here", None);
    assert_eq!(status, 404);
    assert!(v["error"].as_str().unwrap().contains("nothing-here"));
    let (status, v) = json_of(&s, "GET", "/api/variants", None);
    assert_eq!(status, 200);
    let names = strings(&v["variants"]);
    for known in [
        "chess",
        "007detente",
        "espionage",
        "eviction",
        "foreignpolicy",
    ] {
        assert!(names.iter().any(|n| n == known), "{known} missing");
    }
}

#[test]
fn a_chess_game_is_played_checked_taken_back_and_navigated() {
    let s = server();
    let g = new_game(&s, "chess");
    let id = &g["id"];
    assert_eq!(g["legal"].as_array().unwrap().len(), 20);
    assert_eq!(man_on(&g, "e1").as_deref(), Some("0K"));
    let (status, after) = play(&s, id, "e2e4");
    assert_eq!(status, 200);
    assert_eq!(man_on(&after, "e4").as_deref(), Some("0P"));
    assert_eq!(man_on(&after, "e2"), None);
    assert_eq!(after["chooser"], 1);
    // an illegal move is refused with the rules' reason, and changes nothing
    let (status, err) = play(&s, id, "e7e4");
    assert_eq!(status, 400);
    assert!(err["error"].as_str().unwrap().contains("e7e4"), "{err}");
    let (_, same) = json_of(&s, "GET", &format!("/api/games/{id}"), None);
    assert_eq!(same["history"], json!(["e2e4"]));
    for mv in ["e7e5", "f1c4", "b8c6", "d1h5", "g8f6", "h5f7"] {
        assert_eq!(play(&s, id, mv).0, 200, "{mv}");
    }
    let (_, mate) = json_of(&s, "GET", &format!("/api/games/{id}"), None);
    assert_eq!(mate["result"]["score"], "1-0");
    assert!(mate["result"]["reason"]
        .as_str()
        .unwrap()
        .contains("checkmate"));
    assert_eq!(mate["legal"], json!([]));
    let (status, over) = play(&s, id, "e8f7");
    assert_eq!(status, 409, "{over}");
    // the past: ply 2 shows 1.e4 e5 and offers no move
    let (_, past) = json_of(&s, "GET", &format!("/api/games/{id}?ply=2"), None);
    assert_eq!(man_on(&past, "e5").as_deref(), Some("1P"));
    assert_eq!(man_on(&past, "c4"), None);
    assert_eq!(past["legal"], json!([]));
    assert_eq!(
        (past["ply"].as_u64(), past["plies"].as_u64()),
        (Some(2), Some(7))
    );
    assert_eq!(
        json_of(&s, "GET", &format!("/api/games/{id}?ply=99"), None).0,
        400
    );
    // take back the mate
    let (status, back) = json_of(&s, "POST", &format!("/api/games/{id}/undo"), None);
    assert_eq!(status, 200);
    assert!(back["result"].is_null());
    assert_eq!(man_on(&back, "h5").as_deref(), Some("0Q"));
}

#[test]
fn a_007detente_turn_is_three_plies_chosen_by_one_player() {
    let s = server();
    let g = new_game(&s, "007detente");
    let id = &g["id"];
    let (_, one) = play(&s, id, "e2e4");
    assert_eq!(
        (one["chooser"].as_u64(), one["to_move"].as_u64()),
        (Some(0), Some(1))
    );
    assert!(
        one["turn"].as_str().unwrap().contains("ply 2"),
        "{}",
        one["turn"]
    );
    let (_, two) = play(&s, id, "a7a6");
    assert_eq!(
        (two["chooser"].as_u64(), two["to_move"].as_u64()),
        (Some(0), Some(0))
    );
    let (_, three) = play(&s, id, "d2d4");
    assert_eq!(three["chooser"], 1, "Black's turn now");
    assert_eq!(man_on(&three, "a6").as_deref(), Some("1P"));
    assert_eq!(man_on(&three, "d4").as_deref(), Some("0P"));
}

#[test]
fn the_engine_moves_for_the_player_who_decides() {
    let s = server();
    let g = new_game(&s, "chess");
    let id = &g["id"];
    let (status, v) = json_of(
        &s,
        "POST",
        &format!("/api/games/{id}/engine"),
        Some(json!({"movetime_ms": 100})),
    );
    assert_eq!(status, 200, "{v}");
    let best = v["engine"]["move"].as_str().expect("a move");
    assert_eq!(strings(&v["history"]), vec![best.to_string()]);
    assert!(g["legal"].as_array().unwrap().iter().any(|m| m == best));
    let (status, v) = json_of(
        &s,
        "POST",
        &format!("/api/games/{id}/engine"),
        Some(json!({"depth": 3})),
    );
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["engine"]["depth"], 3);
    assert_eq!(v["history"].as_array().unwrap().len(), 2);
    for bad in [
        json!({"movetime_ms": 0}),
        json!({"depth": 500}),
        json!({"nodes": 5}),
    ] {
        let (status, e) = json_of(&s, "POST", &format!("/api/games/{id}/engine"), Some(bad));
        assert_eq!(status, 400, "{e}");
    }
}

#[test]
fn an_eviction_move_and_an_emissary_drop_are_checked_by_the_rules() {
    let s = server();
    let g = new_game(&s, "eviction");
    let compound = strings(&g["legal"])
        .into_iter()
        .find(|m| m.contains(','))
        .expect("Eviction's start has compound moves");
    let (status, v) = play(&s, &g["id"], &compound);
    assert_eq!(status, 200, "{v}");
    assert_eq!(strings(&v["history"]), vec![compound.clone()]);
    // Emissary: White holds a knight; a queen move may put it on the square she left
    let (status, e) = json_of(
        &s,
        "POST",
        "/api/games",
        Some(json!({"variant": "emissary", "fen": "4k3/8/8/8/8/8/3P1P2/3QK3[N] w - - 0 1"})),
    );
    assert_eq!(status, 201, "{e}");
    assert_eq!(e["held"][0]["letter"], "N");
    assert_eq!(e["held"][0]["owner"], 0);
    assert!(strings(&e["legal"]).contains(&"d1a4,N@d1".to_string()));
    let (status, v) = play(&s, &e["id"], "d1a4,N@d1");
    assert_eq!(status, 200, "{v}");
    assert_eq!(man_on(&v, "d1").as_deref(), Some("0N"));
    assert_eq!(man_on(&v, "a4").as_deref(), Some("0Q"));
    assert_eq!(v["held"], json!([]));
    // a drop where no queen move leaves a square is refused
    assert_eq!(play(&s, &e["id"], "e8e7,N@e8").0, 400);
}

#[test]
fn foreign_policy_has_three_players_in_turn() {
    let s = server();
    let g = new_game(&s, "foreignpolicy");
    let id = &g["id"];
    assert_eq!(
        strings(&g["players"]),
        vec!["South", "North", "Peacekeeper"]
    );
    let mut seen = vec![g["chooser"].as_u64().unwrap()];
    for _ in 0..3 {
        let (_, now) = json_of(&s, "GET", &format!("/api/games/{id}"), None);
        let mv = now["legal"][0].as_str().unwrap().to_string();
        let (status, after) = play(&s, id, &mv);
        assert_eq!(status, 200, "{after}");
        seen.push(after["chooser"].as_u64().unwrap());
    }
    assert_eq!(seen, vec![0, 1, 2, 0]);
}

/// Chess960 on the board: a numbered start, a random one by default, castling by the king
/// taking its rook.
#[test]
fn a_chess960_game_starts_from_a_numbered_or_random_array() {
    let s = server();
    let (status, g) = json_of(
        &s,
        "POST",
        "/api/games",
        Some(json!({"variant": "fischerandom", "chess960": 0})),
    );
    assert_eq!(status, 201, "{g}");
    assert!(g["fen"].as_str().unwrap().starts_with("bbqnnrkr/"), "{g}");
    assert_eq!(man_on(&g, "g1").as_deref(), Some("0K"));
    // the king takes its rook: from b1 with the a1 rook, king to c1 and rook to d1
    let (status, g) = json_of(
        &s,
        "POST",
        "/api/games",
        Some(json!({"variant": "fischerandom", "fen": "rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1"})),
    );
    assert_eq!(status, 201, "{g}");
    let (status, after) = play(&s, &g["id"], "b1a1");
    assert_eq!(status, 200, "{after}");
    assert_eq!(man_on(&after, "c1").as_deref(), Some("0K"));
    assert_eq!(man_on(&after, "d1").as_deref(), Some("0R"));
    let random = new_game(&s, "fischerandom");
    assert!(random["fen"].as_str().is_some(), "{random}");
    let (status, e) = json_of(
        &s,
        "POST",
        "/api/games",
        Some(json!({"variant": "chess", "chess960": 3})),
    );
    assert_eq!(status, 400, "{e}");
}

/// A game saved as PGN (SAN in chess, our notation elsewhere, FEN and SetUp for a set-up
/// start) loads back as the same game; a bad PGN is refused with the move that failed.
#[test]
fn games_are_saved_and_loaded_as_pgn() {
    let s = server();
    let g = new_game(&s, "chess");
    let id = &g["id"];
    for mv in ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "e1g1"] {
        assert_eq!(play(&s, id, mv).0, 200, "{mv}");
    }
    let (status, pgn) = request(&s, "GET", &format!("/api/games/{id}/pgn"), None);
    assert_eq!(status, 200, "{pgn}");
    assert!(pgn.contains("[Variant \"chess\"]"), "{pgn}");
    assert!(pgn.contains("[Result \"*\"]"), "{pgn}");
    assert!(
        pgn.contains("1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. O-O *"),
        "{pgn}"
    );
    let (status, back) = json_of(&s, "POST", "/api/games", Some(json!({ "pgn": pgn })));
    assert_eq!(status, 201, "{back}");
    assert_eq!(
        back["history"],
        json!(["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "e1g1"])
    );
    // a variant from a set-up position, in our notation, named by its Variant tag
    let fen = "4k3/8/8/8/8/8/3P1P2/3QK3[N] w - - 0 1";
    let (status, e) = json_of(
        &s,
        "POST",
        "/api/games",
        Some(json!({"variant": "emissary", "fen": fen})),
    );
    assert_eq!(status, 201, "{e}");
    assert_eq!(play(&s, &e["id"], "d1a4,N@d1").0, 200);
    let (_, pgn) = request(&s, "GET", &format!("/api/games/{}/pgn", e["id"]), None);
    assert!(
        pgn.contains("[FEN \"4k3/8/8/8/8/8/3P1P2/3QK3[N] w - - 0 1\"]"),
        "{pgn}"
    );
    assert!(
        pgn.contains("[SetUp \"1\"]") && pgn.contains("1. d1a4,N@d1"),
        "{pgn}"
    );
    let (status, back) = json_of(&s, "POST", "/api/games", Some(json!({ "pgn": pgn })));
    assert_eq!(status, 201, "{back}");
    assert_eq!(back["variant"], "emissary");
    assert_eq!(back["history"], json!(["d1a4,N@d1"]));
    // refusals name what failed, and no game is made
    for (bad, says) in [
        ("1. e4 e5 2. Nf9 *", "move 2. Nf9"),
        ("[Variant \"nosuch\"]\n\n1. e4 *", "nosuch"),
        ("[FEN \"8/8 w\"]\n\n1. e4 *", "FEN"),
        ("1. e4 e5 2. Ke3 *", "move 2. Ke3"),
    ] {
        let (status, err) = json_of(&s, "POST", "/api/games", Some(json!({ "pgn": bad })));
        assert_eq!(status, 400, "{bad}: {err}");
        assert!(
            err["error"].as_str().unwrap().contains(says),
            "{bad}: {err}"
        );
    }
    let (status, _) = request(&s, "GET", "/api/games/999/pgn", None);
    assert_eq!(status, 404);
}

#[test]
fn bad_requests_get_errors_and_the_server_keeps_serving() {
    let s = server();
    let cases: &[(&str, &str, Option<&str>, u16)] = &[
        ("POST", "/api/games", Some("{\"variant\":\"nosuch\"}"), 400),
        (
            "POST",
            "/api/games",
            Some("{\"variant\":\"chess\",\"fen\":\"8/8 w\"}"),
            400,
        ),
        ("POST", "/api/games", Some("not json"), 400),
        ("POST", "/api/games", Some("{\"colour\":\"red\"}"), 400),
        ("GET", "/api/games/abc", None, 404),
        ("GET", "/api/games/12345", None, 404),
        (
            "POST",
            "/api/games/12345/move",
            Some("{\"move\":\"e2e4\"}"),
            404,
        ),
        ("GET", "/api/watch/7", None, 404),
    ];
    for (method, path, body, want) in cases {
        let (status, text) = request(&s, method, path, *body);
        assert_eq!(status, *want, "{method} {path}: {text}");
        let v: Value = serde_json::from_str(&text).expect("a JSON error");
        assert!(v["error"].as_str().is_some_and(|e| !e.is_empty()), "{text}");
    }
    let g = new_game(&s, "chess");
    let id = &g["id"];
    for bad in ["", "zz", "e2e5", "e2e4,e4e5", &"x".repeat(5000)] {
        let (status, v) = play(&s, id, bad);
        assert_eq!(status, 400, "'{bad}': {v}");
    }
    let (status, _) = request(
        &s,
        "POST",
        &format!("/api/games/{id}/move"),
        Some("\u{1}\u{2}"),
    );
    assert_eq!(status, 400);
    let huge = format!("{{\"move\":\"{}\"}}", "e".repeat(200_000));
    assert_eq!(
        request(&s, "POST", &format!("/api/games/{id}/move"), Some(&huge)).0,
        413
    );
    let (status, v) = json_of(&s, "POST", &format!("/api/games/{id}/undo"), None);
    assert_eq!(status, 409, "nothing to take back: {v}");
    // still serving, and the game is untouched
    let (status, v) = play(&s, id, "d2d4");
    assert_eq!(
        (status, strings(&v["history"])),
        (200, vec!["d2d4".to_string()])
    );
}

#[test]
fn a_pasted_position_starts_the_game_again_from_there() {
    let s = server();
    let g = new_game(&s, "chess");
    let id = &g["id"];
    play(&s, id, "e2e4");
    let fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
    let (status, v) = json_of(
        &s,
        "POST",
        &format!("/api/games/{id}/position"),
        Some(json!({ "fen": fen })),
    );
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["fen"], fen);
    assert_eq!(v["history"], json!([]));
    assert_eq!(v["men"].as_array().unwrap().len(), 3);
    let (status, _) = json_of(
        &s,
        "POST",
        &format!("/api/games/{id}/position"),
        Some(json!({ "fen": "banana" })),
    );
    assert_eq!(status, 400);
    let (_, kept) = json_of(&s, "GET", &format!("/api/games/{id}"), None);
    assert_eq!(kept["fen"], fen, "a bad FEN leaves the game as it was");
}

#[test]
fn analysis_streams_lines_until_stopped() {
    let s = server();
    let g = new_game(&s, "chess");
    let id = g["id"].clone();
    let mut events = TcpStream::connect(s.addr).unwrap();
    events
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    write!(
        events,
        "GET /api/games/{id}/events HTTP/1.1\r\nHost: localhost\r\n\r\n"
    )
    .unwrap();
    let mut reader = BufReader::new(events);
    let mut line = String::new();
    // headers first
    loop {
        line.clear();
        reader.read_line(&mut line).unwrap();
        if line == "\r\n" {
            break;
        }
    }
    let (status, v) = json_of(&s, "POST", &format!("/api/games/{id}/analysis"), None);
    assert_eq!((status, &v["analysing"]), (200, &json!(true)));
    let mut depths = Vec::new();
    while depths.len() < 4 {
        line.clear();
        reader.read_line(&mut line).expect("an event line");
        if let Some(data) = line.trim().strip_prefix("data:") {
            let ev: Value = serde_json::from_str(data.trim()).expect("JSON event");
            if ev["kind"] == "info" {
                assert!(!ev["pv"].as_array().unwrap().is_empty());
                // win/draw/loss per mille beside the score, from chess's wdlModel
                let wdl: Vec<u64> = ev["wdl"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter_map(Value::as_u64)
                    .collect();
                assert_eq!(wdl.iter().sum::<u64>(), 1000, "{ev}");
                depths.push(ev["depth"].as_u64().unwrap());
            }
        }
    }
    assert!(depths.windows(2).all(|w| w[0] <= w[1]), "{depths:?}");
    // a move while analysing: played, and the analysis goes on from the new position
    assert_eq!(play(&s, &id, "g1f3").0, 200);
    let (status, v) = json_of(&s, "POST", &format!("/api/games/{id}/stop"), None);
    assert_eq!((status, &v["analysing"]), (200, &json!(false)));
    let mut saw_position = false;
    let mut saw_best = false;
    while !(saw_position && saw_best) {
        line.clear();
        reader.read_line(&mut line).expect("an event line");
        if let Some(data) = line.trim().strip_prefix("data:") {
            let ev: Value = serde_json::from_str(data.trim()).unwrap();
            saw_position |= ev["kind"] == "position" && ev["plies"] == 1;
            saw_best |= ev["kind"] == "bestmove" && saw_position;
        }
    }
}

#[test]
fn watched_match_games_are_shown_by_the_rules() {
    let s = server();
    s.watch.update(WatchedGame {
        number: 3,
        variant: "espionage".into(),
        players: vec!["one".into(), "two".into()],
        start_fen: None,
        moves: vec![],
        result: None,
    });
    let (status, list) = json_of(&s, "GET", "/api/watch", None);
    assert_eq!(status, 200);
    assert_eq!(list["games"][0]["number"], 3);
    let (_, start) = json_of(&s, "GET", "/api/watch/3", None);
    assert_eq!(
        (start["files"].as_u64(), start["ranks"].as_u64()),
        (Some(7), Some(7))
    );
    let first = start["men"].as_array().unwrap().len();
    assert!(first > 0);
    assert_eq!(start["players"], json!(["one", "two"]));
}

#[test]
fn games_are_closed_and_a_full_server_refuses_more() {
    let s = start(ServeConfig {
        port: 0,
        hash_mb: 1,
        max_games: 2,
        ..Default::default()
    })
    .unwrap();
    let a = new_game(&s, "chess");
    new_game(&s, "bracket");
    let (status, v) = json_of(&s, "POST", "/api/games", Some(json!({"variant": "chess"})));
    assert_eq!(status, 503, "{v}");
    let (status, _) = request(&s, "DELETE", &format!("/api/games/{}", a["id"]), None);
    assert_eq!(status, 204);
    assert_eq!(
        json_of(&s, "GET", &format!("/api/games/{}", a["id"]), None).0,
        404
    );
    new_game(&s, "chess");
    let (_, list) = json_of(&s, "GET", "/api/games", None);
    assert_eq!(list["games"].as_array().unwrap().len(), 2);
}

#[test]
fn a_match_with_serve_shows_its_games_live() {
    use std::process::{Command, Stdio};
    let bin = env!("CARGO_BIN_EXE_chimera");
    let mut child = Command::new(bin)
        .args(["match", "-engine", &format!("cmd={bin}"), "name=A"])
        .args(["-engine", &format!("cmd={bin}"), "name=B"])
        // a time margin: on a loaded machine a reply after 0.04 s would lose on time at once,
        // and 50 forfeits end the match (and its board) in seconds
        .args(["-variant", "bracket", "-each", "st=0.04", "timemargin=5000"])
        .args(["-games", "50"])
        .args(["-maxmoves", "200", "-serve", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the match starts");
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    let url = loop {
        line.clear();
        assert!(out.read_line(&mut line).unwrap() > 0, "no address printed");
        if let Some(rest) = line.trim().strip_prefix("Watch the games at http://") {
            break rest.split('/').next().unwrap().to_string();
        }
    };
    // the rest of the referee's output is read, so that it never waits on a full pipe
    std::thread::spawn(move || std::io::copy(&mut out, &mut std::io::sink()));
    let addr: std::net::SocketAddr = url.parse().expect("host:port");
    let get = |path: &str| -> Value {
        let mut s = TcpStream::connect(addr).expect("the board serves");
        write!(
            s,
            "GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut raw = String::new();
        s.read_to_string(&mut raw).unwrap();
        let body = raw.split_once("\r\n\r\n").unwrap().1;
        serde_json::from_str(body).unwrap_or(Value::Null)
    };
    // the first game appears and its moves grow as it is played
    let mut seen = Vec::new();
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    while seen.len() < 3 && std::time::Instant::now() < deadline {
        let g = get("/api/watch/1");
        if let Some(n) = g["plies"].as_u64() {
            if seen.last() != Some(&n) {
                assert_eq!(g["variant"], "bracket");
                assert_eq!(g["players"], json!(["A", "B"]));
                assert_eq!(g["history"].as_array().unwrap().len() as u64, n);
                seen.push(n);
            }
        }
        std::thread::sleep(Duration::from_millis(30));
    }
    assert!(seen.len() >= 3, "the game grows on the board: {seen:?}");
    assert!(seen.windows(2).all(|w| w[0] < w[1]), "{seen:?}");
    let _ = child.kill();
    let _ = child.wait();
}

/// `promotionChooser = owner`: the state lists the moves whose piece the pawn's owner picks;
/// an engine move asked to hold such a move returns it unplayed; asked with the promotions
/// as `searchmoves`, the engine picks for the owner (a queen for Black here) and plays it.
#[test]
fn the_pawns_owner_picks_the_promotion_piece() {
    let ini = std::env::temp_dir().join(format!("chimera-serve-owner-{}.ini", std::process::id()));
    std::fs::write(&ini, "[007-owner:007]\npromotionChooser = owner\n").expect("ini");
    let server = start(ServeConfig {
        port: 0,
        hash_mb: 4,
        variants_file: Some(ini.to_string_lossy().into_owned()),
        ..Default::default()
    })
    .expect("the server starts");
    let fen = "7k/5K1P/6P1/8/8/8/p7/8 b - - 0 1 2 -/-";
    let (code, game) = json_of(
        &server,
        "POST",
        "/api/games",
        Some(json!({"variant": "007-owner", "fen": fen})),
    );
    assert_eq!(code, 201, "{game}");
    let id = game["id"].as_u64().expect("id");
    let picks: Vec<&str> = game["owner_picks"]
        .as_array()
        .expect("owner_picks")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert_eq!(picks, ["a2a1q", "a2a1r", "a2a1b", "a2a1n"]);
    // White (the chooser) moves Black's pawn; held, nothing is played
    let path = format!("/api/games/{id}/engine");
    let (code, held) = json_of(
        &server,
        "POST",
        &path,
        Some(json!({"depth": 3, "hold_owner_pick": true})),
    );
    assert_eq!(code, 200, "{held}");
    let move_held = held["engine"]["unplayed"]
        .as_str()
        .expect("unplayed")
        .to_string();
    assert!(move_held.starts_with("a2a1"), "{held}");
    assert_eq!(held["plies"], 0);
    // the owner's engine picks among the promotions: a queen
    let (code, after) = json_of(
        &server,
        "POST",
        &path,
        Some(json!({"depth": 3, "searchmoves": picks, "hold_owner_pick": true})),
    );
    assert_eq!(code, 200, "{after}");
    assert_eq!(after["history"], json!(["a2a1q"]));
    assert_eq!(after["owner_picks"], json!([]));
    // a bad searchmoves is refused
    let (code, _) = json_of(
        &server,
        "POST",
        &path,
        Some(json!({"depth": 1, "searchmoves": ["z9z9"]})),
    );
    assert_eq!(code, 400);
    // plain chess lists none
    let (_, chess) = json_of(
        &server,
        "POST",
        "/api/games",
        Some(json!({"variant": "chess"})),
    );
    assert_eq!(chess["owner_picks"], json!([]));
}

/// The resident memory of process `pid` in MB (Linux).
#[cfg(target_os = "linux")]
fn resident_mb(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("proc status");
    let kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .expect("VmRSS");
    kb / 1024
}

/// Games opened and closed again and again leave the server as small as it started: each
/// closed game's table goes back to the system (the server runs as its own process here,
/// so the figure is its own).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[test]
fn closed_games_give_their_memory_back() {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_chimera"))
        .args(["serve", "--port", "0", "--hash", "16"])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("the server starts");
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    let addr: SocketAddr = first
        .split("http://")
        .nth(1)
        .and_then(|a| a.trim().trim_end_matches('/').parse().ok())
        .unwrap_or_else(|| panic!("no address in {first:?}"));
    let start = resident_mb(child.id());
    let mut open_peak = 0;
    for _ in 0..5 {
        let mut ids = Vec::new();
        for _ in 0..6 {
            let (status, body) =
                request_at(addr, "POST", "/api/games", Some(r#"{"variant": "chess"}"#));
            assert_eq!(status, 201, "{body}");
            let state: Value = serde_json::from_str(&body).unwrap();
            ids.push(state["id"].as_u64().unwrap());
        }
        open_peak = open_peak.max(resident_mb(child.id()));
        for id in ids {
            assert_eq!(
                request_at(addr, "DELETE", &format!("/api/games/{id}"), None).0,
                204
            );
        }
    }
    std::thread::sleep(Duration::from_millis(300));
    let after = resident_mb(child.id());
    let _ = child.kill();
    let _ = child.wait();
    // six 16 MB tables are open at the peak; with none open, less than one may stay
    assert!(
        open_peak >= start + 6 * 16 - 8,
        "the tables were not made: {open_peak} MB"
    );
    assert!(
        after < start + 16,
        "{after} MB with no game open, {start} MB at the start (peak {open_peak} MB)"
    );
}

/// Polls a game's review until it is no longer running.
fn finished_review(server: &Server, id: &Value) -> Value {
    for _ in 0..600 {
        let (code, r) = json_of(server, "GET", &format!("/api/games/{id}/review"), None);
        assert_eq!(code, 200, "{r}");
        if r["status"] != "running" {
            return r;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!("the review did not finish");
}

#[test]
fn a_whole_game_is_analysed_in_the_background() {
    let server = server();
    let (code, g) = json_of(
        &server,
        "POST",
        "/api/games",
        Some(json!({"pgn": "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0"})),
    );
    assert_eq!(code, 201, "{g}");
    let id = &g["id"];
    let path = format!("/api/games/{id}/review");
    // nothing yet, and nothing to export
    let (code, r) = json_of(&server, "GET", &path, None);
    assert_eq!((code, r["status"].as_str()), (200, Some("none")), "{r}");
    let (code, _) = request(&server, "GET", &format!("{path}/pgn"), None);
    assert_eq!(code, 404);
    // bad limits are refused
    for bad in [
        json!({"movetime": 5}),
        json!({"movetime": 100_000}),
        json!({"depth": 3}),
    ] {
        let (code, r) = json_of(&server, "POST", &path, Some(bad.clone()));
        assert_eq!(code, 400, "{bad}: {r}");
    }
    let (code, r) = json_of(&server, "POST", &path, Some(json!({"movetime": 40})));
    assert_eq!((code, r["total"].as_u64()), (202, Some(8)), "{r}");
    // the board stays usable while it runs
    let (code, _) = json_of(&server, "GET", &format!("/api/games/{id}?ply=2"), None);
    assert_eq!(code, 200);
    let r = finished_review(&server, id);
    assert_eq!(r["status"], "done", "{r}");
    let a = &r["analysis"];
    assert_eq!(a["positions"].as_array().map(Vec::len), Some(8), "{a}");
    assert_eq!(a["moves"][5]["text"], "Nf6");
    assert_eq!(a["moves"][5]["mark"], "blunder", "{a}");
    assert_eq!(a["moves"][5]["mover"], 1);
    assert_ne!(a["positions"][5]["best"], "g8f6", "{a}");
    assert_eq!(a["positions"][7]["over"], "checkmate", "{a}");
    assert_eq!(a["summaries"][1]["blunders"], 1);
    let (code, pgn) = request(&server, "GET", &format!("{path}/pgn"), None);
    assert_eq!(code, 200);
    assert!(
        pgn.contains("3... Nf6 $4") && pgn.contains("[%eval"),
        "{pgn}"
    );
    // a second review replaces the first; one runs at a time
    let (code, _) = json_of(&server, "POST", &path, Some(json!({"movetime": 2000})));
    assert_eq!(code, 202);
    let (code, r) = json_of(&server, "POST", &path, Some(json!({"movetime": 40})));
    assert_eq!(code, 409, "{r}");
    let (code, _) = request(&server, "GET", &format!("{path}/pgn"), None);
    assert_eq!(code, 409);
    let (code, _) = json_of(&server, "DELETE", &path, None);
    assert_eq!(code, 200);
    assert_eq!(finished_review(&server, id)["status"], "cancelled");
    let (code, _) = json_of(&server, "GET", "/api/games/999/review", None);
    assert_eq!(code, 404);
}

#[test]
fn a_foreign_policy_game_is_analysed_for_three_players() {
    let server = server();
    let g = new_game(&server, "foreignpolicy");
    let id = &g["id"];
    for mv in ["b1a3", "b8a6", "h3f1"] {
        assert_eq!(play(&server, id, mv).0, 200, "{mv}");
    }
    let path = format!("/api/games/{id}/review");
    let (code, _) = json_of(&server, "POST", &path, Some(json!({"movetime": 30})));
    assert_eq!(code, 202);
    let r = finished_review(&server, id);
    let a = &r["analysis"];
    assert_eq!(
        a["players"],
        json!(["South", "North", "Peacekeeper"]),
        "{r}"
    );
    for p in a["positions"].as_array().expect("positions") {
        let sum: f64 = p["expected"]
            .as_array()
            .expect("shares")
            .iter()
            .filter_map(Value::as_f64)
            .sum();
        assert!((sum - 1.0).abs() < 0.01, "{p}");
        assert_eq!(p["utilities"].as_array().map(Vec::len), Some(3), "{p}");
    }
    assert_eq!(a["moves"][2]["mover"], 2);
}

#[test]
fn the_analysis_shows_as_many_lines_as_asked() {
    let server = server();
    let g = new_game(&server, "chess");
    let id = &g["id"];
    let path = format!("/api/games/{id}/analysis");
    for bad in [
        json!({"lines": 0}),
        json!({"lines": 9}),
        json!({"depth": 3}),
    ] {
        let (code, r) = json_of(&server, "POST", &path, Some(bad.clone()));
        assert_eq!(code, 400, "{bad}: {r}");
    }
    let (code, s) = json_of(&server, "POST", &path, Some(json!({"lines": 3})));
    assert_eq!((code, s["analysis_lines"].as_u64()), (200, Some(3)), "{s}");
    assert_eq!(s["analysing"], true);
    let (code, _) = json_of(&server, "POST", &format!("/api/games/{id}/stop"), None);
    assert_eq!(code, 200);
    // the engine's own move still searches one line and plays
    let (code, s) = json_of(
        &server,
        "POST",
        &format!("/api/games/{id}/engine"),
        Some(json!({"depth": 4})),
    );
    assert_eq!(code, 200, "{s}");
    assert_eq!(s["plies"], 1);
    assert_eq!(s["analysis_lines"], 3);
}
