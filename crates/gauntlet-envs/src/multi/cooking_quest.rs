//! Cooking quest (TextWorld's "cooking" games, as in BALROG's TextWorld tasks): read the cookbook
//! in the kitchen, gather its ingredients from rooms and containers, cut and cook each exactly as
//! it says, then prepare the meal and eat it.
//!
//! **Generates** a house of rooms on a 3×3 map joined along a random spanning tree (exits are
//! compass directions; from level 3 each exit has a closed door with probability 1/2), one
//! supporter (counter, shelf, bench, …; always open) and one container (fridge, cupboard,
//! crate, …; closed from level 2) per room, the cookbook, the stove and the oven in the
//! kitchen, a bbq in the backyard when there is one, a knife, the recipe's ingredients and
//! distractor foods on floors, supporters and in containers. The recipe (hidden until `read
//! cookbook`) lists each ingredient with the cut it needs (sliced, diced, chopped or none) and
//! the cooking (fried, roasted, grilled or none). Layouts the oracle cannot finish within the
//! turn limit are redrawn (none in seeds 0–199).
//!
//! **Plays** (one command per turn): `go <direction>` (or just `north | south | east | west`)
//! through an exit (a closed door blocks it), `open <direction>` (a door) or `open <container>`,
//! `take <item>` (on the floor, a supporter or in an open container of this room), `drop
//! <item>`, `read cookbook` (in the kitchen), `slice | dice | chop <item> with knife` (holding
//! both), `fry <item> with stove`, `roast <item> with oven` (in the kitchen) and `grill <item>
//! with bbq` (in the backyard), holding the item; `prepare meal` in the kitchen while carrying
//! every ingredient processed as the recipe says (they become the meal); `eat meal`. An item
//! can be cut once and cooked once. The agent sees only the room it is in, and a container's
//! contents only while it is open.
//!
//! **Reward**: 1.0 for eating the prepared meal (success). Processing an ingredient of the recipe
//! in a way the recipe does not list (another cut, a cut or a cooking it does not ask for)
//! ruins it: the episode ends with 0. Distractor foods may be processed freely. Commands that
//! do not apply (a closed door, an item not here, a missing tool) are invalid; other text is a
//! format error; both count against the allowance of errors. The turn limit truncates.
//!
//! | level | rooms | ingredients | processing | doors | containers | distractors | turns |
//! |---|---|---|---|---|---|---|---|
//! | 1 | 1 | 1 | none | – | open | 2 | 8 |
//! | 2 | 2 | 2 | one ingredient cut | – | closed | 3 | 25 |
//! | 3 | 3 | 2 | random cut and cooking, at least one step | half closed | closed | 4 | 50 |
//! | 4 | 5 | 3 | at least one step per ingredient | half closed | closed | 6 | 90 |
//! | 5 | 7 | 4 | a cut and a cooking per ingredient | half closed | closed | 8 | 130 |
//!
//! At levels 1–2 the agent starts in the kitchen and the knife lies on its counter; from level 3
//! it starts in a random room and the knife lies anywhere.
//!
//! **Example** (level 2): `read cookbook` → "carrot (sliced); tomato" → `open fridge`, `take
//! carrot`, `take knife`, `slice carrot with knife`, `go east`, `take tomato`, `go west`,
//! `prepare meal`, `eat meal` → 1.0.
//!
//! **Oracle**: a planner over what the agent has seen (visited rooms, opened containers, the
//! cookbook once read): finds the kitchen and reads the cookbook first; processes a carried
//! ingredient as soon as it can (knife carried, at the appliance); takes needed items (the
//! ingredients, the knife while a cut is missing) in the room it is in; walks (opening doors)
//! to the nearest room holding a needed item it has seen, or an appliance it needs; otherwise
//! explores (opens the container here, then walks to the nearest unvisited room or unopened
//! container); prepares the meal in the kitchen and eats it. Exact on generated houses (1.0).
//!
//! **Failure modes**: cooking before reading the cookbook, the wrong cut (diced for sliced),
//! frying what should be roasted, forgetting closed containers and doors, leaving the knife
//! behind, preparing the meal outside the kitchen.

use super::ledger::Outcome;
use super::shell::{verb, Step, World};
use gauntlet_core::Rng;
use std::collections::VecDeque;

const DIRS: [&str; 4] = ["north", "south", "east", "west"];
/// Grid step of each direction (`dx`, `dy`; north is up).
const DELTA: [(i32, i32); 4] = [(0, -1), (0, 1), (1, 0), (-1, 0)];
/// Rooms: (name, supporter, container). Room 0 is the kitchen (stove, oven, cookbook); room 3
/// is the backyard (bbq).
const ROOMS: [(&str, &str, &str); 8] = [
    ("kitchen", "counter", "fridge"),
    ("pantry", "shelf", "cupboard"),
    ("garden", "patch", "basket"),
    ("backyard", "bench", "crate"),
    ("living room", "sofa", "chest"),
    ("shed", "workbench", "toolbox"),
    ("cellar", "rack", "barrel"),
    ("porch", "stool", "box"),
];
const KITCHEN: usize = 0;
const BACKYARD: usize = 3;
const FOODS: [&str; 16] = [
    "carrot", "potato", "onion", "tomato", "pepper", "cucumber", "mushroom", "chicken", "tuna", "apple",
    "banana", "cheese", "lettuce", "eggplant", "zucchini", "sausage",
];
/// Cuts: (verb, past participle).
const CUTS: [(&str, &str); 3] = [("slice", "sliced"), ("dice", "diced"), ("chop", "chopped")];
/// Cookings: (verb, past participle, appliance, room of the appliance).
const COOKS: [(&str, &str, &str, usize); 3] = [
    ("fry", "fried", "stove", KITCHEN),
    ("roast", "roasted", "oven", KITCHEN),
    ("grill", "grilled", "bbq", BACKYARD),
];

/// One level's parameters.
#[derive(Debug, Clone, Copy)]
struct Level {
    rooms: usize,
    ingredients: usize,
    /// 0 none, 1 one ingredient cut, 2 random (at least one step), 3 at least one step per
    /// ingredient, 4 a cut and a cooking per ingredient.
    process: u8,
    doors: bool,
    closed: bool,
    distractors: usize,
    turns: u32,
}

const LEVELS: [Level; 5] = [
    Level { rooms: 1, ingredients: 1, process: 0, doors: false, closed: false, distractors: 2, turns: 8 },
    Level { rooms: 2, ingredients: 2, process: 1, doors: false, closed: true, distractors: 3, turns: 25 },
    Level { rooms: 3, ingredients: 2, process: 2, doors: true, closed: true, distractors: 4, turns: 50 },
    Level { rooms: 5, ingredients: 3, process: 3, doors: true, closed: true, distractors: 6, turns: 90 },
    Level { rooms: 7, ingredients: 4, process: 4, doors: true, closed: true, distractors: 8, turns: 130 },
];

/// Where an item is (rooms are indices into the world's rooms).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Place {
    Floor(usize),
    On(usize),
    In(usize),
    Held,
    /// Became part of the meal.
    Used,
}

#[derive(Debug, Clone)]
struct Item {
    name: &'static str,
    place: Place,
    cut: Option<usize>,
    cook: Option<usize>,
    seen: bool,
}

/// One line of the recipe: item index, cut, cooking.
type Line = (usize, Option<usize>, Option<usize>);

/// The cooking quest world.
#[derive(Debug, Clone)]
pub struct CookingQuest {
    /// Kind of each room (index into [`ROOMS`]); room 0 is the kitchen.
    kinds: Vec<usize>,
    exits: Vec<[Option<usize>; 4]>,
    closed_door: Vec<[bool; 4]>,
    container_open: Vec<bool>,
    visited: Vec<bool>,
    /// Items; index 0 is the knife.
    items: Vec<Item>,
    recipe: Vec<Line>,
    read: bool,
    meal: bool,
    here: usize,
    level: Level,
}

impl CookingQuest {
    fn room_name(&self, r: usize) -> &'static str {
        ROOMS[self.kinds[r]].0
    }

    fn visible(&self, p: Place) -> bool {
        match p {
            Place::Floor(r) | Place::On(r) => r == self.here,
            Place::In(r) => r == self.here && self.container_open[r],
            Place::Held => true,
            Place::Used => false,
        }
    }

    fn look(&mut self) {
        self.visited[self.here] = true;
        for i in 0..self.items.len() {
            if self.visible(self.items[i].place) {
                self.items[i].seen = true;
            }
        }
    }

    fn item(&self, name: &str) -> Option<usize> {
        self.items.iter().position(|it| it.name == name)
    }

    fn held(&self, i: usize) -> bool {
        self.items[i].place == Place::Held
    }

    /// The room of the appliance `a` (an index into [`COOKS`]), if the house has it.
    fn appliance_room(&self, a: usize) -> Option<usize> {
        self.kinds.iter().position(|&k| k == COOKS[a].3)
    }

    fn line(&self, i: usize) -> Option<Line> {
        self.recipe.iter().copied().find(|l| l.0 == i)
    }

    fn ready(&self, (i, cut, cook): Line) -> bool {
        self.held(i) && self.items[i].cut == cut && self.items[i].cook == cook
    }

    fn state_text(&self, i: usize) -> String {
        let it = &self.items[i];
        let parts: Vec<&str> =
            [it.cut.map(|c| CUTS[c].1), it.cook.map(|c| COOKS[c].1)].into_iter().flatten().collect();
        if parts.is_empty() {
            it.name.to_string()
        } else {
            format!("{} ({})", it.name, parts.join(", "))
        }
    }

    fn recipe_text(&self) -> String {
        let lines: Vec<String> = self
            .recipe
            .iter()
            .map(|&(i, cut, cook)| {
                let parts: Vec<&str> =
                    [cut.map(|c| CUTS[c].1), cook.map(|c| COOKS[c].1)].into_iter().flatten().collect();
                if parts.is_empty() {
                    format!("{} (as it is)", self.items[i].name)
                } else {
                    format!("{} ({})", self.items[i].name, parts.join(", "))
                }
            })
            .collect();
        lines.join("; ")
    }

    fn names_at(&self, p: Place) -> String {
        let names: Vec<String> =
            (0..self.items.len()).filter(|&i| self.items[i].place == p).map(|i| self.state_text(i)).collect();
        if names.is_empty() {
            "nothing".into()
        } else {
            names.join(", ")
        }
    }

    fn go(&mut self, d: usize) -> Result<String, String> {
        let t = self.exits[self.here][d].ok_or(format!("There is no exit {}.", DIRS[d]))?;
        if self.closed_door[self.here][d] {
            return Err(format!("The door {} is closed.", DIRS[d]));
        }
        self.here = t;
        self.look();
        Ok(format!("You go {} to the {}.", DIRS[d], self.room_name(t)))
    }

    fn open(&mut self, what: &str) -> Result<String, String> {
        if let Some(d) = DIRS.iter().position(|&x| x == what) {
            if !self.closed_door[self.here][d] {
                return Err(format!("There is no closed door {what}."));
            }
            let t = self.exits[self.here][d].unwrap_or(self.here);
            self.closed_door[self.here][d] = false;
            self.closed_door[t][opposite(d)] = false;
            return Ok(format!("You open the door {what}."));
        }
        let (_, _, container) = ROOMS[self.kinds[self.here]];
        if what != container {
            return Err(format!("There is no {what} to open here."));
        }
        if self.container_open[self.here] {
            return Err(format!("The {what} is already open."));
        }
        self.container_open[self.here] = true;
        self.look();
        Ok(format!("You open the {what}. In it: {}.", self.names_at(Place::In(self.here))))
    }

    /// Cut or cook item `i` (`cut`: a [`CUTS`] index; else `cook`: a [`COOKS`] index).
    fn process(
        &mut self,
        i: usize,
        cut: Option<usize>,
        cook: Option<usize>,
    ) -> Result<(String, bool), String> {
        let name = self.items[i].name;
        if !self.held(i) {
            return Err(format!("You do not carry the {name}."));
        }
        if i == 0 {
            return Err("The knife is a tool, not food.".into());
        }
        if let Some(c) = cut {
            if !self.held(0) {
                return Err("You need to carry the knife.".into());
            }
            if let Some(old) = self.items[i].cut {
                return Err(format!("The {name} is already {}.", CUTS[old].1));
            }
            self.items[i].cut = Some(c);
        }
        if let Some(c) = cook {
            if self.appliance_room(c) != Some(self.here) {
                return Err(format!("There is no {} here.", COOKS[c].2));
            }
            if let Some(old) = self.items[i].cook {
                return Err(format!("The {name} is already {}.", COOKS[old].1));
            }
            self.items[i].cook = Some(c);
        }
        let done = cut.map_or_else(|| COOKS[cook.unwrap_or(0)].1, |c| CUTS[c].1);
        let ruined = self.line(i).is_some_and(|(_, want_cut, want_cook)| {
            (cut.is_some() && cut != want_cut) || (cook.is_some() && cook != want_cook)
        });
        if ruined {
            return Ok((
                format!("You {done} the {name}, but the recipe does not ask for that: the meal is ruined."),
                true,
            ));
        }
        Ok((format!("The {name} is now {done}."), false))
    }

    /// Apply one command: the message and whether the episode ended (won / lost), or the reason
    /// it is refused (empty: not in the grammar).
    fn apply(&mut self, action: &str) -> Result<(String, Outcome), String> {
        let (v, rest) = verb(action);
        let cont = |m: String| Ok((m, Outcome::Continue));
        if let Some(d) = DIRS.iter().position(|&x| x == v) {
            return if rest.is_empty() { self.go(d).and_then(cont) } else { Err(String::new()) };
        }
        match (v.as_str(), rest) {
            ("go", r) => match DIRS.iter().position(|&x| x == r) {
                Some(d) => self.go(d).and_then(cont),
                None => Err(String::new()),
            },
            ("open", r) if !r.is_empty() => self.open(r).and_then(cont),
            ("take", r) if !r.is_empty() => {
                let i = self.item(r).filter(|&i| !self.held(i) && self.visible(self.items[i].place));
                let i = i.ok_or(format!("You see no {r} here."))?;
                self.items[i].place = Place::Held;
                cont(format!("You take the {r}."))
            }
            ("drop", r) if !r.is_empty() => {
                let i = self.item(r).filter(|&i| self.held(i)).ok_or(format!("You do not carry a {r}."))?;
                self.items[i].place = Place::Floor(self.here);
                cont(format!("You drop the {r}."))
            }
            ("read", "cookbook") => {
                if self.kinds[self.here] != KITCHEN {
                    return Err("The cookbook is in the kitchen.".into());
                }
                self.read = true;
                cont(format!("The cookbook says: {}.", self.recipe_text()))
            }
            ("prepare", "meal") => {
                if self.kinds[self.here] != KITCHEN {
                    return Err("You can prepare the meal only in the kitchen.".into());
                }
                if !self.recipe.iter().all(|&l| self.ready(l)) {
                    return Err(
                        "You need every ingredient of the cookbook, processed as it says, in your inventory."
                            .into(),
                    );
                }
                for l in self.recipe.clone() {
                    self.items[l.0].place = Place::Used;
                }
                self.meal = true;
                cont("You prepare the meal.".into())
            }
            ("eat", "meal") => match self.meal {
                true => Ok(("You eat the meal. Delicious!".into(), Outcome::Won)),
                false => Err("You have no meal; prepare it first.".into()),
            },
            (v, r) => {
                let (name, tool) = r.split_once(" with ").ok_or(String::new())?;
                let cut = CUTS.iter().position(|c| c.0 == v);
                let cook = COOKS.iter().position(|c| c.0 == v);
                let expected = match (cut, cook) {
                    (Some(_), _) => "knife",
                    (_, Some(c)) => COOKS[c].2,
                    _ => return Err(String::new()),
                };
                if tool != expected {
                    return Err(format!("You {v} with the {expected}."));
                }
                let i = self.item(name).ok_or(format!("You do not carry a {name}."))?;
                let (msg, ruined) = self.process(i, cut, cook)?;
                Ok((msg, if ruined { Outcome::Lost } else { Outcome::Continue }))
            }
        }
    }

    /// First direction of a shortest walk over the known map to a room satisfying `goal`.
    fn route(&self, goal: impl Fn(usize) -> bool) -> Option<usize> {
        let n = self.kinds.len();
        let mut first: Vec<Option<usize>> = vec![None; n];
        let mut seen = vec![false; n];
        seen[self.here] = true;
        let mut queue = VecDeque::from([self.here]);
        while let Some(r) = queue.pop_front() {
            if r != self.here && goal(r) {
                return first[r];
            }
            if !self.visited[r] {
                continue;
            }
            for d in 0..4 {
                if let Some(t) = self.exits[r][d].filter(|&t| !seen[t]) {
                    seen[t] = true;
                    first[t] = first[r].or(Some(d));
                    queue.push_back(t);
                }
            }
        }
        None
    }

    /// The step towards the nearest room satisfying `goal` (opening a closed door first).
    fn walk(&self, goal: impl Fn(usize) -> bool) -> Option<String> {
        let d = self.route(goal)?;
        Some(if self.closed_door[self.here][d] {
            format!("open {}", DIRS[d])
        } else {
            format!("go {}", DIRS[d])
        })
    }

    /// The oracle's command: a planner over what the agent has seen.
    fn plan(&self) -> String {
        if self.meal {
            return "eat meal".into();
        }
        let explore = |w: &Self| {
            if !w.container_open[w.here] {
                return format!("open {}", ROOMS[w.kinds[w.here]].2);
            }
            w.walk(|r| !w.visited[r] || !w.container_open[r]).unwrap_or_else(|| "go north".into())
        };
        if !self.read {
            if self.kinds[self.here] == KITCHEN {
                return "read cookbook".into();
            }
            return self
                .walk(|r| self.visited[r] && self.kinds[r] == KITCHEN)
                .unwrap_or_else(|| explore(self));
        }
        // Process what can be processed here.
        for &(i, cut, cook) in &self.recipe {
            if !self.held(i) {
                continue;
            }
            if let (Some(c), None, true) = (cut, self.items[i].cut, self.held(0)) {
                return format!("{} {} with knife", CUTS[c].0, self.items[i].name);
            }
            if let (Some(c), None) = (cook, self.items[i].cook) {
                if self.appliance_room(c) == Some(self.here) {
                    return format!("{} {} with {}", COOKS[c].0, self.items[i].name, COOKS[c].2);
                }
            }
        }
        let knife_needed =
            self.recipe.iter().any(|&(i, cut, _)| cut.is_some() && self.items[i].cut.is_none());
        let needed: Vec<usize> = self
            .recipe
            .iter()
            .map(|l| l.0)
            .chain(knife_needed.then_some(0))
            .filter(|&i| !self.held(i))
            .collect();
        if let Some(&i) = needed.iter().find(|&&i| self.visible(self.items[i].place)) {
            return format!("take {}", self.items[i].name);
        }
        if self.recipe.iter().all(|&l| self.ready(l)) {
            if self.kinds[self.here] == KITCHEN {
                return "prepare meal".into();
            }
            return self.walk(|r| self.kinds[r] == KITCHEN).unwrap_or_else(|| explore(self));
        }
        // Rooms worth walking to: seen needed items, appliances carried ingredients need.
        let mut targets: Vec<usize> = needed
            .iter()
            .filter(|&&i| self.items[i].seen)
            .filter_map(|&i| match self.items[i].place {
                Place::Floor(r) | Place::On(r) | Place::In(r) => Some(r),
                _ => None,
            })
            .collect();
        for &(i, _, cook) in &self.recipe {
            if let (true, Some(c), None) = (self.held(i), cook, self.items[i].cook) {
                targets.extend(self.appliance_room(c).filter(|&r| self.visited[r]));
            }
        }
        if let Some(step) = self.walk(|r| targets.contains(&r)) {
            return step;
        }
        explore(self)
    }

    /// One random house.
    fn layout(rng: &mut Rng, lv: Level) -> CookingQuest {
        // Room kinds: the kitchen and `rooms - 1` others.
        let mut kinds = vec![KITCHEN];
        kinds.extend(rng.sample_indices(ROOMS.len() - 1, lv.rooms - 1).into_iter().map(|k| k + 1));
        let n = kinds.len();
        let mut cell = vec![(rng.index(3) as i32, rng.index(3) as i32)];
        let mut exits = vec![[None; 4]; n];
        while cell.len() < n {
            let r = rng.index(cell.len());
            let d = rng.index(4);
            let (x, y) = (cell[r].0 + DELTA[d].0, cell[r].1 + DELTA[d].1);
            if !(0..3).contains(&x) || !(0..3).contains(&y) || cell.contains(&(x, y)) {
                continue;
            }
            let t = cell.len();
            cell.push((x, y));
            exits[r][d] = Some(t);
            exits[t][opposite(d)] = Some(r);
        }
        let mut closed_door = vec![[false; 4]; n];
        if lv.doors {
            for r in 0..n {
                for d in 0..4 {
                    if let Some(t) = exits[r][d].filter(|&t| t > r) {
                        if rng.chance(0.5) {
                            closed_door[r][d] = true;
                            closed_door[t][opposite(d)] = true;
                        }
                    }
                }
            }
        }
        let foods = rng.sample_indices(FOODS.len(), lv.ingredients + lv.distractors);
        let place = |rng: &mut Rng| {
            let r = rng.index(n);
            [Place::Floor(r), Place::On(r), Place::In(r)][rng.index(3)]
        };
        let knife = if lv.rooms <= 2 { Place::On(0) } else { place(rng) };
        let mut items = vec![Item { name: "knife", place: knife, cut: None, cook: None, seen: false }];
        for &f in &foods {
            items.push(Item { name: FOODS[f], place: place(rng), cut: None, cook: None, seen: false });
        }
        let recipe = Self::recipe(rng, lv, kinds.contains(&BACKYARD));
        let here = if lv.rooms <= 2 { 0 } else { rng.index(n) };
        let mut w = CookingQuest {
            kinds,
            exits,
            closed_door,
            container_open: vec![!lv.closed; n],
            visited: vec![false; n],
            items,
            recipe,
            read: false,
            meal: false,
            here,
            level: lv,
        };
        w.look();
        w
    }

    /// The recipe over items `1..=ingredients` (the first foods drawn).
    fn recipe(rng: &mut Rng, lv: Level, bbq: bool) -> Vec<Line> {
        let cooks = if bbq { 3 } else { 2 };
        let pick_cut = |rng: &mut Rng| Some(rng.index(3));
        let pick_cook = |rng: &mut Rng| Some(rng.index(cooks));
        let mut lines: Vec<Line> = (1..=lv.ingredients).map(|i| (i, None, None)).collect();
        match lv.process {
            0 => {}
            1 => {
                let k = rng.index(lines.len());
                lines[k].1 = pick_cut(rng);
            }
            2 => loop {
                for l in lines.iter_mut() {
                    l.1 = if rng.chance(0.5) { pick_cut(rng) } else { None };
                    l.2 = if rng.chance(0.5) { pick_cook(rng) } else { None };
                }
                if lines.iter().any(|l| l.1.is_some() || l.2.is_some()) {
                    break;
                }
            },
            3 => {
                for l in lines.iter_mut() {
                    match rng.index(3) {
                        0 => l.1 = pick_cut(rng),
                        1 => l.2 = pick_cook(rng),
                        _ => (l.1, l.2) = (pick_cut(rng), pick_cook(rng)),
                    }
                }
            }
            _ => {
                for l in lines.iter_mut() {
                    (l.1, l.2) = (pick_cut(rng), pick_cook(rng));
                }
            }
        }
        lines
    }

    /// Whether the oracle eats the meal within the turn limit.
    fn oracle_finishes(&self) -> bool {
        let mut sim = self.clone();
        for _ in 0..self.level.turns {
            let a = sim.plan();
            match sim.apply(&a) {
                Ok((_, Outcome::Won)) => return true,
                Ok((_, Outcome::Continue)) => {}
                _ => return false,
            }
        }
        false
    }
}

fn opposite(d: usize) -> usize {
    [1, 0, 3, 2][d]
}

impl World for CookingQuest {
    const NAME: &'static str = "cooking_quest";
    const CATEGORY: &'static str = "text";
    const DESCRIPTION: &'static str =
        "Read the cookbook, gather ingredients across rooms, cut and cook each as the recipe says, prepare and eat the meal.";
    const FLOORS: [f64; 5] = [1.0; 5];

    fn generate(rng: &mut Rng, level: u8) -> Self {
        let lv = LEVELS[level as usize - 1];
        loop {
            let w = Self::layout(rng, lv);
            if w.oracle_finishes() {
                return w;
            }
        }
    }

    fn limit(&self) -> u32 {
        self.level.turns
    }

    fn intro(&self) -> String {
        let bbq = if self.kinds.contains(&BACKYARD) { ", grill with the bbq in the backyard" } else { "" };
        format!(
            "Cooking quest. The house has {} rooms. Read the cookbook in the kitchen, gather the ingredients it \
             lists, process each exactly as it says, then `prepare meal` in the kitchen while carrying them all and \
             `eat meal`.\nRules: cut with the knife (you carry both): slice, dice or chop; cook while carrying \
             the item: fry with the stove and roast with the oven in the kitchen{bbq}. An item can be cut once \
             and cooked once. Processing an ingredient of the recipe in a way it does not list (another cut, a \
             cut or a cooking it does not ask for) ruins the meal and ends the episode as a failure; other foods \
             may be processed freely. You see only the room you are in and a container's contents only while it \
             is open; closed doors block exits until opened.",
            self.kinds.len()
        )
    }

    fn render(&self) -> String {
        let exits: Vec<String> = (0..4)
            .filter_map(|d| {
                self.exits[self.here][d].map(|_| {
                    if self.closed_door[self.here][d] {
                        format!("{} (closed door)", DIRS[d])
                    } else {
                        DIRS[d].into()
                    }
                })
            })
            .collect();
        let (room, supporter, container) = ROOMS[self.kinds[self.here]];
        let exits = if exits.is_empty() { "none".to_string() } else { exits.join(", ") };
        let mut lines = vec![format!("You are in the {room}. Exits: {exits}.")];
        let mut fixtures = format!("On the {supporter}: {}. ", self.names_at(Place::On(self.here)));
        if self.container_open[self.here] {
            fixtures
                .push_str(&format!("In the {container} (open): {}.", self.names_at(Place::In(self.here))));
        } else {
            fixtures.push_str(&format!("The {container} is closed."));
        }
        lines.push(fixtures);
        let floor = self.names_at(Place::Floor(self.here));
        if floor != "nothing" {
            lines.push(format!("On the floor: {floor}."));
        }
        if self.kinds[self.here] == KITCHEN {
            lines.push("Here are the stove, the oven and the cookbook.".into());
        } else if self.kinds[self.here] == BACKYARD {
            lines.push("Here is the bbq.".into());
        }
        let carried = self.names_at(Place::Held);
        let meal = if self.meal { ", the meal" } else { "" };
        lines.push(format!("You carry: {carried}{meal}."));
        if self.read {
            lines.push(format!("Cookbook: {}.", self.recipe_text()));
        } else {
            lines.push("Cookbook: not read yet.".into());
        }
        lines.join("\n")
    }

    fn grammar(&self) -> String {
        "Actions: go <north|south|east|west> | open <direction or container> | take <item> | drop <item> | read \
         cookbook | slice|dice|chop <item> with knife | fry <item> with stove | roast <item> with oven | grill \
         <item> with bbq | prepare meal | eat meal."
            .into()
    }

    fn step(&mut self, action: &str) -> Step {
        match self.apply(&action.to_ascii_lowercase()) {
            Err(why) if why.is_empty() => Step::Format(self.grammar()),
            Err(why) => Step::Invalid(why),
            Ok((what, outcome)) => Step::Done(outcome, what),
        }
    }

    fn legal(&self) -> Vec<String> {
        let mut out = Vec::new();
        for d in 0..4 {
            if self.exits[self.here][d].is_some() {
                out.push(if self.closed_door[self.here][d] {
                    format!("open {}", DIRS[d])
                } else {
                    format!("go {}", DIRS[d])
                });
            }
        }
        if !self.container_open[self.here] {
            out.push(format!("open {}", ROOMS[self.kinds[self.here]].2));
        }
        for (i, it) in self.items.iter().enumerate() {
            if it.place == Place::Held {
                out.push(format!("drop {}", it.name));
                if i > 0 && it.cut.is_none() && self.held(0) {
                    out.extend(CUTS.iter().map(|c| format!("{} {} with knife", c.0, it.name)));
                }
                if i > 0 && it.cook.is_none() {
                    for (c, cook) in COOKS.iter().enumerate() {
                        if self.appliance_room(c) == Some(self.here) {
                            out.push(format!("{} {} with {}", cook.0, it.name, cook.2));
                        }
                    }
                }
            } else if self.visible(it.place) {
                out.push(format!("take {}", it.name));
            }
        }
        if self.kinds[self.here] == KITCHEN {
            out.push("read cookbook".into());
            if self.recipe.iter().all(|&l| self.ready(l)) {
                out.push("prepare meal".into());
            }
        }
        if self.meal {
            out.push("eat meal".into());
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

    fn world(seed: u64, level: u8) -> CookingQuest {
        CookingQuest::generate(&mut Rng::for_instance("cooking_quest", seed, level), level)
    }

    /// Play the world directly with the oracle (`true`) or random legal commands; success.
    fn play(seed: u64, level: u8, oracle: bool) -> bool {
        let mut w = world(seed, level);
        let mut rng = Rng::new(seed);
        for _ in 0..w.limit() {
            let a = if oracle { w.oracle(&mut rng) } else { rng.choose(&w.legal()).unwrap().clone() };
            match w.step(&a) {
                Step::Done(Outcome::Won, _) => return true,
                Step::Done(Outcome::Continue, _) => {}
                Step::Done(Outcome::Lost, m) if !oracle => {
                    assert!(m.contains("ruined"), "{m}");
                    return false;
                }
                other => panic!("level {level} seed {seed}: `{a}` gave {other:?}\n{}", w.render()),
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
            assert!(oracle >= CookingQuest::FLOORS[level as usize - 1], "level {level}: oracle {oracle}");
            assert!(random < oracle - 0.25, "level {level}: random {random} vs oracle {oracle}");
        }
    }

    #[test]
    fn levels_grow() {
        for level in 1..=5u8 {
            let w = world(2, level);
            let lv = LEVELS[level as usize - 1];
            assert_eq!(
                (w.kinds.len(), w.recipe.len(), w.items.len()),
                (lv.rooms, lv.ingredients, 1 + lv.ingredients + lv.distractors)
            );
            if level == 5 {
                assert!(w.recipe.iter().all(|l| l.1.is_some() && l.2.is_some()));
            }
        }
    }

    /// A level-3 world with the first ingredient carried, the knife carried, in the kitchen.
    fn kitchen_world() -> CookingQuest {
        let mut w = world(5, 3);
        w.here = 0;
        w.items[0].place = Place::Held;
        w.items[1].place = Place::Held;
        w.recipe[0] = (1, Some(0), Some(1)); // sliced, roasted
        w
    }

    #[test]
    fn wrong_processing_ruins_the_meal() {
        let mut w = kitchen_world();
        let loose = w.items[w.recipe.len() + 2].name;
        assert!(
            matches!(w.step(&format!("dice {loose} with knife")), Step::Invalid(m) if m.contains("carry"))
        );
        let name = w.items[1].name;
        assert!(
            matches!(w.step(&format!("dice {name} with knife")), Step::Done(Outcome::Lost, m) if m.contains("ruined"))
        );
        let mut w = kitchen_world();
        assert!(matches!(w.step(&format!("fry {name} with stove")), Step::Done(Outcome::Lost, _)));
        let mut w = kitchen_world();
        assert!(
            matches!(w.step(&format!("roast {name} with stove")), Step::Invalid(m) if m.contains("oven"))
        );
        assert!(matches!(w.step(&format!("slice {name} with knife")), Step::Done(Outcome::Continue, _)));
        assert!(
            matches!(w.step(&format!("slice {name} with knife")), Step::Invalid(m) if m.contains("already"))
        );
        assert!(matches!(w.step(&format!("roast {name} with oven")), Step::Done(Outcome::Continue, _)));
        // A distractor may be processed freely.
        let d = w.recipe.len() + 1;
        w.items[d].place = Place::Held;
        let dn = w.items[d].name;
        assert!(matches!(w.step(&format!("chop {dn} with knife")), Step::Done(Outcome::Continue, _)));
        // Preparing needs every ingredient; then the meal can be eaten.
        assert!(matches!(w.step("eat meal"), Step::Invalid(_)));
        assert!(matches!(w.step("prepare meal"), Step::Invalid(_)) || w.recipe.len() == 1);
        for (i, cut, cook) in w.recipe[1..].iter().copied() {
            w.items[i] = Item { place: Place::Held, cut, cook, ..w.items[i].clone() };
        }
        assert!(matches!(w.step("prepare meal"), Step::Done(Outcome::Continue, _)));
        assert!(matches!(w.step("eat meal"), Step::Done(Outcome::Won, _)));
    }

    #[test]
    fn invalid_and_malformed_commands_are_refused() {
        let mut w = world(7, 4);
        for bad in ["cook dinner", "go up", "north please", "slice", "fly", "take", "open"] {
            assert!(matches!(w.step(bad), Step::Format(_)), "`{bad}`");
        }
        assert!(matches!(w.step("take unicorn"), Step::Invalid(_)));
        assert!(matches!(w.step("drop knife"), Step::Invalid(_)));
        assert!(matches!(w.step("prepare meal"), Step::Invalid(_)));
        assert!(matches!(w.step("slice tomato with spoon"), Step::Invalid(_)));
        // A closed door blocks its exit until opened.
        let (r, d) = (0..w.kinds.len())
            .flat_map(|r| (0..4).map(move |d| (r, d)))
            .find(|&(r, d)| w.closed_door[r][d])
            .expect("level 4 has doors");
        w.here = r;
        assert!(matches!(w.step(&format!("go {}", DIRS[d])), Step::Invalid(m) if m.contains("closed")));
        assert!(matches!(w.step(&format!("open {}", DIRS[d])), Step::Done(Outcome::Continue, _)));
        assert!(matches!(w.step(DIRS[d]), Step::Done(Outcome::Continue, _)));
    }

    #[test]
    fn fuzzed_commands_never_panic() {
        let mut rng = Rng::new(38);
        let words = [
            "go", "north", "open", "take", "knife", "with", "stove", "slice", "meal", "eat", "🍳", "",
            "fridge",
        ];
        for level in 1..=5u8 {
            let mut env = Shell::<CookingQuest>::new();
            env.reset(level as u64, Difficulty::new(level).unwrap()).unwrap();
            for _ in 0..300 {
                let s: Vec<&str> = (0..rng.index(5)).map(|_| *rng.choose(&words).unwrap()).collect();
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
        super::super::rates::assert_same_seed_same_transcript("cooking_quest", 5, 0.8);
    }
}

#[cfg(test)]
mod measure {
    /// `cargo test -p gauntlet-envs --lib cooking_quest_rates -- --ignored --nocapture`
    #[test]
    #[ignore]
    fn cooking_quest_rates() {
        super::super::rates::assert_rates("cooking_quest", <super::CookingQuest as super::World>::FLOORS);
    }
}
