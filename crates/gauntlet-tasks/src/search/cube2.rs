//! The 2×2×2 cube for [`rubiks_2x2`](super::rubiks_2x2): sticker geometry, the 18 face turns,
//! a decoder from stickers to corner pieces, and an exact distance table (the optimal solver).
//!
//! **Stickers.** A state is 24 colour indices, face by face in net order `U L F R B D`, each face
//! row by row as drawn in the net (every face seen from outside the cube; `U` drawn with `B`
//! above it, `D` with `F` above it, the four side faces with `U` above them). Colour `k` is the
//! solved colour of face `k`: `W O G R B Y` (white up, orange left, green front, red right, blue
//! back, yellow down).
//!
//! **Moves** are computed from 3-D geometry rather than typed in: a sticker is a cubie position
//! `(x, y, z) ∈ {±1}³` (x right, y up, z front) with an outward normal; a clockwise quarter turn
//! of the face with normal `n` rotates every sticker with `pos · n = 1` by −90° about `n`
//! (`v ↦ n (n·v) − n × v`). `X2` is two quarter turns and `X'` three.
//!
//! **Solver.** A 2×2×2 cube has no fixed centres, so "solved" means solved in any orientation.
//! Holding the down-back-left corner still, `U`, `R` and `F` turns reach exactly the
//! 7!·3⁶ = 3,674,160 corner arrangements, and every other face turn equals one of them followed by
//! a whole-cube rotation; so the distance (in face turns, a half turn counting one) to "solved in
//! any orientation" is the `U R F` distance of the state read relative to that corner. A
//! breadth-first search over those states, run once on first use, stores every distance in one
//! byte (3.5 MiB); its layer sizes are the published half-turn-metric counts (1, 9, 54, …, 2,644;
//! God's number 11), which a test checks. The oracle walks down the table one turn at a time.

use std::sync::OnceLock;

/// A cube state: the colour index (0..6) of each of the 24 stickers.
pub type Stickers = [u8; 24];

/// Face letters in net (and colour) order.
pub const FACES: [char; 6] = ['U', 'L', 'F', 'R', 'B', 'D'];
/// Solved colour letters of the faces, in [`FACES`] order.
pub const COLOURS: [char; 6] = ['W', 'O', 'G', 'R', 'B', 'Y'];
/// The 18 face turns: move `m` turns face `m / 3` by `m % 3 + 1` quarter turns clockwise.
pub const N_MOVES: usize = 18;

type V = [i8; 3];

fn cross(a: V, b: V) -> V {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}

fn dot(a: V, b: V) -> i8 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// Cubie position and outward normal of sticker `i` (see the module doc for the layout).
fn sticker_geo(i: usize) -> (V, V) {
    // First row, first column of its face.
    let (r, c) = ((i & 2) == 0, (i & 1) == 0);
    let pick = |first: bool, a: i8| if first { a } else { -a };
    match i / 4 {
        0 => ([pick(c, -1), 1, pick(r, -1)], [0, 1, 0]),
        1 => ([-1, pick(r, 1), pick(c, -1)], [-1, 0, 0]),
        2 => ([pick(c, -1), pick(r, 1), 1], [0, 0, 1]),
        3 => ([1, pick(r, 1), pick(c, 1)], [1, 0, 0]),
        4 => ([pick(c, 1), pick(r, 1), -1], [0, 0, -1]),
        _ => ([pick(c, -1), -1, pick(r, 1)], [0, -1, 0]),
    }
}

fn sticker_at(pos: V, normal: V) -> usize {
    (0..24).find(|&i| sticker_geo(i) == (pos, normal)).expect("every corner face is a sticker")
}

/// Per move, the source of each sticker: after the move, sticker `j` shows what `src[j]` showed.
fn move_sources() -> &'static [[u8; 24]; N_MOVES] {
    static TABLE: OnceLock<[[u8; 24]; N_MOVES]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut out = [[0u8; 24]; N_MOVES];
        for face in 0..6 {
            let n = sticker_geo(face * 4).1;
            let rot = |v: V| {
                let c = cross(n, v);
                let k = dot(n, v);
                [n[0] * k - c[0], n[1] * k - c[1], n[2] * k - c[2]]
            };
            let mut quarter = [0u8; 24];
            for (i, q) in quarter.iter_mut().enumerate() {
                *q = i as u8;
            }
            for i in 0..24 {
                let (pos, normal) = sticker_geo(i);
                if dot(pos, n) == 1 {
                    quarter[sticker_at(rot(pos), rot(normal))] = i as u8;
                }
            }
            let mut src: [u8; 24] = std::array::from_fn(|i| i as u8);
            for t in 0..3 {
                src = std::array::from_fn(|j| src[quarter[j] as usize]);
                out[face * 3 + t] = src;
            }
        }
        out
    })
}

/// The state after move `m` (0..18).
pub fn apply(st: &Stickers, m: usize) -> Stickers {
    let src = &move_sources()[m];
    std::array::from_fn(|j| st[src[j] as usize])
}

/// The solved cube in the standard colour scheme.
pub fn solved() -> Stickers {
    std::array::from_fn(|i| (i / 4) as u8)
}

/// Whether every face shows one colour (the cube is solved in some orientation).
pub fn is_solved(st: &Stickers) -> bool {
    st.chunks(4).all(|f| f.iter().all(|&c| c == f[0]))
}

/// The answer notation of move `m`: `U`, `U2`, `U'`, ….
pub fn move_name(m: usize) -> String {
    let suffix = ["", "2", "'"][m % 3];
    format!("{}{suffix}", FACES[m / 3])
}

// ---------------------------------------------------------------------------------------------
// Corner pieces
// ---------------------------------------------------------------------------------------------

/// Index of the down-back-left corner, the one the solver holds still.
const DBL: usize = 7;

/// The 8 corner positions (DBL last) and their stickers: the up/down sticker first, then the
/// other two in the order that makes (n₀ × n₁ = n₂), a cyclic order every rotation preserves.
fn corners() -> &'static [(V, [usize; 3]); 8] {
    static TABLE: OnceLock<[(V, [usize; 3]); 8]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut pos: Vec<V> = Vec::new();
        for y in [1, -1] {
            for z in [1, -1] {
                for x in [-1, 1] {
                    if [x, y, z] != [-1, -1, -1] {
                        pos.push([x, y, z]);
                    }
                }
            }
        }
        pos.push([-1, -1, -1]);
        std::array::from_fn(|k| {
            let d = pos[k];
            let n0 = [0, d[1], 0];
            let (a, b) = ([d[0], 0, 0], [0, 0, d[2]]);
            let (n1, n2) = if cross(n0, a) == b { (a, b) } else { (b, a) };
            (d, [sticker_at(d, n0), sticker_at(d, n1), sticker_at(d, n2)])
        })
    })
}

/// Which piece sits at each corner position (its home position) and its twist (0..3: where its
/// up/down-coloured sticker sits in the position's sticker order).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Corners {
    piece: [u8; 8],
    twist: [u8; 8],
}

/// Read the pieces of `st`, given the face (outward normal) each colour belongs to. `None` if the
/// stickers are not a cube that face turns can solve (a piece that does not exist, a repeated
/// piece, a mirrored piece or a twist sum that is not a multiple of 3).
fn decode(st: &Stickers, scheme: &[V; 6]) -> Option<Corners> {
    let mut c = Corners { piece: [0; 8], twist: [0; 8] };
    let mut seen = [false; 8];
    for (p, (_, s)) in corners().iter().enumerate() {
        let m: [V; 3] = std::array::from_fn(|k| scheme[st[s[k]] as usize]);
        let home: V = std::array::from_fn(|a| m[0][a] + m[1][a] + m[2][a]);
        let k = (0..3).find(|&k| m[k][1] != 0)?;
        if cross(m[k], m[(k + 1) % 3]) != m[(k + 2) % 3] {
            return None;
        }
        let h = corners().iter().position(|(d, _)| *d == home)?;
        if std::mem::replace(&mut seen[h], true) {
            return None;
        }
        c.piece[p] = h as u8;
        c.twist[p] = k as u8;
    }
    (c.twist.iter().map(|&t| t as u32).sum::<u32>() % 3 == 0).then_some(c)
}

/// The standard colour scheme: colour `k` belongs to face `k`.
fn standard_scheme() -> [V; 6] {
    std::array::from_fn(|k| sticker_geo(k * 4).1)
}

/// The colour scheme under which the piece at the down-back-left position is solved: its three
/// stickers name the down, back and left colours, and each colour's opposite is the one colour it
/// never shares a piece with. `None` unless every colour appears exactly 4 times and the
/// opposites are well defined.
fn scheme_of(st: &Stickers) -> Option<[V; 6]> {
    let mut count = [0u8; 6];
    for &c in st {
        *count.get_mut(c as usize)? += 1;
    }
    if count.iter().any(|&n| n != 4) {
        return None;
    }
    let mut together = [[false; 6]; 6];
    for (_, s) in corners() {
        for a in s {
            for b in s {
                together[st[*a] as usize][st[*b] as usize] = true;
            }
        }
    }
    let mut scheme: [Option<V>; 6] = [None; 6];
    for &s in &corners()[DBL].1 {
        let (colour, normal) = (st[s] as usize, sticker_geo(s).1);
        let mut apart = (0..6).filter(|&o| !together[colour][o]);
        let opposite = apart.next()?;
        if apart.next().is_some() || scheme[colour].is_some() || scheme[opposite].is_some() {
            return None;
        }
        scheme[colour] = Some(normal);
        scheme[opposite] = Some([-normal[0], -normal[1], -normal[2]]);
    }
    let out: [V; 6] = std::array::from_fn(|k| scheme[k].unwrap_or([0; 3]));
    scheme.iter().all(Option::is_some).then_some(out)
}

// ---------------------------------------------------------------------------------------------
// Coordinates and the distance table
// ---------------------------------------------------------------------------------------------

/// The moves the solver uses (`U`, `F`, `R` turns, which keep the down-back-left corner still).
const SOLVER_MOVES: [usize; 9] = [0, 1, 2, 6, 7, 8, 9, 10, 11];
const N_PERM: usize = 5040;
const N_TWIST: usize = 729;
/// Number of states with the down-back-left corner held still.
pub const N_STATES: usize = N_PERM * N_TWIST;

/// Lehmer code of the pieces at the 7 free positions.
fn perm_coord(piece: &[u8; 8]) -> usize {
    (0..7).fold(0, |acc, i| acc * (7 - i) + (i + 1..7).filter(|&j| piece[j] < piece[i]).count())
}

fn perm_from_coord(mut code: usize) -> [u8; 8] {
    let mut digits = [0usize; 7];
    for i in (0..7).rev() {
        digits[i] = code % (7 - i);
        code /= 7 - i;
    }
    let mut left: Vec<u8> = (0..7).collect();
    let mut piece = [7u8; 8];
    for i in 0..7 {
        piece[i] = left.remove(digits[i]);
    }
    piece
}

fn twist_coord(twist: &[u8; 8]) -> usize {
    (0..6).rev().fold(0, |acc, i| acc * 3 + twist[i] as usize)
}

fn twist_from_coord(mut code: usize) -> [u8; 8] {
    let mut twist = [0u8; 8];
    for t in twist.iter_mut().take(6) {
        *t = (code % 3) as u8;
        code /= 3;
    }
    twist[6] = ((3 - twist.iter().map(|&t| t as u32).sum::<u32>() % 3) % 3) as u8;
    twist
}

/// The stickers of `c` in the standard colour scheme.
fn render(c: &Corners) -> Stickers {
    let mut st = [0u8; 24];
    let home = corners();
    for p in 0..8 {
        let (h, t) = (c.piece[p] as usize, c.twist[p] as usize);
        for k in 0..3 {
            st[home[p].1[(k + t) % 3]] = (home[h].1[k] / 4) as u8;
        }
    }
    st
}

/// The piece-level effect of one move: position `p` receives the piece from `from[p]`, its
/// twist raised by `dt[p]`.
struct CornerMove {
    from: [u8; 8],
    dt: [u8; 8],
}

fn corner_move(m: usize) -> CornerMove {
    let id = Corners { piece: std::array::from_fn(|i| i as u8), twist: [0; 8] };
    let c = decode(&apply(&render(&id), m), &standard_scheme()).expect("a face turn keeps a cube valid");
    CornerMove { from: c.piece, dt: c.twist }
}

struct Tables {
    perm_move: Vec<[u16; 9]>,
    twist_move: Vec<[u16; 9]>,
    dist: Vec<u8>,
}

impl Tables {
    fn next(&self, state: usize, k: usize) -> usize {
        let (p, t) = (state / N_TWIST, state % N_TWIST);
        self.perm_move[p][k] as usize * N_TWIST + self.twist_move[t][k] as usize
    }
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(build_tables)
}

fn build_tables() -> Tables {
    let moves: Vec<CornerMove> = SOLVER_MOVES.iter().map(|&m| corner_move(m)).collect();
    let perm_move = (0..N_PERM)
        .map(|code| {
            let piece = perm_from_coord(code);
            std::array::from_fn(|k| {
                perm_coord(&std::array::from_fn(|p| piece[moves[k].from[p] as usize])) as u16
            })
        })
        .collect();
    let twist_move = (0..N_TWIST)
        .map(|code| {
            let t = twist_from_coord(code);
            std::array::from_fn(|k| {
                let mv = &moves[k];
                twist_coord(&std::array::from_fn(|p| (t[mv.from[p] as usize] + mv.dt[p]) % 3)) as u16
            })
        })
        .collect();
    let mut tables = Tables { perm_move, twist_move, dist: vec![u8::MAX; N_STATES] };
    tables.dist[0] = 0;
    let mut frontier = vec![0u32];
    let mut depth = 0u8;
    while !frontier.is_empty() {
        depth += 1;
        let mut next = Vec::new();
        for &s in &frontier {
            for k in 0..9 {
                let n = tables.next(s as usize, k);
                if tables.dist[n] == u8::MAX {
                    tables.dist[n] = depth;
                    next.push(n as u32);
                }
            }
        }
        frontier = next;
    }
    tables
}

/// The table index of `st` read relative to its down-back-left piece, or `None` if `st` is not a
/// solvable cube.
fn state_of(st: &Stickers) -> Option<usize> {
    let c = decode(st, &scheme_of(st)?)?;
    Some(perm_coord(&c.piece) * N_TWIST + twist_coord(&c.twist))
}

/// The number of face turns (a half turn counting one) in a shortest solution of `st`, or `None`
/// if `st` is not a solvable cube.
pub fn distance(st: &Stickers) -> Option<u32> {
    state_of(st).map(|s| tables().dist[s] as u32)
}

/// A shortest solution of `st` as move indices (`U`, `F` and `R` turns only), or `None` if `st`
/// is not a solvable cube.
pub fn solve(st: &Stickers) -> Option<Vec<usize>> {
    let t = tables();
    let mut s = state_of(st)?;
    let mut out = Vec::new();
    while t.dist[s] > 0 {
        let k = (0..9).find(|&k| t.dist[t.next(s, k)] + 1 == t.dist[s])?;
        out.push(SOLVER_MOVES[k]);
        s = t.next(s, k);
    }
    Some(out)
}

/// Every first move of a shortest solution of `st` (as move indices), for tests and tools.
pub fn optimal_first_moves(st: &Stickers) -> Vec<usize> {
    let t = tables();
    let Some(s) = state_of(st) else { return Vec::new() };
    (0..9)
        .filter(|&k| t.dist[s] > 0 && t.dist[t.next(s, k)] + 1 == t.dist[s])
        .map(|k| SOLVER_MOVES[k])
        .collect()
}

/// How many states lie at each distance (index = distance), for tests.
pub fn layer_sizes() -> Vec<usize> {
    let mut out = vec![0usize; 12];
    for &d in &tables().dist {
        if d as usize >= out.len() {
            out.resize(d as usize + 1, 0);
        }
        out[d as usize] += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use gauntlet_core::Rng;

    fn run(st: &Stickers, moves: &[usize]) -> Stickers {
        moves.iter().fold(*st, |s, &m| apply(&s, m))
    }

    #[test]
    fn turns_have_the_right_orders() {
        let s = solved();
        for face in 0..6 {
            let q = face * 3;
            assert_ne!(apply(&s, q), s);
            assert_eq!(run(&s, &[q, q, q, q]), s, "{}", FACES[face]);
            assert_eq!(run(&s, &[q, q]), apply(&s, q + 1));
            assert_eq!(run(&s, &[q, q + 2]), s);
        }
        // R U R' U' has order 6; opposite faces commute.
        let sexy = [9, 0, 11, 2];
        let six: Vec<usize> = sexy.iter().cycle().take(24).copied().collect();
        assert_eq!(run(&s, &six), s);
        assert_ne!(run(&s, &six[..12]), s);
        let mixed = run(&s, &[9, 6, 3, 16]);
        assert_eq!(run(&mixed, &[0, 15]), run(&mixed, &[15, 0]));
        assert_eq!(run(&mixed, &[9, 3]), run(&mixed, &[3, 9]));
    }

    #[test]
    fn u_carries_the_front_top_row_to_the_left() {
        let s = apply(&solved(), 0);
        // Net order U L F R B D; L's top row is stickers 4, 5; F's top row 8, 9.
        assert_eq!([s[4], s[5]], [2, 2], "L's top row shows green");
        assert_eq!([s[8], s[9]], [3, 3], "F's top row shows red");
        // R moves F's right column up to U.
        let r = apply(&solved(), 9);
        assert_eq!([r[1], r[3]], [2, 2]);
    }

    #[test]
    fn opposite_turns_are_a_whole_cube_rotation() {
        // R L' turns the whole cube (x): solved in another orientation.
        let s = run(&solved(), &[9, 5]);
        assert!(is_solved(&s) && s != solved());
        assert!(!is_solved(&run(&solved(), &[9, 3])));
        assert_eq!(distance(&s), Some(0));
    }

    #[test]
    fn coordinates_round_trip() {
        for code in [0, 1, 77, 5039] {
            assert_eq!(perm_coord(&perm_from_coord(code)), code);
        }
        for code in [0, 5, 400, 728] {
            assert_eq!(twist_coord(&twist_from_coord(code)), code);
        }
    }

    #[test]
    fn layer_sizes_match_the_published_half_turn_counts() {
        let want = [1, 9, 54, 321, 1847, 9992, 50136, 227536, 870072, 1887748, 623800, 2644];
        assert_eq!(layer_sizes(), want);
        assert_eq!(want.iter().sum::<usize>(), N_STATES);
    }

    #[test]
    fn solver_solves_random_scrambles_optimally() {
        let mut rng = Rng::new(5);
        for len in 0..30 {
            let scramble: Vec<usize> = (0..len).map(|_| rng.index(N_MOVES)).collect();
            let st = run(&solved(), &scramble);
            let sol = solve(&st).unwrap();
            assert!(is_solved(&run(&st, &sol)), "{scramble:?}");
            assert!(sol.len() <= len.min(11));
            assert_eq!(distance(&st), Some(sol.len() as u32));
        }
    }

    #[test]
    fn impossible_cubes_are_refused() {
        let mut twisted = solved();
        // Twist one corner in place: its three stickers rotate.
        let s = corners()[0].1;
        (twisted[s[0]], twisted[s[1]], twisted[s[2]]) = (twisted[s[1]], twisted[s[2]], twisted[s[0]]);
        assert_eq!(distance(&twisted), None);
        let mut mirrored = solved();
        mirrored.swap(s[1], s[2]);
        assert_eq!(solve(&mirrored), None);
        let mut wrong_counts = solved();
        wrong_counts[0] = 5;
        assert_eq!(distance(&wrong_counts), None);
        assert_eq!(distance(&[9; 24]), None);
    }
}
