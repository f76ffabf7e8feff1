//! Match statistics: Elo from a score with its 95% interval (per game, trinomial, and per
//! game pair, pentanomial), the likelihood of superiority, and the sequential probability
//! ratio test with the generalised log-likelihood ratio (the most likely distributions of the
//! two hypotheses' means), on game pairs (pentanomial) or single games (trinomial).

/// Two-sided 95% quantile of the standard normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Win, draw and loss counts from one side's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

impl Wdl {
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Points per game, 0..1 (0.5 with no games).
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.5;
        }
        (self.wins as f64 + 0.5 * self.draws as f64) / n as f64
    }

    pub fn draw_ratio(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            0.0
        } else {
            self.draws as f64 / n as f64
        }
    }

    /// The same games seen from the other side.
    pub fn flipped(&self) -> Wdl {
        Wdl {
            wins: self.losses,
            draws: self.draws,
            losses: self.wins,
        }
    }
}

/// `W-D-L`.
impl std::fmt::Display for Wdl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}-{}-{}", self.wins, self.draws, self.losses)
    }
}

/// Counts of game pairs (the same opening with colours swapped) by the points the first
/// engine took from the pair: 0, ½, 1, 1½, 2.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Penta(pub [u64; 5]);

impl Penta {
    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }

    /// Adds a pair from its two game scores (each 0, ½ or 1 for the first engine).
    pub fn add(&mut self, first: f64, second: f64) {
        let half_points = ((first + second) * 2.0).round() as usize;
        self.0[half_points.min(4)] += 1;
    }

    pub fn flipped(&self) -> Penta {
        let mut p = self.0;
        p.reverse();
        Penta(p)
    }
}

/// `P0-P1-P2-P3-P4`.
impl std::fmt::Display for Penta {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let [a, b, c, d, e] = self.0;
        write!(f, "{a}-{b}-{c}-{d}-{e}")
    }
}

/// Mean and variance of a discrete distribution of scores (`values[i]` seen `counts[i]`
/// times); the variance is that of one sample, not of the mean.
fn mean_var(values: &[f64], counts: &[u64]) -> Option<(f64, f64, f64)> {
    let n = counts.iter().sum::<u64>() as f64;
    if n <= 0.0 {
        return None;
    }
    let mean = values
        .iter()
        .zip(counts)
        .map(|(v, &c)| v * c as f64)
        .sum::<f64>()
        / n;
    let var = values
        .iter()
        .zip(counts)
        .map(|(v, &c)| (v - mean).powi(2) * c as f64)
        .sum::<f64>()
        / n;
    Some((mean, var, n))
}

const TRI_VALUES: [f64; 3] = [0.0, 0.5, 1.0];
const PENTA_VALUES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

fn tri_counts(w: &Wdl) -> [u64; 3] {
    [w.losses, w.draws, w.wins]
}

/// Logistic Elo difference of an expected score (infinite at 0 and 1).
pub fn elo_from_score(score: f64) -> f64 {
    if score <= 0.0 {
        return f64::NEG_INFINITY;
    }
    if score >= 1.0 {
        return f64::INFINITY;
    }
    -400.0 * (1.0 / score - 1.0).log10()
}

/// Expected score of a logistic Elo difference.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// An Elo estimate with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    pub elo: f64,
    /// Half the width of the 95% interval, in Elo (infinite when the score is 0 or 1 at an
    /// end of the interval; NaN while every result is alike, so the spread is unknown).
    pub error: f64,
    pub low: f64,
    pub high: f64,
}

fn estimate(mean: f64, var: f64, n: f64) -> EloEstimate {
    if var <= 0.0 {
        // every result alike (one game pair, or all draws): no spread to measure yet
        return EloEstimate {
            elo: elo_from_score(mean),
            error: f64::NAN,
            low: f64::NAN,
            high: f64::NAN,
        };
    }
    let se = (var / n).sqrt();
    let low = elo_from_score(mean - Z95 * se);
    let high = elo_from_score(mean + Z95 * se);
    EloEstimate {
        elo: elo_from_score(mean),
        error: (high - low) / 2.0,
        low,
        high,
    }
}

/// Elo with a 95% interval from the variance of single game results (wins, draws, losses).
pub fn elo_trinomial(w: &Wdl) -> Option<EloEstimate> {
    let (mean, var, n) = mean_var(&TRI_VALUES, &tri_counts(w))?;
    Some(estimate(mean, var, n))
}

/// Elo with a 95% interval from the variance of game-pair results (pentanomial).
pub fn elo_pentanomial(p: &Penta) -> Option<EloEstimate> {
    let (mean, var, n) = mean_var(&PENTA_VALUES, &p.0)?;
    Some(estimate(mean, var, n))
}

/// Likelihood of superiority: the probability that the first engine is the stronger, from
/// wins and losses (draws carry no information), Φ((W − L) / √(W + L)).
pub fn los(w: &Wdl) -> f64 {
    let decisive = (w.wins + w.losses) as f64;
    if decisive == 0.0 {
        return 0.5;
    }
    normal_cdf((w.wins as f64 - w.losses as f64) / decisive.sqrt())
}

/// Φ(x) for the standard normal distribution.
pub fn normal_cdf(x: f64) -> f64 {
    0.5 * erfc(-x / std::f64::consts::SQRT_2)
}

/// Complementary error function (Numerical Recipes' Chebyshev fit, |error| < 1.2e-7).
fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let r = t
        * (-z * z - 1.265_512_23
            + t * (1.000_023_68
                + t * (0.374_091_96
                    + t * (0.096_784_18
                        + t * (-0.186_288_06
                            + t * (0.278_868_07
                                + t * (-1.135_203_98
                                    + t * (1.488_515_87
                                        + t * (-0.822_152_23 + t * 0.170_872_77)))))))))
            .exp();
    if x >= 0.0 { r } else { 2.0 - r }
}

/// The weight of an empty bin in the SPRT's distribution: without it a run of identical
/// results has no variance and no defined LLR; 0.001 of a sample is small enough not to
/// move real estimates.
pub const REGULARIZE: f64 = 1e-3;

/// Of the distributions over `values` with mean `s`, the one under which results with the
/// frequencies `freq` (all > 0, summing to 1) are most likely: p_i = f_i / (1 + λ (v_i − s))
/// with λ the root of Σ f_i (v_i − s) / (1 + λ (v_i − s)) = 0 (a Lagrange multiplier; the
/// sum falls strictly with λ on the interval where every 1 + λ (v_i − s) > 0, from +∞ to
/// −∞, so bisection finds it). `values` must be ascending with `s` strictly between the
/// first and the last.
fn closest_with_mean(values: &[f64], freq: &[f64], s: f64) -> Vec<f64> {
    let (first, last) = (values[0], values[values.len() - 1]);
    let (mut lo, mut hi) = (-1.0 / (last - s), 1.0 / (s - first));
    let g = |l: f64| -> f64 {
        values
            .iter()
            .zip(freq)
            .map(|(&v, &f)| f * (v - s) / (1.0 + l * (v - s)))
            .sum()
    };
    // 200 halvings take the interval below f64 resolution; the ends themselves are never
    // evaluated
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if g(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let l = 0.5 * (lo + hi);
    let p: Vec<f64> = values
        .iter()
        .zip(freq)
        .map(|(&v, &f)| f / (1.0 + l * (v - s)))
        .collect();
    let total: f64 = p.iter().sum();
    p.into_iter().map(|x| x / total).collect()
}

/// Which results the SPRT counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtModel {
    /// Game pairs: 0, ½, 1, 1½, 2 points (the default: it removes the opening's bias).
    Pentanomial,
    /// Single games: win, draw, loss.
    Trinomial,
}

/// A sequential probability ratio test of H0: Elo = `elo0` against H1: Elo = `elo1`
/// (logistic Elo), with error rates `alpha` (false H1) and `beta` (false H0).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    pub model: SprtModel,
    /// Games of this same test played before whose result files are gone (a machine that
    /// lost them): their W-D-L and pentanomial as recorded, added to the games at hand
    /// before every verdict, so that the test goes on where it stood instead of starting
    /// again (which would let an unlucky start be thrown away).
    pub prior: Option<Prior>,
}

/// The recorded counts of a test's earlier games ([`Sprt::prior`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Prior {
    pub wdl: Wdl,
    pub penta: Penta,
}

impl Prior {
    /// `W-D-L` and `P0-P1-P2-P3-P4` (pairs by the first engine's points 0, ½, 1, 1½, 2),
    /// checked to describe the same games: twice as many games as pairs, the same points.
    pub fn parse(wdl: &str, penta: &str) -> Result<Prior, String> {
        let nums = |text: &str, n: usize, what: &str| -> Result<Vec<u64>, String> {
            text.split('-')
                .map(|x| x.trim().parse::<u64>().ok())
                .collect::<Option<Vec<u64>>>()
                .filter(|v| v.len() == n)
                .ok_or_else(|| format!("{what} '{text}' is not {n} counts joined by '-'"))
        };
        let w = nums(wdl, 3, "prior-wdl")?;
        let p = nums(penta, 5, "prior-penta")?;
        let wdl = Wdl {
            wins: w[0],
            draws: w[1],
            losses: w[2],
        };
        let penta = Penta([p[0], p[1], p[2], p[3], p[4]]);
        // in half points: 2W + D from the games, Σ i·p_i from the pairs
        let half_points: u64 = p.iter().enumerate().map(|(i, &c)| i as u64 * c).sum();
        if wdl.games() != 2 * penta.pairs() || 2 * wdl.wins + wdl.draws != half_points {
            return Err(format!(
                "prior-wdl {wdl} and prior-penta {penta} do not describe the same games ({} games, {} pairs; {} and {} half points)",
                wdl.games(),
                penta.pairs(),
                2 * wdl.wins + wdl.draws,
                half_points
            ));
        }
        Ok(Prior { wdl, penta })
    }

    /// These counts added to `wdl` and `penta`.
    pub fn added_to(&self, wdl: &Wdl, penta: &Penta) -> (Wdl, Penta) {
        let w = Wdl {
            wins: wdl.wins + self.wdl.wins,
            draws: wdl.draws + self.wdl.draws,
            losses: wdl.losses + self.wdl.losses,
        };
        let mut q = *penta;
        for (a, b) in q.0.iter_mut().zip(self.penta.0) {
            *a += b;
        }
        (w, q)
    }
}

/// What the test says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtState {
    Continue,
    /// LLR at or below the lower bound: H0 (the change is not `elo1` better).
    AcceptH0,
    /// LLR at or above the upper bound: H1.
    AcceptH1,
}

impl Sprt {
    /// (lower, upper) bounds of the LLR: ln(β / (1 − α)), ln((1 − β) / α).
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The generalized log-likelihood ratio of H1 against H0 for results of any
    /// distribution over `values` (pairs scored 0, ¼, ½, ¾, 1, or games scored 0, ½, 1):
    /// LLR = Σ c_i ln(p1_i / p0_i), where c are the counts and p0, p1 the distributions of
    /// mean s0 = score(`elo0`) and s1 = score(`elo1`) under which the results are most
    /// likely (`closest_with_mean`). Empty bins count as [`REGULARIZE`] samples. Zero with
    /// no results at all.
    ///
    /// This is the exact form of the normal approximation n (s1 − s0)(2μ − s0 − s1)/(2σ²)
    /// (μ, σ² of the results), which it approaches when many results lie close to s0 and
    /// s1; but the approximation needs a sample: with one game pair its variance is that of
    /// the empty bins, and a single 1½-point pair gave an LLR of 3.7, past the H1 bound of
    /// α = β = 0.05. Here such a pair gives 0.03.
    /// With a [`prior`](Sprt::prior), its counts are added first.
    pub fn llr(&self, wdl: &Wdl, penta: &Penta) -> f64 {
        let (wdl, penta) = self.with_prior(wdl, penta);
        let counts: &[u64] = match self.model {
            SprtModel::Pentanomial => &penta.0,
            SprtModel::Trinomial => &tri_counts(&wdl),
        };
        if counts.iter().all(|&c| c == 0) {
            return 0.0;
        }
        let c: Vec<f64> = counts
            .iter()
            .map(|&c| if c == 0 { REGULARIZE } else { c as f64 })
            .collect();
        let values: &[f64] = match self.model {
            SprtModel::Pentanomial => &PENTA_VALUES,
            SprtModel::Trinomial => &TRI_VALUES,
        };
        let n: f64 = c.iter().sum();
        let freq: Vec<f64> = c.iter().map(|&x| x / n).collect();
        let p0 = closest_with_mean(values, &freq, score_from_elo(self.elo0));
        let p1 = closest_with_mean(values, &freq, score_from_elo(self.elo1));
        c.iter()
            .zip(p0.iter().zip(&p1))
            .map(|(&ci, (&a, &b))| ci * (b / a).ln())
            .sum()
    }

    /// The counts the verdict is taken on: these games' and the prior's together.
    pub fn with_prior(&self, wdl: &Wdl, penta: &Penta) -> (Wdl, Penta) {
        match &self.prior {
            Some(p) => p.added_to(wdl, penta),
            None => (*wdl, *penta),
        }
    }

    pub fn state(&self, llr: f64) -> SprtState {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtState::AcceptH1
        } else if llr <= lower {
            SprtState::AcceptH0
        } else {
            SprtState::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    // Worked numbers, derived by hand (each step in the comment) and checked with a
    // calculator to the digits given.

    #[test]
    fn elo_and_interval_from_wins_draws_losses() {
        // W-D-L 60-20-20: score (60 + 10) / 100 = 0.7; Elo = -400 log10(1/0.7 - 1)
        // = -400 log10(0.428571) = 147.19.
        // variance per game: 0.6 (0.3)² + 0.2 (0.2)² + 0.2 (0.7)² = 0.054 + 0.008 + 0.098 = 0.16,
        // standard error 0.4 / 10 = 0.04; 95%: 0.7 ± 0.078399 -> [0.621601, 0.778399]
        // -> Elo [86.23, 218.25], half width 66.01.
        let w = Wdl {
            wins: 60,
            draws: 20,
            losses: 20,
        };
        assert!(close(w.score(), 0.7, 1e-12));
        let e = elo_trinomial(&w).unwrap();
        assert!(close(e.elo, 147.19, 0.01), "{e:?}");
        assert!(close(e.low, 86.23, 0.01), "{e:?}");
        assert!(close(e.high, 218.25, 0.01), "{e:?}");
        assert!(close(e.error, 66.01, 0.01), "{e:?}");
        // the other side sees the mirror image
        let f = elo_trinomial(&w.flipped()).unwrap();
        assert!(close(f.elo, -e.elo, 1e-9) && close(f.error, e.error, 1e-9));
    }

    #[test]
    fn even_score_is_zero_elo() {
        let w = Wdl {
            wins: 10,
            draws: 80,
            losses: 10,
        };
        let e = elo_trinomial(&w).unwrap();
        assert!(close(e.elo, 0.0, 1e-9));
        // variance 0.2 * 0.25 = 0.05, se = sqrt(0.05 / 100) = 0.022361; 0.5 + 1.96 se =
        // 0.543827 -> Elo 30.53
        assert!(close(e.high, 30.53, 0.01), "{e:?}");
        assert!(elo_trinomial(&Wdl::default()).is_none());
        // all results alike: no interval yet
        let one_pair = elo_pentanomial(&Penta([0, 1, 0, 0, 0])).unwrap();
        assert!(one_pair.error.is_nan() && one_pair.elo < 0.0);
    }

    #[test]
    fn pentanomial_interval() {
        // pairs [LL, LD, DD+WL, WD, WW] = [10, 20, 40, 20, 20]: mean
        // (0.25*20 + 0.5*40 + 0.75*20 + 1*20) / 110 = 60 / 110 = 0.545455; Elo 31.67;
        // second moment (0.0625*20 + 0.25*40 + 0.5625*20 + 20) / 110 = 42.5 / 110 = 0.386364,
        // variance 0.386364 - 0.297521 = 0.088843; se = sqrt(0.088843 / 110) = 0.028419;
        // 95%: [0.489753, 0.601156] -> Elo [-7.12, 71.27]
        let p = Penta([10, 20, 40, 20, 20]);
        let e = elo_pentanomial(&p).unwrap();
        assert!(close(e.elo, 31.67, 0.01), "{e:?}");
        assert!(close(e.low, -7.12, 0.01), "{e:?}");
        assert!(close(e.high, 71.27, 0.01), "{e:?}");
    }

    #[test]
    fn pairs_are_binned_by_points() {
        let mut p = Penta::default();
        p.add(1.0, 1.0);
        p.add(1.0, 0.0);
        p.add(0.5, 0.5);
        p.add(0.5, 0.0);
        p.add(0.0, 0.0);
        p.add(1.0, 0.5);
        assert_eq!(p.0, [1, 1, 2, 1, 1]);
        assert_eq!(p.flipped().0, [1, 1, 2, 1, 1]);
        assert_eq!(p.pairs(), 6);
    }

    #[test]
    fn los_from_wins_and_losses() {
        // W 60, L 40: (60 - 40) / sqrt(100) = 2 -> Φ(2) = 0.977250
        let w = Wdl {
            wins: 60,
            draws: 33,
            losses: 40,
        };
        assert!(close(los(&w), 0.977_250, 1e-6), "{}", los(&w));
        assert!(close(normal_cdf(0.0), 0.5, 1e-6));
        assert!(close(normal_cdf(-1.0), 0.158_655, 1e-6));
        let even = Wdl {
            wins: 5,
            draws: 0,
            losses: 5,
        };
        assert!(close(los(&even), 0.5, 1e-6));
    }

    #[test]
    fn sprt_bounds() {
        // alpha = beta = 0.05: ln(0.05 / 0.95) = -2.944439, ln(0.95 / 0.05) = 2.944439
        let s = Sprt {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
            model: SprtModel::Pentanomial,
            prior: None,
        };
        let (lo, hi) = s.bounds();
        assert!(close(lo, -2.944_439, 1e-6) && close(hi, 2.944_439, 1e-6));
        assert_eq!(s.state(3.0), SprtState::AcceptH1);
        assert_eq!(s.state(-3.0), SprtState::AcceptH0);
        assert_eq!(s.state(0.0), SprtState::Continue);
    }

    #[test]
    fn pentanomial_llr_worked_examples() {
        let s = Sprt {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
            model: SprtModel::Pentanomial,
            prior: None,
        };
        // Expected values from an independent script (bisection on λ, 200 halvings, as in
        // the doc comment). s0 = 0.5, s1 = 1 / (1 + 10^(-5/400)) = 0.507195.
        // Symmetric pairs [10, 20, 40, 20, 10]: mean 0.5; the normal approximation gives
        // 100 * 0.007195 * (1 - 1.007195) / 0.15 = -0.034512, the exact ratio -0.034507.
        let llr = s.llr(&Wdl::default(), &Penta([10, 20, 40, 20, 10]));
        assert!(close(llr, -0.034_507, 1e-5), "{llr}");
        // [10, 20, 40, 20, 20] (mean 0.545455): 0.369374 (approximation 0.37288): go on.
        let llr = s.llr(&Wdl::default(), &Penta([10, 20, 40, 20, 20]));
        assert!(close(llr, 0.369_374, 1e-5), "{llr}");
        assert_eq!(s.state(llr), SprtState::Continue);
        // ten times as many pairs, same shape: ten times the LLR, 3.69374 -> H1.
        let llr = s.llr(&Wdl::default(), &Penta([100, 200, 400, 200, 200]));
        assert!(close(llr, 3.693_74, 1e-4), "{llr}");
        assert_eq!(s.state(llr), SprtState::AcceptH1);
        // mirror: [200, 200, 400, 200, 100], mean 0.454545: -4.31711 -> H0.
        let llr = s.llr(&Wdl::default(), &Penta([200, 200, 400, 200, 100]));
        assert!(close(llr, -4.317_11, 1e-4), "{llr}");
        assert_eq!(s.state(llr), SprtState::AcceptH0);
        // no results: no evidence
        assert_eq!(s.llr(&Wdl::default(), &Penta::default()), 0.0);
        // seven drawn pairs and nothing else (empty bins weigh 0.001): -0.096301
        let llr = s.llr(&Wdl::default(), &Penta([0, 0, 7, 0, 0]));
        assert!(close(llr, -0.096_301, 1e-5), "{llr}");
    }

    #[test]
    fn one_pair_decides_nothing() {
        // the normal approximation's failure: one pair of 1½ points has no variance but
        // that of the empty bins, and gave an LLR of 3.74 for [0, 10], past the H1 bound
        let s = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
            model: SprtModel::Pentanomial,
            prior: None,
        };
        let llr = s.llr(&Wdl::default(), &Penta([0, 0, 0, 1, 0]));
        assert!(close(llr, 0.028_394, 1e-5), "{llr}");
        assert_eq!(s.state(llr), SprtState::Continue);
        // a run of won pairs moves the LLR by ln(s1 / s0) = 0.028424 a pair: H1 after 104
        let won = |n| s.llr(&Wdl::default(), &Penta([0, 0, 0, 0, n]));
        assert!(close(won(10), 0.283_737, 1e-5), "{}", won(10));
        assert_eq!(s.state(won(103)), SprtState::Continue, "{}", won(103));
        assert_eq!(s.state(won(104)), SprtState::AcceptH1, "{}", won(104));
        // generation 2 against generation 1 (222 games, session 16): the approximation
        // said 2.96 (H1); the exact ratio is 2.3237, still short of the bound
        let llr = s.llr(&Wdl::default(), &Penta([3, 15, 35, 41, 17]));
        assert!(close(llr, 2.323_71, 1e-4), "{llr}");
    }

    #[test]
    fn trinomial_llr_worked_example() {
        // W-D-L 60-20-20 (mean 0.7, variance 0.16, 100 games), elo0 0, elo1 10:
        // s1 = 1 / (1 + 10^(-10/400)) = 0.514387; the normal approximation gives
        // 100 * 0.014387 * (1.4 - 1.014387) / 0.32 = 1.7337, the exact ratio 1.38982.
        let s = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
            model: SprtModel::Trinomial,
            prior: None,
        };
        let w = Wdl {
            wins: 60,
            draws: 20,
            losses: 20,
        };
        let llr = s.llr(&w, &Penta::default());
        assert!(close(llr, 1.389_82, 1e-4), "{llr}");
    }

    #[test]
    fn a_prior_counts_as_the_games_it_records() {
        let s = |prior| Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
            model: SprtModel::Pentanomial,
            prior,
        };
        // session 41's first three shards of candidate 7b's SPRT, then three more shards
        let prior = Prior::parse("29-92-29", "1-17-41-13-3").unwrap();
        let later = Penta([0, 10, 50, 30, 10]);
        let later_wdl = Wdl {
            wins: 60,
            draws: 120,
            losses: 20,
        };
        let all = Penta([1, 27, 91, 43, 13]);
        let all_wdl = Wdl {
            wins: 89,
            draws: 212,
            losses: 49,
        };
        let with = s(Some(prior)).llr(&later_wdl, &later);
        let summed = s(None).llr(&all_wdl, &all);
        assert!(close(with, summed, 1e-12), "{with} vs {summed}");
        assert!(!close(with, s(None).llr(&later_wdl, &later), 1e-3));
        assert_eq!(
            s(Some(prior)).with_prior(&later_wdl, &later),
            (all_wdl, all)
        );
        // the trinomial model adds the prior's W-D-L
        let mut t = s(Some(prior));
        t.model = SprtModel::Trinomial;
        let mut u = s(None);
        u.model = SprtModel::Trinomial;
        assert!(close(
            t.llr(&later_wdl, &later),
            u.llr(&all_wdl, &all),
            1e-12
        ));
        // no games yet: the prior alone
        assert!(close(
            s(Some(prior)).llr(&Wdl::default(), &Penta::default()),
            s(None).llr(&prior.wdl, &prior.penta),
            1e-12
        ));
    }

    #[test]
    fn a_prior_must_describe_one_set_of_games() {
        assert_eq!(
            Prior::parse("8-30-12", "1-6-15-2-1").unwrap().penta,
            Penta([1, 6, 15, 2, 1])
        );
        // 50 games but 26 pairs
        assert!(Prior::parse("8-30-12", "1-6-15-2-2").is_err());
        // 25 pairs, but 45 half points against the W-D-L's 46
        assert!(Prior::parse("8-30-12", "1-6-16-1-1").is_err());
        assert!(Prior::parse("8-30", "1-6-15-2-1").is_err());
        assert!(Prior::parse("8-30-12", "1-6-15-2").is_err());
        assert!(Prior::parse("8-x-12", "1-6-15-2-1").is_err());
        assert!(Prior::parse("8-30-12", "1-6--15-2-1").is_err());
    }
}
