//! Static tables of the Sudoku geometries (4×4 with 2×2 boxes, 9×9 with 3×3 boxes), built at
//! compile time: units, peers and their bit-set forms, used by
//! [`sudoku_engine`](super::sudoku_engine) and the `sudoku` verifier.

/// Static tables of one Sudoku geometry (side `n = box_h * box_w`, at most 9).
pub struct Geom {
    /// Side of the grid.
    pub n: usize,
    /// Number of cells (`n * n`).
    pub cells: usize,
    /// Height of a box.
    pub box_h: usize,
    /// Width of a box.
    pub box_w: usize,
    /// Number of peers per cell (cells sharing a row, column or box).
    pub npeers: usize,
    /// Peers of each cell (first `npeers` entries are used).
    pub peers: [[u8; 20]; 81],
    /// Rows, then columns, then boxes (first `n` entries of the first `3n` units are used).
    pub units: [[u8; 9]; 27],
    /// Box index of each cell.
    pub box_of: [u8; 81],
    /// The units of each cell as a bit set over unit indices (row, `n` + column, `2n` + box).
    pub unit_mask: [u32; 81],
    /// The peers of each cell as a bit set over cells.
    pub peer_mask: [u128; 81],
    /// The cells of each unit as a bit set over cells.
    pub unit_cells: [u128; 27],
    /// Mask with all `n` digits.
    pub all: u16,
}

const fn build(box_h: usize, box_w: usize) -> Geom {
    let n = box_h * box_w;
    let cells = n * n;
    let mut units = [[0u8; 9]; 27];
    let mut box_of = [0u8; 81];
    let mut i = 0;
    while i < n {
        let mut j = 0;
        while j < n {
            units[i][j] = (i * n + j) as u8;
            units[n + i][j] = (j * n + i) as u8;
            let b = (i / box_h) * (n / box_w) + j / box_w;
            box_of[i * n + j] = b as u8;
            j += 1;
        }
        i += 1;
    }
    let mut fill = [0usize; 9];
    let mut c = 0;
    while c < cells {
        let b = box_of[c] as usize;
        units[2 * n + b][fill[b]] = c as u8;
        fill[b] += 1;
        c += 1;
    }
    let mut unit_mask = [0u32; 81];
    let mut unit_cells = [0u128; 27];
    c = 0;
    while c < cells {
        let (r, k, b) = (c / n, n + c % n, 2 * n + box_of[c] as usize);
        unit_mask[c] = 1 << r | 1 << k | 1 << b;
        unit_cells[r] |= 1 << c;
        unit_cells[k] |= 1 << c;
        unit_cells[b] |= 1 << c;
        c += 1;
    }
    let mut peers = [[0u8; 20]; 81];
    let mut peer_mask = [0u128; 81];
    let mut npeers = 0;
    c = 0;
    while c < cells {
        let mut k = 0;
        let mut d = 0;
        while d < cells {
            if d != c && (d / n == c / n || d % n == c % n || box_of[d] == box_of[c]) {
                peers[c][k] = d as u8;
                peer_mask[c] |= 1 << d;
                k += 1;
            }
            d += 1;
        }
        npeers = k;
        c += 1;
    }
    Geom {
        n,
        cells,
        box_h,
        box_w,
        npeers,
        peers,
        units,
        box_of,
        unit_mask,
        peer_mask,
        unit_cells,
        all: ((1u32 << n) - 1) as u16,
    }
}

/// The 4×4 geometry (2×2 boxes).
pub static G4: Geom = build(2, 2);
/// The 9×9 geometry (3×3 boxes).
pub static G9: Geom = build(3, 3);

/// The geometry for side `n` (4 or 9).
pub fn geom(n: usize) -> Option<&'static Geom> {
    match n {
        4 => Some(&G4),
        9 => Some(&G9),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_consistent() {
        assert_eq!(G9.npeers, 20);
        assert_eq!(G4.npeers, 7);
        assert_eq!(G9.box_of[80], 8);
        assert_eq!(G4.units[8][..4], [0, 1, 4, 5]);
        assert_eq!(G9.peer_mask[0].count_ones(), 20);
        assert_eq!(G9.unit_cells[26].count_ones(), 9);
        assert_eq!(G9.unit_mask[80], 1 << 8 | 1 << 17 | 1 << 26);
        assert!(geom(5).is_none());
    }
}
