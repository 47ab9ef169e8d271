//! Geometric shapes: name the figure an SVG `<path>` draws (BIG-Bench Hard's
//! `geometric_shapes`, generated and classified exactly).
//!
//! **Generates** a figure of a class drawn from the level's pool, with integer coordinates in
//! 0–99: a line; a triangle; a square, rectangle, rhombus, parallelogram, trapezoid, kite or
//! other quadrilateral (built from integer vectors, e.g. a rhombus from two lattice vectors of
//! equal length, a kite from two corners mirrored across a diagonal); a pentagon to octagon
//! (corners around a centre, concave from level 4); a circle, an ellipse or a sector (arcs between
//! lattice points of a circle `x² + y² = r²` or the axis points of an ellipse, so every arc's
//! centre is a lattice point). It is then drawn with the level's tricks: a random starting corner
//! and direction, `Z` or a line back to close, every side its own subpath as in BBH, relative
//! `l`/`m`/`a` commands, lattice points in the middle of sides (not corners), sides drawn in
//! shuffled order and in overlapping pieces, arcs split at lattice points. Near misses at level 5:
//! a rectangle one unit from square, a kite one step from a rhombus, an ellipse with radii one
//! apart.
//!
//! **Verifies** the answer as one name of the prompt's list (case-insensitive; the synonyms
//! `line segment` and `trapezium` accepted) against [`classify`] of the path, which reads the
//! figure exactly from the path (integer squared lengths, dot and cross products; see
//! [`svg_path`]): the first name in the list that fits. The list's order makes
//! the name unique (a square is not reported as a rectangle or rhombus). Two names, prose or any
//! other word is unparsable. Scoring is 0/1.
//!
//! | level | pool | drawing |
//! |---|---|---|
//! | 1 | line, triangle, axis-aligned square and rectangle, pentagon–octagon | absolute `M`/`L`, one subpath, closed by `L` to the start |
//! | 2 | + rhombus, parallelogram, trapezoid, kite, quadrilateral; tilted | + reversed direction, `Z` |
//! | 3 | + circle, ellipse, sector | + sides as separate subpaths, some relative commands |
//! | 4 | all; concave polygons | + 1–2 points in the middle of sides, arcs split, more relative |
//! | 5 | all; near misses | + 2–3 middle points, sides in shuffled order, overlapping pieces |
//!
//! **Example**: `M 10,10 L 40,10 L 70,10 L 70,40 L 10,40 Z` draws a 60 × 30 rectangle; `(40,10)`
//! lies in the middle of the top side, so it is not a pentagon: `rectangle`.
//!
//! **Failure modes**: counting a point in the middle of a side as a corner; reading a tilted
//! square as a rhombus or a rectangle one unit off as a square; misreading relative commands;
//! taking the two half arcs of a circle for a sector; answering `rectangle` for a square.

pub mod svg_path;

use self::svg_path::{
    angle_cmp, classify, cross, dot, gcd, render, spans_more_than_half, sub, Cmd, Pt, Shape,
};
use gauntlet_core::{answer, Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;

/// The geometric-shapes family.
pub struct GeometricShapes;

/// One path to name.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct GeometricShapesProblem {
    /// The commands of the path's `d` attribute, in order.
    pub path: Vec<Cmd>,
}

/// One piece of an outline before it is written as commands.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Edge {
    Seg(Pt, Pt),
    /// An arc of the ellipse `(centre, rx, ry)`; `up`: in the direction of increasing angle.
    Arc {
        from: Pt,
        to: Pt,
        centre: Pt,
        rx: i64,
        ry: i64,
        up: bool,
    },
}

impl Edge {
    fn ends(self) -> (Pt, Pt) {
        match self {
            Edge::Seg(a, b) | Edge::Arc { from: a, to: b, .. } => (a, b),
        }
    }

    fn reversed(self) -> Edge {
        match self {
            Edge::Seg(a, b) => Edge::Seg(b, a),
            Edge::Arc { from, to, centre, rx, ry, up } => {
                Edge::Arc { from: to, to: from, centre, rx, ry, up: !up }
            }
        }
    }

    fn shifted(self, o: Pt) -> Edge {
        let t = |p: Pt| (p.0 + o.0, p.1 + o.1);
        match self {
            Edge::Seg(a, b) => Edge::Seg(t(a), t(b)),
            Edge::Arc { from, to, centre, rx, ry, up } => {
                Edge::Arc { from: t(from), to: t(to), centre: t(centre), rx, ry, up }
            }
        }
    }
}

/// How a level draws its outline.
struct Tricks {
    reverse: bool,
    close_z: bool,
    /// Chance of a new subpath before each piece.
    split: f64,
    /// Chance of each command after the first being relative.
    rel: f64,
    /// Points put in the middle of sides.
    middle: usize,
    /// Split one arc at a lattice point.
    arc_split: bool,
    /// Sides in shuffled order, each its own stroke.
    scatter: bool,
    /// One side drawn in overlapping pieces.
    overlap: bool,
    near: bool,
}

fn tricks(rng: &mut Rng, level: u8) -> Tricks {
    let l = level;
    Tricks {
        reverse: l >= 2 && rng.chance(0.5),
        close_z: l >= 2 && rng.chance(0.5),
        split: match l {
            1 | 2 => 0.0,
            3 => [0.0, 1.0][rng.index(2)],
            _ => [0.0, 0.3, 1.0][rng.index(3)],
        },
        rel: match l {
            1 | 2 => 0.0,
            3 => 0.3,
            _ => 0.5,
        },
        middle: match l {
            1..=3 => 0,
            4 => 1 + rng.index(2),
            _ => 2 + rng.index(2),
        },
        arc_split: l >= 4 && rng.chance(0.5),
        scatter: l == 5 && rng.chance(0.5),
        overlap: l == 5 && rng.chance(0.4),
        near: l == 5 && rng.chance(0.5),
    }
}

/// The classes a level draws from.
fn pool(level: u8) -> &'static [Shape] {
    use Shape::*;
    match level {
        1 => &[Line, Triangle, Square, Rectangle, Pentagon, Hexagon, Heptagon, Octagon],
        2 => &[
            Line,
            Triangle,
            Square,
            Rectangle,
            Rhombus,
            Parallelogram,
            Trapezoid,
            Kite,
            Quadrilateral,
            Pentagon,
            Hexagon,
            Heptagon,
            Octagon,
        ],
        _ => &Shape::ALL,
    }
}

fn add(a: Pt, b: Pt) -> Pt {
    (a.0 + b.0, a.1 + b.1)
}

fn mul(v: Pt, k: i64) -> Pt {
    (v.0 * k, v.1 * k)
}

fn perp(v: Pt) -> Pt {
    (-v.1, v.0)
}

fn rot(v: Pt, k: usize) -> Pt {
    (0..k % 4).fold(v, |v, _| perp(v))
}

/// A primitive direction: axis-aligned, or tilted (`(a, b)` up to 5 × 4, any quarter turn).
fn direction(rng: &mut Rng, tilt: bool) -> Pt {
    if !tilt {
        return rot((1, 0), rng.index(4));
    }
    loop {
        let (a, b) = (rng.range(1, 5), rng.range(0, 4));
        if gcd(a, b) == 1 {
            return rot((a, b), rng.index(4));
        }
    }
}

/// A multiple `s ≥ 1` of `d` whose longer coordinate lies in `lo..=hi` where possible.
fn multiple(rng: &mut Rng, d: Pt, lo: i64, hi: i64) -> i64 {
    let n = d.0.abs().max(d.1.abs()).max(1);
    let (a, b) = ((lo + n - 1) / n, hi / n);
    rng.range(a.max(1), b.max(a.max(1)))
}

/// Lattice vectors of squared length `n2` with both coordinates within 45.
fn same_length(n2: i64) -> Vec<Pt> {
    let r = (n2 as f64).sqrt() as i64 + 1;
    let mut out = Vec::new();
    for x in -r.min(45)..=r.min(45) {
        let y2 = n2 - x * x;
        if y2 < 0 {
            continue;
        }
        let y = (y2 as f64).sqrt().round() as i64;
        if y * y == y2 && y <= 45 {
            out.push((x, y));
            if y != 0 {
                out.push((x, -y));
            }
        }
    }
    out
}

/// The corners of a four-sided figure of kind `shape` (in order around it).
fn quad(rng: &mut Rng, shape: Shape, t: &Tricks, level: u8) -> Option<Vec<Pt>> {
    let d = direction(rng, level >= 2);
    let o = (0, 0);
    let v = match shape {
        Shape::Square => {
            let s = multiple(rng, d, 10, 40);
            vec![o, mul(d, s), add(mul(d, s), mul(perp(d), s)), mul(perp(d), s)]
        }
        Shape::Rectangle => {
            let s = multiple(rng, d, 10, 40);
            let mut k = multiple(rng, d, 10, 40);
            if t.near && s >= 3 {
                k = s + [-1, 1][rng.index(2)];
            }
            vec![o, mul(d, s), add(mul(d, s), mul(perp(d), k)), mul(perp(d), k)]
        }
        Shape::Rhombus => {
            let u = mul(d, multiple(rng, d, 5, 30));
            let mut c: Vec<Pt> =
                same_length(dot(u, u)).into_iter().filter(|&w| cross(u, w) != 0 && dot(u, w) != 0).collect();
            if t.near {
                c.sort_by_key(|&w| dot(u, w).abs());
                c.truncate(2);
            }
            let w = *rng.choose(&c)?;
            vec![o, u, add(u, w), w]
        }
        Shape::Parallelogram => {
            let u = mul(d, multiple(rng, d, 8, 35));
            let w = if t.near {
                let e = rot((1, 0), rng.index(4));
                add(mul(perp(d), multiple(rng, d, 8, 30)), e)
            } else {
                (rng.range(-25, 25), rng.range(-25, 25))
            };
            vec![o, u, add(u, w), w]
        }
        Shape::Trapezoid => {
            let k = multiple(rng, d, 10, 40);
            let m = if t.near && k >= 3 { k - 1 } else { multiple(rng, d, 4, 40) };
            let w = (rng.range(-25, 25), rng.range(-25, 25));
            vec![o, mul(d, k), add(w, mul(d, m)), w]
        }
        Shape::Kite => {
            let c = multiple(rng, d, 12, 45).max(3);
            let s = if t.near && c % 2 == 1 { c / 2 } else { rng.range(1, c - 1) };
            let n = mul(perp(d), multiple(rng, d, 4, 25));
            let p = mul(d, s);
            vec![o, add(p, n), mul(d, c), sub(p, n)]
        }
        _ => {
            if t.near {
                // One corner of a regular kind moved by one unit.
                let kinds = [Shape::Rectangle, Shape::Parallelogram, Shape::Trapezoid, Shape::Kite];
                let kind = kinds[rng.index(4)];
                let mut v = quad(rng, kind, t, level)?;
                let i = rng.index(4);
                v[i] = add(v[i], rot((1, 0), rng.index(4)));
                v
            } else {
                around(rng, 4, if level >= 4 { 0.35 } else { 0.8 })
            }
        }
    };
    Some(v)
}

/// `k` corners at sorted random angles around the origin, at radii between `inner`·R and R.
fn around(rng: &mut Rng, k: usize, inner: f64) -> Vec<Pt> {
    let r = rng.range(18, 42) as f64;
    let tau = std::f64::consts::TAU;
    let mut angles: Vec<f64> = Vec::with_capacity(k);
    while angles.len() < k {
        let a = rng.unit() * tau;
        let gap = |b: &f64| ((a - b).rem_euclid(tau)).min((b - a).rem_euclid(tau));
        if angles.iter().all(|b| gap(b) > tau / (2.5 * k as f64)) {
            angles.push(a);
        }
    }
    angles.sort_by(|a, b| a.total_cmp(b));
    angles
        .iter()
        .map(|&a| {
            let rr = r * (inner + (1.0 - inner) * rng.unit());
            ((rr * a.cos()).round() as i64, (rr * a.sin()).round() as i64)
        })
        .collect()
}

/// Lattice points of the circle `x² + y² = r²`, by increasing angle.
fn circle_points(r: i64) -> Vec<Pt> {
    let mut v = same_length(r * r);
    v.sort_by(|&a, &b| angle_cmp(a, b));
    v
}

/// The closed outline (or, for a line, the single side) of a figure of class `shape`, around
/// the origin.
fn outline(rng: &mut Rng, shape: Shape, level: u8, t: &Tricks) -> Option<Vec<Edge>> {
    let cycle =
        |v: Vec<Pt>| -> Vec<Edge> { (0..v.len()).map(|i| Edge::Seg(v[i], v[(i + 1) % v.len()])).collect() };
    let arcs = |pts: &[Pt], c: Pt, rx: i64, ry: i64, up: bool| -> Vec<Edge> {
        let n = pts.len();
        (0..n).map(|i| Edge::Arc { from: pts[i], to: pts[(i + 1) % n], centre: c, rx, ry, up }).collect()
    };
    Some(match shape {
        Shape::Line => {
            let d = direction(rng, true);
            vec![Edge::Seg((0, 0), mul(d, multiple(rng, d, 10, 60)))]
        }
        Shape::Triangle => {
            let mut p = || (rng.range(0, 60), rng.range(0, 60));
            let (a, b, c) = (p(), p(), p());
            if cross(sub(b, a), sub(c, a)).abs() < 80 {
                return None;
            }
            cycle(vec![a, b, c])
        }
        Shape::Pentagon | Shape::Hexagon | Shape::Heptagon | Shape::Octagon => {
            let k = 5 + Shape::ALL[9..13].iter().position(|&s| s == shape).unwrap_or(0);
            cycle(around(rng, k, if level >= 4 { 0.45 } else { 0.85 }))
        }
        Shape::Circle => {
            let r = [5, 10, 13, 15, 17, 20, 25, 26, 29][rng.index(9)];
            let all = circle_points(r);
            let mut pts: Vec<Pt> = if level == 3 {
                let a = [(r, 0), (0, r)][rng.index(2)];
                vec![a, mul(a, -1)]
            } else {
                let k = 2 + rng.index(3);
                rng.sample_indices(all.len(), k).into_iter().map(|i| all[i]).collect()
            };
            pts.sort_by(|&a, &b| angle_cmp(a, b));
            arcs(&pts, (0, 0), r, r, true)
        }
        Shape::Ellipse => {
            let rx = rng.range(6, 35);
            let ry = if t.near { rx + [-1, 1][rng.index(2)] } else { rng.range(6, 35) };
            if rx == ry {
                return None;
            }
            let axis = [(rx, 0), (0, ry), (-rx, 0), (0, -ry)];
            let pts: Vec<Pt> = if level >= 4 && rng.chance(0.5) {
                axis.to_vec()
            } else {
                let i = rng.index(2);
                vec![axis[i], axis[i + 2]]
            };
            arcs(&pts, (0, 0), rx, ry, true)
        }
        Shape::Sector => {
            let r = [5, 10, 13, 15, 17, 20, 25, 26, 29][rng.index(9)];
            let all = circle_points(r);
            let i = rng.index(all.len());
            let (a, b) = (all[i], all[(i + 1 + rng.index(all.len() - 1)) % all.len()]);
            if cross(a, b) == 0 {
                return None;
            }
            let up = rng.chance(0.5);
            let arc = Edge::Arc { from: a, to: b, centre: (0, 0), rx: r, ry: r, up };
            let mut e = vec![Edge::Seg((0, 0), a), arc, Edge::Seg(b, (0, 0))];
            if t.arc_split {
                e = split_arc(rng, &e, &all);
            }
            e
        }
        _ => cycle(quad(rng, shape, t, level)?),
    })
}

/// Split the first arc of `edges` at a random lattice point of its circle strictly inside it.
fn split_arc(rng: &mut Rng, edges: &[Edge], lattice: &[Pt]) -> Vec<Edge> {
    let mut out = Vec::with_capacity(edges.len() + 1);
    let mut done = false;
    for &e in edges {
        if let (false, Edge::Arc { from, to, centre, rx, ry, up }) = (done, e) {
            let (s, f) =
                if up { (sub(from, centre), sub(to, centre)) } else { (sub(to, centre), sub(from, centre)) };
            // Strictly inside the increasing run from s to f: its angle from s is below f's.
            let half = |v: Pt| u8::from(!(cross(s, v) > 0 || (cross(s, v) == 0 && dot(s, v) > 0)));
            let before =
                |v: Pt, w: Pt| half(v).cmp(&half(w)).then_with(|| 0.cmp(&cross(v, w))) == Ordering::Less;
            let inside: Vec<Pt> =
                lattice.iter().copied().filter(|&q| q != s && q != f && before(q, f)).collect();
            if let Some(&q) = rng.choose(&inside) {
                let q = add(q, centre);
                out.push(Edge::Arc { from, to: q, centre, rx, ry, up });
                out.push(Edge::Arc { from: q, to, centre, rx, ry, up });
                done = true;
                continue;
            }
        }
        out.push(e);
    }
    out
}

/// Put up to `n` lattice points in the middle of straight sides (each becomes two pieces), and
/// with `overlap` draw one side as `A → X → Y → B` with `Y` between `A` and `X`. Returns the
/// new edges and how many points were added.
fn middle_points(rng: &mut Rng, edges: &[Edge], n: usize, overlap: bool) -> (Vec<Edge>, usize) {
    let mut out: Vec<Edge> = edges.to_vec();
    let mut added = 0;
    let mut overlap = overlap;
    for _ in 0..n + usize::from(overlap) {
        let cands = |out: &[Edge], need: i64| -> Vec<usize> {
            (0..out.len())
                .filter(|&i| matches!(out[i], Edge::Seg(a, b) if gcd(b.0 - a.0, b.1 - a.1) >= need))
                .collect()
        };
        if overlap && cands(&out, 3).is_empty() {
            overlap = false;
        }
        let Some(&i) = rng.choose(&cands(&out, if overlap { 3 } else { 2 })) else { break };
        let Edge::Seg(a, b) = out[i] else { break };
        let g = gcd(b.0 - a.0, b.1 - a.1);
        let step = ((b.0 - a.0) / g, (b.1 - a.1) / g);
        let at = |j: i64| add(a, mul(step, j));
        let pieces = if overlap {
            overlap = false;
            let j = rng.range(2, g - 1);
            let k = rng.range(1, j - 1);
            vec![Edge::Seg(a, at(j)), Edge::Seg(at(j), at(k)), Edge::Seg(at(k), b)]
        } else {
            let j = rng.range(1, g - 1);
            vec![Edge::Seg(a, at(j)), Edge::Seg(at(j), b)]
        };
        added += 1;
        out.splice(i..=i, pieces);
    }
    (out, added)
}

/// The path of an outline: each stroke a subpath, pieces as `L` or `A`, `Z` where allowed.
fn write(rng: &mut Rng, strokes: &[Vec<Edge>], close_z: bool, rel: f64) -> Vec<Cmd> {
    let mut cmds = Vec::new();
    let mut cur = (0, 0);
    for (si, stroke) in strokes.iter().enumerate() {
        let start = stroke[0].ends().0;
        // A new subpath at the current point is written absolute, as BBH does (`M x,y`, not `m 0,0`).
        let r = si > 0 && start != cur && rng.chance(rel);
        cmds.push(Cmd::Move { rel: r, to: if r { sub(start, cur) } else { start } });
        cur = start;
        for (k, &e) in stroke.iter().enumerate() {
            let (a, b) = e.ends();
            debug_assert_eq!(a, cur);
            let r = rng.chance(rel);
            let to = if r { sub(b, a) } else { b };
            let last_closes = k + 1 == stroke.len() && b == start && stroke.len() > 1;
            cmds.push(match e {
                Edge::Seg(..) if close_z && last_closes => Cmd::Close,
                Edge::Seg(..) => Cmd::Line { rel: r, to },
                Edge::Arc { centre, rx, ry, up, .. } => {
                    let large = spans_more_than_half(a, b, centre, up).unwrap_or_else(|| rng.chance(0.5));
                    Cmd::Arc { rel: r, rx, ry, large, sweep: up, to }
                }
            });
            cur = b;
        }
    }
    cmds
}

/// The strokes of an outline: in order with breaks, or (scatter) each piece alone, shuffled and
/// turned at random, joined where one ends at the next one's start.
fn strokes(rng: &mut Rng, edges: &[Edge], t: &Tricks) -> Vec<Vec<Edge>> {
    let mut out: Vec<Vec<Edge>> = Vec::new();
    if t.scatter {
        let mut es = edges.to_vec();
        rng.shuffle(&mut es);
        for e in es {
            let e = if rng.chance(0.5) { e.reversed() } else { e };
            match out.last_mut() {
                Some(s) if s.last().map(|l| l.ends().1) == Some(e.ends().0) => s.push(e),
                _ => out.push(vec![e]),
            }
        }
        return out;
    }
    for (i, &e) in edges.iter().enumerate() {
        if i == 0 || rng.chance(t.split) {
            out.push(vec![e]);
        } else if let Some(s) = out.last_mut() {
            s.push(e);
        }
    }
    out
}

/// Shift the outline to a random place inside 0–99, or `None` when it does not fit.
fn place(rng: &mut Rng, edges: &[Edge]) -> Option<Vec<Edge>> {
    let mut lo = (i64::MAX, i64::MAX);
    let mut hi = (i64::MIN, i64::MIN);
    for e in edges {
        let (a, b) = e.ends();
        let mut pts = vec![a, b];
        if let Edge::Arc { centre, rx, ry, .. } = *e {
            pts.extend([sub(centre, (rx, ry)), add(centre, (rx, ry))]);
        }
        for p in pts {
            lo = (lo.0.min(p.0), lo.1.min(p.1));
            hi = (hi.0.max(p.0), hi.1.max(p.1));
        }
    }
    let (w, h) = (hi.0 - lo.0, hi.1 - lo.1);
    if w > 97 || h > 97 {
        return None;
    }
    let o = (rng.range(1, 98 - w) - lo.0, rng.range(1, 98 - h) - lo.1);
    Some(edges.iter().map(|e| e.shifted(o)).collect())
}

/// One drawing of a figure of class `shape` at `level`, or `None` to redraw.
fn draw(rng: &mut Rng, shape: Shape, level: u8) -> Option<Vec<Cmd>> {
    let t = tricks(rng, level);
    let shape_edges = outline(rng, shape, level, &t)?;
    let mut edges = place(rng, &shape_edges)?;
    let closed = shape != Shape::Line;
    if closed {
        let k = rng.index(edges.len());
        edges.rotate_left(k);
    }
    if t.reverse {
        edges = edges.iter().rev().map(|e| e.reversed()).collect();
    }
    let polygonal = !matches!(shape, Shape::Circle | Shape::Ellipse);
    if t.middle > 0 && polygonal {
        let (e, added) = middle_points(rng, &edges, t.middle, t.overlap);
        if added == 0 {
            return None;
        }
        edges = e;
    }
    let pieces = strokes(rng, &edges, &t);
    let cmds = write(rng, &pieces, t.close_z, t.rel);
    (classify(&cmds) == Ok(shape)).then_some(cmds)
}

impl Task for GeometricShapes {
    type Problem = GeometricShapesProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "geometric_shapes",
            category: Category::Algebra,
            description: "Name the figure an SVG path draws (line, polygon kinds, circle, ellipse, sector), \
                          classified exactly.",
            levels: [
                "line, triangle, axis-aligned square/rectangle, pentagon–octagon; absolute M/L, one subpath",
                "+ rhombus, parallelogram, trapezoid, kite, quadrilateral, tilted; reversed direction, Z",
                "+ circle, ellipse, sector (arcs); sides as separate subpaths, relative commands",
                "+ concave polygons; points in the middle of sides, split arcs",
                "near misses; sides in shuffled order, overlapping pieces, 2–3 middle points",
            ],
            answer_format: "one name from the list, e.g. `triangle`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> GeometricShapesProblem {
        let shapes = pool(d.level());
        loop {
            let shape = shapes[rng.index(shapes.len())];
            if let Some(path) = draw(rng, shape, d.level()) {
                return GeometricShapesProblem { path };
            }
        }
    }

    fn prompt(&self, p: &GeometricShapesProblem) -> String {
        format!(
            "This SVG path element draws a figure:\n\n<path d=\"{}\"/>\n\n\
             How to read the path: coordinates are x,y pairs. `M x,y` moves the pen to (x,y) without \
             drawing and starts a new subpath; `L x,y` draws a straight line from the current point to \
             (x,y); `A rx,ry 0 large,sweep x,y` draws an arc of an ellipse with horizontal radius rx and \
             vertical radius ry (its axes are horizontal and vertical: the 0 is the rotation) from the \
             current point to (x,y). At most two such ellipses pass through both points, and the flags \
             pick one arc: large=1 an arc longer than half its ellipse, large=0 a shorter one; sweep=1 an \
             arc running in the direction of increasing angle (measured from the +x direction towards the +y \
             direction), sweep=0 one running the other way (when \
             the two points are opposite ends of the ellipse, the arc is exactly half of it whatever \
             large says). `Z` draws a straight line back \
             to the first point of the current subpath. Lower-case `m`, `l` and `a` do the same but take \
             their end point as an offset from the current point (`l 5,-3` draws to the point 5 further \
             in x and 3 less in y).\n\n\
             The figure is everything the path draws, taken together: how it is split into subpaths, \
             where it starts, which way it runs and whether a piece is drawn twice do not matter. A side \
             is a maximal straight piece of the outline: a point where the outline goes on in the same \
             direction is not a corner, so a side drawn in several pieces is one side. Closed outlines \
             here never cross themselves.\n\n\
             Name the figure with the first of these names that fits it:\n\
             - line (or line segment): a single straight segment;\n\
             - triangle: a closed outline of 3 sides;\n\
             - square: 4 sides of equal length and 4 right angles;\n\
             - rectangle: 4 sides and 4 right angles;\n\
             - rhombus: 4 sides of equal length;\n\
             - parallelogram: 4 sides, both pairs of opposite sides parallel;\n\
             - trapezoid (or trapezium): 4 sides, exactly one pair of opposite sides parallel;\n\
             - kite: 4 sides, convex, with two pairs of equal adjacent sides;\n\
             - quadrilateral: any other closed outline of 4 sides;\n\
             - pentagon, hexagon, heptagon, octagon: a closed outline of 5, 6, 7 or 8 sides (convex or \
             not, regular or not);\n\
             - circle: a whole circle;\n\
             - ellipse: a whole ellipse that is not a circle;\n\
             - sector: two radii of a circle and the arc of that circle between their ends (a slice, \
             smaller or larger than half the circle).\n\n\
             What shape does this path draw? Answer with exactly one name from the list.\n\n{}",
            render(&p.path),
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &GeometricShapesProblem) -> String {
        classify(&p.path).map(|s| s.name().to_string()).unwrap_or_default()
    }

    fn verify(&self, p: &GeometricShapesProblem, answer: &str) -> Score {
        let want = match classify(&p.path) {
            Ok(s) => s,
            Err(e) => return Score::wrong(format!("malformed problem: {e}")),
        };
        let Some(got) = Shape::parse(answer) else {
            return Score::unparsable(format!(
                "`{}` is not one name from the list (line, triangle, square, …, sector)",
                answer::clip(answer, 40)
            ));
        };
        if got == want {
            Score::correct()
        } else {
            Score::wrong(format!("the path draws a {}, not a {}", want.name(), got.name()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn example() -> GeometricShapesProblem {
        let l = |x, y| Cmd::Line { rel: false, to: (x, y) };
        GeometricShapesProblem {
            path: vec![
                Cmd::Move { rel: false, to: (10, 10) },
                l(40, 10),
                l(70, 10),
                l(70, 40),
                l(10, 40),
                Cmd::Close,
            ],
        }
    }

    #[test]
    fn example_from_the_docs() {
        let t = GeometricShapes;
        let p = example();
        assert!(t.prompt(&p).contains("<path d=\"M 10,10 L 40,10 L 70,10 L 70,40 L 10,40 Z\"/>"));
        assert_eq!(t.solve(&p), "rectangle");
        for ok in ["rectangle", "Rectangle", "RECTANGLE"] {
            assert!(t.verify(&p, ok).correct, "{ok}");
        }
        for wrong in ["pentagon", "square", "parallelogram", "quadrilateral", "trapezoid"] {
            let s = t.verify(&p, wrong);
            assert!(!s.correct && !s.is_format_error() && s.reason.contains("rectangle"), "{wrong}: {s:?}");
        }
        for bad in [
            "rectangle or square",
            "rectangle/square",
            "rectangle, square",
            "a rectangle",
            "The answer is rectangle",
            "rectangle (a parallelogram)",
            "rect",
            "",
            "B",
        ] {
            assert!(t.verify(&p, bad).is_format_error(), "{bad}");
        }
    }

    #[test]
    fn synonyms_are_accepted() {
        let t = GeometricShapes;
        let line = GeometricShapesProblem {
            path: vec![Cmd::Move { rel: false, to: (3, 4) }, Cmd::Line { rel: true, to: (30, 10) }],
        };
        for ok in ["line", "line segment", "Line  Segment"] {
            assert!(t.verify(&line, ok).correct, "{ok}");
        }
        let trap = GeometricShapesProblem {
            path: vec![
                Cmd::Move { rel: false, to: (0, 0) },
                Cmd::Line { rel: false, to: (8, 0) },
                Cmd::Line { rel: false, to: (6, 3) },
                Cmd::Line { rel: false, to: (2, 3) },
                Cmd::Close,
            ],
        };
        for ok in ["trapezoid", "trapezium", "Trapezium"] {
            assert!(t.verify(&trap, ok).correct, "{ok}");
        }
    }

    #[test]
    fn oracle_at_every_level_and_the_pool_is_covered() {
        let t = GeometricShapes;
        for d in Difficulty::all() {
            let mut seen: HashMap<&str, usize> = HashMap::new();
            for seed in 0..400 {
                let p = t.generate(seed, d);
                let ans = t.solve(&p);
                assert!(t.verify(&p, &ans).correct, "L{d} seed {seed}: {}", render(&p.path));
                assert!(t.verify(&p, &ans.to_uppercase()).correct);
                let drawn = svg_path::pieces(&p.path).unwrap();
                let mut coords: Vec<i64> =
                    drawn.segs.iter().flat_map(|&(a, b)| [a.0, a.1, b.0, b.1]).collect();
                for a in &drawn.arcs {
                    let (lo, hi) = (sub(a.centre, (a.rx, a.ry)), (a.centre.0 + a.rx, a.centre.1 + a.ry));
                    coords.extend([lo.0, lo.1, hi.0, hi.1]);
                }
                assert!(coords.iter().all(|v| (0..=99).contains(v)), "L{d} seed {seed}");
                *seen.entry(Shape::parse(&ans).unwrap().name()).or_default() += 1;
            }
            assert_eq!(seen.len(), pool(d.level()).len(), "L{d}: {seen:?}");
        }
    }

    #[test]
    fn levels_use_their_tricks() {
        let t = GeometricShapes;
        let count = |level: u8, f: &dyn Fn(&[Cmd]) -> bool| {
            let d = Difficulty::new(level).unwrap();
            (0..200).filter(|&s| f(&t.generate(s, d).path)).count()
        };
        let rel = |c: &[Cmd]| {
            c.iter().any(|c| matches!(c, Cmd::Line { rel: true, .. } | Cmd::Arc { rel: true, .. }))
        };
        let arcs = |c: &[Cmd]| c.iter().any(|c| matches!(c, Cmd::Arc { .. }));
        let moves = |c: &[Cmd]| c.iter().filter(|c| matches!(c, Cmd::Move { .. })).count() > 1;
        assert_eq!(count(1, &rel) + count(1, &arcs) + count(1, &moves), 0);
        assert_eq!(count(2, &rel) + count(2, &arcs) + count(2, &moves), 0);
        assert!(count(3, &rel) > 40 && count(3, &arcs) > 20 && count(3, &moves) > 40);
        // From level 4, most polygons carry points in the middle of a side: more pieces than sides.
        let d4 = Difficulty::new(4).unwrap();
        let extra = (0..200)
            .filter(|&s| {
                let p = t.generate(s, d4);
                let segs = svg_path::pieces(&p.path).unwrap().segs;
                segs.len() > svg_path::merge_segments(&segs).len()
            })
            .count();
        assert!(extra > 100, "{extra}");
    }

    #[test]
    fn near_misses_are_rejected_with_a_reason() {
        let t = GeometricShapes;
        let d = Difficulty::new(5).unwrap();
        let mut checked = 0;
        for seed in 0..200 {
            let p = t.generate(seed, d);
            let want = t.solve(&p);
            for other in Shape::ALL {
                if other.name() != want {
                    let s = t.verify(&p, other.name());
                    assert!(!s.correct && s.reward == 0.0 && !s.is_format_error());
                    checked += 1;
                }
            }
        }
        assert!(checked > 2000);
    }

    #[test]
    fn malformed_problems_are_rejected() {
        let t = GeometricShapes;
        for path in [
            vec![],
            vec![Cmd::Line { rel: false, to: (1, 1) }],
            vec![Cmd::Move { rel: false, to: (0, 0) }, Cmd::Line { rel: false, to: (99_999, 0) }],
            vec![
                Cmd::Move { rel: false, to: (0, 0) },
                Cmd::Arc { rel: false, rx: 0, ry: 3, large: false, sweep: false, to: (3, 3) },
            ],
        ] {
            let p = GeometricShapesProblem { path };
            assert!(t.verify(&p, "line").reason.starts_with("malformed"));
            assert_eq!(t.solve(&p), "");
        }
    }

    #[test]
    fn parser_fuzz_never_panics() {
        let t = GeometricShapes;
        let p = t.generate(3, Difficulty::new(5).unwrap());
        let mut rng = Rng::new(41);
        let alphabet: Vec<char> = "linesgmtqudrackepoh /,é\n".chars().collect();
        for _ in 0..5000 {
            let s: String = (0..rng.index(30)).map(|_| alphabet[rng.index(alphabet.len())]).collect();
            let v = t.verify(&p, &s);
            assert!((0.0..=1.0).contains(&v.reward));
        }
    }
}
