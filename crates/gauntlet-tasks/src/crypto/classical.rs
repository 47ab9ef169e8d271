//! Classical-cipher primitives shared by the cipher families (affine, Atbash, rail fence,
//! columnar transposition, Hill, Playfair, known-plaintext), plaintext drawing, letter-level
//! scoring and the word segmentation used to prove hidden-key decryptions unique.

use crate::crypto::words::VOCAB;
use gauntlet_core::{Rng, Score};

/// `a⁻¹ mod 26`, if `a` is invertible.
pub fn inv26(a: i64) -> Option<i64> {
    let a = a.rem_euclid(26);
    (1..26).find(|x| a * x % 26 == 1)
}

/// The letters of `s` (uppercase ASCII only), other characters dropped.
pub fn letters(s: &str) -> Vec<u8> {
    s.bytes().filter(u8::is_ascii_uppercase).collect()
}

/// Map each uppercase letter of `s` through `f` (0-based letter index in, out); keep the rest.
pub fn map_letters(s: &str, mut f: impl FnMut(i64) -> i64) -> String {
    s.bytes()
        .map(|b| {
            if b.is_ascii_uppercase() {
                (b'A' + f((b - b'A') as i64).rem_euclid(26) as u8) as char
            } else {
                b as char
            }
        })
        .collect()
}

/// Affine encryption `x ↦ a·x + b`.
pub fn affine_encrypt(s: &str, a: i64, b: i64) -> String {
    map_letters(s, |x| a * x + b)
}

/// Affine decryption (`a` must be invertible; else the text is returned unchanged).
pub fn affine_decrypt(s: &str, a: i64, b: i64) -> String {
    match inv26(a) {
        Some(ai) => map_letters(s, |y| ai * (y - b)),
        None => s.to_string(),
    }
}

/// The rail of each position of a zigzag over `rails` rails.
fn zigzag(len: usize, rails: usize) -> Vec<usize> {
    let period = 2 * rails.max(2) - 2;
    (0..len)
        .map(|i| {
            let k = i % period;
            if k < rails {
                k
            } else {
                period - k
            }
        })
        .collect()
}

/// Rail-fence encryption of a letter string.
pub fn rail_encrypt(p: &[u8], rails: usize) -> Vec<u8> {
    let z = zigzag(p.len(), rails);
    (0..rails).flat_map(|r| p.iter().zip(&z).filter(move |(_, &zr)| zr == r).map(|(c, _)| *c)).collect()
}

/// Rail-fence decryption of a letter string.
pub fn rail_decrypt(c: &[u8], rails: usize) -> Vec<u8> {
    let z = zigzag(c.len(), rails);
    let mut order: Vec<usize> = (0..c.len()).collect();
    order.sort_by_key(|&i| (z[i], i));
    let mut out = vec![0u8; c.len()];
    for (k, &i) in order.iter().enumerate() {
        out[i] = c[k];
    }
    out
}

/// The column reading order of a keyword with distinct letters: `order[j]` is the column read
/// `j`-th (alphabetical order of the key letters).
pub fn key_order(key: &[u8]) -> Vec<usize> {
    let mut o: Vec<usize> = (0..key.len()).collect();
    o.sort_by_key(|&i| (key[i], i));
    o
}

/// Columnar transposition of a full rectangle: write rows of `key.len()` letters, read the
/// columns in key order.
pub fn columnar_encrypt(p: &[u8], key: &[u8]) -> Vec<u8> {
    let k = key.len().max(1);
    key_order(key).iter().flat_map(|&col| p.iter().skip(col).step_by(k).copied()).collect()
}

/// Inverse of [`columnar_encrypt`] (the length must be a multiple of the key length).
pub fn columnar_decrypt(c: &[u8], key: &[u8]) -> Vec<u8> {
    let k = key.len().max(1);
    let rows = c.len() / k;
    let mut out = vec![b'X'; rows * k];
    for (j, &col) in key_order(key).iter().enumerate() {
        for r in 0..rows {
            if let Some(&x) = c.get(j * rows + r) {
                out[r * k + col] = x;
            }
        }
    }
    out
}

/// A 2×2 matrix mod 26, row-major `[a, b, c, d]`.
pub type Mat2 = [i64; 4];

/// The inverse of a 2×2 matrix mod 26, if it exists.
pub fn mat_inv(m: Mat2) -> Option<Mat2> {
    let det = inv26(m[0] * m[3] - m[1] * m[2])?;
    Some([m[3] * det, -m[1] * det, -m[2] * det, m[0] * det].map(|x| x.rem_euclid(26)))
}

/// The product of two 2×2 matrices mod 26.
pub fn mat_mul(a: Mat2, b: Mat2) -> Mat2 {
    [
        a[0] * b[0] + a[1] * b[2],
        a[0] * b[1] + a[1] * b[3],
        a[2] * b[0] + a[3] * b[2],
        a[2] * b[1] + a[3] * b[3],
    ]
    .map(|x| x.rem_euclid(26))
}

/// Hill cipher over the letters of `s` (an even number of them): each pair `(x, y)` becomes
/// `M·(x, y)ᵀ`; other characters stay in place.
pub fn hill_apply(s: &str, m: Mat2) -> String {
    let ls = letters(s);
    let mut out_letters = Vec::with_capacity(ls.len());
    for pair in ls.chunks(2) {
        let x = (pair[0] - b'A') as i64;
        let y = pair.get(1).map_or(23, |c| (c - b'A') as i64);
        out_letters.push(b'A' + (m[0] * x + m[1] * y).rem_euclid(26) as u8);
        out_letters.push(b'A' + (m[2] * x + m[3] * y).rem_euclid(26) as u8);
    }
    let mut it = out_letters.into_iter();
    s.bytes()
        .map(|b| if b.is_ascii_uppercase() { it.next().unwrap_or(b'X') as char } else { b as char })
        .collect()
}

/// The Playfair square of a keyword: 25 letters without `J`.
pub fn playfair_square(key: &str) -> Vec<u8> {
    let mut sq = Vec::with_capacity(25);
    for b in key.bytes().chain(b'A'..=b'Z') {
        let b = if b == b'J' { b'I' } else { b };
        if b.is_ascii_uppercase() && !sq.contains(&b) {
            sq.push(b);
        }
    }
    sq
}

/// Playfair on a letter string of digraphs (no `J`, no doubled digraph); `dir` is +1 to encrypt
/// and 4 (i.e. −1 mod 5) to decrypt.
pub fn playfair(text: &[u8], sq: &[u8], dir: usize) -> Vec<u8> {
    let pos = |c: u8| sq.iter().position(|&x| x == c).unwrap_or(0);
    let mut out = Vec::with_capacity(text.len());
    for pair in text.chunks(2) {
        let (a, b) = (pos(pair[0]), pos(*pair.get(1).unwrap_or(&b'X')));
        let (ra, ca, rb, cb) = (a / 5, a % 5, b / 5, b % 5);
        let (x, y) = if ra == rb {
            (ra * 5 + (ca + dir) % 5, rb * 5 + (cb + dir) % 5)
        } else if ca == cb {
            (((ra + dir) % 5) * 5 + ca, ((rb + dir) % 5) * 5 + cb)
        } else {
            (ra * 5 + cb, rb * 5 + ca)
        };
        out.push(sq.get(x).copied().unwrap_or(b'X'));
        out.push(sq.get(y).copied().unwrap_or(b'X'));
    }
    out
}

/// `words` words drawn from the vocabulary, joined by spaces.
pub fn plaintext(rng: &mut Rng, words: usize) -> String {
    (0..words).map(|_| *rng.choose(VOCAB).unwrap_or(&"THE")).collect::<Vec<_>>().join(" ")
}

/// Whether a letter string splits into vocabulary words (dynamic programming).
pub fn segmentable(s: &[u8]) -> bool {
    let mut ok = vec![false; s.len() + 1];
    ok[0] = true;
    for i in 0..s.len() {
        if !ok[i] {
            continue;
        }
        for w in VOCAB {
            let w = w.as_bytes();
            if s[i..].starts_with(w) {
                ok[i + w.len()] = true;
            }
        }
    }
    ok[s.len()]
}

/// Score `answer` against the unique plaintext `want` letter by letter: spaces and line breaks
/// are ignored (so `MEET AT NOON` and `MEETATNOON` are the same answer), case is ignored, and any
/// character that is not a letter makes the answer unparsable. 0/1.
pub fn score_letters(want: &str, answer: &str) -> Score {
    let got: Vec<u8> = answer.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    if got.is_empty() {
        return Score::unparsable("empty answer");
    }
    if let Some(&bad) = got.iter().find(|b| !b.is_ascii_alphabetic()) {
        let c = answer[answer.bytes().position(|b| b == bad).unwrap_or(0)..].chars().next().unwrap_or('?');
        return Score::unparsable(format!("`{c}` is not a letter"));
    }
    let want = letters(want);
    let got: Vec<u8> = got.iter().map(u8::to_ascii_uppercase).collect();
    if got == want {
        return Score::correct();
    }
    let same = got.iter().zip(&want).take_while(|(a, b)| a == b).count();
    Score::wrong(format!("differs from the plaintext at letter {} of {}", same + 1, want.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ciphers_invert() {
        let p = b"WEAREDISCOVEREDFLEEATONCE";
        assert_eq!(rail_encrypt(p, 3), b"WECRLTEERDSOEEFEAOCAIVDEN".to_vec());
        for r in 2..8 {
            assert_eq!(rail_decrypt(&rail_encrypt(p, r), r), p.to_vec());
        }
        let q = &p[..24];
        let c = columnar_encrypt(q, b"ZEBRAS");
        assert_eq!(&c[..8], b"EVLNACDT");
        assert_eq!(columnar_decrypt(&c, b"ZEBRAS"), q.to_vec());
        assert_eq!(affine_decrypt(&affine_encrypt("HELLO WORLD", 5, 8), 5, 8), "HELLO WORLD");
        assert_eq!(affine_encrypt("AFFINE", 5, 8), "IHHWVC");
        let m = [3, 3, 2, 5];
        let mi = mat_inv(m).unwrap();
        assert_eq!(mat_mul(m, mi), [1, 0, 0, 1]);
        assert_eq!(hill_apply("HELP", m), "HIAT");
        assert_eq!(hill_apply(&hill_apply("HE LP", m), mi), "HE LP");
        let sq = playfair_square("PLAYFAIR EXAMPLE");
        assert_eq!(&sq[..10], b"PLAYFIREXM");
        let pt = b"HIDETHEGOLDINTHETREXESTUMP";
        let ct = playfair(pt, &sq, 1);
        assert_eq!(&ct[..], b"BMODZBXDNABEKUDMUIXMMOUVIF");
        assert_eq!(playfair(&ct, &sq, 4), pt.to_vec());
        assert!(segmentable(b"THEQUICKFOX") && !segmentable(b"THEQUIC"));
    }

    #[test]
    fn letter_scoring_ignores_layout_only() {
        assert!(score_letters("MEET AT NOON", "meetat noon").correct);
        assert!(!score_letters("MEET AT NOON", "MEET AT NOOM").correct);
        assert!(score_letters("MEET", "MEET/MEAT").is_format_error());
        assert!(score_letters("MEET", "").is_format_error());
    }
}
