//! Coordinate geometry: exact points and areas from integer points in the plane.
//!
//! **Generates** integer points and one question about them, chosen by level: the centroid or
//! area of a triangle, the intersection of two lines, the foot of a perpendicular, a reflection
//! in a line (once or twice), the circumcentre, the orthocentre, the squared circumradius, the
//! area of a simple polygon (vertices in order around it) and the area of the orthic triangle
//! (the feet of the three altitudes). Every answer is rational, computed exactly from integer
//! coordinates; degenerate draws (collinear triangles, parallel lines, right triangles for the
//! orthic triangle, polygons with repeated directions) are redrawn, as are answers whose
//! denominator exceeds the level's cap.
//!
//! **Verifies** the answer by exact value: a number (integer, fraction or terminating decimal,
//! any equal spelling) or a point `(x, y)` of two such numbers, compared with the exact result.
//! The answer is unique by construction, so every correct answer is an equal value. Scoring is
//! 0/1.
//!
//! | level | coordinates | questions | denominators |
//! |---|---|---|---|
//! | 1 | 0–9 | centroid, triangle area | ≤ 6 |
//! | 2 | −9–9 | line intersection, foot of a perpendicular, quadrilateral area | ≤ 100 |
//! | 3 | −12–12 | circumcentre, reflection, foot, pentagon area | ≤ 300 |
//! | 4 | −15–15 | orthocentre, squared circumradius, reflection, hexagon area | ≤ 600 |
//! | 5 | −20–20 | orthic triangle area, two reflections, orthocentre, octagon area | ≤ 2000 |
//!
//! **Example**: A = (0, 0), B = (4, 0), C = (0, 2): the circumcentre is `(2, 1)`, the centroid
//! `(4/3, 2/3)` (`(1.33, 0.67)` is not exact and scores 0), the area `4` (`8/2` and `4.0` too).
//!
//! **Failure modes**: sign slips in cross products; halving the shoelace sum twice or not at
//! all; rounding to decimals (only exact values pass).

use crate::arithmetic::number::parse_rat;
use crate::common::clip;
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};
use std::ops::{Add, Div, Mul, Sub};

/// The coordinate-geometry family.
pub struct CoordinateGeometry;

/// What is asked about the points.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Query {
    /// Centroid of triangle ABC (points A, B, C).
    Centroid,
    /// Area of triangle ABC.
    TriangleArea,
    /// Intersection of line AB with line CD (points A, B, C, D).
    Intersection,
    /// Foot of the perpendicular from P to line AB (points A, B, P).
    Foot,
    /// Reflection of P in line AB (points A, B, P).
    Reflection,
    /// Circumcentre of triangle ABC.
    Circumcenter,
    /// Orthocentre of triangle ABC.
    Orthocenter,
    /// Square of the circumradius of triangle ABC.
    CircumradiusSquared,
    /// Area of the polygon with the points as vertices, in order.
    PolygonArea,
    /// Area of the triangle whose vertices are the feet of the altitudes of ABC.
    OrthicArea,
    /// P reflected in line AB, then in line CD (points A, B, C, D, P).
    DoubleReflection,
}

impl Query {
    fn arity(self) -> Option<usize> {
        match self {
            Query::Centroid
            | Query::TriangleArea
            | Query::Circumcenter
            | Query::Orthocenter
            | Query::CircumradiusSquared
            | Query::OrthicArea
            | Query::Foot
            | Query::Reflection => Some(3),
            Query::Intersection => Some(4),
            Query::DoubleReflection => Some(5),
            Query::PolygonArea => None,
        }
    }
}

/// One coordinate-geometry problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CoordinateGeometryProblem {
    /// The question.
    pub query: Query,
    /// The points, in the order [`Query`] names them (polygon vertices in order around it).
    pub points: Vec<(i64, i64)>,
}

/// The most a coordinate may be in absolute value (keeps every exact computation in `i128`).
const MAX_COORD: i64 = 1000;

/// An exact fraction over `i128`, reduced, denominator positive. Inputs are bounded by
/// [`MAX_COORD`], so the formulas below stay far from overflow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Q {
    /// Numerator.
    pub n: i128,
    /// Denominator (> 0).
    pub d: i128,
}

fn gcd(mut a: i128, mut b: i128) -> i128 {
    (a, b) = (a.abs(), b.abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl Q {
    /// `n / d` reduced; `d` must not be 0.
    pub fn new(n: i128, d: i128) -> Q {
        let g = gcd(n, d).max(1) * d.signum();
        Q { n: n / g, d: d / g }
    }

    /// The integer `n`.
    pub fn int(n: i64) -> Q {
        Q { n: n as i128, d: 1 }
    }

    fn abs(self) -> Q {
        Q { n: self.n.abs(), d: self.d }
    }

    fn render(self) -> String {
        if self.d == 1 {
            self.n.to_string()
        } else {
            format!("{}/{}", self.n, self.d)
        }
    }
}

impl Add for Q {
    type Output = Q;
    fn add(self, o: Q) -> Q {
        Q::new(self.n * o.d + o.n * self.d, self.d * o.d)
    }
}
impl Sub for Q {
    type Output = Q;
    fn sub(self, o: Q) -> Q {
        Q::new(self.n * o.d - o.n * self.d, self.d * o.d)
    }
}
impl Mul for Q {
    type Output = Q;
    fn mul(self, o: Q) -> Q {
        Q::new(self.n * o.n, self.d * o.d)
    }
}
impl Div for Q {
    type Output = Q;
    fn div(self, o: Q) -> Q {
        Q::new(self.n * o.d, self.d * o.n)
    }
}

type Pt = (Q, Q);

fn pt(p: (i64, i64)) -> Pt {
    (Q::int(p.0), Q::int(p.1))
}
fn sub(a: Pt, b: Pt) -> Pt {
    (a.0 - b.0, a.1 - b.1)
}
fn cross(a: Pt, b: Pt) -> Q {
    a.0 * b.1 - a.1 * b.0
}
fn dot(a: Pt, b: Pt) -> Q {
    a.0 * b.0 + a.1 * b.1
}
fn zero(q: Q) -> bool {
    q.n == 0
}

/// Foot of the perpendicular from `p` to the line through `a` and `b` (`a != b`).
fn foot(a: Pt, b: Pt, p: Pt) -> Pt {
    let d = sub(b, a);
    let t = dot(sub(p, a), d) / dot(d, d);
    (a.0 + t * d.0, a.1 + t * d.1)
}

fn reflect(a: Pt, b: Pt, p: Pt) -> Pt {
    let f = foot(a, b, p);
    (f.0 + f.0 - p.0, f.1 + f.1 - p.1)
}

fn circumcenter(a: Pt, b: Pt, c: Pt) -> Pt {
    let sq = |p: Pt| dot(p, p);
    let two = Q::int(2);
    let den = two * (a.0 * (b.1 - c.1) + b.0 * (c.1 - a.1) + c.0 * (a.1 - b.1));
    let x = (sq(a) * (b.1 - c.1) + sq(b) * (c.1 - a.1) + sq(c) * (a.1 - b.1)) / den;
    let y = (sq(a) * (c.0 - b.0) + sq(b) * (a.0 - c.0) + sq(c) * (b.0 - a.0)) / den;
    (x, y)
}

fn triangle_area(a: Pt, b: Pt, c: Pt) -> Q {
    (cross(sub(b, a), sub(c, a)) / Q::int(2)).abs()
}

/// The exact answer: `Ok((x, Some(y)))` for a point, `Ok((value, None))` for a number, or why
/// the problem is degenerate or malformed.
pub fn exact(p: &CoordinateGeometryProblem) -> Result<(Q, Option<Q>), String> {
    let k = p.points.len();
    match p.query.arity() {
        Some(a) if a != k => return Err(format!("{k} points for a question about {a}")),
        None if !(3..=12).contains(&k) => return Err(format!("a polygon of {k} vertices")),
        _ => {}
    }
    if p.points.iter().any(|&(x, y)| x.abs() > MAX_COORD || y.abs() > MAX_COORD) {
        return Err("coordinate out of range".into());
    }
    let v: Vec<Pt> = p.points.iter().map(|&q| pt(q)).collect();
    let collinear = |a: Pt, b: Pt, c: Pt| zero(cross(sub(b, a), sub(c, a)));
    let same = |a: Pt, b: Pt| a == b;
    let point = |q: Pt| Ok((q.0, Some(q.1)));
    let tri = matches!(
        p.query,
        Query::Centroid
            | Query::TriangleArea
            | Query::Circumcenter
            | Query::Orthocenter
            | Query::CircumradiusSquared
            | Query::OrthicArea
    );
    if tri && collinear(v[0], v[1], v[2]) {
        return Err("collinear triangle".into());
    }
    match p.query {
        Query::Centroid => {
            let three = Q::int(3);
            point(((v[0].0 + v[1].0 + v[2].0) / three, (v[0].1 + v[1].1 + v[2].1) / three))
        }
        Query::TriangleArea => Ok((triangle_area(v[0], v[1], v[2]), None)),
        Query::Intersection => {
            let (d1, d2) = (sub(v[1], v[0]), sub(v[3], v[2]));
            let den = cross(d1, d2);
            if same(v[0], v[1]) || same(v[2], v[3]) || zero(den) {
                return Err("parallel or undefined lines".into());
            }
            let t = cross(sub(v[2], v[0]), d2) / den;
            point((v[0].0 + t * d1.0, v[0].1 + t * d1.1))
        }
        Query::Foot | Query::Reflection => {
            if same(v[0], v[1]) {
                return Err("undefined line".into());
            }
            point(if p.query == Query::Foot { foot(v[0], v[1], v[2]) } else { reflect(v[0], v[1], v[2]) })
        }
        Query::DoubleReflection => {
            if same(v[0], v[1]) || same(v[2], v[3]) {
                return Err("undefined line".into());
            }
            point(reflect(v[2], v[3], reflect(v[0], v[1], v[4])))
        }
        Query::Circumcenter => point(circumcenter(v[0], v[1], v[2])),
        Query::Orthocenter => {
            let o = circumcenter(v[0], v[1], v[2]);
            let two = Q::int(2);
            point((v[0].0 + v[1].0 + v[2].0 - two * o.0, v[0].1 + v[1].1 + v[2].1 - two * o.1))
        }
        Query::CircumradiusSquared => {
            let d = sub(v[0], circumcenter(v[0], v[1], v[2]));
            Ok((dot(d, d), None))
        }
        Query::OrthicArea => {
            let (a, b, c) = (v[0], v[1], v[2]);
            if [(a, b, c), (b, c, a), (c, a, b)].iter().any(|&(x, y, z)| zero(dot(sub(y, x), sub(z, x)))) {
                return Err("right triangle".into());
            }
            Ok((triangle_area(foot(b, c, a), foot(c, a, b), foot(a, b, c)), None))
        }
        Query::PolygonArea => {
            let mut s = Q::int(0);
            for i in 0..k {
                s = s + cross(v[i], v[(i + 1) % k]);
            }
            Ok(((s / Q::int(2)).abs(), None))
        }
    }
}

/// Points `(x, y)` of a star-shaped polygon around the origin: `k` distinct directions sorted
/// by angle (exactly, by half-plane and cross product), so the polygon is simple.
fn star_polygon(rng: &mut Rng, k: usize, r: i64) -> Option<Vec<(i64, i64)>> {
    let mut pts: Vec<(i64, i64)> = Vec::with_capacity(k);
    let mut tries = 0;
    while pts.len() < k {
        tries += 1;
        if tries > 200 {
            return None;
        }
        let q = (rng.range(-r, r), rng.range(-r, r));
        if q == (0, 0) || pts.iter().any(|&p| p.0 * q.1 - p.1 * q.0 == 0 && p.0 * q.0 + p.1 * q.1 > 0) {
            continue;
        }
        pts.push(q);
    }
    let half = |p: (i64, i64)| u8::from(p.1 < 0 || (p.1 == 0 && p.0 < 0));
    pts.sort_by(|&a, &b| half(a).cmp(&half(b)).then_with(|| 0.cmp(&(a.0 * b.1 - a.1 * b.0))));
    // The origin must be strictly inside: no gap of half a turn or more between directions.
    for i in 0..k {
        let (a, b) = (pts[i], pts[(i + 1) % k]);
        if a.0 * b.1 - a.1 * b.0 <= 0 {
            return None;
        }
    }
    // Shift off the origin so the centre is not a giveaway.
    let (dx, dy) = (rng.range(-3, 3), rng.range(-3, 3));
    Some(pts.into_iter().map(|(x, y)| (x + dx, y + dy)).collect())
}

fn name(q: Query, i: usize, k: usize) -> String {
    match (q, i) {
        (Query::PolygonArea, _) => format!("V{}", i + 1),
        (Query::Foot | Query::Reflection, 2) | (Query::DoubleReflection, 4) => "P".into(),
        _ if i < k => char::from(b'A' + i as u8).to_string(),
        _ => "?".into(),
    }
}

impl Task for CoordinateGeometry {
    type Problem = CoordinateGeometryProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "coordinate_geometry",
            category: Category::Algebra,
            description: "Compute an exact point or area from integer points in the plane.",
            levels: [
                "coordinates 0–9: centroid, triangle area",
                "coordinates −9–9: line intersection, foot of a perpendicular, quadrilateral area",
                "coordinates −12–12: circumcentre, reflection, foot, pentagon area",
                "coordinates −15–15: orthocentre, squared circumradius, reflection, hexagon area",
                "coordinates −20–20: orthic triangle area, two reflections, orthocentre, octagon area",
            ],
            answer_format: "exact values (integers, fractions or terminating decimals): a point as its two \
                            coordinates in parentheses, e.g. `(3/2, -4)`, a number on its own, e.g. `-7/2`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> CoordinateGeometryProblem {
        let (lo, hi) = d.pick([(0, 9), (-9, 9), (-12, 12), (-15, 15), (-20, 20)]);
        let cap = d.pick([6, 100, 300, 600, 2000]);
        let queries: &[Query] = match d.level() {
            1 => &[Query::Centroid, Query::TriangleArea],
            2 => &[Query::Intersection, Query::Foot, Query::PolygonArea],
            3 => &[Query::Circumcenter, Query::Reflection, Query::Foot, Query::PolygonArea],
            4 => &[Query::Orthocenter, Query::CircumradiusSquared, Query::Reflection, Query::PolygonArea],
            _ => &[Query::OrthicArea, Query::DoubleReflection, Query::Orthocenter, Query::PolygonArea],
        };
        let query = *rng.choose(queries).expect("non-empty");
        loop {
            let points = match query.arity() {
                Some(k) => {
                    let mut pts: Vec<(i64, i64)> = Vec::with_capacity(k);
                    while pts.len() < k {
                        let q = (rng.range(lo, hi), rng.range(lo, hi));
                        if !pts.contains(&q) {
                            pts.push(q);
                        }
                    }
                    pts
                }
                None => {
                    let k = d.pick([4, 4, 5, 6, 8]);
                    match star_polygon(rng, k, hi - 3) {
                        Some(p) => p,
                        None => continue,
                    }
                }
            };
            let p = CoordinateGeometryProblem { query, points };
            let Ok((x, y)) = exact(&p) else { continue };
            if x.d > cap || y.is_some_and(|y| y.d > cap) {
                continue;
            }
            // A foot or reflection that is P itself (P on the line) is too easy.
            if matches!(query, Query::Foot | Query::Reflection)
                && (x, y) == (Q::int(p.points[2].0), Some(Q::int(p.points[2].1)))
            {
                continue;
            }
            return p;
        }
    }

    fn prompt(&self, p: &CoordinateGeometryProblem) -> String {
        let k = p.points.len();
        let pts = p
            .points
            .iter()
            .enumerate()
            .map(|(i, &(x, y))| format!("{} = ({x}, {y})", name(p.query, i, k)))
            .collect::<Vec<_>>()
            .join(", ");
        let question = match p.query {
            Query::Centroid => {
                "What is the centroid of triangle ABC (the average of its three vertices)? Give a point."
            }
            Query::TriangleArea => "What is the area of triangle ABC? Give a number.",
            Query::Intersection => {
                "Where does the line through A and B meet the line through C and D (both lines extend \
                 without end)? Give a point."
            }
            Query::Foot => {
                "What is the foot of the perpendicular from P to the line through A and B (the point of \
                 that line closest to P)? Give a point."
            }
            Query::Reflection => "What is the mirror image of P in the line through A and B? Give a point.",
            Query::DoubleReflection => {
                "Reflect P in the line through A and B, then reflect that image in the line through C \
                 and D. Where does P end up? Give a point."
            }
            Query::Circumcenter => {
                "What is the circumcentre of triangle ABC (the point at equal distance from A, B and C)? \
                 Give a point."
            }
            Query::Orthocenter => {
                "What is the orthocentre of triangle ABC (where the three altitudes, extended as lines, \
                 meet)? Give a point."
            }
            Query::CircumradiusSquared => {
                "What is the square of the radius of the circle through A, B and C? Give a number."
            }
            Query::OrthicArea => {
                "Drop the altitude from each vertex of triangle ABC onto the line through the other two; \
                 the three feet of the altitudes form a triangle. What is its area? Give a number."
            }
            Query::PolygonArea => {
                "These are the vertices of a simple polygon (its sides do not cross), in order around \
                 it; the last vertex joins the first. What is its area? Give a number."
            }
        };
        format!(
            "Points in the plane: {pts}.\n\n{question} The answer must be exact: integers, fractions \
             (`p/q`) or terminating decimals, no roots or rounding.\n\n{}",
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &CoordinateGeometryProblem) -> String {
        match exact(p) {
            Ok((x, Some(y))) => format!("({}, {})", x.render(), y.render()),
            Ok((v, None)) => v.render(),
            Err(_) => String::new(),
        }
    }

    fn verify(&self, p: &CoordinateGeometryProblem, answer: &str) -> Score {
        let (x, y) = match exact(p) {
            Ok(v) => v,
            Err(e) => return Score::wrong(format!("malformed problem: {e}")),
        };
        let num = |t: &str| parse_rat(t).map(|r| Q::new(r.num() as i128, r.den() as i128));
        let got = match y {
            Some(_) => {
                let inner = answer.strip_prefix('(').and_then(|s| s.strip_suffix(')'));
                let Some((a, b)) = inner.and_then(|s| s.split_once(',')) else {
                    return Score::unparsable(format!("`{}` is not a point `(x, y)`", clip(answer, 30)));
                };
                match (num(a), num(b)) {
                    (Ok(a), Ok(b)) => (a, Some(b)),
                    (Err(e), _) | (_, Err(e)) => return Score::unparsable(e),
                }
            }
            None => match num(answer) {
                Ok(v) => (v, None),
                Err(e) => return Score::unparsable(e),
            },
        };
        if got == (x, y) {
            Score::correct()
        } else {
            Score::wrong(format!("`{}` is not the exact value", clip(answer, 40)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tri(query: Query) -> CoordinateGeometryProblem {
        CoordinateGeometryProblem { query, points: vec![(0, 0), (4, 0), (0, 2)] }
    }

    #[test]
    fn example_from_the_docs() {
        let t = CoordinateGeometry;
        assert_eq!(t.solve(&tri(Query::Circumcenter)), "(2, 1)");
        assert_eq!(t.solve(&tri(Query::Centroid)), "(4/3, 2/3)");
        assert_eq!(t.solve(&tri(Query::TriangleArea)), "4");
        assert_eq!(t.solve(&tri(Query::Orthocenter)), "(0, 0)");
        assert_eq!(t.solve(&tri(Query::CircumradiusSquared)), "5");
        for ok in ["(2, 1)", "(4/2, 1.0)", "(+2,1)", "( 2 , 1 )"] {
            assert!(t.verify(&tri(Query::Circumcenter), ok).correct, "{ok}");
        }
        for ok in ["4", "8/2", "4.00"] {
            assert!(t.verify(&tri(Query::TriangleArea), ok).correct, "{ok}");
        }
        assert!(!t.verify(&tri(Query::Centroid), "(1.33, 0.67)").correct);
        let s = t.verify(&tri(Query::Centroid), "(4/3, 1/3)");
        assert!(!s.correct && !s.is_format_error());
        for bad in ["2, 1", "(2, 1, 0)", "(2 or 3, 1)", "x = 2, y = 1", "(2, 1) approximately", ""] {
            assert!(t.verify(&tri(Query::Circumcenter), bad).is_format_error(), "{bad}");
        }
        assert!(t.verify(&tri(Query::TriangleArea), "(4, 0)").is_format_error());
        assert!(t.verify(&tri(Query::TriangleArea), "about 4").is_format_error());
    }

    #[test]
    fn formulas_against_hand_values() {
        let p = |query, points: Vec<(i64, i64)>| CoordinateGeometryProblem { query, points };
        let t = CoordinateGeometry;
        assert_eq!(t.solve(&p(Query::Intersection, vec![(0, 0), (2, 2), (0, 2), (2, 0)])), "(1, 1)");
        assert_eq!(t.solve(&p(Query::Foot, vec![(0, 0), (4, 0), (1, 3)])), "(1, 0)");
        assert_eq!(t.solve(&p(Query::Reflection, vec![(0, 0), (1, 1), (3, 0)])), "(0, 3)");
        // Reflections in two lines through the origin at 45° make a quarter turn.
        assert_eq!(
            t.solve(&p(Query::DoubleReflection, vec![(0, 0), (1, 0), (0, 0), (1, 1), (2, 1)])),
            "(-1, 2)"
        );
        assert_eq!(t.solve(&p(Query::PolygonArea, vec![(0, 0), (4, 0), (4, 3), (0, 3)])), "12");
        assert_eq!(t.solve(&p(Query::PolygonArea, vec![(0, 3), (4, 3), (4, 0), (0, 0)])), "12");
        // Feet of the altitudes of (0,0), (4,0), (1,3): (2, 2), (2/5, 6/5) and (1, 0).
        let o = p(Query::OrthicArea, vec![(0, 0), (4, 0), (1, 3)]);
        assert_eq!(t.solve(&o), "6/5");
        assert!(exact(&p(Query::Intersection, vec![(0, 0), (1, 1), (0, 1), (1, 2)])).is_err());
        assert!(exact(&p(Query::OrthicArea, vec![(0, 0), (4, 0), (0, 3)])).is_err());
        assert!(exact(&p(Query::Centroid, vec![(0, 0), (1, 1), (2, 2)])).is_err());
        assert!(exact(&p(Query::Centroid, vec![(0, 0), (1, 1)])).is_err());
        assert!(exact(&p(Query::Centroid, vec![(0, 0), (1, 1), (5000, 2)])).is_err());
    }

    #[test]
    fn oracle_at_every_level_and_equal_spellings() {
        let t = CoordinateGeometry;
        for level in 1..=5 {
            let d = Difficulty::new(level).unwrap();
            for seed in 0..60 {
                let p = t.generate(seed, d);
                let a = t.solve(&p);
                assert!(t.verify(&p, &a).correct, "L{level} seed {seed}: {a}");
                // The same value with every number doubled over its denominator is still correct.
                let (x, y) = exact(&p).unwrap();
                let spell = |q: Q| format!("{}/{}", 2 * q.n, 2 * q.d);
                let alt = match y {
                    Some(y) => format!("({}, {})", spell(x), spell(y)),
                    None => spell(x),
                };
                assert!(t.verify(&p, &alt).correct, "L{level} seed {seed}: {alt}");
                let off = match y {
                    Some(y) => format!("({}, {})", (x + Q::int(1)).render(), y.render()),
                    None => (x + Q::int(1)).render(),
                };
                assert!(!t.verify(&p, &off).correct);
            }
        }
    }
}
