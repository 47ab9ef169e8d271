//! Action parsing shared by every environment.

/// The action in a response: the content of the last `<answer>…</answer>` block when the
/// response has one, otherwise the whole response; trimmed, inner whitespace runs collapsed to
/// one space. `None` when nothing is left.
pub fn parse_action(response: &str) -> Option<String> {
    let body = gauntlet_core::extract::extract_answer(response, gauntlet_core::Extraction::AnswerTag)
        .unwrap_or(response);
    let collapsed = body.split_whitespace().collect::<Vec<_>>().join(" ");
    (!collapsed.is_empty()).then_some(collapsed)
}

#[cfg(test)]
mod tests {
    use super::parse_action;

    #[test]
    fn tags_win_over_bare_text() {
        assert_eq!(parse_action("I think <answer> up </answer>").as_deref(), Some("up"));
        assert_eq!(parse_action("  left \n").as_deref(), Some("left"));
        assert_eq!(parse_action("   "), None);
        assert_eq!(parse_action("<answer>a</answer> then <answer>b  c</answer>").as_deref(), Some("b c"));
    }
}
