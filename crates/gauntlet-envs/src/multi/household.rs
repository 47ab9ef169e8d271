//! Household: a text world of rooms and receptacles where the agent finds an object, transforms
//! it (clean, heat, cool) and puts it in place, in the spirit of ALFWorld.
//!
//! **Generates** a house of one to three rooms (kitchen, living room, bedroom) with receptacles
//! (fridge, microwave, sink basin, countertops, cabinets, drawers, shelves, ...), one object of
//! the goal's type hidden in a receptacle other than the goal's, distractor objects of other
//! types, and a goal: `put a [clean] [hot|cool] <object> in/on <receptacle>`. Openable
//! receptacles (fridge, microwave, cabinets, drawers) start closed from level 2.
//!
//! **Commands** (the observation lists the admissible ones): `go to <place>` (in the current
//! room), `go to <room>`, `open <x>`, `close <x>`, `take <obj> from <x>`, `put <obj> in/on <x>`
//! (either preposition), `clean <obj> with sinkbasin`, `heat <obj> with microwave`, `cool <obj>
//! with fridge` (standing at the appliance, holding the object), `look`, `inventory`, `examine
//! <x>`. The agent holds at most one object and sees a receptacle's contents only when standing
//! at it while it is open.
//!
//! **Verifies** after every command whether an object of the goal type with the goal's
//! properties lies in the goal receptacle: reward 1.0, done. Heating clears cold and cooling
//! clears hot. A command that is not admissible is invalid when it starts with a known verb and
//! a format error otherwise. The turn limit (2 × places + 3 × rooms + 12) truncates.
//!
//! | level | rooms | places | distractors | closed receptacles | goal |
//! |---|---|---|---|---|---|
//! | 1 | 1 | 5 | 2 | no | pick and place |
//! | 2 | 1 | 8 | 4 | yes | pick and place, or one transformation |
//! | 3 | 2 | 12 | 6 | yes | one transformation |
//! | 4 | 3 | 16 | 8 | yes | one or two transformations |
//! | 5 | 3 | 16 | 10 | yes | two transformations (clean and hot/cool) |
//!
//! **Example**: goal "put a clean apple in the fridge": `go to countertop 1`, `take apple from
//! countertop 1`, `go to sinkbasin`, `clean apple with sinkbasin`, `go to fridge`, `open fridge`,
//! `put apple in fridge`.
//!
//! **Oracle**: a planner over what it has seen: explores unseen receptacles (current room first,
//! opening closed ones) until it has seen an object of the goal type, takes it, applies the
//! missing transformations at the appliances, then opens the goal receptacle and puts it there.
//! Exact within the turn limit (1.0).
//!
//! **Failure modes**: forgetting to open receptacles, carrying the object to the goal before
//! transforming it, revisiting searched places, and holding the wrong object.

use super::text_common::{clip, spec, Ledger, ANSWER_HINT};
use crate::{EnvEntry, ScriptedEnv};
use gauntlet_core::{AgentId, Difficulty, Env, EnvError, EnvKind, EnvSpec, Feedback, Observation, Rng};

const ROOMS: [&str; 3] = ["kitchen", "living room", "bedroom"];
/// Places per room: (name, openable, preposition is `on`).
const PLACES: [&[(&str, bool, bool)]; 3] = [
    &[
        ("fridge", true, false),
        ("microwave", true, false),
        ("sinkbasin", false, false),
        ("countertop 1", false, true),
        ("cabinet 1", true, false),
        ("countertop 2", false, true),
        ("cabinet 2", true, false),
        ("drawer 1", true, false),
    ],
    &[
        ("sofa", false, true),
        ("coffeetable", false, true),
        ("shelf 1", false, true),
        ("drawer 2", true, false),
    ],
    &[("bed", false, true), ("desk", false, true), ("shelf 2", false, true), ("drawer 3", true, false)],
];
/// (rooms, kitchen places, distractors, closed receptacles)
const LEVELS: [(usize, usize, usize, bool); 5] =
    [(1, 5, 2, false), (1, 8, 4, true), (2, 8, 6, true), (3, 8, 8, true), (3, 8, 10, true)];
/// Goal object types: (name, can be heated/cooled).
const TYPES: [(&str, bool); 12] = [
    ("apple", true),
    ("tomato", true),
    ("potato", true),
    ("egg", true),
    ("bread", true),
    ("mug", true),
    ("cup", true),
    ("plate", false),
    ("bowl", false),
    ("book", false),
    ("pen", false),
    ("remote", false),
];
const VERBS: [&str; 11] =
    ["go", "open", "close", "take", "put", "clean", "heat", "cool", "look", "inventory", "examine"];

/// The registry entry.
pub fn entry() -> EnvEntry {
    EnvEntry {
        name: "household",
        kind: EnvKind::MultiTurn,
        seats: 1,
        oracle_success: [1.0; 5],
        make: || Box::new(Household::new()),
    }
}

#[derive(Debug, Clone)]
struct Place {
    name: &'static str,
    room: usize,
    openable: bool,
    open: bool,
    on: bool,
    items: Vec<usize>,
    seen: bool,
}

#[derive(Debug, Clone, Copy, Default, PartialEq)]
struct Obj {
    kind: usize,
    clean: bool,
    hot: bool,
    cold: bool,
}

/// What the goal asks for.
#[derive(Debug, Clone, Copy, Default)]
struct Goal {
    kind: usize,
    clean: bool,
    hot: bool,
    cold: bool,
    dest: usize,
}

/// The household environment.
pub struct Household {
    spec: EnvSpec,
    rooms: usize,
    places: Vec<Place>,
    objs: Vec<Obj>,
    goal: Goal,
    room: usize,
    at: Option<usize>,
    holding: Option<usize>,
    ledger: Ledger,
}

impl Household {
    /// A new environment (call `reset` before use).
    pub fn new() -> Self {
        Household {
            spec: spec("household", "agentic", "Find, transform and place an object in a text household."),
            rooms: 1,
            places: Vec::new(),
            objs: Vec::new(),
            goal: Goal::default(),
            room: 0,
            at: None,
            holding: None,
            ledger: Ledger::new(1),
        }
    }

    fn oname(&self, o: usize) -> &'static str {
        TYPES[self.objs[o].kind].0
    }

    fn place(&self, name: &str) -> Option<usize> {
        self.places.iter().position(|p| p.name == name)
    }

    fn prep(&self, p: usize) -> &'static str {
        if self.places[p].on {
            "on"
        } else {
            "in"
        }
    }

    fn goal_text(&self) -> String {
        let g = self.goal;
        let mut adj = Vec::new();
        if g.clean {
            adj.push("clean");
        }
        if g.hot {
            adj.push("hot");
        }
        if g.cold {
            adj.push("cool");
        }
        adj.push(TYPES[g.kind].0);
        format!("put a {} {} the {}", adj.join(" "), self.prep(g.dest), self.places[g.dest].name)
    }

    fn goal_met(&self) -> bool {
        let g = self.goal;
        self.places[g.dest].items.iter().any(|&o| {
            let x = self.objs[o];
            x.kind == g.kind && (!g.clean || x.clean) && (!g.hot || x.hot) && (!g.cold || x.cold)
        })
    }

    fn visible(&self, p: usize) -> bool {
        !self.places[p].openable || self.places[p].open
    }

    fn contents(&self, p: usize) -> String {
        let names: Vec<&str> = self.places[p].items.iter().map(|&o| self.oname(o)).collect();
        if names.is_empty() {
            "nothing".into()
        } else {
            names.join(", ")
        }
    }

    fn describe_here(&self) -> String {
        match self.at {
            None => format!("You are in the {}.", ROOMS[self.room]),
            Some(p) if !self.visible(p) => {
                format!("You are in the {} at the {}. It is closed.", ROOMS[self.room], self.places[p].name)
            }
            Some(p) => format!(
                "You are in the {} at the {}. {} it: {}.",
                ROOMS[self.room],
                self.places[p].name,
                if self.places[p].on { "On" } else { "In" },
                self.contents(p)
            ),
        }
    }

    /// The admissible commands in the current state.
    fn commands(&self) -> Vec<String> {
        let mut out = Vec::new();
        for (i, p) in self.places.iter().enumerate() {
            if p.room == self.room && self.at != Some(i) {
                out.push(format!("go to {}", p.name));
            }
        }
        for (r, name) in ROOMS.iter().enumerate().take(self.rooms) {
            if r != self.room {
                out.push(format!("go to {name}"));
            }
        }
        if let Some(p) = self.at {
            let pl = &self.places[p];
            if pl.openable {
                out.push(format!("{} {}", if pl.open { "close" } else { "open" }, pl.name));
            }
            if self.visible(p) {
                match self.holding {
                    None => out
                        .extend(pl.items.iter().map(|&o| format!("take {} from {}", self.oname(o), pl.name))),
                    Some(o) => out.push(format!("put {} {} {}", self.oname(o), self.prep(p), pl.name)),
                }
            }
            if let Some(o) = self.holding {
                match pl.name {
                    "sinkbasin" => out.push(format!("clean {} with sinkbasin", self.oname(o))),
                    "microwave" if TYPES[self.objs[o].kind].1 => {
                        out.push(format!("heat {} with microwave", self.oname(o)))
                    }
                    "fridge" if TYPES[self.objs[o].kind].1 => {
                        out.push(format!("cool {} with fridge", self.oname(o)))
                    }
                    _ => {}
                }
            }
            out.push(format!("examine {}", pl.name));
        }
        if let Some(o) = self.holding {
            out.push(format!("examine {}", self.oname(o)));
        }
        out.push("look".into());
        out.push("inventory".into());
        out
    }

    /// Apply an admissible command; returns the message.
    fn apply(&mut self, cmd: &str) -> String {
        let w: Vec<&str> = cmd.split(' ').collect();
        let held = self.holding;
        match w[0] {
            "go" => {
                let target = &cmd[6..];
                if let Some(r) = ROOMS.iter().position(|n| *n == target) {
                    self.room = r;
                    self.at = None;
                    return format!("You go to the {target}.");
                }
                let p = self.place(target).unwrap_or(0);
                self.at = Some(p);
                if self.visible(p) {
                    self.places[p].seen = true;
                }
                self.describe_here()
            }
            "open" | "close" => {
                let p = self.at.unwrap_or(0);
                self.places[p].open = w[0] == "open";
                if w[0] == "open" {
                    self.places[p].seen = true;
                    return format!("You open the {}. In it: {}.", self.places[p].name, self.contents(p));
                }
                format!("You close the {}.", self.places[p].name)
            }
            "take" => {
                let p = self.at.unwrap_or(0);
                let Some(pos) = self.places[p].items.iter().position(|&o| self.oname(o) == w[1]) else {
                    return "Nothing happens.".into();
                };
                let o = self.places[p].items.remove(pos);
                self.holding = Some(o);
                format!("You take the {} from the {}.", w[1], self.places[p].name)
            }
            "put" => {
                let p = self.at.unwrap_or(0);
                if let Some(o) = held {
                    self.places[p].items.push(o);
                }
                self.holding = None;
                format!("You put the {} {} the {}.", w[1], self.prep(p), self.places[p].name)
            }
            "clean" | "heat" | "cool" => {
                if let Some(o) = held {
                    let x = &mut self.objs[o];
                    match w[0] {
                        "clean" => x.clean = true,
                        "heat" => (x.hot, x.cold) = (true, false),
                        _ => (x.hot, x.cold) = (false, true),
                    }
                }
                format!("You {} the {} with the {}.", w[0], w[1], w[3])
            }
            "examine" => {
                let target = &cmd[8..];
                if let Some(o) = held.filter(|&o| self.oname(o) == target) {
                    let x = self.objs[o];
                    let mut s: Vec<&str> = vec![if x.clean { "clean" } else { "dirty" }];
                    if x.hot {
                        s.push("hot");
                    }
                    if x.cold {
                        s.push("cool");
                    }
                    return format!("The {target} is {}.", s.join(" and "));
                }
                self.describe_here()
            }
            "inventory" => match held {
                Some(o) => format!("You hold a {}.", self.oname(o)),
                None => "You hold nothing.".into(),
            },
            _ => {
                let here: Vec<&str> =
                    self.places.iter().filter(|p| p.room == self.room).map(|p| p.name).collect();
                format!("{} You see: {}.", self.describe_here(), here.join(", "))
            }
        }
    }

    /// The oracle's way to a place: the room, then the place, then open it.
    fn reach(&self, p: usize) -> Option<String> {
        if self.places[p].room != self.room {
            return Some(format!("go to {}", ROOMS[self.places[p].room]));
        }
        if self.at != Some(p) {
            return Some(format!("go to {}", self.places[p].name));
        }
        None
    }

    fn reach_open(&self, p: usize) -> Option<String> {
        self.reach(p).or_else(|| (!self.visible(p)).then(|| format!("open {}", self.places[p].name)))
    }
}

impl Default for Household {
    fn default() -> Self {
        Self::new()
    }
}

/// `put x on y` and `put x in y` are the same command.
fn norm(cmd: &str) -> String {
    cmd.replace(" on ", " in ")
}

impl Env for Household {
    fn spec(&self) -> &EnvSpec {
        &self.spec
    }

    fn reset(&mut self, seed: u64, difficulty: Difficulty) -> Result<(), EnvError> {
        let mut rng = Rng::for_instance("household", seed, difficulty.level());
        let (rooms, kitchen, distractors, closed) = difficulty.pick(LEVELS);
        self.rooms = rooms;
        self.places = (0..rooms)
            .flat_map(|r| PLACES[r].iter().take(if r == 0 { kitchen } else { 4 }).map(move |&t| (r, t)))
            .map(|(room, (name, openable, on))| Place {
                name,
                room,
                openable,
                open: !(openable && closed),
                on,
                items: Vec::new(),
                seen: false,
            })
            .collect();
        let level = difficulty.level();
        // transformations: 0 none, 1 one, 2 two
        let steps = match level {
            1 => 0,
            2 => rng.index(2),
            3 => 1,
            4 => 1 + rng.index(2),
            _ => 2,
        };
        let pool: Vec<usize> = (0..TYPES.len()).filter(|&k| steps == 0 || k < 9).collect();
        let kind = pool[rng.index(pool.len())];
        let heatable = TYPES[kind].1;
        let mut goal = Goal { kind, ..Goal::default() };
        let temp = |rng: &mut Rng, g: &mut Goal| {
            if rng.chance(0.5) {
                g.hot = true
            } else {
                g.cold = true
            }
        };
        match (steps, heatable) {
            (0, _) => {}
            (1, false) => goal.clean = true,
            (1, true) => match rng.index(3) {
                0 => goal.clean = true,
                _ => temp(&mut rng, &mut goal),
            },
            (_, false) => goal.clean = true,
            (_, true) => {
                goal.clean = true;
                temp(&mut rng, &mut goal);
            }
        }
        let dests: Vec<usize> = (0..self.places.len())
            .filter(|&p| !matches!(self.places[p].name, "microwave" | "sinkbasin"))
            .collect();
        goal.dest = dests[rng.index(dests.len())];
        self.goal = goal;
        self.objs = vec![Obj { kind, ..Obj::default() }];
        let others: Vec<usize> = (0..self.places.len()).filter(|&p| p != goal.dest).collect();
        self.places[others[rng.index(others.len())]].items.push(0);
        let kinds: Vec<usize> = (0..TYPES.len()).filter(|&k| k != kind).collect();
        for i in 0..distractors {
            self.objs.push(Obj { kind: kinds[rng.index(kinds.len())], ..Obj::default() });
            let p = rng.index(self.places.len());
            self.places[p].items.push(i + 1);
        }
        self.room = 0;
        self.at = None;
        self.holding = None;
        self.ledger = Ledger::new(2 * self.places.len() + 3 * rooms + 12);
        Ok(())
    }

    fn to_act(&self) -> Option<AgentId> {
        (!self.ledger.done).then_some(AgentId(0))
    }

    fn observe(&self, _agent: AgentId) -> Observation {
        let held = self.holding.map_or("nothing", |o| self.oname(o));
        let text = format!(
            "Household: reach the goal with one command per turn. You hold at most one object; a receptacle's \
             contents show when you stand at it and it is open. Clean, heat and cool objects at the sinkbasin, \
             microwave and fridge.\nGoal: {goal}.\nRooms: {rooms}.\n{here}\nYou hold: {held}.\n{status}\n\
             Commands: {cmds}\n{ANSWER_HINT}",
            goal = self.goal_text(),
            rooms = ROOMS[..self.rooms].join(", "),
            here = self.describe_here(),
            status = self.ledger.status(),
            cmds = self.commands().join(" | "),
        );
        let state: Vec<String> = self
            .places
            .iter()
            .map(|p| {
                let items: Vec<String> = p.items.iter().map(|o| o.to_string()).collect();
                format!("{}{}", if p.open { 'o' } else { 'c' }, items.join("."))
            })
            .collect();
        let o = self.objs.first().copied().unwrap_or_default();
        Observation {
            text,
            anchor: format!(
                "household|{}|{}|{:?}|{:?}|{}{}{}|{}",
                self.goal_text(),
                self.room,
                self.at,
                self.holding,
                o.clean as u8,
                o.hot as u8,
                o.cold as u8,
                state.join(",")
            ),
        }
    }

    fn act(&mut self, _agent: AgentId, response: &str) -> Feedback {
        let action = match self.ledger.parse(response) {
            Ok(a) => a,
            Err(f) => return f,
        };
        let wanted = norm(&action);
        let Some(cmd) = self.commands().into_iter().find(|c| norm(c) == wanted) else {
            let verb = action.split(' ').next().unwrap_or("");
            let format = !VERBS.contains(&verb);
            return self
                .ledger
                .reject(format, format!("Nothing happens: `{}` is not admissible.", clip(&action)));
        };
        let msg = self.apply(&cmd);
        if self.goal_met() {
            return self.ledger.finish(true, format!("{msg} Goal reached!"));
        }
        self.ledger.advance(msg)
    }

    fn returns(&self) -> Vec<f64> {
        vec![self.ledger.reward]
    }
}

impl ScriptedEnv for Household {
    fn legal_actions(&self) -> Vec<String> {
        if self.ledger.done {
            return Vec::new();
        }
        self.commands()
    }

    fn oracle_action(&self, _rng: &mut Rng) -> String {
        let g = self.goal;
        if let Some(o) = self.holding {
            let x = self.objs[o];
            let name = self.oname(o);
            let needs = [
                (g.clean && !x.clean, "clean", "sinkbasin"),
                (g.hot && !x.hot, "heat", "microwave"),
                (g.cold && !x.cold, "cool", "fridge"),
            ];
            if let Some((_, verb, app)) = needs.iter().find(|n| n.0) {
                let p = self.place(app).unwrap_or(0);
                return self.reach(p).unwrap_or_else(|| format!("{verb} {name} with {app}"));
            }
            let d = g.dest;
            return self
                .reach_open(d)
                .unwrap_or_else(|| format!("put {name} {} {}", self.prep(d), self.places[d].name));
        }
        // a seen object of the goal type (contents of seen places are known: only the agent moves things)
        let known = (0..self.places.len())
            .filter(|&p| p != g.dest && self.places[p].seen)
            .find(|&p| self.places[p].items.iter().any(|&o| self.objs[o].kind == g.kind));
        if let Some(p) = known {
            return self
                .reach_open(p)
                .unwrap_or_else(|| format!("take {} from {}", TYPES[g.kind].0, self.places[p].name));
        }
        if let Some(p) = self.at.filter(|&p| !self.places[p].seen) {
            return format!("open {}", self.places[p].name);
        }
        let unseen = |room: usize| {
            (0..self.places.len()).find(|&p| self.places[p].room == room && !self.places[p].seen)
        };
        if let Some(p) = unseen(self.room) {
            return format!("go to {}", self.places[p].name);
        }
        match (0..self.rooms).find(|&r| unseen(r).is_some()) {
            Some(r) => format!("go to {}", ROOMS[r]),
            None => "look".into(),
        }
    }

    fn success(&self) -> bool {
        self.ledger.won
    }
}
