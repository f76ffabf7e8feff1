//! The two vector kernels of the network, each with a portable path and an AVX2 path chosen
//! at run time. Both paths give bit-identical results:
//!
//! * accumulator updates add and subtract `i16` rows with wrapping arithmetic (what
//!   `_mm256_add_epi16` does);
//! * the output's dot product clips each hidden value to `0..=QA`, multiplies it by its
//!   weight in `i16` (exact: 255 × 127 fits), multiplies that by the clipped value again in
//!   `i32` (`_mm256_madd_epi16`) and sums. An AVX2 lane adds at most `H / 16` pairs of such
//!   products (each pair below 2 × 255 × 127 × 255 ≈ 16.5 M), so for `H ≤ 512` no lane can
//!   overflow, and the portable path's `i64` sum is the same number.

use super::format::QA;
use std::sync::LazyLock;

/// Which code runs the kernels.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// Plain Rust, any CPU.
    Portable,
    /// AVX2 intrinsics (x86-64 CPUs that have them).
    Avx2,
}

static BEST: LazyLock<Kernel> = LazyLock::new(|| {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") {
            return Kernel::Avx2;
        }
    }
    Kernel::Portable
});

/// The fastest kernel this CPU runs (detected once).
#[inline]
pub fn best() -> Kernel {
    *BEST
}

/// Is `kernel` usable on this CPU?
pub fn available(kernel: Kernel) -> bool {
    kernel == Kernel::Portable || best() == Kernel::Avx2
}

/// `dst = src + Σ add − Σ sub`, element by element (wrapping). Every slice has the length
/// of `dst`, a multiple of 16.
#[inline]
pub fn update(kernel: Kernel, dst: &mut [i16], src: &[i16], add: &[&[i16]], sub: &[&[i16]]) {
    debug_assert!(src.len() == dst.len() && dst.len().is_multiple_of(16));
    debug_assert!(add.iter().chain(sub).all(|r| r.len() == dst.len()));
    #[cfg(target_arch = "x86_64")]
    if kernel == Kernel::Avx2 && best() == Kernel::Avx2 {
        // SAFETY: AVX2 was detected on this CPU (best() == Avx2), and every slice has
        // dst.len() elements, a multiple of 16 (asserted by the callers: the hidden width is
        // a multiple of 16 and rows are cut to it).
        unsafe { avx2::update(dst, src, add, sub) };
        return;
    }
    let _ = kernel;
    for (i, d) in dst.iter_mut().enumerate() {
        let mut v = src[i];
        for a in add {
            v = v.wrapping_add(a[i]);
        }
        for s in sub {
            v = v.wrapping_sub(s[i]);
        }
        *d = v;
    }
}

/// `dst += Σ add`, element by element (wrapping); the slices as for [`update`].
#[inline]
pub fn accumulate(kernel: Kernel, dst: &mut [i16], add: &[&[i16]]) {
    debug_assert!(dst.len().is_multiple_of(16) && add.iter().all(|r| r.len() == dst.len()));
    #[cfg(target_arch = "x86_64")]
    if kernel == Kernel::Avx2 && best() == Kernel::Avx2 {
        // SAFETY: AVX2 was detected on this CPU; every row has dst.len() elements, a
        // multiple of 16.
        unsafe { avx2::accumulate(dst, add) };
        return;
    }
    let _ = kernel;
    for (i, d) in dst.iter_mut().enumerate() {
        for a in add {
            *d = d.wrapping_add(a[i]);
        }
    }
}

/// `Σ clamp(acc, 0, QA)² · w`, computed as described in the module doc. `acc` and `w` have
/// the same length, a multiple of 16, at most 512; `|w| ≤ 127`.
#[inline]
pub fn screlu_dot(kernel: Kernel, acc: &[i16], w: &[i16]) -> i64 {
    debug_assert!(acc.len() == w.len() && acc.len().is_multiple_of(16));
    #[cfg(target_arch = "x86_64")]
    if kernel == Kernel::Avx2 && best() == Kernel::Avx2 {
        // SAFETY: AVX2 was detected on this CPU; both slices have the same length, a
        // multiple of 16.
        return unsafe { avx2::screlu_dot(acc, w) };
    }
    let _ = kernel;
    let mut sum = 0i64;
    for (&a, &w) in acc.iter().zip(w) {
        let c = a.clamp(0, QA as i16);
        let t = c.wrapping_mul(w);
        sum += i64::from(i32::from(t) * i32::from(c));
    }
    sum
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::QA;
    use std::arch::x86_64::*;

    /// # Safety
    /// The CPU must support AVX2; every slice must have `dst.len()` elements, a multiple
    /// of 16.
    #[target_feature(enable = "avx2")]
    pub unsafe fn update(dst: &mut [i16], src: &[i16], add: &[&[i16]], sub: &[&[i16]]) {
        let n = dst.len();
        let mut i = 0;
        while i + 16 <= n {
            // SAFETY: i + 16 <= n and every slice has n elements, so each 32-byte unaligned
            // load and store stays inside its slice.
            unsafe {
                let mut v = _mm256_loadu_si256(src.as_ptr().add(i) as *const __m256i);
                for a in add {
                    let r = _mm256_loadu_si256(a.as_ptr().add(i) as *const __m256i);
                    v = _mm256_add_epi16(v, r);
                }
                for s in sub {
                    let r = _mm256_loadu_si256(s.as_ptr().add(i) as *const __m256i);
                    v = _mm256_sub_epi16(v, r);
                }
                _mm256_storeu_si256(dst.as_mut_ptr().add(i) as *mut __m256i, v);
            }
            i += 16;
        }
    }

    /// # Safety
    /// The CPU must support AVX2; every row has `dst.len()` elements, a multiple of 16.
    #[target_feature(enable = "avx2")]
    pub unsafe fn accumulate(dst: &mut [i16], add: &[&[i16]]) {
        let n = dst.len();
        let mut i = 0;
        while i + 16 <= n {
            // SAFETY: i + 16 <= n and every row has n elements.
            unsafe {
                let p = dst.as_mut_ptr().add(i) as *mut __m256i;
                let mut v = _mm256_loadu_si256(p);
                for a in add {
                    let r = _mm256_loadu_si256(a.as_ptr().add(i) as *const __m256i);
                    v = _mm256_add_epi16(v, r);
                }
                _mm256_storeu_si256(p, v);
            }
            i += 16;
        }
    }

    /// # Safety
    /// The CPU must support AVX2; `acc` and `w` have the same length, a multiple of 16.
    #[target_feature(enable = "avx2")]
    pub unsafe fn screlu_dot(acc: &[i16], w: &[i16]) -> i64 {
        let n = acc.len();
        let zero = _mm256_setzero_si256();
        let qa = _mm256_set1_epi16(QA as i16);
        let mut sum = _mm256_setzero_si256();
        let mut i = 0;
        while i + 16 <= n {
            // SAFETY: i + 16 <= n = acc.len() = w.len(): both loads stay inside the slices.
            unsafe {
                let a = _mm256_loadu_si256(acc.as_ptr().add(i) as *const __m256i);
                let ww = _mm256_loadu_si256(w.as_ptr().add(i) as *const __m256i);
                let c = _mm256_min_epi16(_mm256_max_epi16(a, zero), qa);
                let t = _mm256_mullo_epi16(c, ww);
                sum = _mm256_add_epi32(sum, _mm256_madd_epi16(t, c));
            }
            i += 16;
        }
        let mut lanes = [0i32; 8];
        // SAFETY: `lanes` is 32 bytes, the size of one vector.
        unsafe { _mm256_storeu_si256(lanes.as_mut_ptr() as *mut __m256i, sum) };
        lanes.iter().map(|&x| i64::from(x)).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stream(seed: u64, n: usize, lo: i16, hi: i16) -> Vec<i16> {
        let mut s = seed;
        (0..n)
            .map(|_| {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                lo + (s % (hi as i32 - lo as i32 + 1) as u64) as i16
            })
            .collect()
    }

    #[test]
    fn both_kernels_agree_at_the_extremes() {
        if !available(Kernel::Avx2) {
            eprintln!("note: no AVX2 on this CPU, only the portable kernel was checked");
            return;
        }
        for (seed, h) in [(1u64, 16usize), (2, 128), (3, 512)] {
            // accumulators over the whole i16 range (clipping both ways) and weights at ±127
            let acc = stream(seed, h, i16::MIN, i16::MAX);
            let w = stream(seed + 9, h, -127, 127);
            let p = screlu_dot(Kernel::Portable, &acc, &w);
            assert_eq!(p, screlu_dot(Kernel::Avx2, &acc, &w));
            // the worst case: every value clipped to QA, every weight 127
            let full = vec![i16::MAX; h];
            let top = vec![127i16; h];
            let worst = screlu_dot(Kernel::Portable, &full, &top);
            assert_eq!(worst, 255 * 255 * 127 * h as i64);
            assert_eq!(worst, screlu_dot(Kernel::Avx2, &full, &top));
            let rows: Vec<Vec<i16>> = (0..5)
                .map(|k| stream(seed * 31 + k, h, i16::MIN, i16::MAX))
                .collect();
            let (mut a, mut b) = (vec![0i16; h], vec![0i16; h]);
            let add = [rows[1].as_slice(), rows[2].as_slice()];
            let sub = [rows[3].as_slice(), rows[4].as_slice()];
            update(Kernel::Portable, &mut a, &rows[0], &add, &sub);
            update(Kernel::Avx2, &mut b, &rows[0], &add, &sub);
            assert_eq!(a, b, "wrapping updates differ");
            accumulate(Kernel::Portable, &mut a, &add);
            accumulate(Kernel::Avx2, &mut b, &add);
            assert_eq!(a, b, "wrapping sums differ");
        }
    }

    #[test]
    fn the_portable_dot_product_is_the_formula() {
        let acc = [
            -5i16,
            0,
            1,
            100,
            255,
            256,
            1000,
            i16::MIN,
            7,
            8,
            9,
            10,
            11,
            12,
            13,
            14,
        ];
        let w = [3i16, -3, 127, -127, 1, 2, -1, 5, 0, 0, 0, 0, 0, 0, 0, 1];
        let expect: i64 = acc
            .iter()
            .zip(&w)
            .map(|(&a, &w)| {
                let c = i64::from(a.clamp(0, 255));
                c * c * i64::from(w)
            })
            .sum();
        assert_eq!(screlu_dot(Kernel::Portable, &acc, &w), expect);
    }
}
