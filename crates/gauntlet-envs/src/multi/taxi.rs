//! Taxi (gym's Taxi-v3, RAGEN-style, in text): drive a taxi through a city grid with walls, pick
//! passengers up at coloured stands and drop each one off at the stand it asks for.
//!
//! **Generates** an `n × n` grid of road squares with scattered wall squares (every road square
//! reachable from every other), coloured stands on distinct road squares (`R` red, `G` green,
//! `Y` yellow, `B` blue, then `M` magenta and `C` cyan), passengers each waiting at a different
//! stand with a destination stand other than its own, and the taxi on a random road square.
//! The stands' positions are always given. From level 3 the taxi sees only the squares within
//! its view radius (Chebyshev distance, through walls) and remembers what it has seen (`?`
//! unseen); from level 4 where each passenger waits is unknown until its stand comes into view
//! (then its destination is told too). Layouts the oracle cannot finish within the turn limit
//! are redrawn (none in seeds 0–199).
//!
//! **Plays** (one action per turn): `north | south | east | west` (or `n | s | e | w`) moves one
//! square; moving into a wall or off the map is invalid. `pickup` takes the passenger waiting on
//! the taxi's stand (the taxi carries one passenger at a time); `dropoff` lets the riding
//! passenger out, only at the stand it asked for. Any other pickup or dropoff is invalid (state
//! unchanged, one of the allowance of errors); any other text is a format error.
//!
//! **Reward**: 1.0 when the last passenger is dropped off at its destination (success); 0
//! otherwise. The turn limit truncates.
//!
//! | level | grid | walls | stands | passengers | view radius | waiting stands told | turns |
//! |---|---|---|---|---|---|---|---|
//! | 1 | 5×5 | 3 | 4 | 1 | whole map | yes | 30 |
//! | 2 | 7×7 | 8 | 4 | 1 | whole map | yes | 50 |
//! | 3 | 9×9 | 14 | 4 | 2 | 2 | yes | 120 |
//! | 4 | 11×11 | 22 | 5 | 2 | 2 | no | 200 |
//! | 5 | 13×13 | 32 | 6 | 3 | 1 | no | 320 |
//!
//! **Example** (level 1): "Passenger 1 waits at R (red) and wants to go to B (blue)"; the taxi
//! drives to R (`north`, `west`, …), `pickup`, drives to B, `dropoff` → 1.0.
//!
//! **Oracle**: breadth-first search over the squares it has seen (unseen squares optimistic,
//! replanned every turn): with a passenger aboard it drives to that passenger's destination and
//! drops it off; otherwise it drives to the nearest stand where a passenger is known to wait
//! and picks it up; otherwise to the nearest stand not yet seen. It never reads the hidden map
//! or unseen passengers. Exact on generated layouts (1.0 at every level).
//!
//! **Failure modes**: mixing up rows, columns and compass directions, forgetting walls seen
//! earlier, dropping a passenger at the wrong stand, driving to a stand before looking whether
//! a passenger waits there, taking a second passenger while one rides.

use super::ledger::{Dir, Outcome};
use super::shell::{verb, Step, World};
use gauntlet_core::Rng;
use std::collections::VecDeque;

/// Stand letters and colours, in the order the levels add them.
const STANDS: [(char, &str); 6] =
    [('R', "red"), ('G', "green"), ('Y', "yellow"), ('B', "blue"), ('M', "magenta"), ('C', "cyan")];

/// One level's parameters.
#[derive(Debug, Clone, Copy)]
struct Level {
    size: usize,
    walls: usize,
    stands: usize,
    passengers: usize,
    /// View radius (`None`: the whole map).
    view: Option<usize>,
    /// Whether the waiting stands are told from the start.
    told: bool,
    turns: u32,
}

const LEVELS: [Level; 5] = [
    Level { size: 5, walls: 3, stands: 4, passengers: 1, view: None, told: true, turns: 30 },
    Level { size: 7, walls: 8, stands: 4, passengers: 1, view: None, told: true, turns: 50 },
    Level { size: 9, walls: 14, stands: 4, passengers: 2, view: Some(2), told: true, turns: 120 },
    Level { size: 11, walls: 22, stands: 5, passengers: 2, view: Some(2), told: false, turns: 200 },
    Level { size: 13, walls: 32, stands: 6, passengers: 3, view: Some(1), told: false, turns: 320 },
];

/// Where a passenger is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Rider {
    Waiting,
    Riding,
    Delivered,
}

#[derive(Debug, Clone)]
struct Passenger {
    /// Stand index it waits at.
    from: usize,
    /// Stand index it wants to reach.
    to: usize,
    state: Rider,
    /// Whether the agent knows where it waits (told, or its stand was seen).
    known: bool,
}

/// The taxi world.
#[derive(Debug, Clone)]
pub struct Taxi {
    n: usize,
    wall: Vec<bool>,
    seen: Vec<bool>,
    /// Square of each stand.
    stands: Vec<usize>,
    passengers: Vec<Passenger>,
    pos: usize,
    level: Level,
}

impl Taxi {
    fn next(&self, p: usize, d: Dir) -> Option<usize> {
        d.step(p / self.n, p % self.n, self.n, self.n).map(|(r, c)| r * self.n + c)
    }

    fn visible(&self, q: usize) -> bool {
        match self.level.view {
            None => true,
            Some(r) => {
                let (a, b) = (self.pos, q);
                (a / self.n).abs_diff(b / self.n).max((a % self.n).abs_diff(b % self.n)) <= r
            }
        }
    }

    /// Mark what the taxi sees now; passengers on seen stands become known.
    fn look(&mut self) {
        for q in 0..self.wall.len() {
            if self.visible(q) {
                self.seen[q] = true;
            }
        }
        for p in &mut self.passengers {
            if self.seen[self.stands[p.from]] {
                p.known = true;
            }
        }
    }

    fn riding(&self) -> Option<usize> {
        self.passengers.iter().position(|p| p.state == Rider::Riding)
    }

    /// The passenger waiting on the taxi's square (it is a stand).
    fn waiting_here(&self) -> Option<usize> {
        self.passengers.iter().position(|p| p.state == Rider::Waiting && self.stands[p.from] == self.pos)
    }

    fn stand_name(s: usize) -> String {
        format!("{} ({})", STANDS[s].0, STANDS[s].1)
    }

    fn apply(&mut self, action: &str) -> Result<String, String> {
        let (v, rest) = verb(action);
        if !rest.is_empty() {
            return Err(String::new());
        }
        if let Some(d) = Dir::from_compass(&v) {
            let q = self.next(self.pos, d).ok_or(format!("The edge of the map is {}.", d.compass()))?;
            if self.wall[q] {
                return Err(format!("A wall blocks the way {}.", d.compass()));
            }
            self.pos = q;
            self.look();
            return Ok(format!("You drove {}.", d.compass()));
        }
        match v.as_str() {
            "pickup" => {
                if let Some(r) = self.riding() {
                    return Err(format!("Passenger {} is already riding; the taxi holds one.", r + 1));
                }
                let i = self.waiting_here().ok_or("No passenger waits here.")?;
                self.passengers[i].state = Rider::Riding;
                let to = Self::stand_name(self.passengers[i].to);
                Ok(format!("Passenger {} got in and wants to go to {to}.", i + 1))
            }
            "dropoff" => {
                let i = self.riding().ok_or("No passenger is riding.")?;
                let to = self.passengers[i].to;
                if self.pos != self.stands[to] {
                    return Err(format!(
                        "Passenger {} wants to get out at {}, not here.",
                        i + 1,
                        Self::stand_name(to)
                    ));
                }
                self.passengers[i].state = Rider::Delivered;
                Ok(format!("Passenger {} got out at {}.", i + 1, Self::stand_name(to)))
            }
            _ => Err(String::new()),
        }
    }

    /// Breadth-first distances and first moves from the taxi over seen road (unseen optimistic).
    fn plan_from_here(&self) -> (Vec<usize>, Vec<Option<Dir>>) {
        let mut dist = vec![usize::MAX; self.wall.len()];
        let mut first: Vec<Option<Dir>> = vec![None; self.wall.len()];
        dist[self.pos] = 0;
        let mut queue = VecDeque::from([self.pos]);
        while let Some(p) = queue.pop_front() {
            for d in Dir::ALL {
                let Some(q) = self.next(p, d) else { continue };
                let open = !self.seen[q] || !self.wall[q];
                if open && dist[q] == usize::MAX {
                    dist[q] = dist[p] + 1;
                    first[q] = first[p].or(Some(d));
                    queue.push_back(q);
                }
            }
        }
        (dist, first)
    }

    /// The oracle's action (sees only what the agent sees).
    fn plan(&self) -> String {
        if let Some(i) = self.riding() {
            if self.pos == self.stands[self.passengers[i].to] {
                return "dropoff".into();
            }
        } else if self.waiting_here().is_some() {
            return "pickup".into();
        }
        let (dist, first) = self.plan_from_here();
        let targets: Vec<usize> = match self.riding() {
            Some(i) => vec![self.stands[self.passengers[i].to]],
            None => {
                let known: Vec<usize> = self
                    .passengers
                    .iter()
                    .filter(|p| p.known && p.state == Rider::Waiting)
                    .map(|p| self.stands[p.from])
                    .collect();
                if known.is_empty() {
                    self.stands.iter().copied().filter(|&q| !self.seen[q]).collect()
                } else {
                    known
                }
            }
        };
        let target = targets.into_iter().filter(|&q| dist[q] != usize::MAX).min_by_key(|&q| (dist[q], q));
        match target.and_then(|t| first[t]) {
            Some(d) => d.compass().into(),
            None => self.legal().swap_remove(0),
        }
    }

    /// One random layout, or `None` when the road is not connected.
    fn layout(rng: &mut Rng, lv: Level) -> Option<Taxi> {
        let n = lv.size;
        let cells = rng.sample_indices(n * n, lv.stands + lv.walls + 1);
        let stands = cells[..lv.stands].to_vec();
        let mut wall = vec![false; n * n];
        for &q in &cells[lv.stands..lv.stands + lv.walls] {
            wall[q] = true;
        }
        let pos = cells[lv.stands + lv.walls];
        let origins = rng.sample_indices(lv.stands, lv.passengers);
        let passengers = origins
            .into_iter()
            .map(|from| {
                let to = (from + 1 + rng.index(lv.stands - 1)) % lv.stands;
                Passenger { from, to, state: Rider::Waiting, known: lv.told }
            })
            .collect();
        let mut taxi = Taxi { n, seen: vec![false; n * n], wall, stands, passengers, pos, level: lv };
        // Every road square reachable from the taxi.
        let mut reached = vec![false; n * n];
        reached[pos] = true;
        let mut stack = vec![pos];
        while let Some(p) = stack.pop() {
            for d in Dir::ALL {
                if let Some(q) = taxi.next(p, d).filter(|&q| !taxi.wall[q] && !reached[q]) {
                    reached[q] = true;
                    stack.push(q);
                }
            }
        }
        if (0..n * n).any(|q| !taxi.wall[q] && !reached[q]) {
            return None;
        }
        taxi.look();
        Some(taxi)
    }

    /// Whether the oracle delivers everyone within the turn limit from this start.
    fn oracle_finishes(&self) -> bool {
        let mut sim = self.clone();
        for _ in 0..self.level.turns {
            let a = sim.plan();
            if sim.apply(&a).is_err() {
                return false;
            }
            if sim.passengers.iter().all(|p| p.state == Rider::Delivered) {
                return true;
            }
        }
        false
    }
}

impl World for Taxi {
    const NAME: &'static str = "taxi";
    const CATEGORY: &'static str = "grid";
    const DESCRIPTION: &'static str =
        "Drive a taxi through a walled grid, pick passengers up at coloured stands and drop each at its destination.";
    const FLOORS: [f64; 5] = [1.0; 5];

    fn generate(rng: &mut Rng, level: u8) -> Self {
        let lv = LEVELS[level as usize - 1];
        loop {
            if let Some(t) = Self::layout(rng, lv).filter(|t| t.oracle_finishes()) {
                return t;
            }
        }
    }

    fn limit(&self) -> u32 {
        self.level.turns
    }

    fn intro(&self) -> String {
        let n = self.n;
        let stands: Vec<String> = self
            .stands
            .iter()
            .enumerate()
            .map(|(s, &q)| format!("{} at row {}, column {}", Self::stand_name(s), q / n + 1, q % n + 1))
            .collect();
        let view = match self.level.view {
            None => "You see the whole map.".to_string(),
            Some(r) => format!(
                "You see only the squares within {r} step{} of the taxi (diagonals included, through walls) and \
                 remember what you have seen; ? is unseen.",
                if r == 1 { "" } else { "s" }
            ),
        };
        let waiting = if self.level.told {
            String::new()
        } else {
            format!(
                " There are {} passengers, each waiting at a different stand; you learn where one waits, and \
                 where it wants to go, when its stand comes into view.",
                self.passengers.len()
            )
        };
        format!(
            "Taxi. Deliver every passenger: pick it up at the stand where it waits and drop it off at the stand \
             it wants.{waiting}\nThe map is {n}×{n}; row 1 is north, column 1 is west. Legend: T taxi, . road, \
             # wall, R G Y B M C stands. Stands: {}.\n{view}\nRules: moving into a wall or off the map is \
             refused. The taxi carries one passenger at a time. `pickup` works only on a stand where a passenger \
             waits while the taxi is empty; `dropoff` only at the riding passenger's destination. Delivering \
             the last passenger wins.",
            stands.join("; ")
        )
    }

    fn render(&self) -> String {
        let mut out = String::new();
        for q in 0..self.wall.len() {
            let ch = if q == self.pos {
                'T'
            } else if let Some(s) = self.stands.iter().position(|&x| x == q) {
                STANDS[s].0
            } else if !self.seen[q] {
                '?'
            } else if self.wall[q] {
                '#'
            } else {
                '.'
            };
            out.push(ch);
            if q % self.n == self.n - 1 {
                out.push('\n');
            }
        }
        let taxi = match self.riding() {
            Some(i) => format!("passenger {} rides to {}", i + 1, Self::stand_name(self.passengers[i].to)),
            None => "empty".into(),
        };
        out.push_str(&format!(
            "The taxi is at row {}, column {}; {taxi}.\nPassengers:",
            self.pos / self.n + 1,
            self.pos % self.n + 1
        ));
        for (i, p) in self.passengers.iter().enumerate() {
            let line = match (p.state, p.known) {
                (Rider::Delivered, _) => "delivered".to_string(),
                (Rider::Riding, _) => format!("riding, wants {}", Self::stand_name(p.to)),
                (Rider::Waiting, true) => {
                    format!("waits at {}, wants {}", Self::stand_name(p.from), Self::stand_name(p.to))
                }
                (Rider::Waiting, false) => "not found yet".to_string(),
            };
            out.push_str(&format!(" {} {line};", i + 1));
        }
        out.pop();
        out.push('.');
        out
    }

    fn grammar(&self) -> String {
        "Actions: north | south | east | west (or n | s | e | w) | pickup | dropoff.".into()
    }

    fn step(&mut self, action: &str) -> Step {
        match self.apply(&action.to_ascii_lowercase()) {
            Err(why) if why.is_empty() => Step::Format(self.grammar()),
            Err(why) => Step::Invalid(why),
            Ok(what) if self.passengers.iter().all(|p| p.state == Rider::Delivered) => {
                Step::Done(Outcome::Won, format!("{what} Every passenger is delivered."))
            }
            Ok(what) => Step::Done(Outcome::Continue, what),
        }
    }

    fn legal(&self) -> Vec<String> {
        let mut out: Vec<String> = Dir::ALL
            .into_iter()
            .filter(|&d| self.next(self.pos, d).is_some_and(|q| !self.wall[q]))
            .map(|d| d.compass().to_string())
            .collect();
        if self.riding().is_none() && self.waiting_here().is_some() {
            out.push("pickup".into());
        }
        if self.riding().is_some_and(|i| self.stands[self.passengers[i].to] == self.pos) {
            out.push("dropoff".into());
        }
        out
    }

    fn oracle(&self, _rng: &mut Rng) -> String {
        self.plan()
    }
}

#[cfg(test)]
mod tests {
    use super::super::shell::Shell;
    use super::*;
    use gauntlet_core::{AgentId, Difficulty, Env};

    fn world(seed: u64, level: u8) -> Taxi {
        Taxi::generate(&mut Rng::for_instance("taxi", seed, level), level)
    }

    /// Play the world directly with the oracle (`true`) or random legal actions; success.
    fn play(seed: u64, level: u8, oracle: bool) -> bool {
        let mut w = world(seed, level);
        let mut rng = Rng::new(seed);
        for _ in 0..w.limit() {
            let a = if oracle { w.oracle(&mut rng) } else { rng.choose(&w.legal()).unwrap().clone() };
            match w.step(&a) {
                Step::Done(Outcome::Won, _) => return true,
                Step::Done(Outcome::Continue, _) => {}
                other => {
                    assert!(!oracle, "level {level} seed {seed}: oracle `{a}` gave {other:?}\n{}", w.render())
                }
            }
        }
        false
    }

    #[test]
    fn oracle_meets_the_floors_and_random_play_does_not() {
        for level in 1..=5u8 {
            let n = 60;
            let oracle = (0..n).filter(|&s| play(s, level, true)).count() as f64 / n as f64;
            let random = (0..n).filter(|&s| play(s, level, false)).count() as f64 / n as f64;
            assert!(oracle >= Taxi::FLOORS[level as usize - 1], "level {level}: oracle {oracle}");
            assert!(random < oracle - 0.25, "level {level}: random {random} vs oracle {oracle}");
        }
    }

    #[test]
    fn levels_grow() {
        for level in 1..=5u8 {
            let w = world(1, level);
            let lv = LEVELS[level as usize - 1];
            assert_eq!(w.wall.iter().filter(|&&x| x).count(), lv.walls);
            assert_eq!((w.n, w.stands.len(), w.passengers.len()), (lv.size, lv.stands, lv.passengers));
            // Hidden squares and unknown passengers exactly where the level says.
            assert_eq!(w.seen.iter().all(|&s| s), lv.view.is_none(), "level {level}");
            let unknown = w.passengers.iter().any(|p| !p.known);
            assert!(!unknown || !lv.told, "level {level}");
        }
        // Level 4 and 5: some start does not see some passenger.
        assert!((0..20).any(|s| world(s, 5).passengers.iter().any(|p| !p.known)));
    }

    #[test]
    fn invalid_and_malformed_actions_are_refused() {
        let mut w = world(3, 1);
        // Find a wall or the edge next to the taxi by moving it to a corner square.
        w.pos = (0..w.wall.len()).find(|&q| !w.wall[q] && !w.stands.contains(&q)).unwrap();
        let blocked = Dir::ALL.into_iter().find(|&d| w.next(w.pos, d).is_none_or(|q| w.wall[q])).unwrap();
        assert!(matches!(w.step(blocked.compass()), Step::Invalid(_)));
        assert!(matches!(w.step("pickup"), Step::Invalid(m) if m.contains("No passenger")));
        assert!(matches!(w.step("dropoff"), Step::Invalid(m) if m.contains("No passenger is riding")));
        // At the passenger's stand: pick up, then a dropoff there is the wrong stand.
        w.pos = w.stands[w.passengers[0].from];
        assert!(matches!(w.step("PICKUP"), Step::Done(Outcome::Continue, _)));
        assert!(matches!(w.step("pickup"), Step::Invalid(m) if m.contains("already riding")));
        assert!(matches!(w.step("dropoff"), Step::Invalid(m) if m.contains("wants to get out")));
        for bad in ["fly", "north 2", "pick up", "go north", "", "dropoff now"] {
            assert!(matches!(w.step(bad), Step::Format(_)), "`{bad}`");
        }
        w.pos = w.stands[w.passengers[0].to];
        assert!(matches!(w.step("dropoff"), Step::Done(Outcome::Won, _)));
    }

    #[test]
    fn fuzzed_actions_never_panic() {
        let mut rng = Rng::new(38);
        let words = ["north", "n", "pickup", "dropoff", "s", "east", "x", "9", "🚕", "  ", "-", "west"];
        for level in 1..=5u8 {
            let mut env = Shell::<Taxi>::new();
            env.reset(level as u64, Difficulty::new(level).unwrap()).unwrap();
            for _ in 0..300 {
                let len = rng.index(4);
                let s: Vec<&str> = (0..len).map(|_| *rng.choose(&words).unwrap()).collect();
                let raw: String = (0..rng.index(8))
                    .map(|_| char::from_u32(rng.range(32, 0x2FFF) as u32).unwrap_or('?'))
                    .collect();
                let text = if rng.chance(0.5) { s.join(" ") } else { raw };
                if env.to_act().is_none() {
                    env.reset(rng.next_u64(), Difficulty::new(level).unwrap()).unwrap();
                }
                let fb = env.act(AgentId(0), &text);
                assert!(!(fb.format_error && fb.invalid));
            }
        }
    }

    #[test]
    fn same_seed_same_transcript() {
        super::super::rates::assert_same_seed_same_transcript("taxi", 5, 0.7);
    }
}

#[cfg(test)]
mod measure {
    /// `cargo test -p gauntlet-envs --lib taxi_rates -- --ignored --nocapture`
    #[test]
    #[ignore]
    fn taxi_rates() {
        super::super::rates::assert_rates("taxi", <super::Taxi as super::World>::FLOORS);
    }
}
