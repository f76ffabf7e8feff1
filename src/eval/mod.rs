//! Static evaluation, hand-crafted and tuned: material and piece-square tables tapered by
//! game phase, mobility of rooks, horses (legs honoured) and cannons, and Xiangqi
//! knowledge: king safety (palace attackers, missing and connected advisors and
//! elephants, an open king file, the empty central cannon 空头炮, the bottom cannon
//! 沉底炮, cannons aimed through screens, attackers against the advisors and elephants left),
//! cannon threats, connected and stacked crossed pawns, moves onto points the enemy's pawns,
//! advisors and elephants guard, undefended pieces, trapped pieces (the low ends of the
//! mobility tables) and tempo. Scores are in centipawn-like units (a horse or cannon is
//! about 300), from the side to move's view.
//!
//! The evaluation is linear: a sum of features times (middlegame, endgame) weights from one
//! table ([`weights::W`], laid out by [`features`]), blended by game phase. The search runs
//! [`evaluate`] with the weights compiled in; the tuner runs [`trace`], which returns the
//! same features as numbers. Both go through one generic function, so they cannot differ.
//!
//! Features are counted from each side's own point of view (Black's squares rotated 180°)
//! and piece-square tables are folded left-right, so a mirrored or colour-flipped position
//! evaluates the same.

pub mod features;
pub mod nnue;
pub mod weights;

use crate::core::attacks::{
    advisor_attacks, between, cannon_attacks, cannon_xray, elephant_attacks, horse_attackers_to,
    horse_attacks, king_attacks, masks, pawn_attacks, rook_attacks,
};
use crate::core::{Bitboard, Color, PieceType, Position};
use features::*;
use weights::W;

/// A (middlegame, endgame) pair of weights.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct S(pub i32, pub i32);

/// Middlegame values of each piece type (king, advisor, elephant, horse, rook, cannon,
/// pawn), as the search uses them for move ordering and pruning margins.
pub const MATERIAL_MG: [i32; 7] = material(true);
/// Endgame values of each piece type.
pub const MATERIAL_EG: [i32; 7] = material(false);

const fn material(mg: bool) -> [i32; 7] {
    let mut m = [0; 7];
    let mut k = 0;
    while k < 7 {
        m[k] = if mg {
            W[MATERIAL + k].0
        } else {
            W[MATERIAL + k].1
        };
        k += 1;
    }
    m
}

/// Phase weight of each piece type; the sum over the start position is `PHASE_MAX`.
pub const PHASE_WEIGHT: [i32; 7] = [0, 0, 0, 1, 2, 1, 0];
pub const PHASE_MAX: i32 = 16;

/// Material plus piece-square value of each piece type on each point, seen from its
/// owner's side: `[kind][relative square]`.
static PSQ: [[S; 90]; 7] = {
    let mut t = [[S(0, 0); 90]; 7];
    let mut k = 0;
    while k < 7 {
        let mut sq = 0;
        while sq < 90 {
            let p = W[pst_index(k, sq)];
            t[k][sq] = S(W[MATERIAL + k].0 + p.0, W[MATERIAL + k].1 + p.1);
            sq += 1;
        }
        k += 1;
    }
    t
};

/// Squares strictly in front of a point on its file, from the owner's view: `[colour][sq]`.
static AHEAD: [[Bitboard; 90]; 2] = {
    let mut t = [[Bitboard::EMPTY; 90]; 2];
    let mut sq = 0;
    while sq < 90 {
        let (file, rank) = (sq % 9, sq / 9);
        let (mut red, mut black) = (0u128, 0u128);
        let mut r = 0;
        while r < 10 {
            if r > rank {
                red |= 1u128 << (r * 9 + file);
            }
            if r < rank {
                black |= 1u128 << (r * 9 + file);
            }
            r += 1;
        }
        t[0][sq] = Bitboard(red);
        t[1][sq] = Bitboard(black);
        sq += 1;
    }
    t
};

/// Every point except the i-file (so that a shift by one stays on the rank).
const NOT_FILE_I: Bitboard = {
    let mut b = 0u128;
    let mut sq = 0;
    while sq < 90 {
        if sq % 9 != 8 {
            b |= 1u128 << sq;
        }
        sq += 1;
    }
    Bitboard(b)
};

/// Where the features go: summed with the weights (search) or recorded (tuner).
trait Sink {
    /// A piece of `kind` on the relative square `rel` (material + piece-square), for the
    /// side `sign` (+1 Red, -1 Black).
    fn piece(&mut self, kind: usize, rel: usize, sign: i32);
    /// `n` times feature `index` (already signed: positive for Red).
    fn add(&mut self, index: usize, n: i32);
}

/// The search's sink: weights compiled in.
#[derive(Default)]
struct Scorer {
    mg: i32,
    eg: i32,
}

impl Sink for Scorer {
    #[inline(always)]
    fn piece(&mut self, kind: usize, rel: usize, sign: i32) {
        let s = PSQ[kind][rel];
        self.mg += sign * s.0;
        self.eg += sign * s.1;
    }

    #[inline(always)]
    fn add(&mut self, index: usize, n: i32) {
        self.mg += W[index].0 * n;
        self.eg += W[index].1 * n;
    }
}

/// The features of a position, Red's point of view, for the tuner.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    /// Non-zero feature counts: (weight index, count for Red minus count for Black).
    pub features: Vec<(u16, i16)>,
    /// Game phase, 0 (bare) ..= `PHASE_MAX` (full).
    pub phase: i32,
}

struct Tracer {
    counts: [i32; NUM_WEIGHTS],
}

impl Sink for Tracer {
    fn piece(&mut self, kind: usize, rel: usize, sign: i32) {
        self.counts[MATERIAL + kind] += sign;
        self.counts[pst_index(kind, rel)] += sign;
    }

    fn add(&mut self, index: usize, n: i32) {
        self.counts[index] += n;
    }
}

/// Evaluation from the side to move's point of view.
pub fn evaluate(pos: &Position) -> i32 {
    let mut s = Scorer::default();
    let phase = terms(pos, &mut s);
    let score = (s.mg * phase + s.eg * (PHASE_MAX - phase)) / PHASE_MAX;
    if pos.side_to_move() == Color::Red {
        score
    } else {
        -score
    }
}

/// The features of `pos` (Red's view) and its phase: [`evaluate`] for Red is
/// `(Σ count·W.mg · phase + Σ count·W.eg · (PHASE_MAX − phase)) / PHASE_MAX`.
pub fn trace(pos: &Position) -> Trace {
    let mut t = Tracer {
        counts: [0; NUM_WEIGHTS],
    };
    let phase = terms(pos, &mut t);
    let features = t
        .counts
        .iter()
        .enumerate()
        .filter(|&(_, &c)| c != 0)
        .map(|(i, &c)| (i as u16, c.clamp(i16::MIN as i32, i16::MAX as i32) as i16))
        .collect();
    Trace { features, phase }
}

/// Red's evaluation from a trace and a weight table (the tuner's check on [`trace`]).
pub fn evaluate_trace(t: &Trace, w: &[S]) -> i32 {
    let (mut mg, mut eg) = (0, 0);
    for &(i, n) in &t.features {
        mg += w[i as usize].0 * n as i32;
        eg += w[i as usize].1 * n as i32;
    }
    (mg * t.phase + eg * (PHASE_MAX - t.phase)) / PHASE_MAX
}

/// The points `color`'s pawns, advisors and elephants attack.
#[inline(always)]
fn small_attacks(pos: &Position, color: Color, occ: Bitboard) -> Bitboard {
    let mut att = Bitboard::EMPTY;
    for sq in pos.pieces(color, PieceType::Pawn) {
        att |= pawn_attacks(color, sq);
    }
    for sq in pos.pieces(color, PieceType::Advisor) {
        att |= advisor_attacks(sq);
    }
    for sq in pos.pieces(color, PieceType::Elephant) {
        att |= elephant_attacks(sq, occ);
    }
    att
}

/// Feeds every feature of `pos` to the sink; returns the phase.
#[inline(always)]
fn terms(pos: &Position, sink: &mut impl Sink) -> i32 {
    let occ = pos.occupancy();
    let occ_bb = pos.occupied();
    let mut phase = 0;
    sink.add(
        TEMPO,
        if pos.side_to_move() == Color::Red {
            1
        } else {
            -1
        },
    );
    // the files holding each side's pawns (bit per file), for the rook file terms
    let pawn_files = Color::ALL.map(|c| {
        pos.pieces(c, PieceType::Pawn)
            .fold(0u16, |f, sq| f | 1 << sq.file())
    });
    // every point each side attacks or defends; those its pawns, advisors and elephants
    // attack; those its horses and cannons attack (for the threat terms)
    let counts = Color::ALL.map(|c| PieceType::ALL.map(|t| pos.pieces(c, t).count() as i32));
    let mut attacked = [Bitboard::EMPTY; 2];
    let by_small = Color::ALL.map(|c| small_attacks(pos, c, occ_bb));
    let mut by_minor = [Bitboard::EMPTY; 2];
    // where each side's rooks, horses and cannons can go next (cannons: quiet moves and
    // captures), for the check terms
    let mut reach = [[Bitboard::EMPTY; 3]; 2];
    for color in Color::ALL {
        let sign = if color == Color::Red { 1 } else { -1 };
        let them = !color;
        let ci = color.index();
        let ti = them.index();
        let own = pos.color_pieces(color);
        let enemy = pos.color_pieces(them);
        let enemy_king = pos.king_square(them);
        let enemy_palace = masks::palace(them);
        let enemy_back_rank = if color == Color::Red { 9 } else { 0 };
        let mut king_attackers = 0;
        let (own_pawn_files, enemy_pawn_files) =
            (pawn_files[color.index()], pawn_files[them.index()]);
        let enemy_half = !masks::own_half(color);
        // our rooks, horses and cannons in the enemy half on each wing
        let mut wings = [0i32; 2];

        for kind in PieceType::ALL {
            let k = kind.index();
            let bb = pos.pieces(color, kind);
            phase += PHASE_WEIGHT[k] * bb.count() as i32;
            for sq in bb {
                let rel = if color == Color::Red { sq } else { sq.flip() };
                sink.piece(k, rel.index(), sign);
                if matches!(kind, PieceType::Rook | PieceType::Horse | PieceType::Cannon)
                    && enemy_half.contains(sq)
                {
                    wings[0] += i32::from(sq.file() <= 4);
                    wings[1] += i32::from(sq.file() >= 4);
                }
                match kind {
                    PieceType::King => attacked[ci] |= king_attacks(sq),
                    PieceType::Advisor | PieceType::Elephant => {}
                    PieceType::Rook => {
                        let att = rook_attacks(sq, occ);
                        attacked[ci] |= att;
                        reach[ci][0] |= att;
                        if cannon_attacks(sq, occ).contains(enemy_king) {
                            let screen = between(sq, enemy_king) & occ_bb;
                            let ours = usize::from((screen & own).any());
                            sink.add(ROOK_PIN + ours, sign);
                        }
                        let file = 1u16 << sq.file();
                        if own_pawn_files & file == 0 {
                            if enemy_pawn_files & file == 0 {
                                sink.add(ROOK_OPEN_FILE, sign);
                            } else {
                                sink.add(ROOK_SEMI_OPEN_FILE, sign);
                            }
                        }
                        if (att & bb).any() && bb.lsb() == Some(sq) {
                            sink.add(ROOKS_CONNECTED, sign);
                        }
                        let moves = att - own;
                        sink.add(ROOK_MOB + moves.count() as usize, sign);
                        let unsafe_reach = (moves & by_small[ti]).count() as i32;
                        if unsafe_reach > 0 {
                            sink.add(UNSAFE_REACH, sign * unsafe_reach);
                        }
                        let hits = (att & enemy_palace).count() as i32;
                        if hits > 0 {
                            king_attackers += 1;
                            sink.add(ROOK_PALACE, sign * hits);
                        }
                    }
                    PieceType::Horse => {
                        let att = horse_attacks(sq, occ_bb);
                        by_minor[ci] |= att;
                        reach[ci][1] |= att;
                        let moves = att - own;
                        sink.add(HORSE_MOB + moves.count() as usize, sign);
                        let unsafe_reach = (moves & by_small[ti]).count() as i32;
                        if unsafe_reach > 0 {
                            sink.add(UNSAFE_REACH + 1, sign * unsafe_reach);
                        }
                        let hits = (att & enemy_palace).count() as i32;
                        if hits > 0 {
                            king_attackers += 1;
                            sink.add(HORSE_PALACE, sign * hits);
                        }
                    }
                    PieceType::Cannon => {
                        let quiet = rook_attacks(sq, occ) - occ_bb;
                        sink.add(CANNON_MOB + quiet.count() as usize, sign);
                        let att = cannon_attacks(sq, occ);
                        by_minor[ci] |= att;
                        let moves = quiet | (att & enemy);
                        reach[ci][2] |= moves;
                        let unsafe_reach = (moves & by_small[ti]).count() as i32;
                        if unsafe_reach > 0 {
                            sink.add(UNSAFE_REACH + 2, sign * unsafe_reach);
                        }
                        let caps = (att & enemy).count() as i32;
                        if caps > 0 {
                            sink.add(CANNON_THREAT, sign * caps);
                        }
                        let hits = (att & enemy_palace).count() as i32;
                        if hits > 0 {
                            king_attackers += 1;
                            sink.add(CANNON_PALACE, sign * hits);
                        }
                        if sq.file() == enemy_king.file() {
                            if (between(sq, enemy_king) & occ_bb).is_empty() {
                                sink.add(EMPTY_HEAD_CANNON, sign);
                            } else {
                                sink.add(CANNON_KING_FILE, sign);
                            }
                        }
                        if cannon_xray(sq, occ).contains(enemy_king) {
                            sink.add(CANNON_XRAY_KING, sign);
                        }
                        if sq.rank() == enemy_back_rank && enemy_king.rank() == enemy_back_rank {
                            sink.add(BOTTOM_CANNON, sign);
                        }
                    }
                    PieceType::Pawn => {
                        if (pawn_attacks(color, sq) & enemy_palace).any() {
                            king_attackers += 1;
                            sink.add(PAWN_PALACE, sign);
                        }
                    }
                }
            }
        }
        let king_attackers = king_attackers.min(4);
        sink.add(KING_ATTACKERS + king_attackers, sign);
        let shelter = (counts[ti][PieceType::Advisor.index()]
            + counts[ti][PieceType::Elephant.index()])
        .min(4) as usize;
        sink.add(KING_DANGER + 5 * king_attackers + shelter, sign);
        let mass = wings[0].max(wings[1]);
        if mass > 0 {
            sink.add(WING_MASS + mass.min(4) as usize - 1, sign);
        }

        // crossed pawns: side by side, and stacked on one file
        let crossed = pos.pieces(color, PieceType::Pawn) - masks::own_half(color);
        if crossed.more_than_one() {
            let pairs = (Bitboard((crossed & NOT_FILE_I).0 << 1) & crossed).count() as i32;
            if pairs > 0 {
                sink.add(CONNECTED_PAWNS, sign * pairs);
            }
            let files = crossed.fold(0u16, |f, sq| f | 1 << sq.file());
            let stacked = crossed.count() as i32 - files.count_ones() as i32;
            if stacked > 0 {
                sink.add(STACKED_PAWNS, sign * stacked);
            }
        }

        // our king's shelter against the enemy's attackers
        let attackers = [PieceType::Rook, PieceType::Horse, PieceType::Cannon]
            .iter()
            .map(|&t| pos.pieces(them, t).count() as i32)
            .sum::<i32>()
            .min(4);
        let advisors = pos.pieces(color, PieceType::Advisor);
        let elephants = pos.pieces(color, PieceType::Elephant);
        let missing_advisors = 2 - (advisors.count() as i32).min(2);
        let missing_elephants = 2 - (elephants.count() as i32).min(2);
        sink.add(MISSING_ADVISOR_X_ATT, sign * missing_advisors * attackers);
        sink.add(MISSING_ELEPHANT_X_ATT, sign * missing_elephants * attackers);
        let enemy_cannons = pos.pieces(them, PieceType::Cannon).count() as i32;
        if missing_elephants > 0 && enemy_cannons > 0 {
            sink.add(
                MISSING_ELEPHANT_X_CANNON,
                sign * missing_elephants * enemy_cannons,
            );
        }
        if advisors.count() == 2
            && let Some(a) = advisors.lsb()
            && (advisor_attacks(a) & advisors).any()
        {
            sink.add(ADVISORS_CONNECTED, sign);
        }
        if elephants.count() == 2
            && let Some(e) = elephants.lsb()
            && (elephant_attacks(e, occ_bb) & elephants).any()
        {
            sink.add(ELEPHANTS_CONNECTED, sign);
        }
        let king = pos.king_square(color);
        let enemy_rooks = pos.pieces(them, PieceType::Rook).count() as i32;
        if enemy_rooks > 0 && (AHEAD[color.index()][king.index()] & own).is_empty() {
            sink.add(KING_FILE_OPEN_X_ROOKS, sign * enemy_rooks);
        }
    }

    for color in Color::ALL {
        let sign = if color == Color::Red { 1 } else { -1 };
        let (ci, ti) = (color.index(), (!color).index());
        attacked[ci] |= by_small[ci] | by_minor[ci];

        // material imbalance: pairs of our counts, and of ours against theirs
        let (ours, theirs) = (&counts[ci], &counts[ti]);
        let mut own_pair = IMBALANCE_OWN;
        let mut opp_pair = IMBALANCE_OPP;
        for i in 1..7 {
            for j in i..7 {
                let n = ours[i] * ours[j];
                if n != 0 {
                    sink.add(own_pair, sign * n);
                }
                own_pair += 1;
                if j > i {
                    let n = ours[i] * theirs[j];
                    if n != 0 {
                        sink.add(opp_pair, sign * n);
                    }
                    opp_pair += 1;
                }
            }
        }
    }
    // threats: what we attack that they do not defend, and their big pieces our small ones
    // attack, weighted apart by who is to move
    for color in Color::ALL {
        let sign = if color == Color::Red { 1 } else { -1 };
        let them = !color;
        let (ci, ti) = (color.index(), them.index());
        let waiting = usize::from(color != pos.side_to_move());
        let hanging = attacked[ci] - attacked[ti];
        if (hanging & pos.color_pieces(them)).any() {
            for kind in &PieceType::ALL[1..] {
                let n = (pos.pieces(them, *kind) & hanging).count() as i32;
                if n > 0 {
                    sink.add(THREAT_HANGING + 6 * waiting + kind.index() - 1, sign * n);
                }
            }
        }
        // our rooks, horses, cannons and crossed pawns nothing of ours defends
        let loose = pos.color_pieces(color) - attacked[ci];
        let men = [
            pos.pieces(color, PieceType::Rook),
            pos.pieces(color, PieceType::Horse),
            pos.pieces(color, PieceType::Cannon),
            pos.pieces(color, PieceType::Pawn) - masks::own_half(color),
        ];
        for (i, men) in men.into_iter().enumerate() {
            let n = (men & loose).count() as i32;
            if n > 0 {
                sink.add(LOOSE_PIECES + i, sign * n);
            }
        }
        // where our king can step without walking into an attack
        let escapes =
            (king_attacks(pos.king_square(color)) - pos.color_pieces(color) - attacked[ti]).count();
        sink.add(KING_ESCAPES + escapes.min(3) as usize, sign);
        // checks we could give next move from points they do not guard
        let king = pos.king_square(them);
        let safe = !(attacked[ti] | pos.color_pieces(color));
        let checks = [
            rook_attacks(king, occ),
            horse_attackers_to(king, occ_bb),
            cannon_attacks(king, occ),
        ];
        for (kind, (&from, &reach)) in checks.iter().zip(&reach[ci]).enumerate() {
            let n = (from & reach & safe).count() as i32;
            if n > 0 {
                sink.add(SAFE_CHECKS + kind, sign * n);
            }
        }
        let rooks = (pos.pieces(them, PieceType::Rook) & (by_small[ci] | by_minor[ci])).count();
        if rooks > 0 {
            sink.add(THREAT_BY_LESSER + 2 * waiting, sign * rooks as i32);
        }
        let minors = ((pos.pieces(them, PieceType::Horse) | pos.pieces(them, PieceType::Cannon))
            & by_small[ci])
            .count();
        if minors > 0 {
            sink.add(THREAT_BY_LESSER + 2 * waiting + 1, sign * minors as i32);
        }
    }
    phase.min(PHASE_MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The position mirrored left-right and, separately, with colours swapped (board
    /// rotated, case swapped, side flipped).
    fn mirror(fen: &str) -> String {
        let mut parts = fen.split_whitespace();
        let board: Vec<String> = parts
            .next()
            .unwrap()
            .split('/')
            .map(|r| r.chars().rev().collect::<String>())
            .collect();
        let rest: Vec<&str> = parts.collect();
        format!("{} {}", board.join("/"), rest.join(" "))
    }

    fn colour_flip(fen: &str) -> String {
        let mut parts = fen.split_whitespace();
        let ranks: Vec<&str> = parts.next().unwrap().split('/').collect();
        let board: Vec<String> = ranks
            .iter()
            .rev()
            .map(|r| {
                r.chars()
                    .rev()
                    .map(|c| {
                        if c.is_ascii_uppercase() {
                            c.to_ascii_lowercase()
                        } else {
                            c.to_ascii_uppercase()
                        }
                    })
                    .collect()
            })
            .collect();
        let side = if parts.next() == Some("b") { "w" } else { "b" };
        format!("{} {side}", board.join("/"))
    }

    /// Positions from the bench plus those reached by random legal moves from them.
    fn sample_positions() -> Vec<Position> {
        crate::core::samples::random_walks(24, 0x1234_5678_9abc_def0)
    }

    #[test]
    fn symmetric_under_mirror_and_colour_flip() {
        let mut checked = 0;
        for p in sample_positions() {
            let fen = p.fen();
            let fen = fen.split_whitespace().take(2).collect::<Vec<_>>().join(" ");
            let m = Position::from_fen(&mirror(&fen)).unwrap();
            let f = Position::from_fen(&colour_flip(&fen)).unwrap();
            assert_eq!(evaluate(&p), evaluate(&m), "mirror of {fen}");
            assert_eq!(evaluate(&p), evaluate(&f), "colour flip of {fen}");
            // the flipped position's features are Red's and Black's swapped
            let (tp, tf) = (trace(&p), trace(&f));
            let negated: Vec<(u16, i16)> = tp.features.iter().map(|&(i, n)| (i, -n)).collect();
            assert_eq!(negated, tf.features, "features of the colour flip of {fen}");
            checked += 1;
        }
        assert!(checked > 500);
    }

    #[test]
    fn trace_reproduces_evaluate() {
        for p in sample_positions() {
            let red = evaluate_trace(&trace(&p), &W);
            let stm = if p.side_to_move() == Color::Red {
                red
            } else {
                -red
            };
            assert_eq!(stm, evaluate(&p), "{}", p.fen());
        }
    }

    /// Red's minus Black's count of a feature in a position.
    fn count(fen: &str, index: usize) -> i32 {
        let t = trace(&Position::from_fen(fen).unwrap());
        t.features
            .iter()
            .find(|&&(i, _)| i as usize == index)
            .map_or(0, |&(_, n)| n as i32)
    }

    #[test]
    fn cannon_terms_fire_where_they_should() {
        // red cannon e2 facing the black king e9 over an empty file: 空头炮
        let empty = "4k4/9/9/9/9/9/9/4C4/9/3K5 w";
        assert_eq!(count(empty, EMPTY_HEAD_CANNON), 1);
        assert_eq!(count(empty, CANNON_KING_FILE), 0);
        // a black advisor between: on the king's file, not empty-headed
        let screened = "4k4/4a4/9/9/9/9/9/4C4/9/3K5 b";
        assert_eq!(count(screened, EMPTY_HEAD_CANNON), 0);
        assert_eq!(count(screened, CANNON_KING_FILE), 1);
        // two men between: an x-ray on the king
        let xray = "4k4/4a4/9/9/4p4/9/9/4C4/9/3K5 w";
        assert_eq!(count(xray, CANNON_XRAY_KING), 1);
        assert_eq!(count(screened, CANNON_XRAY_KING), 0);
        // a cannon on Black's back rank while the black king is on it: 沉底炮
        assert_eq!(count("C3k4/9/9/9/9/9/9/9/9/3K5 w", BOTTOM_CANNON), 1);
        assert_eq!(count("C8/4k4/9/9/9/9/9/9/9/3K5 w", BOTTOM_CANNON), 0);
        // a cannon over a screen attacks a black rook, not a rook without a screen
        assert_eq!(count("3k5/9/9/9/9/r8/P8/C8/9/4K4 w", CANNON_THREAT), 1);
        assert_eq!(count("3k5/9/9/9/9/r8/9/C8/9/4K4 w", CANNON_THREAT), 0);
    }

    #[test]
    fn shelter_terms_fire_where_they_should() {
        let both = "3k5/9/9/9/9/9/9/9/4A4/3AK4 w";
        assert_eq!(count(both, ADVISORS_CONNECTED), 1);
        let apart = "3k5/9/9/9/9/9/9/9/9/3AKA3 w";
        assert_eq!(count(apart, ADVISORS_CONNECTED), 0);
        let elephants = "3k5/9/9/9/9/9/9/4B4/9/2B1K4 w";
        assert_eq!(count(elephants, ELEPHANTS_CONNECTED), 1);
        // the eye between them blocked
        let blocked = "3k5/9/9/9/9/9/9/4B4/3N5/2B1K4 w";
        assert_eq!(count(blocked, ELEPHANTS_CONNECTED), 0);
        // Black has a rook; Red's king file is open, then shielded by a pawn
        assert_eq!(
            count("r2k5/9/9/9/9/9/9/9/9/4K4 w", KING_FILE_OPEN_X_ROOKS),
            1
        );
        assert_eq!(
            count("r2k5/9/9/9/9/9/4P4/9/9/4K4 w", KING_FILE_OPEN_X_ROOKS),
            0
        );
        // missing defenders count only against attackers
        let bare = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RN2K2NR w";
        assert_eq!(count(bare, MISSING_ADVISOR_X_ATT), 2 * 4);
        assert_eq!(count(bare, MISSING_ELEPHANT_X_ATT), 2 * 4);
        assert_eq!(count(bare, MISSING_ELEPHANT_X_CANNON), 2 * 2);
        // Red's bare palace costs nothing against a bare Black; Black's, against Red's
        // four attackers, counts for Black (negative)
        let no_attackers = "3k5/9/9/9/9/9/9/9/9/RN2K2NR w";
        assert_eq!(count(no_attackers, MISSING_ADVISOR_X_ATT), -2 * 4);
        let no_attackers = "3k5/9/9/9/9/9/9/9/9/4K4 w";
        assert_eq!(count(no_attackers, MISSING_ADVISOR_X_ATT), 0);
    }

    #[test]
    fn attack_and_pawn_terms_fire_where_they_should() {
        // a red rook on f4 reaches f7, f8, f9 (3 palace points); a horse on c6 reaches
        // d8 and e7: two attackers (and Black none)
        let fen = "3k5/9/9/2N6/9/5R3/9/9/9/4K4 w";
        assert_eq!(count(fen, ROOK_PALACE), 3);
        assert_eq!(count(fen, HORSE_PALACE), 2);
        assert_eq!(count(fen, KING_ATTACKERS + 2), 1);
        assert_eq!(count(fen, KING_ATTACKERS), -1);
        let far = "3k5/9/9/9/9/9/9/9/R8/4K4 w";
        assert_eq!(count(far, ROOK_PALACE), 0);
        assert_eq!(count(far, KING_ATTACKERS + 1), 0);
        // crossed pawns side by side on rank 6 (c and d), a stacked pair on g
        let pawns = "3k5/9/9/2PP2P2/6P2/9/9/9/9/4K4 w";
        assert_eq!(count(pawns, CONNECTED_PAWNS), 1);
        assert_eq!(count(pawns, STACKED_PAWNS), 1);
        // side by side on the i- and a-files of neighbouring ranks is not a pair
        let wrap = "3k5/9/9/P8/8P/9/9/9/9/4K4 w";
        assert_eq!(count(wrap, CONNECTED_PAWNS), 0);
    }

    #[test]
    fn rook_file_and_wing_terms_fire_where_they_should() {
        // a red rook on the open a-file; one on the c-file where only a black pawn stands
        let files = "3k5/9/9/2p6/9/9/9/9/9/R1R1K4 w";
        assert_eq!(count(files, ROOK_OPEN_FILE), 1);
        assert_eq!(count(files, ROOK_SEMI_OPEN_FILE), 1);
        // the two rooks see each other along the first rank: connected, counted once
        assert_eq!(count(files, ROOKS_CONNECTED), 1);
        // a red pawn on the file: neither open nor semi-open; a man between the rooks
        let closed = "4k4/9/9/9/9/9/P8/9/9/RN1R1K3 w";
        assert_eq!(count(closed, ROOK_OPEN_FILE), 1);
        assert_eq!(count(closed, ROOK_SEMI_OPEN_FILE), 0);
        assert_eq!(count(closed, ROOKS_CONNECTED), 0);
        // 多子归边: rook, horse and cannon across the river on the left wing (the e-file
        // counts for both wings); a piece at home does not count
        let wing = "3k5/9/9/1R1N5/4C4/9/9/9/9/5KC2 w";
        assert_eq!(count(wing, WING_MASS + 2), 1);
        let split = "3k5/9/9/1R5N1/9/9/9/9/9/5KC2 w";
        assert_eq!(count(split, WING_MASS), 1);
        assert_eq!(count(split, WING_MASS + 2), 0);
        assert_eq!(count("3k5/9/9/9/9/9/9/9/9/R3K4 w", WING_MASS), 0);
    }

    #[test]
    fn threat_and_imbalance_terms_fire_where_they_should() {
        // a black horse on a5, undefended, in front of a red rook: hanging, weighted by who
        // is to move (horse = entry 2 of each block of six)
        let loose = "3k5/9/9/9/n8/9/9/9/9/R3K4";
        assert_eq!(count(&format!("{loose} w"), THREAT_HANGING + 2), 1);
        assert_eq!(count(&format!("{loose} b"), THREAT_HANGING + 2), 0);
        assert_eq!(count(&format!("{loose} b"), THREAT_HANGING + 6 + 2), 1);
        // the same horse guarded by a black rook on a9
        let guarded = "r2k5/9/9/9/n8/9/9/9/9/R3K4 w";
        assert_eq!(count(guarded, THREAT_HANGING + 2), 0);
        // a crossed black pawn on a1 attacks the red rook (a lesser attacker, and the rook
        // is loose); the rook attacks the loose pawn
        let pawn = "3k5/9/9/9/9/9/9/9/p8/R3K4 w";
        assert_eq!(count(pawn, THREAT_BY_LESSER + 2), -1);
        assert_eq!(count(pawn, THREAT_HANGING + 6 + 3), -1);
        assert_eq!(count(pawn, THREAT_HANGING + 5), 1);
        // a red pawn attacks a black cannon (a lesser attacker on a minor piece)
        let minor = "3k5/9/9/9/2cP5/9/9/9/9/4K4 w";
        assert_eq!(count(minor, THREAT_BY_LESSER + 1), 1);
        // imbalance: two red rooks and a cannon against a black cannon; (rook, rook) is
        // own pair 15, (rook, cannon) own pair 16, (cannon, cannon) own pair 18, and
        // (our rook, their cannon) opposed pair 12
        let imb = "3k1c3/9/9/9/9/9/9/9/9/R1R1K1C2 w";
        assert_eq!(count(imb, IMBALANCE_OWN + 15), 4);
        assert_eq!(count(imb, IMBALANCE_OWN + 16), 2);
        assert_eq!(count(imb, IMBALANCE_OWN + 18), 0);
        assert_eq!(count(imb, IMBALANCE_OPP + 12), 2);
        // the red rook on a0 can check the king on d9 from a9 and from d0
        let checks = "3k5/9/9/9/9/9/9/9/9/R3K4 w";
        assert_eq!(count(checks, SAFE_CHECKS), 2);
        // a black horse on c2 guards d0; a9 stays safe
        let guarded = "3k5/9/9/9/9/9/9/2n6/9/R3K4 w";
        assert_eq!(count(guarded, SAFE_CHECKS), 1);
        assert_eq!(count(guarded, SAFE_CHECKS + 1), 0);
        // a red rook on d0 pins the black horse on d5 to the king on d9; a red pawn there
        // instead would be a discovered check in waiting
        let pin = "3k5/9/9/9/3n5/9/9/9/9/3RK4 w";
        assert_eq!(count(pin, ROOK_PIN), 1);
        assert_eq!(count(pin, ROOK_PIN + 1), 0);
        let discovery = "3k5/9/9/9/3P5/9/9/9/9/3RK4 w";
        assert_eq!(count(discovery, ROOK_PIN), 0);
        assert_eq!(count(discovery, ROOK_PIN + 1), 1);
        // the red king on e0 may step to d0, f0 and e1; the black king in the corner d9
        // to e9 and d8
        let bare = "3k5/9/9/9/9/9/9/9/9/4K4 w";
        assert_eq!(count(bare, KING_ESCAPES + 3), 1);
        assert_eq!(count(bare, KING_ESCAPES + 2), -1);
        // a black rook on a1 takes e1 from the red king: two points each
        let cut = "3k5/9/9/9/9/9/9/9/r8/4K4 w";
        assert_eq!(count(cut, KING_ESCAPES + 3), 0);
        assert_eq!(count(cut, KING_ESCAPES + 2), 0);
    }

    #[test]
    fn danger_reach_and_loose_terms_fire_where_they_should() {
        // two red attackers on a bare black palace; no black attacker on a bare red one
        let fen = "3k5/9/9/2N6/9/5R3/9/9/9/4K4 w";
        assert_eq!(count(fen, KING_DANGER + 5 * 2), 1);
        assert_eq!(count(fen, KING_DANGER), -1);
        // a black advisor shelters the king: the same attack meets one defender
        let sheltered = "3k5/4a4/9/2N6/9/5R3/9/9/9/4K4 w";
        assert_eq!(count(sheltered, KING_DANGER + 5 * 2), 0);
        assert_eq!(count(sheltered, KING_DANGER + 5 * 2 + 1), 1);
        // a red horse on b3 could go to c5, which the black pawn on c6 attacks
        let pawn = "3k5/9/9/2p6/9/9/1N7/9/9/4K4 w";
        assert_eq!(count(pawn, UNSAFE_REACH + 1), 1);
        assert_eq!(count("3k5/9/9/9/9/9/1N7/9/9/4K4 w", UNSAFE_REACH + 1), 0);
        // a red rook alone on a0 is loose; on f0, beside its king, it is defended
        assert_eq!(count("3k5/9/9/9/9/9/9/9/9/R3K4 w", LOOSE_PIECES), 1);
        assert_eq!(count("3k5/9/9/9/9/9/9/9/9/4KR3 w", LOOSE_PIECES), 0);
        // a crossed pawn alone is loose; two side by side guard each other
        assert_eq!(count("3k5/9/9/2P6/9/9/9/9/9/4K4 w", LOOSE_PIECES + 3), 1);
        assert_eq!(count("3k5/9/9/2PP5/9/9/9/9/9/4K4 w", LOOSE_PIECES + 3), 0);
    }

    #[test]
    fn trapped_pieces_score_lower_mobility() {
        // a horse on a1 with both legs (a2, b1) blocked reaches nothing; free, three points
        assert_eq!(count("3k5/9/9/9/9/9/9/C8/NR7/4K4 w", HORSE_MOB), 1);
        assert_eq!(count("3k5/9/9/9/9/9/9/9/N8/4K4 w", HORSE_MOB + 3), 1);
    }

    #[test]
    fn material_counts() {
        let even = Position::startpos();
        let up_rook =
            Position::from_fen("rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w")
                .unwrap();
        assert!(evaluate(&up_rook) > evaluate(&even) + 400);
        // the start is level but for the move (tempo, and the first shot at loose pieces)
        assert!(evaluate(&even).abs() < 100);
    }
}
