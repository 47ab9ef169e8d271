//! Helpers shared by the search families: 1-based cell lists and labelled board rendering.

use crate::common::parse_int_list;

/// The four orthogonal steps `(dr, dc)`.
pub const ORTHO: [(isize, isize); 4] = [(-1, 0), (1, 0), (0, -1), (0, 1)];

/// The eight king-move steps `(dr, dc)`.
pub const KING: [(isize, isize); 8] = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)];

/// The neighbour of `(r, c)` by step `(dr, dc)` when it lies inside a `rows × cols` board.
pub fn step(
    r: usize,
    c: usize,
    (dr, dc): (isize, isize),
    rows: usize,
    cols: usize,
) -> Option<(usize, usize)> {
    let nr = r.checked_add_signed(dr)?;
    let nc = c.checked_add_signed(dc)?;
    (nr < rows && nc < cols).then_some((nr, nc))
}

/// Parse a list of 1-based `(row, column)` pairs (`(1,2) (3,4)`, `1 2, 3 4`, `[[1,2],[3,4]]`) into
/// sorted, de-duplicated 0-based flat indices `r * cols + c` of a `rows × cols` board.
/// An empty answer (or the word `none`) is the empty list.
pub fn parse_cells(text: &str, rows: usize, cols: usize) -> Result<Vec<usize>, String> {
    let t = text.trim();
    if t.eq_ignore_ascii_case("none") {
        return Ok(Vec::new());
    }
    let nums = parse_int_list(t, 2 * rows * cols + 2)?;
    if nums.len() % 2 != 0 {
        return Err(format!("{} numbers: expected (row, column) pairs", nums.len()));
    }
    let mut out = Vec::with_capacity(nums.len() / 2);
    for p in nums.chunks(2) {
        let (r, c) = (p[0], p[1]);
        if r < 1 || c < 1 || r > rows as i64 || c > cols as i64 {
            return Err(format!("({r},{c}) is outside the {rows}×{cols} board"));
        }
        out.push((r - 1) as usize * cols + (c - 1) as usize);
    }
    out.sort_unstable();
    out.dedup();
    Ok(out)
}

/// Render flat indices as `(r,c)` pairs, 1-based, space-separated.
pub fn render_cells(cells: &[usize], cols: usize) -> String {
    cells.iter().map(|&i| format!("({},{})", i / cols + 1, i % cols + 1)).collect::<Vec<_>>().join(" ")
}

/// Render a board of single-character cells with 1-based column numbers above and row numbers
/// on the left, so that coordinates can be read off directly.
pub fn render_labelled(rows: &[String]) -> String {
    let cols = rows.first().map_or(0, |r| r.chars().count());
    let w = rows.len().to_string().len();
    let cw = cols.to_string().len();
    let mut s = format!("{:w$} ", "");
    for c in 1..=cols {
        s.push_str(&format!(" {c:>cw$}"));
    }
    for (r, row) in rows.iter().enumerate() {
        s.push_str(&format!("\n{:>w$} ", r + 1));
        for ch in row.chars() {
            s.push_str(&format!(" {ch:>cw$}"));
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_parse_in_many_layouts() {
        assert_eq!(parse_cells("(1,2) (3,4)", 4, 4).unwrap(), vec![1, 11]);
        assert_eq!(parse_cells("[[3,4],[1,2],[1,2]]", 4, 4).unwrap(), vec![1, 11]);
        assert_eq!(parse_cells("none", 4, 4).unwrap(), Vec::<usize>::new());
        assert!(parse_cells("(1,2) (3)", 4, 4).is_err());
        assert!(parse_cells("(0,2)", 4, 4).unwrap_err().contains("outside"));
        assert!(parse_cells("(5,1)", 4, 4).is_err());
        assert_eq!(render_cells(&[1, 11], 4), "(1,2) (3,4)");
    }

    #[test]
    fn labels_line_up() {
        let b = render_labelled(&["ab".to_string(), "cd".to_string()]);
        assert_eq!(b, "   1 2\n1  a b\n2  c d");
        assert_eq!(step(0, 0, (-1, 0), 2, 2), None);
        assert_eq!(step(0, 0, (1, 1), 2, 2), Some((1, 1)));
    }
}
