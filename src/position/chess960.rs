//! Chess960 start positions by number (0-959, Scharnagl's numbering: 518 is the orthodox
//! array), and double Chess960 (each side its own array), as FENs for `fischerandom`.

/// The back rank of start position `n` (0..960), White's men in upper case from file a.
///
/// Scharnagl's numbering: `n` mod 4 puts the light-squared bishop on b, d, f or h; the next
/// digit base 4 the dark-squared bishop on a, c, e or g; the next digit base 6 the queen on
/// one of the six files left; what remains (0..10) picks the two knights' files among the
/// five left, in the order (1,2) (1,3) (1,4) (1,5) (2,3) (2,4) (2,5) (3,4) (3,5) (4,5); the
/// last three files hold rook, king, rook.
pub fn back_rank(n: u32) -> Option<[char; 8]> {
    if n >= 960 {
        return None;
    }
    let mut rank = [' '; 8];
    let mut n = n;
    rank[(n % 4 * 2 + 1) as usize] = 'B';
    n /= 4;
    rank[(n % 4 * 2) as usize] = 'B';
    n /= 4;
    let place = |rank: &mut [char; 8], nth_free: u32, man: char| {
        let file = (0..8)
            .filter(|&f| rank[f] == ' ')
            .nth(nth_free as usize)
            .expect("enough free files");
        rank[file] = man;
    };
    place(&mut rank, n % 6, 'Q');
    n /= 6;
    const KNIGHTS: [(u32, u32); 10] = [
        (0, 1),
        (0, 2),
        (0, 3),
        (0, 4),
        (1, 2),
        (1, 3),
        (1, 4),
        (2, 3),
        (2, 4),
        (3, 4),
    ];
    let (a, b) = KNIGHTS[n as usize];
    // the second knight first, so the first one's index among the free files still holds
    place(&mut rank, b, 'N');
    place(&mut rank, a, 'N');
    for man in ['R', 'K', 'R'] {
        place(&mut rank, 0, man);
    }
    Some(rank)
}

/// The FEN of the game whose White array is start position `white` and Black's `black`
/// (the same number for Chess960, two numbers for double Chess960); castling rights in
/// Shredder-FEN (the rooks' files), so any GUI reads them without ambiguity.
pub fn start_fen(white: u32, black: u32) -> Option<String> {
    let (w, b) = (back_rank(white)?, back_rank(black)?);
    // the two rooks' files, the h-side one first (Shredder-FEN's order)
    let rights = |rank: &[char; 8]| -> String {
        (0..8u8)
            .rev()
            .filter(|&f| rank[f as usize] == 'R')
            .map(|f| (b'A' + f) as char)
            .collect()
    };
    let black_rank: String = b.iter().map(|c| c.to_ascii_lowercase()).collect();
    let white_rank: String = w.iter().collect();
    Some(format!(
        "{black_rank}/pppppppp/8/8/8/8/PPPPPPPP/{white_rank} w {}{} - 0 1",
        rights(&w),
        rights(&b).to_ascii_lowercase()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Known numbers: 518 is the orthodox array, 0 and 959 the ends of the table, and every
    /// number gives a distinct legal array (bishops on opposite colours, king between rooks).
    #[test]
    fn start_positions_follow_the_numbering() {
        let s = |n| back_rank(n).map(|r| r.iter().collect::<String>());
        assert_eq!(s(518).as_deref(), Some("RNBQKBNR"));
        assert_eq!(s(0).as_deref(), Some("BBQNNRKR"));
        assert_eq!(s(959).as_deref(), Some("RKRNNQBB"));
        assert_eq!(back_rank(960), None);
        let mut seen = std::collections::HashSet::new();
        for n in 0..960 {
            let r = s(n).expect("in range");
            let at = |c| r.find(c).expect("present");
            let (b1, b2) = (at('B'), r.rfind('B').expect("two bishops"));
            assert_ne!(b1 % 2, b2 % 2, "{n} {r}: bishops on one colour");
            let (k, r1, r2) = (at('K'), at('R'), r.rfind('R').expect("two rooks"));
            assert!(r1 < k && k < r2, "{n} {r}: king not between the rooks");
            assert!(seen.insert(r.clone()), "{n} {r} repeated");
        }
    }

    #[test]
    fn start_fens_name_the_rook_files() {
        assert_eq!(
            start_fen(518, 518).as_deref(),
            Some("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1")
        );
        assert_eq!(
            start_fen(0, 959).as_deref(),
            Some("rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFca - 0 1")
        );
        assert_eq!(start_fen(0, 960), None);
    }
}
