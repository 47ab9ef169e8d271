//! Tool use: answer a numeric question about a hidden table with query tools and a calculator.
//!
//! **Generates** a table `items` of `rows` items (names from a fixed list) with columns `price`
//! (1–50), `stock` (0–30) and `category` (`tools`, `home`, `garden`, `toys`), and a question
//! whose answer is an integer. The values are hidden: the agent uses one tool per turn.
//!
//! Tools: `lookup <item> <column>` → the value; `filter <column> <op> <value>` → matching items;
//! `count <column> <op> <value>` → how many match; `sum <column> [where <column> <op> <value>]`
//! → the total; `calc <expr>` → integer arithmetic with `+ - * /` (truncating division) and
//! parentheses (at most 200 characters); `answer <integer>` ends the episode. Ops: `= != < >
//! <= >=` (`category` takes `=` and `!=` only).
//!
//! **Verifies** the final answer against the ground truth computed at generation: reward 1.0
//! when equal, 0.0 otherwise (done either way). Tool calls with unknown items, columns or ops,
//! bad expressions (division by zero, overflow) or a non-integer answer are invalid; a line
//! with no known tool is a format error. The turn limit truncates the episode.
//!
//! | level | rows | question | turns |
//! |---|---|---|---|
//! | 1 | 5 | the price or stock of one item | 6 |
//! | 2 | 8 | one item's stock value (price × stock) | 8 |
//! | 3 | 12 | the cost of `a` units of one item plus `b` of another | 10 |
//! | 4 | 16 | the level-3 question, or a total / count under a condition | 10 |
//! | 5 | 20 | the total stock value of one category (2–8 items) | 24 |
//!
//! **Example**: "What is the stock value (price × stock) of lamp?" → `lookup lamp price` → 12,
//! `lookup lamp stock` → 7, `calc 12*7` → 84, `answer 84`.
//!
//! **Oracle**: the scripted query plan of the question type, reading every value from the tool
//! results it has seen, then `calc` and `answer` (exact: 1.0).
//!
//! **Failure modes**: answering from guessed values, arithmetic slips without `calc`, missing
//! rows of a filter, and running out of turns on the category question.

use super::text_common::{clip, spec, Ledger, ANSWER_HINT};
use crate::{EnvEntry, ScriptedEnv};
use gauntlet_core::{AgentId, Difficulty, Env, EnvError, EnvKind, EnvSpec, Feedback, Observation, Rng};

const ROWS: [usize; 5] = [5, 8, 12, 16, 20];
const TURNS: [usize; 5] = [6, 8, 10, 10, 24];
const NAMES: [&str; 24] = [
    "anvil", "basket", "brush", "candle", "clock", "drill", "easel", "fan", "globe", "hammer", "jar",
    "kettle", "lamp", "mirror", "needle", "oar", "pillow", "quilt", "rope", "saw", "tape", "vase", "wrench",
    "yarn",
];
const CATEGORIES: [&str; 4] = ["tools", "home", "garden", "toys"];

/// The registry entry.
pub fn entry() -> EnvEntry {
    EnvEntry {
        name: "tool_calc",
        kind: EnvKind::MultiTurn,
        seats: 1,
        oracle_success: [1.0; 5],
        make: || Box::new(ToolCalc::new()),
    }
}

/// Evaluate an integer expression (`+ - * /`, parentheses, unary minus); `None` on a syntax
/// error, division by zero, overflow or more than 200 characters.
pub fn calc(expr: &str) -> Option<i64> {
    if expr.len() > 200 {
        return None;
    }
    let toks: Vec<char> = expr.chars().filter(|c| !c.is_whitespace()).collect();
    let mut pos = 0;
    let v = sum(&toks, &mut pos, 0)?;
    (pos == toks.len()).then_some(v)
}

fn sum(t: &[char], p: &mut usize, depth: usize) -> Option<i64> {
    let mut v = product(t, p, depth)?;
    while let Some(&c) = t.get(*p) {
        match c {
            '+' | '-' => {
                *p += 1;
                let r = product(t, p, depth)?;
                v = if c == '+' { v.checked_add(r)? } else { v.checked_sub(r)? };
            }
            _ => break,
        }
    }
    Some(v)
}

fn product(t: &[char], p: &mut usize, depth: usize) -> Option<i64> {
    let mut v = atom(t, p, depth)?;
    while let Some(&c) = t.get(*p) {
        match c {
            '*' | '/' | 'x' | '×' => {
                *p += 1;
                let r = atom(t, p, depth)?;
                v = if c == '/' { v.checked_div(r)? } else { v.checked_mul(r)? };
            }
            _ => break,
        }
    }
    Some(v)
}

fn atom(t: &[char], p: &mut usize, depth: usize) -> Option<i64> {
    if depth > 50 {
        return None;
    }
    match t.get(*p)? {
        '(' => {
            *p += 1;
            let v = sum(t, p, depth + 1)?;
            (t.get(*p) == Some(&')')).then(|| *p += 1)?;
            Some(v)
        }
        '-' => {
            *p += 1;
            atom(t, p, depth + 1)?.checked_neg()
        }
        c if c.is_ascii_digit() => {
            let mut v: i64 = 0;
            while let Some(d) = t.get(*p).and_then(|c| c.to_digit(10)) {
                v = v.checked_mul(10)?.checked_add(d as i64)?;
                *p += 1;
            }
            Some(v)
        }
        _ => None,
    }
}

/// One row of the table.
#[derive(Debug, Clone)]
struct Row {
    name: &'static str,
    price: i64,
    stock: i64,
    category: &'static str,
}

/// The question and the plan the oracle follows for it.
#[derive(Debug, Clone)]
enum Question {
    /// One value.
    Value(&'static str, &'static str),
    /// Price × stock of one item.
    StockValue(&'static str),
    /// `a` units of one item plus `b` of another.
    Order(i64, &'static str, i64, &'static str),
    /// An aggregate tool call answers it directly (`sum ...` or `count ...`).
    Aggregate(String),
    /// Σ price × stock over a category.
    CategoryValue(&'static str),
}

/// The tool-use environment.
pub struct ToolCalc {
    spec: EnvSpec,
    rows: Vec<Row>,
    question: Question,
    text: String,
    truth: i64,
    log: Vec<(String, String)>,
    ledger: Ledger,
}

impl ToolCalc {
    /// A new environment (call `reset` before use).
    pub fn new() -> Self {
        ToolCalc {
            spec: spec(
                "tool_calc",
                "agentic",
                "Answer a question about a hidden table with query tools and a calculator.",
            ),
            rows: Vec::new(),
            question: Question::Value("anvil", "price"),
            text: String::new(),
            truth: 0,
            log: Vec::new(),
            ledger: Ledger::new(1),
        }
    }

    fn row(&self, name: &str) -> Option<&Row> {
        self.rows.iter().find(|r| r.name == name)
    }

    /// Rows matching `column op value`, or an error message.
    fn matching(&self, column: &str, op: &str, value: &str) -> Result<Vec<&Row>, String> {
        if column == "category" {
            if !CATEGORIES.contains(&value) {
                return Err(format!("Unknown category `{}`.", clip(value)));
            }
            return match op {
                "=" => Ok(self.rows.iter().filter(|r| r.category == value).collect()),
                "!=" => Ok(self.rows.iter().filter(|r| r.category != value).collect()),
                _ => Err("category takes = or != only.".into()),
            };
        }
        let v: i64 = value.parse().map_err(|_| format!("`{}` is not an integer.", clip(value)))?;
        let get = |r: &Row| {
            if column == "price" {
                Some(r.price)
            } else if column == "stock" {
                Some(r.stock)
            } else {
                None
            }
        };
        if get(&self.rows[0]).is_none() {
            return Err(format!("Unknown column `{}`.", clip(column)));
        }
        let test = |x: i64| match op {
            "=" => Some(x == v),
            "!=" => Some(x != v),
            "<" => Some(x < v),
            ">" => Some(x > v),
            "<=" => Some(x <= v),
            ">=" => Some(x >= v),
            _ => None,
        };
        test(0).ok_or_else(|| format!("Unknown op `{}`.", clip(op)))?;
        Ok(self.rows.iter().filter(|r| get(r).and_then(test).unwrap_or(false)).collect())
    }

    /// Run one tool call; `Err((format_error, message))` when it is not valid.
    fn tool(&self, cmd: &str) -> Result<String, (bool, String)> {
        let w: Vec<&str> = cmd.split(' ').collect();
        let invalid = |m: String| (false, m);
        match w.as_slice() {
            ["lookup", item, column] => {
                let r = self.row(item).ok_or_else(|| invalid(format!("No item `{}`.", clip(item))))?;
                match *column {
                    "price" => Ok(r.price.to_string()),
                    "stock" => Ok(r.stock.to_string()),
                    "category" => Ok(r.category.to_string()),
                    _ => Err(invalid(format!("Unknown column `{}`.", clip(column)))),
                }
            }
            ["filter", c, op, v] => {
                let rows = self.matching(c, op, v).map_err(invalid)?;
                let names: Vec<&str> = rows.iter().map(|r| r.name).collect();
                Ok(if names.is_empty() { "(none)".into() } else { names.join(", ") })
            }
            ["count", c, op, v] => Ok(self.matching(c, op, v).map_err(invalid)?.len().to_string()),
            ["sum", col] | ["sum", col, "where", ..] if *col == "price" || *col == "stock" => {
                let rows = match w.len() {
                    2 => self.rows.iter().collect(),
                    6 => self.matching(w[3], w[4], w[5]).map_err(invalid)?,
                    _ => return Err(invalid("Use `sum <column> where <column> <op> <value>`.".into())),
                };
                Ok(rows
                    .iter()
                    .map(|r| if *col == "price" { r.price } else { r.stock })
                    .sum::<i64>()
                    .to_string())
            }
            ["sum", ..] => Err(invalid("sum takes price or stock.".into())),
            ["calc", ..] => calc(cmd.get(5..).unwrap_or(""))
                .map(|v| v.to_string())
                .ok_or_else(|| invalid("Bad expression.".into())),
            ["lookup" | "filter" | "count", ..] => Err(invalid(format!("Wrong arguments: `{}`.", clip(cmd)))),
            _ => Err((true, format!("Unknown tool in `{}`.", clip(cmd)))),
        }
    }

    /// The result of an earlier tool call, if the agent made it.
    fn seen(&self, cmd: &str) -> Option<&str> {
        self.log.iter().find(|(c, _)| c == cmd).map(|(_, r)| r.as_str())
    }

    /// The next step of a plan: the first lookup not yet made, else the calc, else the answer.
    fn plan(&self, lookups: &[String], expr: impl Fn(&[i64]) -> String) -> String {
        let mut vals = Vec::new();
        for l in lookups {
            match self.seen(l).and_then(|r| r.parse::<i64>().ok()) {
                Some(v) => vals.push(v),
                None => return l.clone(),
            }
        }
        let c = format!("calc {}", expr(&vals));
        match self.seen(&c) {
            Some(r) => format!("answer {r}"),
            None => c,
        }
    }
}

impl Default for ToolCalc {
    fn default() -> Self {
        Self::new()
    }
}

impl Env for ToolCalc {
    fn spec(&self) -> &EnvSpec {
        &self.spec
    }

    fn reset(&mut self, seed: u64, difficulty: Difficulty) -> Result<(), EnvError> {
        let mut rng = Rng::for_instance("tool_calc", seed, difficulty.level());
        let n = difficulty.pick(ROWS);
        let mut idx = rng.sample_indices(NAMES.len(), n);
        idx.sort_unstable();
        self.rows = idx
            .iter()
            .map(|&i| Row {
                name: NAMES[i],
                price: rng.range(1, 50),
                stock: rng.range(0, 30),
                category: CATEGORIES[rng.index(CATEGORIES.len())],
            })
            .collect();
        let pick = |rng: &mut Rng| self.rows[rng.index(n)].clone();
        let level = difficulty.level();
        let kind = if level == 4 { 3 + rng.index(2) } else { level as usize - 1 };
        let (question, text, truth) = match kind {
            0 => {
                let r = pick(&mut rng);
                let col = if rng.chance(0.5) { "price" } else { "stock" };
                let v = if col == "price" { r.price } else { r.stock };
                (Question::Value(r.name, col), format!("What is the {col} of {}?", r.name), v)
            }
            1 => {
                let r = pick(&mut rng);
                (
                    Question::StockValue(r.name),
                    format!("What is the stock value (price x stock) of {}?", r.name),
                    r.price * r.stock,
                )
            }
            2 | 3 => {
                let two = rng.sample_indices(n, 2);
                let (x, y) = (self.rows[two[0]].clone(), self.rows[two[1]].clone());
                let (a, b) = (rng.range(2, 9), rng.range(2, 9));
                (
                    Question::Order(a, x.name, b, y.name),
                    format!("How much do {a} units of {} plus {b} units of {} cost?", x.name, y.name),
                    a * x.price + b * y.price,
                )
            }
            4 => {
                let v = rng.range(10, 40);
                if rng.chance(0.5) {
                    let truth = self.rows.iter().filter(|r| r.price < v).map(|r| r.stock).sum();
                    let q = format!("What is the total stock of the items priced below {v}?");
                    (Question::Aggregate(format!("sum stock where price < {v}")), q, truth)
                } else {
                    let truth = self.rows.iter().filter(|r| r.stock > v / 2).count() as i64;
                    let q = format!("How many items have a stock above {}?", v / 2);
                    (Question::Aggregate(format!("count stock > {}", v / 2)), q, truth)
                }
            }
            _ => {
                let fits: Vec<&str> = CATEGORIES
                    .iter()
                    .copied()
                    .filter(|c| (2..=8).contains(&self.rows.iter().filter(|r| r.category == *c).count()))
                    .collect();
                let c = fits.get(rng.index(fits.len().max(1))).copied().unwrap_or(CATEGORIES[0]);
                let truth = self.rows.iter().filter(|r| r.category == c).map(|r| r.price * r.stock).sum();
                (
                    Question::CategoryValue(c),
                    format!("What is the total stock value (sum of price x stock) of the {c} items?"),
                    truth,
                )
            }
        };
        self.question = question;
        self.text = text;
        self.truth = truth;
        self.log.clear();
        self.ledger = Ledger::new(difficulty.pick(TURNS));
        Ok(())
    }

    fn to_act(&self) -> Option<AgentId> {
        (!self.ledger.done).then_some(AgentId(0))
    }

    fn observe(&self, _agent: AgentId) -> Observation {
        let names: Vec<&str> = self.rows.iter().map(|r| r.name).collect();
        let log: Vec<String> = self.log.iter().map(|(c, r)| format!("{c} -> {r}")).collect();
        let text = format!(
            "Tool use: answer the question with the table tools, one call per turn. Table `items`: rows {rows}; \
             columns price, stock, category ({cats}).\nQuestion: {q}\nTools: lookup <item> <column> | filter \
             <column> <op> <value> | count <column> <op> <value> | sum <column> [where <column> <op> <value>] | \
             calc <expr> (integers, + - * / and parentheses) | answer <integer> (final). Ops: = != < > <= >=.\n\
             Results:\n{log}\n{status}\n{ANSWER_HINT}",
            rows = names.join(", "),
            cats = CATEGORIES.join(", "),
            q = self.text,
            log = if log.is_empty() { "(none)".into() } else { log.join("\n") },
            status = self.ledger.status(),
        );
        let mut calls: Vec<&str> = self.log.iter().map(|(c, _)| c.as_str()).collect();
        calls.sort_unstable();
        calls.dedup();
        Observation {
            text,
            anchor: format!("tool_calc|{}|{}|{}", self.text, calls.join(";"), self.ledger.turns),
        }
    }

    fn act(&mut self, _agent: AgentId, response: &str) -> Feedback {
        let action = match self.ledger.parse(response) {
            Ok(a) => a,
            Err(f) => return f,
        };
        if let Some(v) = action.strip_prefix("answer") {
            let Ok(v) = v.trim().replace(',', "").parse::<i64>() else {
                return self.ledger.reject(false, format!("`{}` is not an integer answer.", clip(v.trim())));
            };
            return if v == self.truth {
                self.ledger.finish(true, format!("{v} is correct."))
            } else {
                self.ledger.finish(false, format!("{v} is wrong; the answer was {}.", self.truth))
            };
        }
        match self.tool(&action) {
            Ok(result) => {
                let msg = format!("{action} -> {result}");
                self.log.push((action, result));
                self.ledger.advance(msg)
            }
            Err((format, msg)) => self.ledger.reject(format, msg),
        }
    }

    fn returns(&self) -> Vec<f64> {
        vec![self.ledger.reward]
    }
}

impl ScriptedEnv for ToolCalc {
    /// A sample: every lookup, one filter and count per category, a sum, a calc and a few answers.
    fn legal_actions(&self) -> Vec<String> {
        if self.ledger.done {
            return Vec::new();
        }
        let mut out = Vec::new();
        for r in &self.rows {
            out.push(format!("lookup {} price", r.name));
            out.push(format!("lookup {} stock", r.name));
        }
        for c in CATEGORIES {
            out.push(format!("filter category = {c}"));
        }
        out.extend(
            ["count price < 25", "sum stock", "calc 1+1", "answer 0", "answer 10", "answer 100"]
                .map(String::from),
        );
        out
    }

    fn oracle_action(&self, _rng: &mut Rng) -> String {
        let look = |n: &str, c: &str| format!("lookup {n} {c}");
        match &self.question {
            Question::Value(n, c) => self.plan(&[look(n, c)], |v| v[0].to_string()),
            Question::StockValue(n) => {
                self.plan(&[look(n, "price"), look(n, "stock")], |v| format!("{}*{}", v[0], v[1]))
            }
            Question::Order(a, x, b, y) => {
                self.plan(&[look(x, "price"), look(y, "price")], |v| format!("{a}*{}+{b}*{}", v[0], v[1]))
            }
            Question::Aggregate(cmd) => match self.seen(cmd) {
                Some(r) => format!("answer {r}"),
                None => cmd.clone(),
            },
            Question::CategoryValue(c) => {
                let filter = format!("filter category = {c}");
                let Some(names) = self.seen(&filter) else { return filter };
                let names: Vec<&str> = names.split(", ").filter(|s| *s != "(none)").collect();
                let lookups: Vec<String> =
                    names.iter().flat_map(|n| [look(n, "price"), look(n, "stock")]).collect();
                self.plan(&lookups, |v| {
                    let terms: Vec<String> = v.chunks(2).map(|p| format!("{}*{}", p[0], p[1])).collect();
                    if terms.is_empty() {
                        "0".into()
                    } else {
                        terms.join("+")
                    }
                })
            }
        }
    }

    fn success(&self) -> bool {
        self.ledger.won
    }
}
