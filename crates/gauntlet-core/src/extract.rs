//! Answer extraction: find the final answer inside a free-form model response.
//!
//! Three conventions are supported, selected by [`Extraction`]:
//!
//! - [`Extraction::AnswerTag`] (default): the content of the **last** complete
//!   `<answer>…</answer>` block (tags matched case-insensitively), trimmed.
//! - [`Extraction::Boxed`]: the content of the last `\boxed{…}`, with nested braces balanced.
//! - [`Extraction::Fenced`]: the body of the last fenced code block (```` ``` ````), without the
//!   info string on the opening fence.
//!
//! Extraction never panics, whatever the input (it is fuzzed in the tests), and returns `None`
//! when no complete block exists; verifiers then score the response as unparsable.

use serde::{Deserialize, Serialize};

/// Where a verifier looks for the final answer in a response.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Extraction {
    /// The last `<answer>…</answer>` block.
    #[default]
    AnswerTag,
    /// The last `\boxed{…}`.
    Boxed,
    /// The last fenced code block.
    Fenced,
}

impl Extraction {
    /// Parse a name: `answer_tag` (or `answer`, `tag`), `boxed`, `fenced` (or `code`).
    pub fn parse(name: &str) -> Option<Self> {
        match name.trim().to_ascii_lowercase().replace('-', "_").as_str() {
            "answer_tag" | "answer" | "tag" => Some(Extraction::AnswerTag),
            "boxed" => Some(Extraction::Boxed),
            "fenced" | "code" => Some(Extraction::Fenced),
            _ => None,
        }
    }
}

/// Extract the final answer from `response` with the given convention.
pub fn extract_answer(response: &str, mode: Extraction) -> Option<&str> {
    match mode {
        Extraction::AnswerTag => last_answer_tag(response),
        Extraction::Boxed => last_boxed(response),
        Extraction::Fenced => last_fenced(response),
    }
}

/// ASCII-case-insensitive `rfind` that only reports char-boundary positions.
fn rfind_ci(hay: &str, needle: &str, end: usize) -> Option<usize> {
    let h = hay.as_bytes();
    let n = needle.as_bytes();
    if n.len() > end {
        return None;
    }
    (0..=end - n.len()).rev().find(|&i| h[i..i + n.len()].eq_ignore_ascii_case(n))
}

fn last_answer_tag(s: &str) -> Option<&str> {
    let close = rfind_ci(s, "</answer>", s.len())?;
    let open = rfind_ci(s, "<answer>", close)?;
    let start = open + "<answer>".len();
    // Both tags are ASCII, so these offsets are char boundaries.
    Some(s[start..close].trim())
}

fn last_boxed(s: &str) -> Option<&str> {
    let mut search_end = s.len();
    while let Some(pos) = s[..search_end].rfind("\\boxed{") {
        let start = pos + "\\boxed{".len();
        let mut depth = 1usize;
        for (i, c) in s[start..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        return Some(s[start..start + i].trim());
                    }
                }
                _ => {}
            }
        }
        // Unbalanced: try an earlier \boxed{.
        search_end = pos;
    }
    None
}

fn last_fenced(s: &str) -> Option<&str> {
    let close = s.rfind("```")?;
    let open = s[..close].rfind("```")?;
    let body = &s[open + 3..close];
    // Drop the info string (```python) when the fence opens a line of its own.
    let body = match body.find('\n') {
        Some(nl) if !body[..nl].trim().contains(' ') => &body[nl + 1..],
        _ => body,
    };
    Some(body.trim())
}

/// The instruction appended to every prompt that uses the default `<answer>` convention.
pub fn answer_instruction(format: &str) -> String {
    format!(
        "Think it through, then give your final answer inside <answer></answer> tags. \
         Answer format: {format}"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn answer_tag_takes_the_last_block() {
        let r = "<answer>1</answer> hmm <ANSWER> 2 </Answer>";
        assert_eq!(extract_answer(r, Extraction::AnswerTag), Some("2"));
        assert_eq!(extract_answer("<answer>open", Extraction::AnswerTag), None);
        assert_eq!(extract_answer("", Extraction::AnswerTag), None);
        assert_eq!(extract_answer("</answer><answer>", Extraction::AnswerTag), None);
        assert_eq!(extract_answer("<answer></answer>", Extraction::AnswerTag), Some(""));
    }

    #[test]
    fn boxed_balances_braces() {
        let r = r"so \boxed{1} then \boxed{\frac{1}{2}}";
        assert_eq!(extract_answer(r, Extraction::Boxed), Some(r"\frac{1}{2}"));
        assert_eq!(extract_answer(r"\boxed{1} \boxed{2", Extraction::Boxed), Some("1"));
        assert_eq!(extract_answer(r"\boxed{", Extraction::Boxed), None);
    }

    #[test]
    fn fenced_drops_info_string() {
        let r = "text\n```python\nprint(1)\n```\n";
        assert_eq!(extract_answer(r, Extraction::Fenced), Some("print(1)"));
        assert_eq!(extract_answer("```a b```", Extraction::Fenced), Some("a b"));
        assert_eq!(extract_answer("```", Extraction::Fenced), None);
    }

    #[test]
    fn names_parse() {
        assert_eq!(Extraction::parse("boxed"), Some(Extraction::Boxed));
        assert_eq!(Extraction::parse("answer-tag"), Some(Extraction::AnswerTag));
        assert_eq!(Extraction::parse("nope"), None);
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, ..ProptestConfig::default() })]
        #[test]
        fn never_panics(s in "\\PC*") {
            for m in [Extraction::AnswerTag, Extraction::Boxed, Extraction::Fenced] {
                let _ = extract_answer(&s, m);
            }
        }

        #[test]
        fn never_panics_on_tag_soup(parts in proptest::collection::vec(
            prop_oneof![Just("<answer>"), Just("</answer>"), Just("\\boxed{"), Just("}"), Just("{"),
                         Just("```"), Just("é"), Just("\n"), Just("x")], 0..20)) {
            let s: String = parts.concat();
            for m in [Extraction::AnswerTag, Extraction::Boxed, Extraction::Fenced] {
                let _ = extract_answer(&s, m);
            }
        }
    }
}
