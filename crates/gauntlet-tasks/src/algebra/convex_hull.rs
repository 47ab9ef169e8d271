//! Convex hull: name the corners of the smallest convex polygon around a set of points, in order.
//!
//! **Generates** `n` distinct lettered points with integer coordinates. From level 3 on, extra
//! points are placed exactly on hull edges (lattice points between two corners), which are on
//! the boundary but are not corners; sets whose hull has fewer than 3 corners or fewer than 2
//! points strictly inside are redrawn.
//!
//! **Verifies** the answer against an exact monotone-chain hull (integer cross products, so
//! collinear points are never corners): the letters of the corners, each once, in order around
//! the hull, in either direction and from any starting corner. Scoring is 0/1; the reason names
//! a missing corner, a point that is not a corner, or a wrong order.
//!
//! | level | points | coordinates | points on edges |
//! |---|---|---|---|
//! | 1 | 6 | 0–8 | 0 |
//! | 2 | 9 | 0–10 | 0 |
//! | 3 | 12 | −10–10 | 1 |
//! | 4 | 16 | −15–15 | 2 |
//! | 5 | 22 | −20–20 | 3 |
//!
//! **Example**: `A(0,0) B(4,0) C(4,4) D(0,4) E(2,2) F(2,0)`: `A B C D` (or `C B A D`, `B C D A`)
//! is correct; `F` lies on the edge `A–B`, so `A F B C D` is wrong.
//!
//! **Failure modes**: including points that lie on an edge; missing a corner that is only
//! slightly outside the line of its neighbours; listing the corners out of order.

use gauntlet_core::{answer, Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The convex-hull family.
pub struct ConvexHull;

/// One convex-hull problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ConvexHullProblem {
    /// The points; point `i` is named by the `i`-th capital letter.
    pub points: Vec<(i64, i64)>,
}

fn cross(o: (i64, i64), a: (i64, i64), b: (i64, i64)) -> i64 {
    (a.0 - o.0) * (b.1 - o.1) - (a.1 - o.1) * (b.0 - o.0)
}

/// The indices of the hull's corners, counter-clockwise from the lowest-leftmost point; points
/// on an edge are not corners.
pub fn hull(points: &[(i64, i64)]) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..points.len()).collect();
    idx.sort_by_key(|&i| points[i]);
    idx.dedup_by_key(|i| points[*i]);
    if idx.len() < 3 {
        return idx;
    }
    let mut lower: Vec<usize> = Vec::new();
    for &i in &idx {
        while lower.len() >= 2
            && cross(points[lower[lower.len() - 2]], points[lower[lower.len() - 1]], points[i]) <= 0
        {
            lower.pop();
        }
        lower.push(i);
    }
    let mut upper: Vec<usize> = Vec::new();
    for &i in idx.iter().rev() {
        while upper.len() >= 2
            && cross(points[upper[upper.len() - 2]], points[upper[upper.len() - 1]], points[i]) <= 0
        {
            upper.pop();
        }
        upper.push(i);
    }
    lower.pop();
    upper.pop();
    lower.extend(upper);
    lower
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 {
        a.abs()
    } else {
        gcd(b, a % b)
    }
}

fn name(i: usize) -> char {
    char::from(b'A' + (i % 26) as u8)
}

impl ConvexHullProblem {
    fn checked(&self) -> Result<(), String> {
        let n = self.points.len();
        if !(3..=26).contains(&n)
            || self.points.iter().any(|&(x, y)| x.abs() > 1_000_000 || y.abs() > 1_000_000)
        {
            return Err("point count or coordinates out of range".into());
        }
        let mut sorted = self.points.clone();
        sorted.sort_unstable();
        sorted.dedup();
        if sorted.len() != n {
            return Err("repeated point".into());
        }
        Ok(())
    }

    /// The corners, counter-clockwise.
    pub fn corners(&self) -> Result<Vec<usize>, String> {
        self.checked()?;
        let h = hull(&self.points);
        if h.len() < 3 {
            return Err("degenerate hull".into());
        }
        Ok(h)
    }
}

impl Task for ConvexHull {
    type Problem = ConvexHullProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "convex_hull",
            category: Category::Algebra,
            description: "Name the corners of the convex hull of a set of integer points, in order around \
                          the hull.",
            levels: [
                "6 points, coordinates 0–8",
                "9 points, coordinates 0–10",
                "12 points, coordinates −10–10, 1 point on an edge",
                "16 points, coordinates −15–15, 2 points on edges",
                "22 points, coordinates −20–20, 3 points on edges",
            ],
            answer_format:
                "the letters of the corners in order around the hull, separated by spaces (e.g. `B E A D`)",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> ConvexHullProblem {
        let n = d.pick([6usize, 9, 12, 16, 22]);
        let (lo, hi) = d.pick([(0, 8), (0, 10), (-10, 10), (-15, 15), (-20, 20)]);
        let on_edges = d.pick([0usize, 0, 1, 2, 3]);
        'outer: loop {
            let mut pts: Vec<(i64, i64)> = Vec::new();
            while pts.len() < n - on_edges {
                let p = (rng.range(lo, hi), rng.range(lo, hi));
                if !pts.contains(&p) {
                    pts.push(p);
                }
            }
            for _ in 0..on_edges {
                let h = hull(&pts);
                // Hull edges with a lattice point strictly between their ends, not yet taken.
                let mut cands = Vec::new();
                for k in 0..h.len() {
                    let (a, b) = (pts[h[k]], pts[h[(k + 1) % h.len()]]);
                    let g = gcd(b.0 - a.0, b.1 - a.1);
                    for s in 1..g {
                        let q = (a.0 + (b.0 - a.0) / g * s, a.1 + (b.1 - a.1) / g * s);
                        if !pts.contains(&q) {
                            cands.push(q);
                        }
                    }
                }
                let Some(&q) = rng.choose(&cands) else { continue 'outer };
                pts.push(q);
            }
            rng.shuffle(&mut pts);
            let h = hull(&pts);
            let on_boundary = pts
                .iter()
                .enumerate()
                .filter(|&(i, &p)| {
                    !h.contains(&i)
                        && (0..h.len()).any(|k| cross(pts[h[k]], pts[h[(k + 1) % h.len()]], p) == 0)
                })
                .count();
            if h.len() < 3 || n - h.len() - on_boundary < 2 || on_boundary < on_edges {
                continue;
            }
            return ConvexHullProblem { points: pts };
        }
    }

    fn prompt(&self, p: &ConvexHullProblem) -> String {
        let pts: Vec<String> =
            p.points.iter().enumerate().map(|(i, &(x, y))| format!("{}({x}, {y})", name(i))).collect();
        format!(
            "These points lie in the plane:\n\n{}\n\n\
             The convex hull is the smallest convex polygon that contains all of them. List the corners \
             of the hull: the given points where the boundary turns. A point that lies exactly on a \
             straight edge between two corners is not a corner. Give each corner once, in order around \
             the hull (clockwise or counter-clockwise, starting from any corner).\n\n{}",
            pts.join("\n"),
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &ConvexHullProblem) -> String {
        match p.corners() {
            Ok(h) => h.iter().map(|&i| name(i).to_string()).collect::<Vec<_>>().join(" "),
            Err(_) => String::new(),
        }
    }

    fn verify(&self, p: &ConvexHullProblem, answer: &str) -> Score {
        let h = match p.corners() {
            Ok(h) => h,
            Err(e) => return Score::wrong(format!("malformed problem: {e}")),
        };
        let n = p.points.len();
        let letter = |t: &str| {
            let mut cs = t.chars();
            let c = cs.next()?.to_ascii_uppercase();
            (cs.next().is_none() && c.is_ascii_uppercase() && ((c as u8 - b'A') as usize) < n)
                .then(|| (c as u8 - b'A') as usize)
        };
        let got = match answer::tokens(answer, n, letter) {
            Ok(g) if g.is_empty() => return Score::unparsable("no points"),
            Ok(g) => g,
            Err(e) => return Score::unparsable(e),
        };
        let mut seen = vec![false; n];
        for &i in &got {
            if std::mem::replace(&mut seen[i], true) {
                return Score::unparsable(format!("{} is listed twice", name(i)));
            }
        }
        if let Some(&i) = got.iter().find(|i| !h.contains(i)) {
            return Score::wrong(format!("{} is not a corner of the hull", name(i)));
        }
        if let Some(&i) = h.iter().find(|i| !got.contains(i)) {
            return Score::wrong(format!("corner {} is missing", name(i)));
        }
        let start = h.iter().position(|&i| i == got[0]).unwrap_or(0);
        let m = h.len();
        let forward = (0..m).all(|k| got[k] == h[(start + k) % m]);
        let backward = (0..m).all(|k| got[k] == h[(start + m - k) % m]);
        if forward || backward {
            Score::correct()
        } else {
            Score::wrong("the corners are right but not in order around the hull")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example() -> ConvexHullProblem {
        ConvexHullProblem { points: vec![(0, 0), (4, 0), (4, 4), (0, 4), (2, 2), (2, 0)] }
    }

    #[test]
    fn example_from_the_docs() {
        let t = ConvexHull;
        let p = example();
        assert_eq!(t.solve(&p), "A B C D");
        for ok in ["A B C D", "C B A D", "b c d a", "D, C, B, A"] {
            assert!(t.verify(&p, ok).correct, "{ok}");
        }
        assert!(t.verify(&p, "A F B C D").reason.contains("F is not a corner"));
        assert!(t.verify(&p, "A B C").reason.contains("D is missing"));
        assert!(t.verify(&p, "A C B D").reason.contains("order"));
        for bad in ["A B C D A", "A B C G", "A or B C D", "A/B C D", "", "A->B->C->D"] {
            assert!(t.verify(&p, bad).is_format_error(), "{bad}");
        }
    }

    #[test]
    fn oracle_and_rotations_at_every_level() {
        let t = ConvexHull;
        for level in 1..=5 {
            let d = Difficulty::new(level).unwrap();
            for seed in 0..40 {
                let p = t.generate(seed, d);
                let s = t.solve(&p);
                assert!(t.verify(&p, &s).correct, "L{level} seed {seed}");
                let mut v: Vec<&str> = s.split(' ').collect();
                v.rotate_left(1);
                assert!(t.verify(&p, &v.join(" ")).correct);
                v.reverse();
                assert!(t.verify(&p, &v.join(", ")).correct);
                v.swap(0, 1);
                if v.len() > 3 {
                    assert!(!t.verify(&p, &v.join(" ")).correct);
                }
            }
        }
    }

    #[test]
    fn malformed_problems_are_rejected() {
        let t = ConvexHull;
        let p = ConvexHullProblem { points: vec![(0, 0), (1, 1), (2, 2)] };
        assert!(t.verify(&p, "A").reason.starts_with("malformed"));
        let p = ConvexHullProblem { points: vec![(0, 0), (0, 0), (1, 0), (0, 1)] };
        assert!(t.verify(&p, "A").reason.starts_with("malformed"));
    }
}
