//! Triangle geometry from side and angle givens: lengths, areas, radii, medians, bisectors and
//! cosines with exact rational answers.
//!
//! **Generates** a triangle ABC (sides `a = BC`, `b = CA`, `c = AB`) given either by its three
//! sides (a Heronian triangle: integer sides, rational area, found by enumerating every triangle
//! with sides up to the level's bound), by two legs of a right angle at C (a scaled Pythagorean
//! triple), or by two sides around a 60° or 120° angle at C (an Eisenstein triple, so the third
//! side is an integer). The question asks one quantity that is rational for that triangle: the
//! third side, the perimeter, the area (its square when the area is irrational), the inradius,
//! the circumradius (or their squares), an altitude, the square of a median or of an angle
//! bisector, the cosine of an angle, or the squared distance between the incentre and the
//! circumcentre. This is the metric side of triangle geometry; `coordinate_geometry` covers
//! triangles given by coordinates.
//!
//! **Verifies** by exact value: the answer (an integer, a fraction reduced or not, or a
//! terminating decimal; `parse_rat`) must equal the quantity computed with exact rationals from
//! the three sides: `16·Area² = (a+b+c)(−a+b+c)(a−b+c)(a+b−c)`, `r = Area/s`,
//! `R = abc/(4·Area)`, `h_a = 2·Area/a`, `m_a² = (2b² + 2c² − a²)/4`,
//! `cos A = (b² + c² − a²)/(2bc)`, `t_a² = bc·((b + c)² − a²)/(b + c)²`, and Euler's
//! `OI² = R² − 2Rr` with `Rr = abc/(4s)`. Rounded decimals are wrong. No partial credit.
//!
//! | level | givens | asked |
//! |---|---|---|
//! | 1 | right angle, legs up to 40 | hypotenuse, area, perimeter |
//! | 2 | three sides up to 30 | area, perimeter, an altitude |
//! | 3 | three sides up to 50, or SAS at 60°/120° | third side, inradius, circumradius, a cosine, an altitude |
//! | 4 | three sides up to 60, or SAS | a median², an altitude, a bisector², a cosine, area², R² |
//! | 5 | three sides up to 80, or SAS up to 60 | OI², a bisector², r², R², a median² |
//!
//! **Example**: sides 13, 14, 15 (`a = 13, b = 14, c = 15`): area `84`, inradius `4`,
//! circumradius `65/8`, `cos A = 3/5`.
//!
//! **Failure modes**: using the semi-perimeter where the perimeter belongs (or the reverse),
//! the wrong side in a median or bisector formula, a cosine rule sign slip at 120°, rounding.

use crate::arithmetic::expr::Rat;
use crate::arithmetic::number::parse_rat;
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

/// The triangle-geometry family.
pub struct TriangleGeometry;

/// How the triangle is given.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Given {
    /// The three sides `a = BC`, `b = CA`, `c = AB`.
    Sides(u32, u32, u32),
    /// `a = BC`, `b = CA` and the angle at C in degrees (60, 90 or 120).
    Sas(u32, u32, u32),
}

/// What is asked. Vertex indices 0, 1, 2 are A, B, C; the side opposite vertex i is a, b, c.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Ask {
    /// The side AB (for SAS givens).
    ThirdSide,
    /// a + b + c.
    Perimeter,
    /// The area.
    Area,
    /// The square of the area.
    AreaSq,
    /// The inradius r.
    Inradius,
    /// r².
    InradiusSq,
    /// The circumradius R.
    Circumradius,
    /// R².
    CircumradiusSq,
    /// The altitude from this vertex to the opposite side.
    Altitude(u8),
    /// The square of the median from this vertex.
    MedianSq(u8),
    /// The cosine of the angle at this vertex.
    Cos(u8),
    /// The square of the angle bisector from this vertex to the opposite side.
    BisectorSq(u8),
    /// The squared distance between the incentre and the circumcentre.
    EulerSq,
}

/// One problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TriangleProblem {
    /// The givens.
    pub given: Given,
    /// The question.
    pub ask: Ask,
}

fn isqrt(n: i64) -> Option<i64> {
    if n < 0 {
        return None;
    }
    let r = (n as f64).sqrt().round() as i64;
    (r - 1..=r + 1).find(|&x| x >= 0 && x * x == n)
}

fn rat_sqrt(r: Rat) -> Option<Rat> {
    Rat::new(isqrt(r.num())? as i128, isqrt(r.den())? as i128)
}

/// The three sides `[a, b, c]`, or `None` when the givens are not a triangle with integer sides.
fn sides(g: Given) -> Option<[i64; 3]> {
    let s = match g {
        Given::Sides(a, b, c) => [a as i64, b as i64, c as i64],
        Given::Sas(a, b, angle) => {
            let (a, b) = (a as i64, b as i64);
            let c2 = match angle {
                60 => a * a + b * b - a * b,
                90 => a * a + b * b,
                120 => a * a + b * b + a * b,
                _ => return None,
            };
            [a, b, isqrt(c2)?]
        }
    };
    let ok = s.iter().all(|&x| (1..=1000).contains(&x))
        && s[0] + s[1] > s[2]
        && s[1] + s[2] > s[0]
        && s[0] + s[2] > s[1];
    ok.then_some(s)
}

/// The exact value of the asked quantity, or `None` when it is irrational or the problem is
/// malformed.
pub fn value(p: &TriangleProblem) -> Option<Rat> {
    let [a, b, c] = sides(p.given)?;
    let r = |n: i64, d: i64| Rat::new(n as i128, d as i128);
    let area_sq = r((a + b + c) * (-a + b + c) * (a - b + c) * (a + b - c), 16)?;
    let side = |i: u8| [a, b, c].get(i as usize).copied();
    // The side opposite vertex i, and the two sides meeting at it.
    let around = |i: u8| -> Option<(i64, i64, i64)> {
        let x = side(i)?;
        let (y, z) = (side((i + 1) % 3)?, side((i + 2) % 3)?);
        Some((x, y, z))
    };
    let circum_sq = r(a * a * b * b * c * c, 16)?.checked_div(area_sq)?;
    let rr = r(a * b * c, 2 * (a + b + c))?; // R·r = abc / (4s), s = (a+b+c)/2
    match p.ask {
        Ask::ThirdSide => matches!(p.given, Given::Sas(..)).then(|| Rat::int(c)),
        Ask::Perimeter => Some(Rat::int(a + b + c)),
        Ask::Area => rat_sqrt(area_sq),
        Ask::AreaSq => Some(area_sq),
        Ask::Inradius => rat_sqrt(area_sq)?.checked_div(r(a + b + c, 2)?),
        Ask::InradiusSq => area_sq.checked_div(r((a + b + c) * (a + b + c), 4)?),
        Ask::Circumradius => rat_sqrt(circum_sq),
        Ask::CircumradiusSq => Some(circum_sq),
        Ask::Altitude(i) => rat_sqrt(area_sq)?.checked_mul(r(2, side(i)?)?),
        Ask::MedianSq(i) => {
            let (x, y, z) = around(i)?;
            r(2 * y * y + 2 * z * z - x * x, 4)
        }
        Ask::Cos(i) => {
            let (x, y, z) = around(i)?;
            r(y * y + z * z - x * x, 2 * y * z)
        }
        Ask::BisectorSq(i) => {
            let (x, y, z) = around(i)?;
            r(y * z * ((y + z) * (y + z) - x * x), (y + z) * (y + z))
        }
        Ask::EulerSq => circum_sq.checked_sub(rr.checked_mul(Rat::int(2))?),
    }
}

/// Every triangle `a ≤ b ≤ c ≤ 80` with integer sides and rational area, not equilateral.
fn heronian() -> &'static [[u32; 3]] {
    static LIST: OnceLock<Vec<[u32; 3]>> = OnceLock::new();
    LIST.get_or_init(|| {
        let mut out = Vec::new();
        for c in 2..=80i64 {
            for b in 1..=c {
                for a in (c - b + 1).max(1)..=b {
                    let p = (a + b + c) * (-a + b + c) * (a - b + c) * (a + b - c);
                    if a != c && isqrt(p).is_some() {
                        out.push([a as u32, b as u32, c as u32]);
                    }
                }
            }
        }
        out
    })
}

/// Pairs `(a, b)`, `a ≠ b`, up to 60 with an integer third side around a 60° or 120° angle.
fn eisenstein() -> &'static [(u32, u32, u32)] {
    static LIST: OnceLock<Vec<(u32, u32, u32)>> = OnceLock::new();
    LIST.get_or_init(|| {
        let mut out = Vec::new();
        for a in 1..=60u32 {
            for b in 1..=60u32 {
                for angle in [60, 120] {
                    if a != b && sides(Given::Sas(a, b, angle)).is_some() {
                        out.push((a, b, angle));
                    }
                }
            }
        }
        out
    })
}

const TRIPLES: [(u32, u32); 6] = [(3, 4), (5, 12), (8, 15), (7, 24), (20, 21), (9, 40)];

fn draw_given(rng: &mut Rng, level: u8) -> Given {
    let bound = [0, 40, 30, 50, 60, 80][level as usize];
    if level == 1 {
        let &(p, q) = rng.choose(&TRIPLES).unwrap_or(&TRIPLES[0]);
        let k = rng.range(1, (40 / q) as i64) as u32;
        return if rng.chance(0.5) { Given::Sas(p * k, q * k, 90) } else { Given::Sas(q * k, p * k, 90) };
    }
    if level >= 3 && rng.chance(0.35) {
        let cands: Vec<_> = eisenstein().iter().filter(|e| e.0.max(e.1) <= bound.min(60)).collect();
        let &&(a, b, angle) = rng.choose(&cands).unwrap_or(&&(3, 5, 120));
        return Given::Sas(a, b, angle);
    }
    let cands: Vec<&[u32; 3]> = heronian().iter().filter(|t| t[2] <= bound).collect();
    let mut s = **rng.choose(&cands).unwrap_or(&&[13, 14, 15]);
    rng.shuffle(&mut s);
    Given::Sides(s[0], s[1], s[2])
}

fn draw_ask(rng: &mut Rng, level: u8, given: Given) -> Ask {
    let v = rng.index(3) as u8;
    let sas = matches!(given, Given::Sas(..));
    let pool: Vec<Ask> = match level {
        1 => vec![Ask::ThirdSide, Ask::Area, Ask::Perimeter],
        2 => vec![Ask::Area, Ask::Perimeter, Ask::Altitude(v)],
        3 if sas => vec![Ask::ThirdSide, Ask::Cos(v), Ask::CircumradiusSq],
        3 => vec![Ask::Inradius, Ask::Circumradius, Ask::Cos(v), Ask::Altitude(v)],
        4 if sas => vec![Ask::AreaSq, Ask::CircumradiusSq, Ask::MedianSq(v), Ask::Cos(v)],
        4 => vec![Ask::MedianSq(v), Ask::Altitude(v), Ask::BisectorSq(v), Ask::Cos(v), Ask::Circumradius],
        _ if sas => vec![Ask::InradiusSq, Ask::BisectorSq(v), Ask::EulerSq, Ask::MedianSq(v)],
        _ => vec![Ask::EulerSq, Ask::BisectorSq(v), Ask::InradiusSq, Ask::CircumradiusSq, Ask::MedianSq(v)],
    };
    pool[rng.index(pool.len())]
}

fn vertex(i: u8) -> char {
    (b'A' + i % 3) as char
}

fn opposite(i: u8) -> &'static str {
    ["BC", "CA", "AB"][(i % 3) as usize]
}

fn question(ask: Ask) -> String {
    match ask {
        Ask::ThirdSide => "What is the length of side AB?".into(),
        Ask::Perimeter => "What is the perimeter of the triangle?".into(),
        Ask::Area => "What is the area of the triangle?".into(),
        Ask::AreaSq => "What is the square of the area of the triangle?".into(),
        Ask::Inradius => "What is the radius of the triangle's inscribed circle?".into(),
        Ask::InradiusSq => "What is the square of the radius of the triangle's inscribed circle?".into(),
        Ask::Circumradius => "What is the radius of the triangle's circumscribed circle?".into(),
        Ask::CircumradiusSq => {
            "What is the square of the radius of the triangle's circumscribed circle?".into()
        }
        Ask::Altitude(i) => {
            format!("What is the length of the altitude from {} to side {}?", vertex(i), opposite(i))
        }
        Ask::MedianSq(i) => format!(
            "What is the square of the length of the median from {} (to the midpoint of side {})?",
            vertex(i),
            opposite(i)
        ),
        Ask::Cos(i) => format!("What is the cosine of the angle at {}?", vertex(i)),
        Ask::BisectorSq(i) => format!(
            "What is the square of the length of the bisector of the angle at {}, from {} to side {}?",
            vertex(i),
            vertex(i),
            opposite(i)
        ),
        Ask::EulerSq => {
            "What is the square of the distance between the centre of the inscribed circle and the \
                         centre of the circumscribed circle?"
                .into()
        }
    }
}

impl Task for TriangleGeometry {
    type Problem = TriangleProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "triangle_geometry",
            category: Category::Algebra,
            description: "Exact lengths, areas, radii, medians, bisectors and cosines of a triangle given by its \
                          sides or two sides and an angle.",
            levels: [
                "right triangle from two legs up to 40: hypotenuse, area or perimeter",
                "three sides up to 30: area, perimeter or an altitude",
                "three sides up to 50 or two sides around 60°/120°: third side, inradius, circumradius, cosine, altitude",
                "sides up to 60: a median², altitude, bisector², cosine, area² or R²",
                "sides up to 80: incentre–circumcentre distance², bisector², r², R² or a median²",
            ],
            answer_format: "one exact number: an integer, a fraction (reduced or not) or a terminating decimal \
                            (e.g. `65/8`)",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> TriangleProblem {
        loop {
            let given = draw_given(rng, d.level());
            let ask = draw_ask(rng, d.level(), given);
            let p = TriangleProblem { given, ask };
            if value(&p).is_some() {
                return p;
            }
        }
    }

    fn prompt(&self, p: &TriangleProblem) -> String {
        let given = match p.given {
            Given::Sides(a, b, c) => format!("Triangle ABC has sides BC = {a}, CA = {b} and AB = {c}."),
            Given::Sas(a, b, angle) => {
                format!("In triangle ABC, BC = {a}, CA = {b} and the angle at C is {angle} degrees.")
            }
        };
        format!(
            "{given} {} Give the exact value (an integer, a fraction or a terminating decimal), not a rounded \
             one.\n\n{}",
            question(p.ask),
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &TriangleProblem) -> String {
        value(p).map(|v| v.to_string()).unwrap_or_default()
    }

    fn verify(&self, p: &TriangleProblem, answer: &str) -> Score {
        let Some(want) = value(p) else {
            return Score::wrong("malformed problem: not a triangle, or the quantity is not rational");
        };
        match parse_rat(answer) {
            Err(e) => Score::unparsable(e),
            Ok(v) if v == want => Score::correct(),
            Ok(v) => Score::wrong(format!("{v} is not the exact value")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(given: Given, ask: Ask) -> TriangleProblem {
        TriangleProblem { given, ask }
    }

    #[test]
    fn example_from_the_docs() {
        let t = TriangleGeometry;
        let g = Given::Sides(13, 14, 15);
        let v = |ask| value(&q(g, ask)).unwrap().to_string();
        assert_eq!(v(Ask::Area), "84");
        assert_eq!(v(Ask::Inradius), "4");
        assert_eq!(v(Ask::Circumradius), "65/8");
        assert_eq!(v(Ask::Cos(0)), "3/5");
        assert_eq!(v(Ask::Altitude(1)), "12"); // 2·84/14
        assert_eq!(v(Ask::MedianSq(0)), "673/4"); // (2·196 + 2·225 − 169)/4
                                                  // OI² = R(R − 2r) = 65/8 · (65/8 − 8) = 65/64.
        assert_eq!(v(Ask::EulerSq), "65/64");
        // t_a² = bc((b+c)² − a²)/(b+c)² = 210·(841 − 169)/841.
        assert_eq!(v(Ask::BisectorSq(0)), Rat::new(210 * 672, 841).unwrap().to_string());
        let p = q(g, Ask::Circumradius);
        assert!(t.prompt(&p).contains("Triangle ABC has sides BC = 13, CA = 14 and AB = 15."));
        for ok in ["65/8", "130/16", "8.125"] {
            assert!(t.verify(&p, ok).correct, "{ok}");
        }
        assert!(t.verify(&p, "8.13").reason.contains("not the exact"));
        for bad in ["65/8 or 8", "8 1/8", "R = 65/8", "√65", ""] {
            assert!(t.verify(&p, bad).is_format_error(), "{bad}");
        }
    }

    #[test]
    fn angles_and_irrational_quantities() {
        // 3, 5 around 120°: c² = 9 + 25 + 15 = 49.
        let g = Given::Sas(3, 5, 120);
        assert_eq!(value(&q(g, Ask::ThirdSide)), Some(Rat::int(7)));
        assert_eq!(value(&q(g, Ask::Cos(2))), Rat::new(-1, 2));
        // Area² = (½·3·5·sin 120°)² = 675/16; the area itself is irrational.
        assert_eq!(value(&q(g, Ask::AreaSq)), Rat::new(675, 16));
        assert_eq!(value(&q(g, Ask::Area)), None);
        // R² = c²/(4 sin² C) = 49/3.
        assert_eq!(value(&q(g, Ask::CircumradiusSq)), Rat::new(49, 3));
        // 60°: 3, 8 → c² = 9 + 64 − 24 = 49.
        assert_eq!(value(&q(Given::Sas(3, 8, 60), Ask::ThirdSide)), Some(Rat::int(7)));
        // The cosine at a 60° vertex is ½ and the right angle's is 0.
        assert_eq!(value(&q(Given::Sas(3, 8, 60), Ask::Cos(2))), Rat::new(1, 2));
        assert_eq!(value(&q(Given::Sas(3, 4, 90), Ask::Cos(2))), Some(Rat::ZERO));
        for bad in [
            q(Given::Sas(3, 4, 45), Ask::Area),
            q(Given::Sas(3, 5, 60), Ask::ThirdSide),
            q(Given::Sides(1, 2, 3), Ask::Perimeter),
            q(Given::Sides(0, 4, 4), Ask::Perimeter),
            q(Given::Sides(13, 14, 15), Ask::ThirdSide),
        ] {
            assert!(TriangleGeometry.verify(&bad, "1").reason.starts_with("malformed"), "{bad:?}");
        }
    }

    #[test]
    fn formulas_match_coordinates() {
        // Place C = (0, 0), B = (a, 0) and A from the sides; check the area and a median in floats.
        for &[a, b, c] in heronian().iter().take(60) {
            let (a, b, c) = (a as f64, b as f64, c as f64);
            let ax = (b * b + a * a - c * c) / (2.0 * a);
            let ay = (b * b - ax * ax).sqrt();
            let g = Given::Sides(a as u32, b as u32, c as u32);
            let f = |ask| {
                let v = value(&q(g, ask)).unwrap();
                v.num() as f64 / v.den() as f64
            };
            assert!((f(Ask::Area) - a * ay / 2.0).abs() < 1e-6);
            let (mx, my) = (a / 2.0, 0.0);
            assert!((f(Ask::MedianSq(0)) - ((ax - mx).powi(2) + (ay - my).powi(2))).abs() < 1e-6);
        }
        assert!(heronian().len() > 100);
        assert!(heronian().contains(&[13, 14, 15]));
    }

    #[test]
    fn oracle_at_every_level() {
        let t = TriangleGeometry;
        for d in Difficulty::all() {
            for seed in 0..300 {
                let p = t.generate(seed, d);
                assert!(t.verify(&p, &t.solve(&p)).correct, "L{d} seed {seed}");
            }
        }
    }

    #[test]
    fn parser_fuzz_never_panics() {
        let t = TriangleGeometry;
        let p = t.generate(3, Difficulty::new(5).unwrap());
        let mut rng = Rng::new(13);
        let alphabet: Vec<char> = "0123456789/.-+ √".chars().collect();
        for _ in 0..3000 {
            let s: String = (0..rng.index(25)).map(|_| alphabet[rng.index(alphabet.len())]).collect();
            let v = t.verify(&p, &s);
            assert!((0.0..=1.0).contains(&v.reward));
        }
    }
}
