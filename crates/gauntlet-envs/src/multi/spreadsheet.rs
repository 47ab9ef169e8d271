//! A spreadsheet tool world (SheetCopilot / tau-bench-style tool use): repair a hidden sheet's
//! formulas and edit one input so that a target cell reaches a value, seeing cells only through
//! `get`.
//!
//! **Generates** a sheet of numbers (1–99) in rows `1..n` of the data columns, a summary row
//! `n+1` where each data column has a formula (`SUM`, `AVG`, `MAX` or `MIN` of its column), and
//! from level 2 a result column with a grand formula combining two summaries (`A7+B7`; from level
//! 4 times a rate cell, `(A7+B7)*E1`; at level 5 a second one, `C7-D7`). The intro states what
//! every formula cell should hold; some formulas are broken (range off by one, wrong function,
//! wrong column, an operator swapped, or overwritten by a pasted constant that shows the right
//! number today). Levels 2–3 name the broken cells; levels 4–5 leave finding them to the agent.
//! The targets: make a formula cell equal a value by changing only one named input cell (the
//! value is reachable with an integer input, computed with the repaired formulas).
//!
//! **Plays**: `get CELL` or `get CELL:CELL` (at most [`MAX_GET`] cells, a larger range is
//! invalid; prints each cell's content and value), `set CELL = NUMBER` or `set CELL = FORMULA`,
//! `check` (which goals pass). Formulas: numbers, cell references, `+ - *`, parentheses and
//! `SUM|AVG|MAX|MIN(CELL:CELL)`; an empty cell counts 0. Setting a cell other than the named
//! inputs and the formula cells, or a formula that makes a cell depend on itself (a cycle), is
//! invalid; an unknown command, a malformed formula or a cell outside the sheet is a format
//! error.
//!
//! **Rewards and check**: the episode is won (1.0) as soon as, after a `set`, every formula cell
//! computes what its description says and every target holds. A formula cell passes when it holds
//! a formula whose value equals the described formula's on the current numbers and on three
//! perturbed copies of the data (so a pasted constant fails, and any equivalent formula such as
//! `A1+A2+A3` for `SUM(A1:A3)` passes); a target passes within [`TOLERANCE`] (0.001; values
//! print rounded to 6 decimals). `check` lists which goals pass without ending the episode. The
//! turn limit truncates with 0.0.
//!
//! | level | data columns × rows | grand formulas | broken formulas | targets | turns |
//! |---|---|---|---|---|---|
//! | 1 | 2 × 4 | none (target: a column `SUM`) | 0 | 1 | 10 |
//! | 2 | 3 × 5 | `A+B` | 1, named | 1 | 16 |
//! | 3 | 3 × 6 | `A+B` | 2, named | 1 | 20 |
//! | 4 | 4 × 7 | `(A+B)*rate` | 2, not named | 1 | 24 |
//! | 5 | 4 × 8 | `(A+B)*rate`, `C-D` | 3, not named | 2 | 34 |
//!
//! **Example** (level 1): "Make A5 equal 212 by changing only A2" → `get A1:A5` (A5 =
//! `=SUM(A1:A4)` → 187, A2 = 40), `set A2 = 65`: won.
//!
//! **Oracle**: reads the formula row when the broken cells are not named (`get` of the row) and
//! sets every wrong formula to its description; then, per target, reads the input and the target
//! cell, nudges the input by one, reads the target again, and sets the input from the observed
//! slope (targets are linear in their input). It uses only what `get` printed and what it set.
//! Exact (1.0 at every level); layouts it cannot finish in the limit are redrawn.
//!
//! **Failure modes**: trusting a pasted constant because it shows the right number, fixing the
//! target before the formulas it depends on, solving with the broken formula, editing cells
//! other than the allowed ones, off-by-one ranges.

use super::ledger::Outcome;
use super::shell::{verb, Step, World};
use gauntlet_core::Rng;

/// Most cells one `get` prints.
pub const MAX_GET: usize = 10;
/// How close a target cell must come to its value (values print rounded to 6 decimals).
pub const TOLERANCE: f64 = 1e-3;

/// Per level: data columns, data rows, grand formulas, broken formulas, broken named, targets,
/// turns.
const LEVELS: [(usize, usize, usize, usize, bool, usize, u32); 5] = [
    (2, 4, 0, 0, true, 1, 10),
    (3, 5, 1, 1, true, 1, 16),
    (3, 6, 1, 2, true, 1, 20),
    (4, 7, 1, 2, false, 1, 24),
    (4, 8, 2, 3, false, 2, 34),
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Func {
    Sum,
    Avg,
    Max,
    Min,
}

const FUNCS: [(Func, &str); 4] =
    [(Func::Sum, "SUM"), (Func::Avg, "AVG"), (Func::Max, "MAX"), (Func::Min, "MIN")];

/// A formula.
#[derive(Debug, Clone, PartialEq)]
enum Expr {
    Num(f64),
    Ref(usize),
    /// A function over the rectangle between two cells.
    Range(Func, usize, usize),
    Bin(Box<Expr>, char, Box<Expr>),
}

#[derive(Debug, Clone, PartialEq)]
enum Cell {
    Empty,
    Num(f64),
    Formula(Expr),
}

/// A target: make `cell` equal `value` by changing only `input`.
#[derive(Debug, Clone, PartialEq)]
struct Target {
    cell: usize,
    input: usize,
    value: f64,
}

/// The spreadsheet world.
#[derive(Debug, Clone)]
pub struct Spreadsheet {
    cols: usize,
    rows: usize,
    cells: Vec<Cell>,
    /// The described formula of every formula cell.
    intents: Vec<(usize, Expr)>,
    /// Broken cells named in the intro.
    named: Vec<usize>,
    /// Some cells are broken and not named: the agent must find them.
    hunt: bool,
    targets: Vec<Target>,
    /// Per cell: its content has been printed by `get` (or set by the agent).
    shown: Vec<bool>,
    /// Values printed or set: (cell, value, sheet version).
    observed: Vec<(usize, f64, u32)>,
    /// Sets so far, the version of the last formula set, and per cell the version of its last set.
    version: u32,
    formula_version: u32,
    set_at: Vec<u32>,
    last: String,
    limit: u32,
}

fn fmt_num(v: f64) -> String {
    let r = (v * 1e6).round() / 1e6;
    if r == r.trunc() && r.abs() < 1e15 {
        format!("{}", r as i64)
    } else {
        format!("{r}")
    }
}

fn col_name(c: usize) -> char {
    (b'A' + c as u8) as char
}

impl Spreadsheet {
    fn name(&self, i: usize) -> String {
        format!("{}{}", col_name(i % self.cols), i / self.cols + 1)
    }

    fn at(&self, col: usize, row: usize) -> usize {
        row * self.cols + col
    }

    /// A cell reference such as `B7` (case-insensitive), inside the sheet.
    fn parse_cell(&self, s: &str) -> Option<usize> {
        let mut chars = s.chars();
        let c = chars.next()?.to_ascii_uppercase();
        let digits = chars.as_str();
        if !c.is_ascii_uppercase()
            || digits.is_empty()
            || digits.len() > 3
            || !digits.bytes().all(|b| b.is_ascii_digit())
        {
            return None;
        }
        let (col, row) = (c as usize - 'A' as usize, digits.parse::<usize>().ok()?);
        (col < self.cols && (1..=self.rows).contains(&row)).then(|| self.at(col, row - 1))
    }

    fn show(&self, e: &Expr) -> String {
        match e {
            Expr::Num(v) => fmt_num(*v),
            Expr::Ref(i) => self.name(*i),
            Expr::Range(f, a, b) => {
                let name = FUNCS.iter().find(|x| x.0 == *f).map_or("SUM", |x| x.1);
                format!("{name}({}:{})", self.name(*a), self.name(*b))
            }
            Expr::Bin(l, op, r) => {
                let wrap = |x: &Expr| match x {
                    Expr::Bin(..) => format!("({})", self.show(x)),
                    _ => self.show(x),
                };
                format!("{}{op}{}", wrap(l), wrap(r))
            }
        }
    }

    /// The cells of the rectangle between `a` and `b`.
    fn rect(&self, a: usize, b: usize) -> Vec<usize> {
        let (c0, c1) = ((a % self.cols).min(b % self.cols), (a % self.cols).max(b % self.cols));
        let (r0, r1) = ((a / self.cols).min(b / self.cols), (a / self.cols).max(b / self.cols));
        (r0..=r1).flat_map(|r| (c0..=c1).map(move |c| (r, c))).map(|(r, c)| self.at(c, r)).collect()
    }

    /// The value of an expression over `cells` (`None` on a cycle).
    fn eval_in(&self, cells: &[Cell], e: &Expr, depth: usize) -> Option<f64> {
        if depth > cells.len() + 1 {
            return None;
        }
        Some(match e {
            Expr::Num(v) => *v,
            Expr::Ref(i) => self.value_in(cells, *i, depth + 1)?,
            Expr::Range(f, a, b) => {
                let vals: Option<Vec<f64>> =
                    self.rect(*a, *b).into_iter().map(|i| self.value_in(cells, i, depth + 1)).collect();
                let vals = vals?;
                match f {
                    Func::Sum => vals.iter().sum(),
                    Func::Avg => vals.iter().sum::<f64>() / vals.len() as f64,
                    Func::Max => vals.iter().copied().fold(f64::MIN, f64::max),
                    Func::Min => vals.iter().copied().fold(f64::MAX, f64::min),
                }
            }
            Expr::Bin(l, op, r) => {
                let (l, r) = (self.eval_in(cells, l, depth + 1)?, self.eval_in(cells, r, depth + 1)?);
                match op {
                    '+' => l + r,
                    '-' => l - r,
                    _ => l * r,
                }
            }
        })
    }

    fn value_in(&self, cells: &[Cell], i: usize, depth: usize) -> Option<f64> {
        match &cells[i] {
            Cell::Empty => Some(0.0),
            Cell::Num(v) => Some(*v),
            Cell::Formula(e) => self.eval_in(cells, e, depth),
        }
    }

    fn value(&self, i: usize) -> Option<f64> {
        self.value_in(&self.cells, i, 0)
    }

    /// The sheet with every number cell shifted by a fixed pattern: perturbation `k` (0: as is).
    fn perturbed(&self, k: usize) -> Vec<Cell> {
        let mut cells = self.cells.clone();
        for (i, c) in cells.iter_mut().enumerate() {
            if let (Cell::Num(v), true) = (c, k > 0) {
                *v += ((i * 7 + k * 13) % 23) as f64 - 11.0 + k as f64;
            }
        }
        cells
    }

    /// Does formula cell `i` compute its description (on the data and three perturbations)?
    fn cell_ok(&self, i: usize, intent: &Expr) -> bool {
        let Cell::Formula(e) = &self.cells[i] else { return false };
        (0..4).all(|k| {
            let cells = self.perturbed(k);
            match (self.eval_in(&cells, e, 0), self.eval_in(&cells, intent, 0)) {
                (Some(a), Some(b)) => (a - b).abs() < 1e-6,
                _ => false,
            }
        })
    }

    fn target_ok(&self, t: &Target) -> bool {
        self.value(t.cell).is_some_and(|v| (v - t.value).abs() < TOLERANCE)
    }

    fn solved(&self) -> bool {
        self.intents.iter().all(|(i, e)| self.cell_ok(*i, e))
            && self.targets.iter().all(|t| self.target_ok(t))
    }

    fn settable(&self, i: usize) -> bool {
        self.intents.iter().any(|(c, _)| *c == i) || self.targets.iter().any(|t| t.input == i)
    }
}

/// A recursive-descent parser of formulas.
struct Parser<'a> {
    s: &'a [u8],
    i: usize,
    sheet: &'a Spreadsheet,
    depth: usize,
}

impl Parser<'_> {
    fn skip(&mut self) {
        while self.s.get(self.i).is_some_and(|b| b.is_ascii_whitespace()) {
            self.i += 1;
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.skip();
        self.s.get(self.i).copied()
    }

    fn expr(&mut self) -> Option<Expr> {
        self.depth += 1;
        if self.depth > 40 {
            return None;
        }
        let mut l = self.term()?;
        while let Some(op @ (b'+' | b'-')) = self.peek() {
            self.i += 1;
            l = Expr::Bin(Box::new(l), op as char, Box::new(self.term()?));
        }
        self.depth -= 1;
        Some(l)
    }

    fn term(&mut self) -> Option<Expr> {
        let mut l = self.factor()?;
        while self.peek() == Some(b'*') {
            self.i += 1;
            l = Expr::Bin(Box::new(l), '*', Box::new(self.factor()?));
        }
        Some(l)
    }

    fn word(&mut self) -> &str {
        let start = self.i;
        while self.s.get(self.i).is_some_and(|b| b.is_ascii_alphanumeric()) {
            self.i += 1;
        }
        std::str::from_utf8(&self.s[start..self.i]).unwrap_or("")
    }

    fn factor(&mut self) -> Option<Expr> {
        match self.peek()? {
            b'(' => {
                self.i += 1;
                let e = self.expr()?;
                (self.peek() == Some(b')')).then(|| self.i += 1)?;
                Some(e)
            }
            b'-' | b'0'..=b'9' | b'.' => {
                let start = self.i;
                self.i += 1;
                while self.s.get(self.i).is_some_and(|b| b.is_ascii_digit() || *b == b'.') {
                    self.i += 1;
                }
                let text = std::str::from_utf8(&self.s[start..self.i]).ok()?;
                let v: f64 = text.parse().ok()?;
                v.is_finite().then_some(Expr::Num(v))
            }
            _ => {
                let w = self.word().to_ascii_uppercase();
                if let Some(&(f, _)) = FUNCS.iter().find(|x| x.1 == w) {
                    (self.peek() == Some(b'(')).then(|| self.i += 1)?;
                    self.skip();
                    let a = self.word().to_string();
                    (self.peek() == Some(b':')).then(|| self.i += 1)?;
                    self.skip();
                    let b = self.word().to_string();
                    (self.peek() == Some(b')')).then(|| self.i += 1)?;
                    Some(Expr::Range(f, self.sheet.parse_cell(&a)?, self.sheet.parse_cell(&b)?))
                } else {
                    self.sheet.parse_cell(&w).map(Expr::Ref)
                }
            }
        }
    }
}

impl Spreadsheet {
    /// A whole formula (an optional leading `=`), or `None` when malformed.
    fn parse_formula(&self, text: &str) -> Option<Expr> {
        let text = text.trim().strip_prefix('=').unwrap_or(text.trim());
        let mut p = Parser { s: text.as_bytes(), i: 0, sheet: self, depth: 0 };
        let e = p.expr()?;
        (p.peek().is_none()).then_some(e)
    }

    fn describe_cell(&self, i: usize) -> String {
        let v = self.value(i).map_or("?".into(), fmt_num);
        match &self.cells[i] {
            Cell::Empty => format!("{}: (empty)", self.name(i)),
            Cell::Num(_) => format!("{}: {v}", self.name(i)),
            Cell::Formula(e) => format!("{}: ={} (value {v})", self.name(i), self.show(e)),
        }
    }

    fn get(&mut self, arg: &str) -> Result<String, String> {
        let (a, b) = arg.split_once(':').unwrap_or((arg, arg));
        let (a, b) = (
            self.parse_cell(a.trim()).ok_or_else(String::new)?,
            self.parse_cell(b.trim()).ok_or_else(String::new)?,
        );
        let cells = self.rect(a, b);
        if cells.len() > MAX_GET {
            return Err(format!("`get` shows at most {MAX_GET} cells; that range has {}.", cells.len()));
        }
        let mut out = Vec::new();
        for i in cells {
            self.shown[i] = true;
            if let Some(v) = self.value(i) {
                self.observed.push((i, v, self.version));
            }
            out.push(self.describe_cell(i));
        }
        Ok(out.join("\n"))
    }

    fn set(&mut self, arg: &str) -> Result<String, String> {
        let (cell, formula) = arg.split_once('=').ok_or_else(String::new)?;
        let i = self.parse_cell(cell.trim()).ok_or_else(String::new)?;
        let e = self.parse_formula(formula).ok_or_else(String::new)?;
        if !self.settable(i) {
            return Err(format!("You may set only {}.", self.allowed().join(", ")));
        }
        let before = std::mem::replace(
            &mut self.cells[i],
            match e {
                Expr::Num(v) => Cell::Num(v),
                e => Cell::Formula(e),
            },
        );
        if (0..self.cells.len()).any(|c| self.value(c).is_none()) {
            self.cells[i] = before;
            return Err(format!("That formula makes {} depend on itself (a cycle).", self.name(i)));
        }
        self.version += 1;
        self.shown[i] = true;
        match &self.cells[i] {
            Cell::Num(v) => self.observed.push((i, *v, self.version)),
            _ => self.formula_version = self.version,
        }
        self.set_at[i] = self.version;
        Ok(format!("Set. {}", self.describe_cell(i)))
    }

    fn allowed(&self) -> Vec<String> {
        let mut v: Vec<usize> =
            self.intents.iter().map(|x| x.0).chain(self.targets.iter().map(|t| t.input)).collect();
        v.sort_unstable();
        v.into_iter().map(|i| self.name(i)).collect()
    }

    fn check_report(&self) -> String {
        let mut out = Vec::new();
        for (i, e) in &self.intents {
            let ok = if self.cell_ok(*i, e) { "passes" } else { "FAILS" };
            out.push(format!("{} (should be ={}): {ok}", self.name(*i), self.show(e)));
        }
        for t in &self.targets {
            let ok = if self.target_ok(t) { "passes" } else { "FAILS" };
            out.push(format!("{} = {}: {ok}", self.name(t.cell), fmt_num(t.value)));
        }
        out.join("\n")
    }
}

// ---- generation ----

impl Spreadsheet {
    fn blank(cols: usize, rows: usize, limit: u32) -> Spreadsheet {
        let n = cols * rows;
        Spreadsheet {
            cols,
            rows,
            cells: vec![Cell::Empty; n],
            intents: Vec::new(),
            named: Vec::new(),
            hunt: false,
            targets: Vec::new(),
            shown: vec![false; n],
            observed: Vec::new(),
            version: 0,
            formula_version: 0,
            set_at: vec![0; n],
            last: String::new(),
            limit,
        }
    }

    /// A wrong version of formula cell `i` (described by `intent`).
    fn corrupt(&self, rng: &mut Rng, i: usize, intent: &Expr, data_cols: usize) -> Cell {
        if rng.chance(0.25) {
            // A pasted constant: right today, wrong once the data change.
            return Cell::Num(self.value(i).unwrap_or(0.0));
        }
        let e = match intent.clone() {
            Expr::Range(f, a, b) => match rng.index(3) {
                0 => Expr::Range(f, a, b - self.cols),
                1 => Expr::Range(
                    FUNCS[(FUNCS.iter().position(|x| x.0 == f).unwrap_or(0) + 1 + rng.index(3)) % 4].0,
                    a,
                    b,
                ),
                _ => {
                    let shift = (a % self.cols + 1 + rng.index(data_cols - 1)) % data_cols;
                    let (ca, cb) = (a - a % self.cols + shift, b - b % self.cols + shift);
                    Expr::Range(f, ca, cb)
                }
            },
            Expr::Bin(l, op, r) => match (*l, op) {
                (Expr::Bin(ll, '+', lr), '*') if rng.chance(0.5) => {
                    Expr::Bin(Box::new(Expr::Bin(ll, '-', lr)), '*', r)
                }
                (l, '*') => Expr::Bin(Box::new(l), '+', r),
                (l, '+') => Expr::Bin(Box::new(l), '-', r),
                (l, _) => Expr::Bin(r, '-', Box::new(l)),
            },
            e => e,
        };
        Cell::Formula(e)
    }

    fn layout(rng: &mut Rng, level: u8) -> Spreadsheet {
        let (dc, n, grands, broken, named, ntargets, limit) = LEVELS[level as usize - 1];
        let cols = dc + (grands > 0) as usize;
        let mut w = Self::blank(cols, n + grands.max(1), limit);
        for c in 0..dc {
            for r in 0..n {
                w.cells[r * cols + c] = Cell::Num(rng.range(1, 99) as f64);
            }
        }
        let order = rng.permutation(dc);
        // Columns on a target's chain are SUM or AVG, so targets are linear in their input.
        let chain: Vec<usize> = match grands {
            0 => vec![order[0]],
            1 => order[..2].to_vec(),
            _ => order[..4].to_vec(),
        };
        let summary = |c: usize| n * cols + c;
        for c in 0..dc {
            let f = match (level, chain.contains(&c)) {
                (1, _) => Func::Sum,
                (2, _) | (_, true) => [Func::Sum, Func::Avg][rng.index(2)],
                _ => FUNCS[rng.index(4)].0,
            };
            w.intents.push((summary(c), Expr::Range(f, c, (n - 1) * cols + c)));
        }
        let extra = dc;
        let rf = |c: usize| Box::new(Expr::Ref(summary(c)));
        if grands > 0 {
            let sum = Expr::Bin(rf(chain[0]), '+', rf(chain[1]));
            let g1 = if level >= 4 {
                w.cells[extra] = Cell::Num(rng.range(2, 5) as f64);
                Expr::Bin(Box::new(sum), '*', Box::new(Expr::Ref(extra)))
            } else {
                sum
            };
            w.intents.push((n * cols + extra, g1));
        }
        if grands > 1 {
            w.intents.push(((n + 1) * cols + extra, Expr::Bin(rf(chain[2]), '-', rf(chain[3]))));
        }
        for (i, e) in w.intents.clone() {
            w.cells[i] = Cell::Formula(e);
        }
        let goals: Vec<(usize, &[usize])> = match grands {
            0 => vec![(summary(chain[0]), &chain[..1])],
            1 => vec![(n * cols + extra, &chain[..2])],
            _ => vec![(n * cols + extra, &chain[..2]), ((n + 1) * cols + extra, &chain[2..4])],
        };
        for (cell, cs) in goals.into_iter().take(ntargets) {
            let input = rng.index(n) * cols + cs[rng.index(cs.len())];
            let old = w.cells[input].clone();
            let Cell::Num(v) = old else { continue };
            let new = loop {
                let x = rng.range(1, 150) as f64;
                if x != v {
                    break x;
                }
            };
            w.cells[input] = Cell::Num(new);
            let value = w.value(cell).unwrap_or(0.0);
            w.cells[input] = old;
            w.targets.push(Target { cell, input, value });
        }
        let picks = rng.sample_indices(w.intents.len(), broken);
        for k in picks {
            let (i, intent) = w.intents[k].clone();
            let mut tries = 0;
            while w.cell_ok(i, &intent) && tries < 20 {
                w.cells[i] = Cell::Formula(intent.clone());
                w.cells[i] = w.corrupt(rng, i, &intent, dc);
                if w.cells.iter().enumerate().any(|(c, _)| w.value(c).is_none()) {
                    w.cells[i] = Cell::Formula(intent.clone());
                }
                tries += 1;
            }
            if named {
                w.named.push(i);
            }
        }
        w.named.sort_unstable();
        w.hunt = !named && broken > 0;
        w
    }
}

// ---- the oracle ----

impl Spreadsheet {
    /// The value of `cell` printed or set at `version`, if any.
    fn seen_at(&self, cell: usize, version: u32) -> Option<f64> {
        self.observed.iter().rev().find(|o| o.0 == cell && o.2 == version).map(|o| o.1)
    }

    fn row_range(&self, i: usize) -> String {
        let r = i / self.cols;
        format!("get {}:{}", self.name(self.at(0, r)), self.name(self.at(self.cols - 1, r)))
    }

    /// The oracle's next step on target `t` (`None`: it has seen the target hold).
    fn solve_target(&self, t: &Target) -> Option<String> {
        let base = self.formula_version.max(self.set_at[t.input]);
        let held =
            self.observed.iter().any(|o| o.0 == t.cell && o.2 >= base && (o.1 - t.value).abs() < TOLERANCE);
        if held {
            return None;
        }
        let now = self.version;
        let Some(i_now) = self.seen_at(t.input, now) else {
            return Some(format!("get {}", self.name(t.input)));
        };
        let Some(x_now) = self.seen_at(t.cell, now) else {
            return Some(format!("get {}", self.name(t.cell)));
        };
        let earlier = (self.formula_version..now).rev().find_map(|v| {
            let (i, x) = (self.seen_at(t.input, v)?, self.seen_at(t.cell, v)?);
            (i != i_now).then_some((x_now - x) / (i_now - i))
        });
        let next = match earlier {
            Some(slope) if slope.abs() > 1e-12 => i_now + (t.value - x_now) / slope,
            _ => i_now + 1.0,
        };
        Some(format!("set {} = {}", self.name(t.input), fmt_num(next)))
    }

    fn plan(&self) -> String {
        for (i, intent) in &self.intents {
            if !self.hunt && !self.named.contains(i) {
                continue;
            }
            if !self.shown[*i] && self.hunt {
                return self.row_range(*i);
            }
            if self.cells[*i] != Cell::Formula(intent.clone()) {
                return format!("set {} = {}", self.name(*i), self.show(intent));
            }
        }
        self.targets.iter().find_map(|t| self.solve_target(t)).unwrap_or_else(|| "check".into())
    }
}

impl World for Spreadsheet {
    const NAME: &'static str = "spreadsheet";
    const CATEGORY: &'static str = "agentic";
    const DESCRIPTION: &'static str =
        "Repair a hidden spreadsheet's formulas and set an input so a target cell reaches a value.";
    const FLOORS: [f64; 5] = [1.0; 5];

    fn generate(rng: &mut Rng, level: u8) -> Self {
        loop {
            let w = Self::layout(rng, level);
            if w.solved() {
                continue;
            }
            let mut sim = w.clone();
            for _ in 0..w.limit {
                let a = sim.plan();
                match sim.step(&a) {
                    Step::Done(Outcome::Won, _) => return w,
                    Step::Done(Outcome::Continue, _) => {}
                    _ => break,
                }
            }
        }
    }

    fn limit(&self) -> u32 {
        self.limit
    }

    fn intro(&self) -> String {
        let last_col = col_name(self.cols - 1);
        let intents: Vec<String> =
            self.intents.iter().map(|(i, e)| format!("  {} = {}", self.name(*i), self.show(e))).collect();
        let broken = if self.hunt {
            "Some of these formula cells are broken (wrong formula or a pasted number): find them."
                .to_string()
        } else if self.named.is_empty() {
            "Every formula cell is correct.".to_string()
        } else {
            let names: Vec<String> = self.named.iter().map(|&i| self.name(i)).collect();
            format!("Broken formula cells: {}.", names.join(", "))
        };
        let targets: Vec<String> = self
            .targets
            .iter()
            .map(|t| {
                format!(
                    "make {} equal {} by changing only {}",
                    self.name(t.cell),
                    fmt_num(t.value),
                    self.name(t.input)
                )
            })
            .collect();
        format!(
            "Spreadsheet. A sheet with columns A-{last_col} and rows 1-{} is hidden; read it with get. The formula \
             cells should hold:\n{}\n{broken}\nGoals: every formula cell computes its formula above (the check \
             recomputes them with other numbers, so a pasted number fails), and {}. You may set only {}. \
             Formulas: numbers, cell references, + - *, parentheses, SUM|AVG|MAX|MIN(X1:Y2); empty cells count 0. \
             `get` shows at most {MAX_GET} cells; values print rounded to 6 decimals and a target holds within \
             {TOLERANCE}. You win as soon as every goal holds after a set.",
            self.rows,
            intents.join("\n"),
            targets.join(", and "),
            self.allowed().join(", ")
        )
    }

    fn render(&self) -> String {
        let out = if self.last.is_empty() { "(no command yet)" } else { &self.last };
        format!("Last output:\n{out}")
    }

    fn grammar(&self) -> String {
        "Actions: get CELL | get CELL:CELL | set CELL = NUMBER | set CELL = FORMULA | check.".into()
    }

    fn step(&mut self, action: &str) -> Step {
        let (v, arg) = verb(action);
        let result = match (v.as_str(), arg) {
            ("get", a) if !a.is_empty() => self.get(a),
            ("set", a) if !a.is_empty() => self.set(a),
            ("check", "") => Ok(self.check_report()),
            _ => Err(String::new()),
        };
        match result {
            Ok(out) => {
                self.last = format!("> {}\n{out}", super::text_common::clip(action));
                let won = v == "set" && self.solved();
                let what = if won { "Every goal holds." } else { "Done; the output is below." };
                Step::Done(if won { Outcome::Won } else { Outcome::Continue }, what.into())
            }
            Err(why) if why.is_empty() => {
                Step::Format(format!("Not a command or a malformed cell or formula. {}", self.grammar()))
            }
            Err(why) => Step::Invalid(why),
        }
    }

    fn legal(&self) -> Vec<String> {
        let mut out = vec!["check".to_string()];
        for (i, e) in &self.intents {
            out.push(format!("get {}", self.name(*i)));
            out.push(format!("set {} = {}", self.name(*i), self.show(e)));
        }
        let last = (self.intents[0].0 / self.cols).min(MAX_GET);
        for c in 0..self.cols {
            out.push(format!("get {}1:{}{last}", col_name(c), col_name(c)));
        }
        for t in &self.targets {
            out.push(format!("get {}", self.name(t.input)));
            for v in ["1", "50", "99"] {
                out.push(format!("set {} = {v}", self.name(t.input)));
            }
        }
        out
    }

    fn oracle(&self, _rng: &mut Rng) -> String {
        self.plan()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sheet(seed: u64, level: u8) -> Spreadsheet {
        Spreadsheet::generate(&mut Rng::new(seed), level)
    }

    #[test]
    fn oracle_meets_the_floors_and_random_is_lower() {
        let (oracle, random) = super::super::rates::rates(Spreadsheet::NAME, 100);
        for l in 0..5 {
            assert_eq!(oracle[l], Spreadsheet::FLOORS[l], "level {}", l + 1);
            assert!(random[l] < oracle[l] - 0.25, "level {}: random {}", l + 1, random[l]);
        }
    }

    #[test]
    fn formulas_parse_evaluate_and_print() {
        let mut w = Spreadsheet::blank(3, 4, 10);
        for (i, v) in [(0, 2.0), (3, 4.0), (6, 9.0), (1, 5.0)] {
            w.cells[i] = Cell::Num(v);
        }
        let e = w.parse_formula("=sum(A1:A3) + 2*(B1 - 1)").unwrap();
        assert_eq!(w.show(&e), "SUM(A1:A3)+(2*(B1-1))");
        assert_eq!(w.eval_in(&w.cells, &e, 0), Some(15.0 + 8.0));
        let avg = w.parse_formula("AVG(A1:B3)").unwrap();
        assert_eq!(w.eval_in(&w.cells, &avg, 0), Some(20.0 / 6.0));
        for bad in ["", "SUM(A1)", "A9", "D1", "1 +", "((1)", "SUM(A1:Z1)", "A1 A2", "1.2.3", "-A1"] {
            assert!(w.parse_formula(bad).is_none(), "{bad}");
        }
        assert_eq!(fmt_num(20.0 / 6.0), "3.333333");
        assert_eq!(fmt_num(-4.0), "-4");
    }

    #[test]
    fn sets_are_checked() {
        let mut w = sheet(3, 4);
        let (f, intent) = w.intents[0].clone();
        let other = (0..w.cells.len()).find(|&i| !w.settable(i)).unwrap();
        assert!(
            matches!(w.step(&format!("set {} = 5", w.name(other))), Step::Invalid(m) if m.contains("only"))
        );
        let cyc = format!("set {0} = {0}+1", w.name(f));
        assert!(matches!(w.step(&cyc), Step::Invalid(m) if m.contains("cycle")));
        assert!(matches!(w.step("set A1 = SUM("), Step::Format(_)));
        assert!(matches!(w.step("get A1:D10"), Step::Invalid(_) | Step::Format(_)));
        assert!(matches!(w.step("frobnicate"), Step::Format(_)));
        // A pasted constant fails the check even when it shows the right value today.
        let value = w.value(f).unwrap();
        w.cells[f] = Cell::Num(value);
        assert!(!w.cell_ok(f, &intent));
        // An equivalent formula passes.
        if let Expr::Range(Func::Sum, a, b) = intent {
            let sum: Vec<String> = w.rect(a, b).into_iter().map(|i| w.name(i)).collect();
            w.cells[f] = Cell::Formula(w.parse_formula(&sum.join("+")).unwrap());
            assert!(w.cell_ok(f, &intent));
        }
    }

    #[test]
    fn broken_cells_fail_and_targets_need_repairs() {
        for level in 1..=5u8 {
            let (_, _, _, broken, named, targets, _) = LEVELS[level as usize - 1];
            for seed in 0..30 {
                let w = sheet(seed, level);
                let failing = w.intents.iter().filter(|(i, e)| !w.cell_ok(*i, e)).count();
                assert_eq!(failing, broken, "level {level} seed {seed}");
                assert_eq!(w.named.len(), if named { broken } else { 0 });
                assert_eq!(w.targets.len(), targets);
                // The intended sheet reaches every target with an integer input.
                let mut fixed = w.clone();
                for (i, e) in &w.intents {
                    fixed.cells[*i] = Cell::Formula(e.clone());
                }
                assert!(fixed.intents.iter().all(|(i, e)| fixed.cell_ok(*i, e)));
            }
        }
    }

    #[test]
    fn parser_fuzz_never_panics() {
        let mut rng = Rng::new(8);
        let bits = [
            "get", "set", "check", "A1", "B7", "=", ":", "SUM(", ")", "(", "+", "-", "*", "9", "1e308", "🦀",
            "Z99", "AVG", ".",
        ];
        for level in 1..=5 {
            let mut w = sheet(level as u64, level);
            for _ in 0..3_000 {
                let a: Vec<&str> = (0..1 + rng.index(7)).map(|_| bits[rng.index(bits.len())]).collect();
                let _ = w.step(&a.join(if rng.chance(0.5) { " " } else { "" }));
            }
            // Deep nesting is refused, not a stack overflow.
            let deep = format!("set {} = {}1{}", w.name(w.intents[0].0), "(".repeat(500), ")".repeat(500));
            assert!(matches!(w.step(&deep), Step::Format(_)));
        }
    }

    #[test]
    fn same_seed_same_transcript() {
        super::super::rates::assert_same_seed_same_transcript("spreadsheet", 5, 0.7);
    }
}

#[cfg(test)]
mod measure {
    use super::super::rates;

    /// The `gauntlet bench --envs` row (same function, same defaults): `cargo test --release -p
    /// gauntlet-envs --lib spreadsheet_speed -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn spreadsheet_speed() {
        rates::print_speed("spreadsheet");
    }

    /// `cargo test -p gauntlet-envs --lib spreadsheet_rates -- --ignored --nocapture`
    #[test]
    #[ignore]
    fn spreadsheet_rates() {
        rates::assert_rates("spreadsheet", [1.0; 5]);
    }

    /// The oracle's episode lengths per level (seeds 0–199) and one level-4 episode:
    /// `cargo test -p gauntlet-envs --lib spreadsheet_lengths -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn spreadsheet_lengths() {
        rates::print_lengths("spreadsheet", 4);
    }
}
