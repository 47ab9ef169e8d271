//! Helpers shared by the cipher families: plaintext normalisation and word-level scoring.

use gauntlet_core::Score;

/// The words of `s`, uppercased, split on whitespace.
pub fn words(s: &str) -> Vec<String> {
    s.split_whitespace().map(|w| w.to_ascii_uppercase()).collect()
}

/// Score `answer` against the unique plaintext `want`: 1.0 when the words are equal (case- and
/// whitespace-insensitive), else 0. A word that is not made of letters only (punctuation, digits,
/// `HELLO/HALLO`) makes the answer unparsable.
///
/// There is no partial credit: word-by-position credit pays a constant (`THE THE THE …`) and an
/// echo of the prompt, since plaintexts are drawn from a small vocabulary the prompt may list.
pub fn score_plaintext(want: &str, answer: &str) -> Score {
    let got = words(answer);
    if got.is_empty() {
        return Score::unparsable("empty answer");
    }
    if let Some(bad) = got.iter().find(|w| !w.bytes().all(|b| b.is_ascii_alphabetic())) {
        return Score::unparsable(format!(
            "`{}` is not a word of capital letters",
            crate::common::clip(bad, 20)
        ));
    }
    let want = words(want);
    if got == want {
        return Score::correct();
    }
    let in_place = want.iter().zip(&got).filter(|(a, b)| a == b).count();
    Score::wrong(format!("{in_place} of {} words correct", want.len()))
}

/// Whether `s` is non-empty and made of uppercase ASCII letters and single spaces only.
pub fn is_upper_text(s: &str) -> bool {
    !s.is_empty() && s.split(' ').all(|w| !w.is_empty() && w.bytes().all(|b| b.is_ascii_uppercase()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scoring_is_lenient_in_layout_only() {
        assert!(score_plaintext("HELLO WORLD", " hello\n World ").correct);
        let s = score_plaintext("HELLO WORLD", "HELLO THERE");
        assert_eq!((s.reward, s.reason.as_str()), (0.0, "1 of 2 words correct"));
        assert_eq!(score_plaintext("THE CAT", "THE THE THE").reward, 0.0);
        for hedge in ["HELLO WORLD/WORD", "HELLO: WORLD", "HELLO WORLD."] {
            assert!(score_plaintext("HELLO WORLD", hedge).is_format_error(), "{hedge}");
        }
        assert!(score_plaintext("HELLO", "").reason.starts_with("unparsable"));
        assert!(
            is_upper_text("AB CD") && !is_upper_text("AB  CD") && !is_upper_text("") && !is_upper_text("Ab")
        );
    }
}
