//! The answer-format policy shared by every single-turn family, and strict parsing helpers.
//!
//! **Policy.** The answer is what [`extract`](crate::extract) finds (by default the content of the
//! last `<answer>…</answer>` block). Before a verifier sees it, [`normalize`] removes exactly
//! these wrappers, which a verifier must therefore never depend on:
//!
//! - whitespace around the answer;
//! - one pair of backticks around the whole answer (`` `x` ``), or one fenced block
//!   (```` ```lang\nx\n``` ````, the info string optional);
//! - one trailing period after the whole answer (`x.`, `` `x`. ``).
//!
//! Nothing else is tolerated. An answer must *commit*: every item it names has exactly one value.
//! A second value for an item (`x or y`, `x/y`, the item repeated with another value), an unknown
//! name, prose or any other token left over makes the answer unparsable. The helpers below
//! tokenise the whole answer and reject whatever they cannot consume, so a family that builds on
//! them gets the policy for free:
//!
//! - [`items`]: split a list on commas, semicolons and newlines;
//! - [`assignments`]: `name: value` / `name=value` lists keyed by known names (no duplicates,
//!   no unknown names, one value each);
//! - [`tokens`]: whitespace- or comma-separated sequences where every token must parse.
//!
//! The task verifier turns an `Err(reason)` of these helpers into
//! [`Score::unparsable`](crate::Score::unparsable).

/// Remove the tolerated wrappers (surrounding whitespace, one pair of backticks or one ``` fence,
/// one trailing period) from an extracted answer. Idempotent on already-bare answers.
pub fn normalize(answer: &str) -> &str {
    let mut s = answer.trim();
    let mut period = false;
    if let Some(rest) = s.strip_suffix('.') {
        // `x`. or ```…```. : the period sits outside the wrapper.
        if rest.trim_end().ends_with('`') {
            s = rest.trim_end();
            period = true;
        }
    }
    if let Some(inner) = unfence(s) {
        s = inner.trim();
    }
    if !period {
        if let Some(rest) = s.strip_suffix('.') {
            s = rest.trim_end();
        }
    }
    s
}

/// The body of `s` when it is one ``` fence or one pair of single backticks around everything.
fn unfence(s: &str) -> Option<&str> {
    if s.len() >= 6 && s.starts_with("```") && s.ends_with("```") {
        let body = &s[3..s.len() - 3];
        if body.contains("```") {
            return None;
        }
        // An info string (```text) is a single word on the opening line, followed by a newline.
        return Some(match body.split_once('\n') {
            Some((info, rest))
                if !info.trim().is_empty()
                    && info.trim().chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
                    && !rest.trim().is_empty() =>
            {
                rest
            }
            _ => body,
        });
    }
    if s.len() >= 2 && s.starts_with('`') && s.ends_with('`') {
        let body = &s[1..s.len() - 1];
        if !body.contains('`') {
            return Some(body);
        }
    }
    None
}

/// Split a list into its items on commas, semicolons and newlines; items are trimmed and empty
/// items (blank lines, a trailing comma) are dropped.
pub fn items(text: &str) -> impl Iterator<Item = &str> {
    text.split([',', ';', '\n']).map(str::trim).filter(|s| !s.is_empty())
}

/// Parse a `name: value, name: value` (or `name=value`) list against the known `names`
/// (compared case-insensitively). Items are separated by commas, semicolons or newlines; each
/// item is exactly one name, one `:` or `=`, and one value that `value` accepts (it receives the
/// trimmed value text and returns `None` to reject it).
///
/// Returns one slot per known name (`None` when the answer does not mention it); an unknown name,
/// a name given twice, a rejected value (`x or y`, `x/y`, extra words) or an item without a
/// separator is an `Err` naming the offending text.
pub fn assignments<T>(
    text: &str,
    names: &[&str],
    value: impl Fn(&str) -> Option<T>,
) -> Result<Vec<Option<T>>, String> {
    let mut out: Vec<Option<T>> = names.iter().map(|_| None).collect();
    let mut any = false;
    for item in items(text) {
        let Some(at) = item.find([':', '=']) else {
            return Err(format!("`{}` is not `name: value`", clip(item, 30)));
        };
        let (key, val) = (item[..at].trim(), item[at + 1..].trim());
        let Some(i) = names.iter().position(|n| n.eq_ignore_ascii_case(key)) else {
            return Err(format!("`{}` is not one of the names in the problem", clip(key, 30)));
        };
        let Some(v) = value(val) else {
            return Err(format!("`{}` is not a single valid value for {}", clip(val, 30), names[i]));
        };
        if out[i].replace(v).is_some() {
            return Err(format!("{} is given more than once", names[i]));
        }
        any = true;
    }
    if !any {
        return Err("no `name: value` items found".into());
    }
    Ok(out)
}

/// Parse a sequence of tokens separated by whitespace or commas (semicolons too), every one of
/// which `token` must accept. At most `max` tokens. An empty answer is an empty sequence.
pub fn tokens<T>(text: &str, max: usize, token: impl Fn(&str) -> Option<T>) -> Result<Vec<T>, String> {
    let mut out = Vec::new();
    for t in text.split(|c: char| c.is_whitespace() || c == ',' || c == ';').filter(|t| !t.is_empty()) {
        if out.len() == max {
            return Err(format!("more than {max} items"));
        }
        match token(t) {
            Some(v) => out.push(v),
            None => return Err(format!("`{}` is not a valid item", clip(t, 30))),
        }
    }
    Ok(out)
}

/// The first `n` chars of `s`, with `…` when cut (for error messages quoting user input).
pub fn clip(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        format!("{}…", s.chars().take(n).collect::<String>())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn normalize_strips_exactly_the_tolerated_wrappers() {
        for (raw, want) in [
            ("x1=T", "x1=T"),
            ("  x1=T \n", "x1=T"),
            ("`x1=T`", "x1=T"),
            ("`x1=T`.", "x1=T"),
            ("x1=T.", "x1=T"),
            ("```\n1 2\n3 4\n```", "1 2\n3 4"),
            ("```text\n1 2\n3 4\n```", "1 2\n3 4"),
            ("```UURR```", "UURR"),
            ("```\nUURR\n```.", "UURR"),
            (" `a` and `b` ", "`a` and `b`"),
            ("x..", "x."),
            ("`", "`"),
            ("", ""),
        ] {
            assert_eq!(normalize(raw), want, "{raw:?}");
        }
    }

    #[test]
    fn assignments_commit_to_one_value_each() {
        let names = ["Nate", "Noah"];
        let role = |v: &str| match v.to_ascii_lowercase().as_str() {
            "knight" => Some(true),
            "knave" => Some(false),
            _ => None,
        };
        assert_eq!(
            assignments("Nate: knight, noah=KNAVE", &names, role).unwrap(),
            vec![Some(true), Some(false)]
        );
        assert_eq!(assignments("Nate: knight\n", &names, role).unwrap(), vec![Some(true), None]);
        for bad in [
            "Nate: knight or knave, Noah: knave",
            "Nate: knight/knave, Noah: knave/knight",
            "Nate: knight, Nate: knave, Noah: knave",
            "Nate: knight, Noah: knave, Zed: knight",
            "The answer is Nate: knight, Noah: knave",
            "Nate: knight, Noah: knave, hope this helps",
            "Nate knight",
            "",
        ] {
            assert!(assignments(bad, &names, role).is_err(), "{bad}");
        }
    }

    #[test]
    fn tokens_reject_leftovers() {
        let digit = |t: &str| t.parse::<u8>().ok();
        assert_eq!(tokens("1 2, 3", 10, digit).unwrap(), vec![1, 2, 3]);
        assert!(tokens("1 or 2", 10, digit).is_err());
        assert!(tokens("1/2", 10, digit).is_err());
        assert!(tokens("1 2 3", 2, digit).is_err());
        assert!(tokens("", 2, digit).unwrap().is_empty());
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, ..ProptestConfig::default() })]
        #[test]
        fn helpers_never_panic(s in "\\PC*") {
            let n = normalize(&s);
            prop_assert_eq!(normalize(n).len() <= n.len(), true);
            let _ = assignments(&s, &["a", "b"], |v| (v == "1").then_some(()));
            let _ = tokens(&s, 5, |t| t.parse::<i32>().ok());
        }
    }
}
