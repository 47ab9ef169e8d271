//! Small parsing and rendering helpers shared by the families.
//!
//! Parsers here are lenient about layout (commas, brackets, extra spaces and blank lines) and
//! strict about content: every token must be consumed, as the shared answer-format policy of
//! [`gauntlet_core::answer`] requires (which also has the `name: value` and token-list helpers).
//! They never panic: they return `Err(reason)` for the verifier to put in
//! [`Score::unparsable`](gauntlet_core::Score::unparsable).

/// Levenshtein distance between two strings (by chars); used for "did you mean" suggestions.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.chars().enumerate() {
        cur[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != *cb);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// Parse a list of integers separated by whitespace, commas or semicolons, optionally wrapped in
/// brackets (`[1, 2, 3]`, `1 2 3`). At most `max` items; values must fit in `i64`.
pub fn parse_int_list(text: &str, max: usize) -> Result<Vec<i64>, String> {
    let cleaned: String =
        text.chars().map(|c| if matches!(c, '[' | ']' | '(' | ')' | ',' | ';') { ' ' } else { c }).collect();
    let mut out = Vec::new();
    for tok in cleaned.split_whitespace() {
        if out.len() == max {
            return Err(format!("more than {max} numbers"));
        }
        out.push(tok.parse::<i64>().map_err(|_| format!("`{}` is not an integer", clip(tok, 20)))?);
    }
    Ok(out)
}

/// Parse a grid of cells with `rows` lines of `cols` tokens each. A line is split on whitespace
/// and commas; when that yields one token of exactly `cols` characters, the token is split into
/// characters (so both `1 2 3 4` and `1234` are accepted). Blank lines and brackets are ignored.
/// Each cell is mapped through `cell`, which returns `None` for an invalid token.
pub fn parse_grid<T>(
    text: &str,
    rows: usize,
    cols: usize,
    cell: impl Fn(&str) -> Option<T>,
) -> Result<Vec<Vec<T>>, String> {
    let mut grid = Vec::with_capacity(rows);
    let mut toks: Vec<&str> = Vec::with_capacity(cols);
    for line in text.lines() {
        toks.clear();
        toks.extend(line.split(|c: char| c.is_whitespace() || matches!(c, '[' | ']' | ',' | '|')));
        toks.retain(|t| !t.is_empty());
        if toks.is_empty() {
            continue;
        }
        if toks.len() == 1 && cols > 1 && toks[0].chars().count() == cols {
            let word = toks[0];
            toks.clear();
            toks.extend(word.char_indices().map(|(i, c)| &word[i..i + c.len_utf8()]));
        }
        if grid.len() == rows {
            return Err(format!("more than {rows} rows"));
        }
        if toks.len() != cols {
            return Err(format!("row {} has {} cells, expected {cols}", grid.len() + 1, toks.len()));
        }
        let mut row = Vec::with_capacity(cols);
        for (c, t) in toks.iter().enumerate() {
            row.push(cell(t).ok_or_else(|| {
                format!("row {} column {}: `{}` is not a valid cell", grid.len() + 1, c + 1, clip(t, 20))
            })?);
        }
        grid.push(row);
    }
    if grid.len() != rows {
        return Err(format!("{} rows, expected {rows}", grid.len()));
    }
    Ok(grid)
}

/// Render a grid as lines of space-separated cells.
pub fn render_grid<T: std::fmt::Display>(grid: &[Vec<T>]) -> String {
    grid.iter()
        .map(|r| r.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(" "))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The first `n` chars of `s`, with `…` when cut (for error messages about user input); the
/// same as [`gauntlet_core::answer::clip`].
pub fn clip(s: &str, n: usize) -> String {
    gauntlet_core::answer::clip(s, n)
}

/// Reads an answer that names two non-negative integers (`islands=2, largest=3`, in any order
/// and any layout [`gauntlet_core::answer::assignments`] accepts; at most 6 digits each):
/// `Ok((first, second))`, or the unparsable score to return.
pub fn two_counts(answer: &str, names: [&str; 2]) -> Result<(usize, usize), gauntlet_core::Score> {
    let num = |v: &str| {
        (!v.is_empty() && v.len() <= 6 && v.bytes().all(|b| b.is_ascii_digit()))
            .then(|| v.parse::<usize>().ok())
            .flatten()
    };
    let got =
        gauntlet_core::answer::assignments(answer, &names, num).map_err(gauntlet_core::Score::unparsable)?;
    match [got[0], got[1]] {
        [Some(a), Some(b)] => Ok((a, b)),
        _ => Err(gauntlet_core::Score::unparsable(format!("give both `{}` and `{}`", names[0], names[1]))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_distance_works() {
        assert_eq!(edit_distance("sudoku", "sudoku"), 0);
        assert_eq!(edit_distance("sudok", "sudoku"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
    }

    #[test]
    fn int_list_is_lenient_in_layout_strict_in_content() {
        assert_eq!(parse_int_list("[1, 2,3]", 10).unwrap(), vec![1, 2, 3]);
        assert!(parse_int_list("1 x", 10).is_err());
        assert!(parse_int_list("1 2 3", 2).is_err());
        assert!(parse_int_list("99999999999999999999999", 2).is_err());
    }

    #[test]
    fn grid_accepts_both_layouts() {
        let digit = |t: &str| t.parse::<u8>().ok();
        assert_eq!(parse_grid("12\n34", 2, 2, digit).unwrap(), vec![vec![1, 2], vec![3, 4]]);
        assert_eq!(parse_grid("1 2\n\n3, 4\n", 2, 2, digit).unwrap(), vec![vec![1, 2], vec![3, 4]]);
        assert!(parse_grid("1 2", 2, 2, digit).is_err());
        assert!(parse_grid("1 2 3\n3 4", 2, 2, digit).is_err());
        assert!(parse_grid("1 2\n3 4\n5 6", 2, 2, digit).is_err());
        assert_eq!(render_grid(&[vec![1, 2], vec![3, 4]]), "1 2\n3 4");
    }
}
