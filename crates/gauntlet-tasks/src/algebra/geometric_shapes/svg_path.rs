//! Exact geometry of SVG paths built from straight lines and arcs of axis-aligned ellipses: the
//! path model of [`geometric_shapes`](super), its rendering as a `d` attribute
//! and the exact classification of the figure it draws.
//!
//! Every coordinate and radius is an integer, and every arc's centre is a lattice point, so the
//! classification uses integer arithmetic only: squared lengths, dot products and cross products
//! (`a × b = a.x·b.y − a.y·b.x`). The figure a path draws is the union of its pieces:
//!
//! - straight pieces on one line are merged into maximal segments (a point in the middle of a
//!   side, a side drawn in several pieces or twice, still gives one side);
//! - arcs of one ellipse are merged by angular coverage (angles compared exactly through cross
//!   products of `(dx·ry, dy·rx)`, the point's direction in the ellipse's unit-circle frame).
//!
//! [`classify`] then names the figure: one segment is a line; segments that form one simple
//! closed outline (every corner on exactly two sides, no two sides meeting elsewhere) are a
//! polygon named by its number of sides, a four-sided one by the first kind that fits (square,
//! rectangle, rhombus, parallelogram, trapezoid, kite, quadrilateral); arcs covering a whole
//! ellipse are a circle (`rx = ry`) or an ellipse; one circular arc closed by the two radii to
//! its centre is a sector. Anything else is an error (the generator never draws it).
//!
//! An arc `A rx,ry 0 large,sweep x,y` follows SVG: of the (at most two) centres that put both end
//! points on the ellipse, the one where the arc in the `sweep` direction (1 = increasing angle)
//! is longer than half the ellipse exactly when `large = 1`; with `c` the centre and `p`, `q` the
//! end points, the arc in the increasing direction is the shorter one iff `(p − c) × (q − c) > 0`.

use serde::{Deserialize, Serialize};
use std::cmp::Ordering;
use std::collections::BTreeMap;

/// A lattice point `(x, y)` in SVG user units (y grows downwards; nothing here depends on it).
pub type Pt = (i64, i64);

/// The largest absolute coordinate or radius a path may use (keeps every product in `i64`).
pub const MAX_COORD: i64 = 10_000;
/// The most commands a path may have.
pub const MAX_CMDS: usize = 400;

/// One command of a path's `d` attribute. `rel` marks the lower-case form, whose end point is an
/// offset from the current point.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Cmd {
    /// `M x,y` / `m dx,dy`: move without drawing and start a new subpath.
    Move {
        /// Lower-case (relative) form.
        rel: bool,
        /// The end point (absolute) or offset (relative).
        to: Pt,
    },
    /// `L x,y` / `l dx,dy`: a straight line to the end point.
    Line {
        /// Lower-case (relative) form.
        rel: bool,
        /// The end point (absolute) or offset (relative).
        to: Pt,
    },
    /// `A rx,ry 0 large,sweep x,y` / `a …`: an arc of an axis-aligned ellipse.
    Arc {
        /// Lower-case (relative) form.
        rel: bool,
        /// Horizontal radius (> 0).
        rx: i64,
        /// Vertical radius (> 0).
        ry: i64,
        /// The large-arc flag: the arc spans more than half the ellipse.
        large: bool,
        /// The sweep flag: the arc runs in the direction of increasing angle.
        sweep: bool,
        /// The end point (absolute) or offset (relative).
        to: Pt,
    },
    /// `Z`: a straight line back to the start of the current subpath.
    Close,
}

/// The names a figure can have, in the order the prompt lists them (the first that fits wins).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Shape {
    /// One straight segment.
    Line,
    /// A closed outline of 3 sides.
    Triangle,
    /// 4 equal sides and 4 right angles.
    Square,
    /// 4 right angles.
    Rectangle,
    /// 4 equal sides.
    Rhombus,
    /// Both pairs of opposite sides parallel.
    Parallelogram,
    /// Exactly one pair of opposite sides parallel.
    Trapezoid,
    /// Convex, two pairs of equal adjacent sides.
    Kite,
    /// Any other four-sided outline.
    Quadrilateral,
    /// 5 sides.
    Pentagon,
    /// 6 sides.
    Hexagon,
    /// 7 sides.
    Heptagon,
    /// 8 sides.
    Octagon,
    /// A whole circle.
    Circle,
    /// A whole ellipse that is not a circle.
    Ellipse,
    /// Two radii of a circle and the arc between their ends.
    Sector,
}

impl Shape {
    /// Every shape, in the prompt's order.
    pub const ALL: [Shape; 16] = [
        Shape::Line,
        Shape::Triangle,
        Shape::Square,
        Shape::Rectangle,
        Shape::Rhombus,
        Shape::Parallelogram,
        Shape::Trapezoid,
        Shape::Kite,
        Shape::Quadrilateral,
        Shape::Pentagon,
        Shape::Hexagon,
        Shape::Heptagon,
        Shape::Octagon,
        Shape::Circle,
        Shape::Ellipse,
        Shape::Sector,
    ];

    /// The lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            Shape::Line => "line",
            Shape::Triangle => "triangle",
            Shape::Square => "square",
            Shape::Rectangle => "rectangle",
            Shape::Rhombus => "rhombus",
            Shape::Parallelogram => "parallelogram",
            Shape::Trapezoid => "trapezoid",
            Shape::Kite => "kite",
            Shape::Quadrilateral => "quadrilateral",
            Shape::Pentagon => "pentagon",
            Shape::Hexagon => "hexagon",
            Shape::Heptagon => "heptagon",
            Shape::Octagon => "octagon",
            Shape::Circle => "circle",
            Shape::Ellipse => "ellipse",
            Shape::Sector => "sector",
        }
    }

    /// The shape a name or accepted synonym (`line segment`, `trapezium`) stands for: the whole
    /// text, case-insensitive, runs of spaces counting as one.
    pub fn parse(text: &str) -> Option<Shape> {
        let words: Vec<&str> = text.split_whitespace().take(3).collect();
        let s = words.join(" ").to_ascii_lowercase();
        match s.as_str() {
            "line segment" => Some(Shape::Line),
            "trapezium" => Some(Shape::Trapezoid),
            _ => Shape::ALL.into_iter().find(|k| k.name() == s),
        }
    }
}

/// The `d` attribute text: `M 10,20 L 30,40 a 5,5 0 1,0 10,0 Z`.
pub fn render(cmds: &[Cmd]) -> String {
    let letter = |rel: bool, c: char| if rel { c.to_ascii_lowercase() } else { c };
    cmds.iter()
        .map(|c| match *c {
            Cmd::Move { rel, to } => format!("{} {},{}", letter(rel, 'M'), to.0, to.1),
            Cmd::Line { rel, to } => format!("{} {},{}", letter(rel, 'L'), to.0, to.1),
            Cmd::Arc { rel, rx, ry, large, sweep, to } => format!(
                "{} {rx},{ry} 0 {},{} {},{}",
                letter(rel, 'A'),
                u8::from(large),
                u8::from(sweep),
                to.0,
                to.1
            ),
            Cmd::Close => "Z".to_string(),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// `a × b`.
pub fn cross(a: Pt, b: Pt) -> i64 {
    a.0 * b.1 - a.1 * b.0
}

/// `a · b`.
pub fn dot(a: Pt, b: Pt) -> i64 {
    a.0 * b.0 + a.1 * b.1
}

/// `a − b`.
pub fn sub(a: Pt, b: Pt) -> Pt {
    (a.0 - b.0, a.1 - b.1)
}

/// The greatest common divisor of `|a|` and `|b|` (0 for `(0, 0)`).
pub fn gcd(a: i64, b: i64) -> i64 {
    let (mut a, mut b) = (a.abs(), b.abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// One arc piece in absolute coordinates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ArcPiece {
    /// Start point.
    pub from: Pt,
    /// End point.
    pub to: Pt,
    /// The ellipse's centre.
    pub centre: Pt,
    /// Horizontal radius.
    pub rx: i64,
    /// Vertical radius.
    pub ry: i64,
    /// Runs in the direction of increasing angle.
    pub sweep: bool,
}

/// Whether `p` lies on the ellipse of centre `c` and radii `rx`, `ry`:
/// `ry²·(px − cx)² + rx²·(py − cy)² = rx²·ry²`.
pub fn on_ellipse(p: Pt, c: Pt, rx: i64, ry: i64) -> bool {
    let (dx, dy) = sub(p, c);
    ry * ry * dx * dx + rx * rx * dy * dy == rx * rx * ry * ry
}

/// Whether the arc from `from` to `to` around `c` in the `sweep` direction spans more than half
/// the ellipse (`None`: exactly half, the end points opposite).
pub fn spans_more_than_half(from: Pt, to: Pt, c: Pt, sweep: bool) -> Option<bool> {
    let cr = cross(sub(from, c), sub(to, c));
    (cr != 0).then_some((cr > 0) != sweep)
}

/// The lattice centre SVG picks for an arc, or an error when it is not a lattice point or the
/// radii are too small to reach both end points.
fn arc_centre(from: Pt, to: Pt, rx: i64, ry: i64, large: bool, sweep: bool) -> Result<Pt, String> {
    let (rxf, ryf) = (rx as f64, ry as f64);
    let (px, py) = (from.0 as f64 / rxf, from.1 as f64 / ryf);
    let (qx, qy) = (to.0 as f64 / rxf, to.1 as f64 / ryf);
    let (dx, dy) = (qx - px, qy - py);
    let len2 = dx * dx + dy * dy;
    if len2 / 4.0 > 1.0 + 1e-9 {
        return Err("an arc's radii are too small to reach its end point".into());
    }
    let h = (1.0 - len2 / 4.0).max(0.0).sqrt();
    let len = len2.sqrt();
    let (mx, my) = ((px + qx) / 2.0, (py + qy) / 2.0);
    for s in [1.0, -1.0] {
        let c =
            (((mx - s * h * dy / len) * rxf).round() as i64, ((my + s * h * dx / len) * ryf).round() as i64);
        if on_ellipse(from, c, rx, ry)
            && on_ellipse(to, c, rx, ry)
            && spans_more_than_half(from, to, c, sweep).is_none_or(|more| more == large)
        {
            return Ok(c);
        }
    }
    Err("an arc's centre is not a lattice point".into())
}

/// A straight piece from one point to another.
pub type Seg = (Pt, Pt);

/// What a path draws, piece by piece, in absolute coordinates.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Drawn {
    /// The straight pieces (zero-length ones dropped).
    pub segs: Vec<Seg>,
    /// The arc pieces (zero-length ones dropped).
    pub arcs: Vec<ArcPiece>,
}

/// The straight pieces and arc pieces a path draws, in absolute coordinates (zero-length pieces
/// dropped), or an error for a malformed path.
pub fn pieces(cmds: &[Cmd]) -> Result<Drawn, String> {
    if cmds.is_empty() || cmds.len() > MAX_CMDS {
        return Err(format!("a path needs 1 to {MAX_CMDS} commands"));
    }
    if !matches!(cmds[0], Cmd::Move { .. }) {
        return Err("a path must start with a move".into());
    }
    let in_range = |p: Pt| p.0.abs() <= MAX_COORD && p.1.abs() <= MAX_COORD;
    let (mut cur, mut start) = ((0, 0), (0, 0));
    let (mut segs, mut arcs) = (Vec::new(), Vec::new());
    for c in cmds {
        let end = |rel: bool, to: Pt| if rel { (cur.0 + to.0, cur.1 + to.1) } else { to };
        let next = match *c {
            Cmd::Move { rel, to } | Cmd::Line { rel, to } | Cmd::Arc { rel, to, .. } => {
                if !in_range(to) {
                    return Err("a coordinate is out of range".into());
                }
                end(rel, to)
            }
            Cmd::Close => start,
        };
        if !in_range(next) {
            return Err("a point is out of range".into());
        }
        match *c {
            Cmd::Move { .. } => start = next,
            Cmd::Line { .. } | Cmd::Close if next != cur => segs.push((cur, next)),
            Cmd::Arc { rx, ry, large, sweep, .. } if next != cur => {
                if !(1..=MAX_COORD).contains(&rx) || !(1..=MAX_COORD).contains(&ry) {
                    return Err("an arc's radius is out of range".into());
                }
                let centre = arc_centre(cur, next, rx, ry, large, sweep)?;
                arcs.push(ArcPiece { from: cur, to: next, centre, rx, ry, sweep });
            }
            _ => {}
        }
        cur = next;
    }
    Ok(Drawn { segs, arcs })
}

/// The union of straight pieces as maximal segments: pieces on one line that overlap or touch
/// are merged. Output order is deterministic (by line, then along it).
pub fn merge_segments(segs: &[(Pt, Pt)]) -> Vec<(Pt, Pt)> {
    // A line: its primitive direction d (first nonzero coordinate positive) and d × p; a point on
    // it is placed by t = d · p.
    type Along = (i64, Pt, i64, Pt);
    let mut lines: BTreeMap<(i64, i64, i64), Vec<Along>> = BTreeMap::new();
    for &(a, b) in segs {
        let (dx, dy) = sub(b, a);
        let g = gcd(dx, dy);
        let mut d = (dx / g, dy / g);
        if d.0 < 0 || (d.0 == 0 && d.1 < 0) {
            d = (-d.0, -d.1);
        }
        let (ta, tb) = (dot(d, a), dot(d, b));
        let iv = if ta <= tb { (ta, a, tb, b) } else { (tb, b, ta, a) };
        lines.entry((d.0, d.1, cross(d, a))).or_default().push(iv);
    }
    let mut out = Vec::new();
    for (_, mut ivs) in lines {
        ivs.sort_unstable();
        let mut cur = ivs[0];
        for &iv in &ivs[1..] {
            if iv.0 <= cur.2 {
                if iv.2 > cur.2 {
                    (cur.2, cur.3) = (iv.2, iv.3);
                }
            } else {
                out.push((cur.1, cur.3));
                cur = iv;
            }
        }
        out.push((cur.1, cur.3));
    }
    out
}

/// Orientation of `c` relative to the line `a → b`: the sign of `(b − a) × (c − a)`.
fn orient(a: Pt, b: Pt, c: Pt) -> i64 {
    cross(sub(b, a), sub(c, a)).signum()
}

/// Whether the closed segments `a–b` and `c–d` share any point.
fn segments_meet(a: Pt, b: Pt, c: Pt, d: Pt) -> bool {
    let on = |p: Pt, q: Pt, r: Pt| {
        orient(p, q, r) == 0
            && r.0 >= p.0.min(q.0)
            && r.0 <= p.0.max(q.0)
            && r.1 >= p.1.min(q.1)
            && r.1 <= p.1.max(q.1)
    };
    let (o1, o2, o3, o4) = (orient(a, b, c), orient(a, b, d), orient(c, d, a), orient(c, d, b));
    (o1 * o2 < 0 && o3 * o4 < 0) || on(a, b, c) || on(a, b, d) || on(c, d, a) || on(c, d, b)
}

/// The corners, in order along the outline, of the simple closed polygon the maximal segments
/// form, or an error when they do not form one.
pub fn polygon(segs: &[(Pt, Pt)]) -> Result<Vec<Pt>, String> {
    let mut at: BTreeMap<Pt, Vec<usize>> = BTreeMap::new();
    for (i, &(a, b)) in segs.iter().enumerate() {
        at.entry(a).or_default().push(i);
        at.entry(b).or_default().push(i);
    }
    if at.values().any(|v| v.len() != 2) {
        return Err("the sides do not form a closed outline".into());
    }
    for i in 0..segs.len() {
        for j in i + 1..segs.len() {
            let ((a, b), (c, d)) = (segs[i], segs[j]);
            let shared = [a, b].iter().filter(|p| **p == c || **p == d).count();
            if shared == 0 && segments_meet(a, b, c, d) {
                return Err("the outline crosses or touches itself".into());
            }
        }
    }
    let (mut corners, mut seg, mut p) = (vec![segs[0].0], 0usize, segs[0].1);
    while p != segs[0].0 {
        corners.push(p);
        seg = at[&p].iter().copied().find(|&s| s != seg).unwrap_or(seg);
        p = if segs[seg].0 == p { segs[seg].1 } else { segs[seg].0 };
        if corners.len() > segs.len() {
            return Err("the sides do not form a closed outline".into());
        }
    }
    if corners.len() != segs.len() {
        return Err("the sides form more than one closed outline".into());
    }
    Ok(corners)
}

/// The kind of a simple quadrilateral with corners `v` in order, the first that fits: square,
/// rectangle (`sᵢ · sᵢ₊₁ = 0` for every pair of sides), rhombus (equal `|sᵢ|²`), parallelogram
/// (`s₀ × s₂ = 0` and `s₁ × s₃ = 0`), trapezoid (one of the two), kite (convex: every
/// `sᵢ × sᵢ₊₁` of one sign; `|s₀| = |s₁|` and `|s₂| = |s₃|`, or `|s₁| = |s₂|` and `|s₃| = |s₀|`),
/// quadrilateral.
pub fn quadrilateral_kind(v: &[Pt; 4]) -> Shape {
    let s: Vec<Pt> = (0..4).map(|i| sub(v[(i + 1) % 4], v[i])).collect();
    let l: Vec<i64> = s.iter().map(|&x| dot(x, x)).collect();
    let equal = l.iter().all(|&x| x == l[0]);
    let right = (0..4).all(|i| dot(s[i], s[(i + 1) % 4]) == 0);
    let (p02, p13) = (cross(s[0], s[2]) == 0, cross(s[1], s[3]) == 0);
    let turns: Vec<i64> = (0..4).map(|i| cross(s[i], s[(i + 1) % 4]).signum()).collect();
    let convex = turns.iter().all(|&t| t == turns[0]);
    match () {
        _ if equal && right => Shape::Square,
        _ if right => Shape::Rectangle,
        _ if equal => Shape::Rhombus,
        _ if p02 && p13 => Shape::Parallelogram,
        _ if p02 || p13 => Shape::Trapezoid,
        _ if convex && ((l[0] == l[1] && l[2] == l[3]) || (l[1] == l[2] && l[3] == l[0])) => Shape::Kite,
        _ => Shape::Quadrilateral,
    }
}

/// The direction of `p` seen from the centre of the ellipse `(c, rx, ry)`, scaled into the
/// ellipse's unit-circle frame (times `rx·ry`, which keeps it integral).
fn direction(p: Pt, c: Pt, rx: i64, ry: i64) -> Pt {
    let (dx, dy) = sub(p, c);
    (dx * ry, dy * rx)
}

/// Exact comparison of the angles of two directions in `[0, 2π)`.
pub fn angle_cmp(a: Pt, b: Pt) -> Ordering {
    let half = |v: Pt| u8::from(!(v.1 > 0 || (v.1 == 0 && v.0 > 0)));
    half(a).cmp(&half(b)).then_with(|| 0.cmp(&cross(a, b)))
}

/// How arcs of one ellipse cover it: `Full`, or the covered runs as `(start, end)` points in the
/// direction of increasing angle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Coverage {
    /// The whole ellipse.
    Full,
    /// Maximal covered arcs, each from its start to its end in the increasing direction.
    Runs(Vec<(Pt, Pt)>),
}

/// The coverage of one ellipse by `arcs` (all on it).
pub fn coverage(arcs: &[ArcPiece]) -> Coverage {
    let (c, rx, ry) = (arcs[0].centre, arcs[0].rx, arcs[0].ry);
    let dir = |p: Pt| direction(p, c, rx, ry);
    let mut pts: Vec<Pt> = arcs.iter().flat_map(|a| [a.from, a.to]).collect();
    pts.sort_by(|&a, &b| angle_cmp(dir(a), dir(b)));
    pts.dedup();
    let n = pts.len();
    let idx = |p: Pt| pts.iter().position(|&q| q == p).unwrap_or(0);
    let mut covered = vec![false; n];
    for a in arcs {
        let (s, e) = if a.sweep { (idx(a.from), idx(a.to)) } else { (idx(a.to), idx(a.from)) };
        let mut i = s;
        while i != e {
            covered[i] = true;
            i = (i + 1) % n;
        }
    }
    if covered.iter().all(|&b| b) {
        return Coverage::Full;
    }
    let first_gap = covered.iter().position(|&b| !b).unwrap_or(0);
    let mut runs = Vec::new();
    let mut run_start: Option<usize> = None;
    for k in 1..=n {
        let i = (first_gap + k) % n;
        match (covered[i], run_start) {
            (true, None) => run_start = Some(i),
            (false, Some(s)) => {
                runs.push((pts[s], pts[i]));
                run_start = None;
            }
            _ => {}
        }
    }
    Coverage::Runs(runs)
}

/// The name of the figure a path draws (see the module documentation), or an error saying why
/// it is none of the shapes.
pub fn classify(cmds: &[Cmd]) -> Result<Shape, String> {
    let Drawn { segs, arcs } = pieces(cmds)?;
    let segs = merge_segments(&segs);
    if arcs.is_empty() {
        return match segs.len() {
            0 => Err("the path draws nothing".into()),
            1 => Ok(Shape::Line),
            _ => {
                let corners = polygon(&segs)?;
                match corners.len() {
                    3 => Ok(Shape::Triangle),
                    4 => Ok(quadrilateral_kind(&[corners[0], corners[1], corners[2], corners[3]])),
                    5 => Ok(Shape::Pentagon),
                    6 => Ok(Shape::Hexagon),
                    7 => Ok(Shape::Heptagon),
                    8 => Ok(Shape::Octagon),
                    k => Err(format!("a polygon of {k} sides is not in the list")),
                }
            }
        };
    }
    let a0 = arcs[0];
    if arcs.iter().any(|a| (a.centre, a.rx, a.ry) != (a0.centre, a0.rx, a0.ry)) {
        return Err("the arcs lie on different ellipses".into());
    }
    match coverage(&arcs) {
        Coverage::Full if segs.is_empty() => Ok(if a0.rx == a0.ry { Shape::Circle } else { Shape::Ellipse }),
        Coverage::Runs(runs) if runs.len() == 1 && a0.rx == a0.ry && segs.len() == 2 => {
            let (s, e) = runs[0];
            let mut want = [(a0.centre.min(s), a0.centre.max(s)), (a0.centre.min(e), a0.centre.max(e))];
            let mut got: Vec<(Pt, Pt)> = segs.iter().map(|&(a, b)| (a.min(b), a.max(b))).collect();
            want.sort_unstable();
            got.sort_unstable();
            if got == want {
                Ok(Shape::Sector)
            } else {
                Err("the straight sides are not the two radii to the arc's ends".into())
            }
        }
        _ => Err("the arcs and lines form none of the listed shapes".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn abs_poly(pts: &[Pt]) -> Vec<Cmd> {
        let mut v = vec![Cmd::Move { rel: false, to: pts[0] }];
        v.extend(pts[1..].iter().map(|&p| Cmd::Line { rel: false, to: p }));
        v.push(Cmd::Close);
        v
    }

    #[test]
    fn quadrilaterals_by_kind() {
        for (pts, want) in [
            (vec![(0, 0), (4, 0), (4, 4), (0, 4)], Shape::Square),
            (vec![(0, 0), (3, 4), (-1, 7), (-4, 3)], Shape::Square),
            (vec![(0, 0), (6, 0), (6, 4), (0, 4)], Shape::Rectangle),
            (vec![(0, 0), (5, 0), (8, 4), (3, 4)], Shape::Rhombus),
            (vec![(0, 0), (6, 0), (8, 3), (2, 3)], Shape::Parallelogram),
            (vec![(0, 0), (8, 0), (6, 3), (2, 3)], Shape::Trapezoid),
            (vec![(0, 0), (3, -2), (9, 0), (3, 2)], Shape::Kite),
            (vec![(0, 0), (7, 1), (6, 5), (1, 3)], Shape::Quadrilateral),
            // A dart (concave kite) is a quadrilateral: kites are convex.
            (vec![(0, 0), (4, -3), (2, 0), (4, 3)], Shape::Quadrilateral),
        ] {
            assert_eq!(classify(&abs_poly(&pts)), Ok(want), "{pts:?}");
        }
    }

    #[test]
    fn collinear_points_and_pieces_do_not_make_corners() {
        // A square with a point in the middle of a side, drawn in shuffled pieces, one twice.
        let cmds = vec![
            Cmd::Move { rel: false, to: (0, 0) },
            Cmd::Line { rel: false, to: (2, 0) },
            Cmd::Move { rel: false, to: (4, 4) },
            Cmd::Line { rel: true, to: (0, -4) },
            Cmd::Line { rel: false, to: (1, 0) },
            Cmd::Move { rel: false, to: (0, 0) },
            Cmd::Line { rel: false, to: (0, 4) },
            Cmd::Line { rel: false, to: (4, 4) },
        ];
        assert_eq!(classify(&cmds), Ok(Shape::Square));
        let line = vec![
            Cmd::Move { rel: false, to: (0, 0) },
            Cmd::Line { rel: false, to: (6, 3) },
            Cmd::Line { rel: false, to: (2, 1) },
            Cmd::Line { rel: false, to: (10, 5) },
        ];
        assert_eq!(classify(&line), Ok(Shape::Line));
        // A "pentagon" whose fifth corner sits on a side is a quadrilateral.
        assert_eq!(classify(&abs_poly(&[(0, 0), (2, 0), (4, 0), (4, 4), (0, 4)])), Ok(Shape::Square));
    }

    #[test]
    fn bad_outlines_are_errors() {
        // Crossed (bow-tie), open polyline, two separate triangles, a spur.
        assert!(classify(&abs_poly(&[(0, 0), (4, 4), (4, 0), (0, 4)])).is_err());
        let open = vec![
            Cmd::Move { rel: false, to: (0, 0) },
            Cmd::Line { rel: false, to: (4, 0) },
            Cmd::Line { rel: false, to: (4, 4) },
        ];
        assert!(classify(&open).is_err());
        let mut two = abs_poly(&[(0, 0), (4, 0), (0, 4)]);
        two.extend(abs_poly(&[(10, 10), (14, 10), (10, 14)]));
        assert!(classify(&two).is_err());
        let mut spur = abs_poly(&[(0, 0), (4, 0), (0, 4)]);
        spur.push(Cmd::Line { rel: false, to: (-3, 0) });
        assert!(classify(&spur).is_err());
        assert!(classify(&[]).is_err());
        assert!(classify(&[Cmd::Line { rel: false, to: (1, 1) }]).is_err());
    }

    #[test]
    fn arcs_circles_ellipses_and_sectors() {
        let arc = |rx, ry, large, sweep, to| Cmd::Arc { rel: false, rx, ry, large, sweep, to };
        let m = |to| Cmd::Move { rel: false, to };
        let l = |to| Cmd::Line { rel: false, to };
        // BBH's circle: two half arcs in the same direction.
        let circle = [m((30, 40)), arc(20, 20, true, false, (70, 40)), arc(20, 20, true, false, (30, 40))];
        assert_eq!(classify(&circle), Ok(Shape::Circle));
        // The same half drawn twice is not a circle.
        let half = [m((30, 40)), arc(20, 20, true, false, (70, 40)), arc(20, 20, true, true, (30, 40))];
        assert!(classify(&half).is_err());
        let ellipse = [
            m((10, 50)),
            arc(40, 25, false, false, (50, 75)),
            arc(40, 25, false, false, (90, 50)),
            arc(40, 25, true, false, (10, 50)),
        ];
        assert_eq!(classify(&ellipse), Ok(Shape::Ellipse));
        // With sweep=1 the short way from the left end to the bottom is the other centre's arc.
        let wrong_way = [m((10, 50)), arc(40, 25, false, true, (50, 75)), arc(40, 25, false, true, (90, 50))];
        assert!(classify(&wrong_way).is_err());
        // Centre (50, 50), radius 5: from (53, 54) to (55, 50) the short way.
        let sector = [m((50, 50)), l((53, 54)), arc(5, 5, false, false, (55, 50)), Cmd::Close];
        assert_eq!(classify(&sector), Ok(Shape::Sector));
        let pacman = [m((50, 50)), l((53, 54)), arc(5, 5, true, true, (55, 50)), Cmd::Close];
        assert_eq!(classify(&pacman), Ok(Shape::Sector));
        // The wrong flags put the centre elsewhere: the radii no longer meet at it.
        let off = [m((50, 50)), l((53, 54)), arc(5, 5, true, false, (55, 50)), Cmd::Close];
        assert!(classify(&off).is_err());
        assert!(pieces(&[m((0, 0)), arc(1, 1, false, false, (5, 0))]).is_err());
        assert!(pieces(&[m((0, 0)), arc(3, 3, false, false, (1, 1))]).is_err(), "centre off the lattice");
        assert_eq!(render(&sector), "M 50,50 L 53,54 A 5,5 0 0,0 55,50 Z");
    }

    #[test]
    fn angles_compare_exactly() {
        let order = [(1, 0), (3, 1), (0, 1), (-1, 1), (-1, 0), (-2, -1), (0, -1), (1, -1)];
        for i in 0..order.len() {
            for j in 0..order.len() {
                assert_eq!(angle_cmp(order[i], order[j]), i.cmp(&j), "{:?} {:?}", order[i], order[j]);
            }
        }
        assert_eq!(Shape::parse("Line  Segment"), Some(Shape::Line));
        assert_eq!(Shape::parse("TRAPEZIUM"), Some(Shape::Trapezoid));
        assert_eq!(Shape::parse("square or rectangle"), None);
        assert_eq!(Shape::parse("a square"), None);
    }
}
