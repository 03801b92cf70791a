//! Every kind of variants.ini mistake is an `IniError` with the right file, line and key and a
//! clear message; a file with an error changes nothing; `chimera check` reports the same.

use chimera::position::Position;
use chimera::rules::{builtin_variants, VariantSet};
use chimera::variant::{parse_ini, IniError};
use std::path::PathBuf;
use std::process::Command;

const FILE: &str = "user.ini";

/// Loads `text` on top of the built-in variants and returns its error.
fn load_err(text: &str) -> IniError {
    let mut set = builtin_variants();
    let before: Vec<String> = set.names().to_vec();
    let e = match set.load_str(FILE, text) {
        Ok(names) => panic!("accepted {names:?}, expected an error for:\n{text}"),
        Err(e) => e,
    };
    // nothing of a bad file is kept
    assert_eq!(set.names(), before.as_slice(), "a bad file changed the set");
    e
}

/// Asserts the error of `text`: line, key and a fragment of the message.
#[track_caller]
fn expect(text: &str, line: usize, key: Option<&str>, fragment: &str) -> IniError {
    let e = load_err(text);
    assert_eq!(e.file, FILE, "file of {e}");
    assert_eq!(e.line, line, "line of {e}");
    assert_eq!(e.key.as_deref(), key, "key of {e}");
    assert!(
        e.message.contains(fragment),
        "message of '{e}' lacks '{fragment}'"
    );
    // the display form is file:line: [key 'k': ]message
    let shown = e.to_string();
    let head = match key {
        Some(k) => format!("{FILE}:{line}: key '{k}': "),
        None => format!("{FILE}:{line}: "),
    };
    assert!(
        shown.starts_with(&head),
        "'{shown}' should start with '{head}'"
    );
    e
}

/// Loads `text` and expects success.
#[track_caller]
fn accept(text: &str) -> VariantSet {
    let mut set = builtin_variants();
    if let Err(e) = set.load_str(FILE, text) {
        panic!("rejected: {e}\n{text}");
    }
    set
}

const SMALL_FEN: &str = "rnbqkbr/ppppppp/7/7/7/PPPPPPP/RNBQKBR w KQkq - 0 1";

#[test]
fn builtin_file_loads() {
    let set = builtin_variants();
    for name in [
        "chess",
        "bracket",
        "eviction",
        "haven",
        "interior",
        "periphery",
        "palace",
        "missingfile",
        "jadoube",
    ] {
        assert!(set.get(name).is_some(), "{name} missing");
    }
    assert!(set.get("chess").expect("chess").orthodox);
    assert!(!set.get("haven").expect("haven").orthodox);
    // the shipped file is also valid as a user file on an empty set
    let mut empty = VariantSet::new();
    empty
        .load_str("variants.ini", chimera::variant::BUILTIN_INI)
        .expect("shipped file loads alone");
}

#[test]
fn unknown_keys_suggest_the_intended_one() {
    expect(
        "[x:chess]\nmaxRnak = 7\n",
        2,
        Some("maxRnak"),
        "did you mean 'maxRank'",
    );
    expect(
        "[x:chess]\n\n# comment\nmaxfile = 7\n",
        4,
        Some("maxfile"),
        "did you mean 'maxFile'",
    );
    expect(
        "[x:chess]\nmobilityRegionWhiteKnigt = a1\n",
        2,
        Some("mobilityRegionWhiteKnigt"),
        "did you mean 'mobilityRegionWhiteKnight'",
    );
    expect(
        "[x:chess]\nfrobnicate = 1\n",
        2,
        Some("frobnicate"),
        "unknown key (see the key list",
    );
    expect(
        "[x:chess]\ncustomPiece11 = c:W\n",
        2,
        Some("customPiece11"),
        "unknown key",
    );
}

#[test]
fn bad_booleans() {
    for v in ["yes", "True", "1", ""] {
        expect(
            &format!("[x:chess]\ncastling = {v}\n"),
            2,
            Some("castling"),
            &format!("expected true or false, found '{v}'"),
        );
    }
    expect(
        "[x:chess]\ndoubleStep = false\nmandatoryPawnPromotion = sometimes\n",
        3,
        Some("mandatoryPawnPromotion"),
        "expected true or false",
    );
}

#[test]
fn bad_numbers() {
    for v in ["9", "4", "0", "seven", "+8", "-8", "8.0"] {
        expect(
            &format!("[x:chess]\nmaxRank = {v}\n"),
            2,
            Some("maxRank"),
            "expected a whole number from 5 to 8",
        );
    }
    for v in ["4", "9", "i", "A", "H", "+8", "eight"] {
        expect(
            &format!("[x:chess]\nmaxFile = {v}\n"),
            2,
            Some("maxFile"),
            "expected 5..8 or e..h",
        );
    }
    for v in ["-1", "+50", "1001", "99999999999999", "fifty", "50 moves"] {
        expect(
            &format!("[x:chess]\nnMoveRule = {v}\n"),
            2,
            Some("nMoveRule"),
            "expected a whole number from 0 to 1000",
        );
    }
    expect(
        "[x:chess]\nnFoldRule = 1\n",
        2,
        Some("nFoldRule"),
        "use 0 (off) or 2..100",
    );
    expect(
        "[x:chess]\nnFoldRule = 101\n",
        2,
        Some("nFoldRule"),
        "from 0 to 100",
    );
    // sane values are accepted
    accept("[x:chess]\nnMoveRule = 0\nnFoldRule = 0\n[y:chess]\nnMoveRule = 75\nnFoldRule = 5\n");
}

#[test]
fn bad_game_values_and_modules() {
    expect(
        "[x:chess]\nstalemateValue = lose\n",
        2,
        Some("stalemateValue"),
        "expected win, loss or draw, found 'lose'",
    );
    expect(
        "[x:chess]\ncheckmateValue = Win\n",
        2,
        Some("checkmateValue"),
        "expected win, loss or draw",
    );
    expect(
        "[x:chess]\nspecialMoves = teleport\n",
        2,
        Some("specialMoves"),
        "unknown rule module 'teleport'",
    );
    expect(
        "[x:chess]\nextinctionValue = lost\nextinctionPieceTypes = k\n",
        2,
        Some("extinctionValue"),
        "expected win, loss, draw or none",
    );
}

#[test]
fn regions_off_the_board() {
    expect(
        "[x:chess]\npromotionRegionWhite = i8\n",
        2,
        Some("promotionRegionWhite"),
        "'i8' is not a square of a 8x8 board",
    );
    expect(
        &format!("[x:chess]\nmaxFile = 7\nstartFen = {SMALL_FEN}\nmaxRank = 7\npromotionRegionWhite = h7\n"),
        5,
        Some("promotionRegionWhite"),
        "'h7' is not a square of a 7x7 board",
    );
    expect(
        "[x:chess]\npromotionRegionBlack = *9\n",
        2,
        Some("promotionRegionBlack"),
        "'*9' is not a rank",
    );
    expect(
        "[x:chess]\nmobilityRegionWhiteKing = z*\n",
        2,
        Some("mobilityRegionWhiteKing"),
        "'z*' is not a file",
    );
    expect(
        "[x:chess]\nmobilityRegionBlackKing = a1-i9\n",
        2,
        Some("mobilityRegionBlackKing"),
        "'a1-i9' is not a rectangle",
    );
    expect(
        "[x:chess]\nmobilityRegionBlackKing = e1,e2\n",
        2,
        Some("mobilityRegionBlackKing"),
        "'e1,e2' is not a square",
    );
}

#[test]
fn bad_file_letters() {
    for v in ["z", "G", "9", "0", "gg", ""] {
        expect(
            &format!("[x:chess]\ncastlingKingsideFile = {v}\n"),
            2,
            Some("castlingKingsideFile"),
            "expected a file a..h or 1..8",
        );
    }
    expect(
        &format!("[x:chess]\nmaxFile = 7\nmaxRank = 7\nstartFen = {SMALL_FEN}\ncastlingKingsideFile = h\n"),
        5,
        Some("castlingKingsideFile"),
        "expected a file a..g or 1..7, found 'h'",
    );
}

#[test]
fn bad_betza_and_piece_values() {
    expect(
        "[x:chess]\ncustomPiece1 = c:X\n",
        2,
        Some("customPiece1"),
        "bad Betza notation 'X': unknown piece letter 'X'",
    );
    expect(
        "[x:chess]\ncustomPiece1 = c:\n",
        2,
        Some("customPiece1"),
        "bad Betza notation",
    );
    expect(
        "[x:chess]\ncustomPiece2 = c:fm\n",
        2,
        Some("customPiece2"),
        "modifiers without a piece letter",
    );
    expect(
        "[x:chess]\ncustomPiece1 = c:qN\n",
        2,
        Some("customPiece1"),
        "unsupported modifier 'q'",
    );
    expect(
        "[x:chess]\ncustomPiece1 = c:R999\n",
        2,
        Some("customPiece1"),
        "range too large",
    );
    expect(
        "[x:chess]\ncustomPiece1 = cR4\n",
        2,
        Some("customPiece1"),
        "expected 'letter:Betza'",
    );
    expect(
        "[x:chess]\ncustomPiece1 = :R4\n",
        2,
        Some("customPiece1"),
        "expected one letter or '-'",
    );
    expect(
        "[x:chess]\nknight = N\n",
        2,
        Some("knight"),
        "must be a lower-case letter",
    );
    expect(
        "[x:chess]\nknight = nn\n",
        2,
        Some("knight"),
        "expected one letter or '-', found 'nn'",
    );
    expect(
        "[x:chess]\narchbishop = 3\n",
        2,
        Some("archbishop"),
        "lower-case letter",
    );
}

#[test]
fn duplicate_letters() {
    expect(
        "[x:chess]\narchbishop = n\n",
        2,
        Some("archbishop"),
        "letter 'n' is already used by knight",
    );
    expect(
        "[x:chess]\ncustomPiece1 = a:W\ncustomPiece2 = a:F\n",
        3,
        Some("customPiece2"),
        "letter 'a' is already used by customPiece1",
    );
}

#[test]
fn section_structure_errors() {
    expect(
        "[x:nosuch]\nmaxRank = 7\n",
        1,
        None,
        "parent variant 'nosuch' is not defined",
    );
    // a parent must come before its child
    expect(
        "[b:a]\n[a:chess]\n",
        1,
        None,
        "parent variant 'a' is not defined (define it earlier)",
    );
    expect("[x]\n[y]\n[x]\n", 3, None, "variant 'x' is defined twice");
    // built-in names cannot be silently redefined
    expect(
        "[chess]\nnMoveRule = 0\n",
        1,
        None,
        "variant 'chess' is already defined at variants.ini (built in)",
    );
    expect(
        "maxRank = 7\n[x]\n",
        1,
        Some("maxRank"),
        "key outside any [section]",
    );
    expect(
        "[x:chess]\nmaxRank 7\n",
        2,
        None,
        "expected 'key = value' or '[section]', found 'maxRank 7'",
    );
    expect("[x:chess]\n = 7\n", 2, None, "found no key before '='");
    expect(
        "[x:chess]\nmaxRank = 7\nmaxRank = 6\n",
        3,
        Some("maxRank"),
        "set twice in [x]",
    );
}

#[test]
fn section_header_errors() {
    expect("\n[x:chess\n", 2, None, "lacks its closing ']'");
    expect("[x:chess] extra\n", 1, None, "unexpected 'extra' after");
    expect("[]\n", 1, None, "bad variant name ''");
    expect("[two words]\n", 1, None, "bad variant name 'two words'");
    expect("[x!]\n", 1, None, "bad variant name 'x!'");
    expect("[x:]\n", 1, None, "bad parent name ''");
    expect("[x:y:z]\n", 1, None, "bad parent name 'y:z'");
    // comments after a header are fine
    accept("[x:chess] # a comment\n; another\n");
}

#[test]
fn parse_ini_alone_reports_lines() {
    let e = parse_ini("f.ini", "[a]\nx = 1\n\n[b\n").unwrap_err();
    assert_eq!((e.file.as_str(), e.line, e.key.clone()), ("f.ini", 4, None));
}

#[test]
fn castling_inconsistencies() {
    expect(
        "[x:chess]\nking = -\ncastling = true\n",
        3,
        Some("castling"),
        "castling needs a king",
    );
    expect(
        "[x:chess]\ncastlingRookPieces = k\n",
        2,
        Some("castlingRookPieces"),
        "the king cannot castle with 'k', a king",
    );
    expect(
        "[x:chess]\ncastlingRookPieces = p\n",
        2,
        Some("castlingRookPieces"),
        "a pawn",
    );
    expect(
        "[x:chess]\ncastlingRookPieces = rq\n",
        2,
        Some("castlingRookPieces"),
        "exactly one piece type",
    );
    expect(
        "[x:chess]\nrook = t\npromotionPieceTypes = qtbn\n\
         startFen = tnbqkbnt/pppppppp/8/8/8/8/PPPPPPPP/TNBQKBNT w KQkq - 0 1\n",
        1,
        Some("castlingRookPieces"),
        "the default 'r' names 'r', but the rook is 't' here",
    );
    expect(
        "[x:chess]\ncastlingRookPieces = z\n",
        2,
        Some("castlingRookPieces"),
        "no piece has the letter 'z'",
    );
    // without rooks the default partner 'r' is missing: say so at the section
    let e = expect(
        "[x:chess]\nrook = -\n",
        1,
        Some("castlingRookPieces"),
        "[x]: castling needs exactly one piece type to castle with, found 0",
    );
    assert!(e.message.contains("castling = false"));
    expect(
        "[x:chess]\ncastlingKingsideFile = a\n",
        2,
        Some("castlingKingsideFile"),
        "cannot castle kingside to the a-file",
    );
    expect(
        "[x:chess]\ncastlingQueensideFile = h\n",
        2,
        Some("castlingQueensideFile"),
        "cannot castle queenside to the last file",
    );
    expect(
        "[x:chess]\ncastlingKingsideFile = c\ncastlingQueensideFile = f\n",
        2,
        Some("castlingKingsideFile"),
        "must lie right of the queenside one",
    );
    expect(
        "[x:chess]\ncastling = false\ncastlingKingsideFile = f\n",
        3,
        Some("castlingKingsideFile"),
        "castling is off",
    );
    // the default kingside file g does not exist on a 6-file board
    let six =
        "[x:chess]\nmaxFile = 6\nstartFen = rnqkbr/pppppp/6/6/6/6/PPPPPP/RNQKBR w KQkq - 0 1\n";
    expect(
        six,
        1,
        Some("castlingKingsideFile"),
        "[x]: the default kingside castling file g is not on this 6-file board",
    );
    let set = accept(&format!(
        "{six}castlingKingsideFile = e\ncastlingQueensideFile = b\n"
    ));
    assert!(set.get("x").expect("x").castling);
    // turning castling off for a rookless variant is the way out
    accept("[x:chess]\nrook = -\ncastling = false\nstartFen = 1nbqkbn1/pppppppp/8/8/8/8/PPPPPPPP/1NBQKBN1 w - - 0 1\n");
}

#[test]
fn promotion_inconsistencies() {
    expect(
        "[x:chess]\npromotionPieceTypes = qrbx\n",
        2,
        Some("promotionPieceTypes"),
        "no piece has the letter 'x'",
    );
    expect(
        "[x:chess]\npromotionPieceTypes = Q\n",
        2,
        Some("promotionPieceTypes"),
        "no piece has the letter 'Q' (piece letters are lower case here)",
    );
    expect(
        "[x:chess]\npromotionPieceTypes = qk\n",
        2,
        Some("promotionPieceTypes"),
        "cannot promote to the king 'k'",
    );
    expect(
        "[x:chess]\npromotionPieceTypes = qp\n",
        2,
        Some("promotionPieceTypes"),
        "cannot promote to a pawn",
    );
    expect(
        "[x:chess]\npromotionPieceTypes = qrq\n",
        2,
        Some("promotionPieceTypes"),
        "the letter 'q' is given twice",
    );
    expect(
        "[x:chess]\npromotionPieceTypes = -\n",
        2,
        Some("promotionPieceTypes"),
        "no piece to promote to",
    );
    expect(
        "[x:chess]\nmobilityRegionWhiteQueen = a1-h6\n",
        1,
        Some("promotionPieceTypes"),
        "'q' may not stand on any square of White's promotion zone",
    );
    // a renamed knight would silently drop out of the default list
    expect(
        "[x:chess]\nknight = h\nstartFen = rhbqkbhr/pppppppp/8/8/8/8/PPPPPPPP/RHBQKBHR w KQkq - 0 1\n",
        1,
        Some("promotionPieceTypes"),
        "the default 'qrbn' names 'n', but the knight is 'h' here",
    );
    accept(
        "[x:chess]\nknight = h\npromotionPieceTypes = qrbh\n\
         startFen = rhbqkbhr/pppppppp/8/8/8/8/PPPPPPPP/RHBQKBHR w KQkq - 0 1\n",
    );
    // a removed queen just is not promoted to
    accept("[x:chess]\nqueen = -\nstartFen = rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1\n");
    // optional promotion with nothing to promote to is consistent
    accept("[x:chess]\npromotionPieceTypes = -\nmandatoryPawnPromotion = false\n");
}

#[test]
fn pawn_rules_inconsistencies() {
    let pawnless = "[x:chess]\npawn = -\nstartFen = rnbqkbnr/8/8/8/8/8/8/RNBQKBNR w KQkq - 0 1\n";
    for key in [
        "promotionRegionWhite = *8",
        "promotionPieceTypes = q",
        "doubleStep = true",
        "doubleStepRegionBlack = *7",
        "enPassantRegion = -",
        "mandatoryPawnPromotion = false",
    ] {
        let k = key.split(' ').next().unwrap_or_default();
        expect(
            &format!("{pawnless}{key}\n"),
            4,
            Some(k),
            "this variant has no pawns",
        );
    }
    accept(pawnless);
    expect(
        "[x:chess]\ndoubleStep = false\ndoubleStepRegionWhite = *3\n",
        3,
        Some("doubleStepRegionWhite"),
        "doubleStep is false",
    );
    expect(
        "[x:chess]\ndoubleStepRegionWhite = *2 *7\n",
        2,
        Some("doubleStepRegionWhite"),
        "a White pawn on a7 cannot step two squares forward",
    );
    expect(
        "[x:chess]\ndoubleStepRegionBlack = e2\n",
        2,
        Some("doubleStepRegionBlack"),
        "a Black pawn on e2 cannot step two squares forward",
    );
    expect(
        "[x:chess]\nenPassantRegion = *3 *6\n",
        2,
        Some("enPassantRegion"),
        "only '*' (en passant on, the default) or '-' (off)",
    );
    // '*' is the default, so it keeps chess on the orthodox generator
    let set = accept("[x:chess]\nenPassantRegion = *\n[y:chess]\nenPassantRegion = -\n");
    assert!(set.get("x").expect("x").orthodox);
    assert!(!set.get("y").expect("y").en_passant);
}

#[test]
fn king_and_game_end_inconsistencies() {
    let kingless = "[x:chess]\nking = -\ncastling = false\n\
                    startFen = rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w - - 0 1\n";
    accept(kingless);
    expect(
        &format!("{kingless}checking = true\n"),
        5,
        Some("checking"),
        "no king",
    );
    expect(
        &format!("{kingless}flyingGeneral = true\n"),
        5,
        Some("flyingGeneral"),
        "no kings",
    );
    expect(
        "[x:chess]\nextinctionValue = loss\n",
        2,
        Some("extinctionValue"),
        "extinctionPieceTypes names no piece",
    );
    expect(
        "[x:chess]\nextinctionPieceTypes = k\n",
        2,
        Some("extinctionPieceTypes"),
        "extinctionValue is not set",
    );
    expect(
        "[x:chess]\nextinctionValue = loss\nextinctionPieceTypes = kk\n",
        3,
        Some("extinctionPieceTypes"),
        "given twice",
    );
    accept("[x:chess]\nextinctionValue = loss\nextinctionPieceTypes = k\n");
    expect(
        "[x:chess]\nnoAdjacentCapture = x\n",
        2,
        Some("noAdjacentCapture"),
        "no piece has the letter 'x'",
    );
    accept("[x:chess]\nnoAdjacentCapture = -\n");
}

#[test]
fn mobility_region_for_an_unused_piece() {
    expect(
        "[x:chess]\nmobilityRegionWhiteArchbishop = a1\n",
        2,
        Some("mobilityRegionWhiteArchbishop"),
        "names a piece this variant does not use",
    );
    expect(
        "[x:chess]\nqueen = -\nmobilityRegionBlackQueen = a1\npromotionPieceTypes = rbn\n",
        3,
        Some("mobilityRegionBlackQueen"),
        "does not use",
    );
    // a region inherited for a piece the child removes is the parent's business
    accept(
        "[x:haven]\nrook = -\nstartFen = 2b2b2/2nqkn2/1pppppp1/8/8/1PPPPPP1/2NQKN2/2B2B2 w - - 0 1\n",
    );
}

#[test]
fn board_size_and_start_position() {
    let e = expect(
        "[x:chess]\nmaxFile = 7\n",
        1,
        Some("startFen"),
        "[x]: a board that is not 8x8 needs a startFen",
    );
    assert!(e.message.contains("7 files and 8 ranks"));
    expect(
        "[x:chess]\nmaxFile = 7\nstartFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n",
        3,
        Some("startFen"),
        "rank 8 describes 8 files, the board has 7",
    );
    expect(
        "[x:chess]\nmaxRank = 6\nstartFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n",
        3,
        Some("startFen"),
        "the board has 6 ranks, the FEN describes 8",
    );
    expect(
        "[x:chess]\nstartFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 1\n",
        2,
        Some("startFen"),
        "White has 0 kings",
    );
    // a start position inherited from a parent is reported at the child, naming its origin
    let e = expect(
        "[a:chess]\nstartFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n\
         [b:a]\nmaxFile = 7\n",
        3,
        Some("startFen"),
        "[b] inherits 'startFen = rnbqkbnr",
    );
    assert!(e.message.contains("(from user.ini:2)"), "{e}");
    assert!(e.message.contains("rank 8 describes 8 files"), "{e}");
    // and a good small board loads
    let set = accept(&format!(
        "[x:chess]\nmaxFile = 7\nmaxRank = 7\nstartFen = {SMALL_FEN}\n"
    ));
    let r = set.get("x").expect("x");
    assert_eq!((r.shape.files, r.shape.ranks), (7, 7));
    assert!(!r.orthodox);
}

#[test]
fn more_than_sixteen_piece_types() {
    let named = "archbishop = a\nchancellor = c\namazon = m\nfers = f\nwazir = w\nalfil = e\n\
                 commoner = o\ncentaur = x\n";
    // 6 orthodox + 8 named + 2 custom = 16: fine
    accept(&format!(
        "[x:chess]\n{named}customPiece1 = s:W\ncustomPiece2 = t:F\n"
    ));
    expect(
        &format!("[x:chess]\n{named}customPiece1 = s:W\ncustomPiece2 = t:F\ncustomPiece3 = u:D\n"),
        12,
        Some("customPiece3"),
        "more than 16 piece types",
    );
}

#[test]
fn unreadable_file() {
    let mut set = builtin_variants();
    let e = set
        .load_file("/nonexistent/dir/variants.ini")
        .expect_err("missing file");
    assert_eq!(e.line, 0);
    assert_eq!(e.key, None);
    assert!(e.message.contains("cannot read the file"));
    assert!(e
        .to_string()
        .starts_with("/nonexistent/dir/variants.ini:0: "));
}

#[test]
fn a_bad_section_discards_the_whole_file() {
    let mut set = builtin_variants();
    let n = set.names().len();
    assert!(set
        .load_str(
            FILE,
            "[good:chess]\nnMoveRule = 60\n[bad:chess]\nmaxRank = 9\n"
        )
        .is_err());
    assert_eq!(set.names().len(), n);
    assert!(set.get("good").is_none());
    // the same set still accepts a correct file afterwards
    assert_eq!(
        set.load_str(FILE, "[good:chess]\nnMoveRule = 60\n")
            .expect("loads"),
        vec!["good".to_string()]
    );
}

// ---- the `chimera check FILE` subcommand, through the built binary ----

fn temp_file(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chimera-config-errors-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write temp file");
    path
}

fn chimera(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_chimera"))
        .args(args)
        .output()
        .expect("run chimera");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn check_accepts_a_good_file_and_describes_it() {
    let path = temp_file(
        "good.ini",
        &format!(
            "[small7:chess]\nmaxFile = 7\nmaxRank = 7\nstartFen = {SMALL_FEN}\n\
             [quick:chess]\nnMoveRule = 75\n[wazirs:chess]\ncustomPiece1 = w:mWcF\n"
        ),
    );
    let p = path.to_string_lossy().into_owned();
    let (code, out, err) = chimera(&["check", &p]);
    assert_eq!(code, 0, "stderr: {err}");
    assert!(err.is_empty(), "stderr: {err}");
    assert!(
        out.starts_with(&format!("{p}: OK, 3 variant(s): small7, quick, wazirs")),
        "{out}"
    );
    assert!(
        out.contains("[small7] board 7 files x 7 ranks; generic move generator"),
        "{out}"
    );
    assert!(
        out.contains("[quick] board 8 files x 8 ranks; orthodox (fast) move generator"),
        "{out}"
    );
    assert!(out.contains("w=mWcF"), "{out}");
    assert!(out.contains("p=fmWfcF n=N b=B r=R q=Q k=K"), "{out}");
}

#[test]
fn check_rejects_a_bad_file_with_its_place() {
    let path = temp_file("bad.ini", "# mine\n[x:chess]\nmaxRnak = 7\n");
    let p = path.to_string_lossy().into_owned();
    let (code, out, err) = chimera(&["check", &p]);
    assert_ne!(code, 0);
    assert!(out.is_empty(), "stdout: {out}");
    assert!(
        err.contains(&format!(
            "{p}:3: key 'maxRnak': unknown key; did you mean 'maxRank'?"
        )),
        "stderr: {err}"
    );

    let path = temp_file("bad2.ini", "[x:chess]\npromotionPieceTypes = qk\n");
    let p = path.to_string_lossy().into_owned();
    let (code, _, err) = chimera(&["check", &p]);
    assert_ne!(code, 0);
    assert!(
        err.contains(&format!("{p}:2: key 'promotionPieceTypes': ")),
        "stderr: {err}"
    );

    let (code, _, err) = chimera(&["check", "/nonexistent/x.ini"]);
    assert_ne!(code, 0);
    assert!(
        err.contains("/nonexistent/x.ini:0: cannot read the file"),
        "{err}"
    );

    let (code, _, err) = chimera(&["check"]);
    assert_ne!(code, 0);
    assert!(
        err.contains("required arguments were not provided:\n  <FILE>"),
        "{err}"
    );
}

#[test]
fn check_stacks_on_a_variants_file() {
    let base = temp_file("base.ini", "[mybase:chess]\nnMoveRule = 75\n");
    let child = temp_file("child.ini", "[mychild:mybase]\nnFoldRule = 4\n");
    let (b, c) = (
        base.to_string_lossy().into_owned(),
        child.to_string_lossy().into_owned(),
    );
    let (code, _, err) = chimera(&["check", &c]);
    assert_ne!(code, 0);
    assert!(
        err.contains("parent variant 'mybase' is not defined"),
        "{err}"
    );
    let (code, out, err) = chimera(&["check", "--variants", &b, &c]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("OK, 1 variant(s): mychild"), "{out}");
}

#[test]
fn restriction_keys() {
    expect(
        "[a:chess]\nrestriction = hippo\n",
        2,
        Some("restriction"),
        "unknown restriction module 'hippo'",
    );
    expect(
        "[a:chess]\nspecialMoves = bracket\nrestriction = garrison\n",
        3,
        Some("restriction"),
        "cannot be combined with specialMoves = bracket",
    );
    expect(
        "[a:chess]\nfacingPieces = kx\n",
        2,
        Some("facingPieces"),
        "no piece has the letter 'x'",
    );
    expect(
        "[a:chess]\nfacingPieces = kq\nfacingColors = mine\n",
        3,
        Some("facingColors"),
        "expected any or opposite",
    );
    expect(
        "[a:chess]\nfacingColors = opposite\n",
        2,
        Some("facingColors"),
        "facingPieces names no piece",
    );
    expect(
        "[a:chess]\nbarredValue = loss\n",
        2,
        Some("barredValue"),
        "has no effect",
    );
    expect(
        "[a:chess]\nfacingPieces = kq\nbarredValue = lose\n",
        3,
        Some("barredValue"),
        "expected win, loss or draw",
    );
    expect(
        "[a:chess]\nmirrorLeap = qz\n",
        2,
        Some("mirrorLeap"),
        "no piece has the letter 'z'",
    );
    // a user variant on a smaller board mirrors within that board
    let set = accept(
        "[small:kaleidoscope]\nmaxFile = 6\nmaxRank = 6\ncastling = false\n\
         startFen = rnbqkr/pppppp/6/6/PPPPPP/RNBQKR w - - 0 1\n",
    );
    let rules = set.get("small").expect("loaded");
    let mut p =
        chimera::position::Position::from_fen(rules, "4k1/6/6/6/1N4/4K1 w - - 0 1").expect("FEN");
    let mut list = chimera::moves::MoveList::new();
    chimera::movegen::legal_moves(&mut p, &mut list);
    let moves: Vec<String> = list
        .iter()
        .map(|&m| chimera::movegen::move_to_string(&p, m).to_string())
        .collect();
    for leap in ["b2e2", "b2b5", "b2e5"] {
        assert!(moves.contains(&leap.to_string()), "{leap} in {moves:?}");
    }
}

#[test]
fn garrison_kings_only_for_garrison() {
    expect(
        "[a:chess]\ngarrisonKings = false\n",
        2,
        Some("garrisonKings"),
        "only restriction = garrison reads this key",
    );
    expect(
        "[a:garrison]\ngarrisonKings = maybe\n",
        2,
        Some("garrisonKings"),
        "expected true or false",
    );
}

#[test]
fn hippophobic_options_only_for_hippophobic() {
    expect(
        "[a:chess]\nhippophobicAdjacencyIsCheck = true\n",
        2,
        Some("hippophobicAdjacencyIsCheck"),
        "only restriction = hippophobic reads this key",
    );
    expect(
        "[a:garrison]\nhippophobicCastling = path\n",
        2,
        Some("hippophobicCastling"),
        "only restriction = hippophobic reads this key",
    );
    expect(
        "[a:hippophobic]\nhippophobicAdjacencyIsCheck = sometimes\n",
        2,
        Some("hippophobicAdjacencyIsCheck"),
        "expected true or false",
    );
    expect(
        "[a:hippophobic]\nhippophobicCastling = crossing\n",
        2,
        Some("hippophobicCastling"),
        "expected destination or path, found 'crossing'",
    );
}

#[test]
fn restrictions_do_not_mix_with_schedules() {
    expect(
        "[a:007]\nrestriction = nonlinear\n",
        2,
        Some("restriction"),
        "cannot be combined with a turn schedule",
    );
    expect(
        "[a:007detente]\nfacingPieces = kq\n",
        2,
        Some("facingPieces"),
        "cannot be combined with a turn schedule",
    );
    // a spy is no schedule: a 007 form with spies is refused by the schedule itself
    expect(
        "[a:007]\nspyPieceTypes = q\n",
        2,
        Some("spyPieceTypes"),
        "needs the orthodox board, men and rules",
    );
}

#[test]
fn spies_and_restrictions_combine_with_their_own_state() {
    // typed state: the spy window and Nonlinear's last move are separate fields, so the two
    // mechanics play together, each with its own FEN field (in registration order)
    let set = accept("[spyline:espionage]\nrestriction = nonlinear\n");
    let rules = set.get("spyline").expect("loaded");
    let mut p = Position::startpos(rules);
    let mut list = chimera::moves::MoveList::new();
    for _ in 0..3 {
        chimera::movegen::legal_moves(&mut p, &mut list);
        p.make(list[0]);
    }
    let last = p.last_move().expect("moves made");
    let (from, to) = (last.from(), last.to());
    let fen = p.fen();
    assert!(fen.ends_with(&format!(" - lm={from}{to}")), "{fen}");
    let again = Position::from_fen(rules, &fen).expect("own FEN");
    assert_eq!(again.fen(), fen);
    assert_eq!(again.key(), p.key());
    // Nonlinear bars the lines of the last move while another move exists
    chimera::movegen::legal_moves(&mut p, &mut list);
    assert!(!list.is_empty());
    let barred = |sq: chimera::geometry::Square| {
        [from, to]
            .iter()
            .any(|l| l.file() == sq.file() || l.rank() == sq.rank())
    };
    for &m in list.iter() {
        assert!(!barred(m.from()) && !barred(m.to()), "{m:?} in {fen}");
    }
}

/// Every key a selected module alone reads (`specialMoves = X`, `restriction = X`) is refused,
/// naming the selector, when the section does not select that module. A valid value is given
/// so the refusal, not a parse error, is what a module that reads its values first reports.
#[test]
fn module_keys_are_refused_without_their_module() {
    const VALID: &[(&str, &str)] = &[
        ("borrowMoves", "replace"),
        ("borrowKing", "true"),
        ("borrowPawnStep", "attacker"),
        ("borrowFirstRank", "true"),
        ("relocation", "bump"),
        ("relocationPawnApproach", "true"),
        ("relocationSameType", "true"),
        ("relocationInCheck", "allowed"),
        ("relocationPawnBackward", "true"),
        ("relocationCapture", "true"),
        ("wonderlandDisplaced", "origin"),
        ("wonderlandPass", "legal"),
        ("slideGeometry", "summit"),
        ("slideAfterCastling", "none"),
        ("slideFromBackRanks", "true"),
        ("swapPairs", "firstRank"),
        ("swapThen", "move"),
        ("swapSuccessive", "allowed"),
        ("emissaryReentry", "vacated"),
        ("emissaryRank", "3"),
        ("cascadeInitiator", "first"),
        ("explorerCaptureContinues", "true"),
        ("roleModelOrder", "1"),
        ("cloverleafRotation", "cw"),
        ("trailerPull", "nearest"),
        ("triangulationReversal", "false"),
        ("garrisonKings", "false"),
        ("hippophobicAdjacencyIsCheck", "true"),
        ("hippophobicCastling", "path"),
    ];
    let mut checked = 0;
    for spec in chimera::rules::MECHANICS {
        let Some((selector, value)) = spec.selected_by else {
            continue;
        };
        for &key in spec.keys.iter().filter(|&&k| k != selector) {
            let (_, v) = VALID
                .iter()
                .find(|(k, _)| *k == key)
                .unwrap_or_else(|| panic!("give {key} (module {}) a valid value here", spec.name));
            expect(
                &format!("[a:chess]\n{key} = {v}\n"),
                2,
                Some(key),
                &format!("only {selector} = {value} reads this key, so it has no effect"),
            );
            checked += 1;
        }
    }
    assert_eq!(
        checked,
        VALID.len(),
        "every listed key belongs to a selected module"
    );
}

#[test]
fn a_bad_wdl_model_is_refused_with_its_line() {
    expect(
        "[mine:chess]\nwdlModel = 120\n",
        2,
        Some("wdlModel"),
        "expected two numbers",
    );
    expect(
        "[mine:chess]\n\nwdlModel = 100 0\n",
        3,
        Some("wdlModel"),
        "B must be above 0",
    );
    // a good one is read, and a child inherits it
    let mut set = builtin_variants();
    set.load_str(FILE, "[mine:chess]\nwdlModel = 300 120\n[child:mine]\n")
        .expect("loads");
    for name in ["mine", "child"] {
        let w = set.get(name).expect("loaded").wdl;
        assert_eq!((w.a, w.b), (300.0, 120.0), "{name}");
    }
}
