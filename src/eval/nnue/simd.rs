//! The two kernels of inference, each with a scalar form and an AVX2 form chosen at run time:
//! the accumulator update (a parent's values plus some weight rows minus others) and the
//! output (the squared clipped activations dotted with the output weights). Both forms use
//! the same integer arithmetic (wrapping 16-bit adds; exact products summed in 64 bits), so
//! they give the same result bit for bit; `tests` in the parent module prove it.

use super::QA;
use once_cell::sync::Lazy;

/// Whether this processor runs the AVX2 forms (checked once).
pub static HAS_AVX2: Lazy<bool> = Lazy::new(detect_avx2);

#[cfg(target_arch = "x86_64")]
fn detect_avx2() -> bool {
    std::arch::is_x86_feature_detected!("avx2")
}

#[cfg(not(target_arch = "x86_64"))]
fn detect_avx2() -> bool {
    false
}

/// `out = parent + sum(adds) - sum(subs)`, lane by lane, wrapping (scalar form).
pub fn update_scalar(out: &mut [i16], parent: &[i16], adds: &[&[i16]], subs: &[&[i16]]) {
    out.copy_from_slice(parent);
    for row in adds {
        for (o, w) in out.iter_mut().zip(row.iter()) {
            *o = o.wrapping_add(*w);
        }
    }
    for row in subs {
        for (o, w) in out.iter_mut().zip(row.iter()) {
            *o = o.wrapping_sub(*w);
        }
    }
}

/// `sum(clamp(acc, 0, QA)^2 * w)` in 64 bits (scalar form).
pub fn screlu_dot_scalar(acc: &[i16], weights: &[i16]) -> i64 {
    acc.iter()
        .zip(weights)
        .map(|(&a, &w)| {
            let v = (a as i64).clamp(0, QA as i64);
            v * v * w as i64
        })
        .sum()
}

/// [`update_scalar`], on AVX2 where the processor has it.
#[inline]
pub fn update(out: &mut [i16], parent: &[i16], adds: &[&[i16]], subs: &[&[i16]]) {
    #[cfg(target_arch = "x86_64")]
    if *HAS_AVX2 {
        // SAFETY: AVX2 was detected; the slices' lengths are checked inside.
        unsafe { avx2::update(out, parent, adds, subs) };
        return;
    }
    update_scalar(out, parent, adds, subs);
}

/// [`screlu_dot_scalar`], on AVX2 where the processor has it.
#[inline]
pub fn screlu_dot(acc: &[i16], weights: &[i16]) -> i64 {
    #[cfg(target_arch = "x86_64")]
    if *HAS_AVX2 {
        // SAFETY: AVX2 was detected; the slices' lengths are checked inside.
        return unsafe { avx2::screlu_dot(acc, weights) };
    }
    screlu_dot_scalar(acc, weights)
}

#[cfg(target_arch = "x86_64")]
pub(super) mod avx2 {
    use super::QA;
    use std::arch::x86_64::*;

    /// Lanes of i16 in one register.
    const LANES: usize = 16;
    /// Registers summed in 32 bits before the sum is widened: each step adds at most
    /// 2 * 255 * (255 * 127) < 2^24 to a lane, so 64 steps stay below 2^31.
    const BLOCK: usize = 64;

    /// See [`super::update_scalar`]; lengths must be multiples of 16.
    #[target_feature(enable = "avx2")]
    pub unsafe fn update(out: &mut [i16], parent: &[i16], adds: &[&[i16]], subs: &[&[i16]]) {
        let n = out.len();
        assert!(n.is_multiple_of(LANES) && parent.len() == n);
        assert!(adds.iter().chain(subs).all(|r| r.len() == n));
        for i in (0..n).step_by(LANES) {
            let mut v = _mm256_loadu_si256(parent.as_ptr().add(i) as *const __m256i);
            for row in adds {
                v = _mm256_add_epi16(v, _mm256_loadu_si256(row.as_ptr().add(i) as *const __m256i));
            }
            for row in subs {
                v = _mm256_sub_epi16(v, _mm256_loadu_si256(row.as_ptr().add(i) as *const __m256i));
            }
            _mm256_storeu_si256(out.as_mut_ptr().add(i) as *mut __m256i, v);
        }
    }

    /// See [`super::screlu_dot_scalar`]; the length must be a multiple of 16 and every weight
    /// within ±127 (the net loader checks both).
    #[target_feature(enable = "avx2")]
    pub unsafe fn screlu_dot(acc: &[i16], weights: &[i16]) -> i64 {
        let n = acc.len();
        assert!(n.is_multiple_of(LANES) && weights.len() == n);
        let zero = _mm256_setzero_si256();
        let qa = _mm256_set1_epi16(QA as i16);
        let mut total = 0i64;
        let mut i = 0;
        while i < n {
            let end = (i + BLOCK * LANES).min(n);
            let mut sum = zero;
            while i < end {
                let a = _mm256_loadu_si256(acc.as_ptr().add(i) as *const __m256i);
                let w = _mm256_loadu_si256(weights.as_ptr().add(i) as *const __m256i);
                let v = _mm256_min_epi16(_mm256_max_epi16(a, zero), qa);
                // v * w fits 16 bits (255 * 127); madd then multiplies by v again in 32 bits
                let vw = _mm256_mullo_epi16(v, w);
                sum = _mm256_add_epi32(sum, _mm256_madd_epi16(v, vw));
                i += LANES;
            }
            let mut lanes = [0i32; 8];
            _mm256_storeu_si256(lanes.as_mut_ptr() as *mut __m256i, sum);
            total += lanes.iter().map(|&l| l as i64).sum::<i64>();
        }
        total
    }
}
