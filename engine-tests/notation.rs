//! Notation round trips: every legal move of many positions, written in Chinese and WXF
//! notation and read back, gives the same move (and ICCS likewise); within one position the
//! spellings are distinct; Chinese also reads back with its numbers in every digit form
//! (full-width, ASCII, Chinese numerals, for either side). Positions: random games from the
//! start and from positions with pawn stacks and tandem pieces, and random games from every
//! perft-suite position.

mod common;

use chariot::core::notation::{parse_any, parse_chinese, parse_wxf, to_chinese, to_iccs, to_wxf};
use chariot::core::{Position, START_FEN};
use std::collections::HashSet;

/// The Chinese text with its numbers written the other ways a record may hold them: all
/// full-width (`炮２平５`), all ASCII (`炮2平5`), all Chinese numerals (`马八进七` for Black).
fn digit_forms(text: &str) -> [String; 3] {
    const CN: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
    let digit = |c: char| {
        CN.iter().position(|&d| d == c).or_else(|| {
            ('１'..='９')
                .position(|d| d == c)
                .or_else(|| ('1'..='9').position(|d| d == c))
        })
    };
    let map = |f: &dyn Fn(usize) -> char| -> String {
        text.chars().map(|c| digit(c).map_or(c, f)).collect()
    };
    [
        map(&|i| char::from_u32('１' as u32 + i as u32).unwrap()),
        map(&|i| char::from(b'1' + i as u8)),
        map(&|i| CN[i]),
    ]
}

/// Every legal move round-trips through all three notations, spelled distinctly; returns
/// the number of moves checked.
fn round_trip_all(pos: &Position, forms: &mut HashSet<String>) -> usize {
    let moves = pos.legal_moves();
    let (mut cn, mut wxf) = (HashSet::new(), HashSet::new());
    for &m in moves.iter() {
        let (c, w) = (to_chinese(pos, m), to_wxf(pos, m));
        assert_eq!(parse_chinese(pos, &c), Ok(m), "{c} in {}", pos.fen());
        for form in digit_forms(&c) {
            assert_eq!(parse_chinese(pos, &form), Ok(m), "{form} in {}", pos.fen());
        }
        assert_eq!(parse_wxf(pos, &w), Ok(m), "{w} in {}", pos.fen());
        assert_eq!(parse_any(pos, &to_iccs(m)), Ok(m));
        forms.insert(c.chars().take(1).collect());
        forms.insert(w.chars().take(2).collect());
        assert!(cn.insert(c), "duplicate Chinese in {}", pos.fen());
        assert!(wxf.insert(w), "duplicate WXF in {}", pos.fen());
    }
    moves.len()
}

#[test]
fn every_legal_move_round_trips() {
    let mut rng = common::Rng::new(0x2545_f491_4f6c_dd1d);
    let mut forms = HashSet::new();
    let (mut positions, mut moves) = (0, 0);
    let mut games = |start: &str, count: usize, plies: usize| {
        for _ in 0..count {
            let mut pos = Position::from_fen(start).expect("test FEN");
            for _ in 0..plies {
                positions += 1;
                moves += round_trip_all(&pos, &mut forms);
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                pos.make_move(legal[rng.below(legal.len())]);
            }
        }
    };
    games(START_FEN, 50, 60);
    for f in [
        "4k4/9/9/2P1P4/2P1P4/2P6/9/9/9/4K4 w",
        "3k5/9/2P6/2P6/2P6/2P6/2P6/9/9/4K4 w",
        "3k5/9/2P6/2P6/2P6/2P6/9/9/9/4K4 w",
        "4k4/9/9/P1P3P2/P1P6/9/9/9/9/3K5 w",
        "4k4/9/9/9/2p1p4/2p1p4/2p6/9/9/3K5 b",
        "3k5/9/9/2p6/2p6/2p6/2p6/2p6/9/4K4 b",
        "4k4/8C/9/9/R8/9/9/8C/9/R2K5 w",
        "3k5/9/9/9/9/2B6/9/3A5/9/2BAK4 w",
        "rnbakabn1/9/1c5c1/p1p1p1p1p/7r1/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b",
    ] {
        games(f, 8, 30);
    }
    println!("notation round trip: {moves} moves in {positions} positions");
    assert!(moves > 100_000);
    for form in [
        "前", "中", "后", "一", "五", "++", "--", "P+", "P-", "7+", "77",
    ] {
        assert!(forms.contains(form), "no move written with {form}");
    }
}

#[test]
fn every_legal_move_of_the_suite_round_trips() {
    let mut forms = HashSet::new();
    let mut moves = 0;
    for pos in common::sample_positions(4, 100) {
        moves += round_trip_all(&pos, &mut forms);
    }
    assert!(moves > 50_000, "only {moves} moves checked");
}
