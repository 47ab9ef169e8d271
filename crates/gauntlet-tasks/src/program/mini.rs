//! Mini: the tiny Python-like language of [`code_execution`](super::code_execution), with its
//! random program generator, renderer and interpreter.
//!
//! A program is a list of [`Stmt`]s over integer variables and one list `xs` (initially empty):
//! assignments, `print(e)`, `xs.append(e)`, `if c: … else: …`, `for v in range(lo, hi): …` and
//! `while c: …`. Expressions are integer literals, variables, `len(xs)`, `xs[k]` and the binary
//! operators `+ - * // %` (Python semantics; `//` and `%` only ever by a positive literal, so they
//! are floor division and a remainder in `0..m`). Conditions compare two expressions with
//! `< <= > >= == !=`.
//!
//! [`run`] interprets a program with a step budget ([`MAX_STEPS`]) and a value bound
//! ([`MAX_ABS`]), so a hand-written or corrupted program can never loop forever or overflow; it
//! returns the printed values or the reason it stopped.

use gauntlet_core::Rng;
use serde::{Deserialize, Serialize};

/// Statements executed at most (every statement and every loop test counts one step).
pub const MAX_STEPS: usize = 20_000;
/// Largest absolute value any variable or intermediate result may reach.
pub const MAX_ABS: i64 = 1_000_000_000;

/// A binary arithmetic operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum BinOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `//` (floor division)
    Div,
    /// `%` (remainder with the sign of the divisor)
    Mod,
}

/// A comparison operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum CmpOp {
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `==`
    Eq,
    /// `!=`
    Ne,
}

/// An integer expression.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Expr {
    /// A literal.
    Num(i64),
    /// A variable (one lowercase letter).
    Var(char),
    /// `len(xs)`
    Len,
    /// `xs[e]` (the index must be in range).
    Get(Box<Expr>),
    /// `l op r`
    Bin(BinOp, Box<Expr>, Box<Expr>),
}

/// A condition `l op r`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Cond {
    /// The comparison.
    pub op: CmpOp,
    /// Left operand.
    pub l: Expr,
    /// Right operand.
    pub r: Expr,
}

/// A statement.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Stmt {
    /// `v = e`
    Assign(char, Expr),
    /// `print(e)`
    Print(Expr),
    /// `xs.append(e)`
    Append(Expr),
    /// `if c: then else: otherwise` (no `else` when `otherwise` is empty).
    If(Cond, Vec<Stmt>, Vec<Stmt>),
    /// `for v in range(lo, hi): body`
    For(char, i64, i64, Vec<Stmt>),
    /// `while c: body`
    While(Cond, Vec<Stmt>),
}

// ----------------------------------------------------------------------------------------------
// Rendering
// ----------------------------------------------------------------------------------------------

fn op_str(op: BinOp) -> &'static str {
    match op {
        BinOp::Add => "+",
        BinOp::Sub => "-",
        BinOp::Mul => "*",
        BinOp::Div => "//",
        BinOp::Mod => "%",
    }
}

fn cmp_str(op: CmpOp) -> &'static str {
    match op {
        CmpOp::Lt => "<",
        CmpOp::Le => "<=",
        CmpOp::Gt => ">",
        CmpOp::Ge => ">=",
        CmpOp::Eq => "==",
        CmpOp::Ne => "!=",
    }
}

/// Python source of an expression (nested binary operations are parenthesised).
pub fn expr_src(e: &Expr) -> String {
    let sub = |e: &Expr| match e {
        Expr::Bin(..) => format!("({})", expr_src(e)),
        Expr::Num(n) if *n < 0 => format!("({n})"),
        _ => expr_src(e),
    };
    match e {
        Expr::Num(n) => n.to_string(),
        Expr::Var(v) => v.to_string(),
        Expr::Len => "len(xs)".into(),
        Expr::Get(i) => format!("xs[{}]", expr_src(i)),
        Expr::Bin(op, l, r) => format!("{} {} {}", sub(l), op_str(*op), sub(r)),
    }
}

fn cond_src(c: &Cond) -> String {
    format!("{} {} {}", expr_src(&c.l), cmp_str(c.op), expr_src(&c.r))
}

fn block_src(body: &[Stmt], indent: usize, out: &mut Vec<String>) {
    let pad = "    ".repeat(indent);
    for s in body {
        match s {
            Stmt::Assign(v, e) => out.push(format!("{pad}{v} = {}", expr_src(e))),
            Stmt::Print(e) => out.push(format!("{pad}print({})", expr_src(e))),
            Stmt::Append(e) => out.push(format!("{pad}xs.append({})", expr_src(e))),
            Stmt::If(c, t, f) => {
                out.push(format!("{pad}if {}:", cond_src(c)));
                block_src(t, indent + 1, out);
                if !f.is_empty() {
                    out.push(format!("{pad}else:"));
                    block_src(f, indent + 1, out);
                }
            }
            Stmt::For(v, lo, hi, b) => {
                out.push(format!("{pad}for {v} in range({lo}, {hi}):"));
                block_src(b, indent + 1, out);
            }
            Stmt::While(c, b) => {
                out.push(format!("{pad}while {}:", cond_src(c)));
                block_src(b, indent + 1, out);
            }
        }
    }
}

/// Python source of a whole program (starting with `xs = []`).
pub fn program_src(prog: &[Stmt]) -> String {
    let mut out = vec!["xs = []".to_string()];
    block_src(prog, 0, &mut out);
    out.join("\n")
}

// ----------------------------------------------------------------------------------------------
// Interpreter
// ----------------------------------------------------------------------------------------------

/// Interpreter state: variables (by letter), the list, printed values and steps taken.
#[derive(Default)]
struct Machine {
    vars: [Option<i64>; 26],
    xs: Vec<i64>,
    out: Vec<i64>,
    steps: usize,
}

fn bounded(v: Option<i64>) -> Result<i64, String> {
    v.filter(|x| x.abs() <= MAX_ABS).ok_or_else(|| format!("a value exceeds {MAX_ABS} in absolute value"))
}

impl Machine {
    fn eval(&self, e: &Expr) -> Result<i64, String> {
        match e {
            Expr::Num(n) => bounded(Some(*n)),
            Expr::Var(v) => {
                let i = (*v as u32).wrapping_sub('a' as u32) as usize;
                self.vars.get(i).copied().flatten().ok_or_else(|| format!("variable `{v}` is undefined"))
            }
            Expr::Len => Ok(self.xs.len() as i64),
            Expr::Get(i) => {
                let k = self.eval(i)?;
                usize::try_from(k)
                    .ok()
                    .and_then(|k| self.xs.get(k).copied())
                    .ok_or("list index out of range".into())
            }
            Expr::Bin(op, l, r) => {
                let (a, b) = (self.eval(l)?, self.eval(r)?);
                bounded(match op {
                    BinOp::Add => a.checked_add(b),
                    BinOp::Sub => a.checked_sub(b),
                    BinOp::Mul => a.checked_mul(b),
                    BinOp::Div => {
                        (b != 0).then(|| a.div_euclid(b) - i64::from(b < 0 && a.rem_euclid(b) != 0))
                    }
                    BinOp::Mod => (b != 0).then(|| {
                        let m = a.rem_euclid(b);
                        if b < 0 && m != 0 {
                            m + b
                        } else {
                            m
                        }
                    }),
                })
            }
        }
    }

    fn test(&self, c: &Cond) -> Result<bool, String> {
        let (a, b) = (self.eval(&c.l)?, self.eval(&c.r)?);
        Ok(match c.op {
            CmpOp::Lt => a < b,
            CmpOp::Le => a <= b,
            CmpOp::Gt => a > b,
            CmpOp::Ge => a >= b,
            CmpOp::Eq => a == b,
            CmpOp::Ne => a != b,
        })
    }

    fn tick(&mut self) -> Result<(), String> {
        self.steps += 1;
        if self.steps > MAX_STEPS {
            return Err(format!("more than {MAX_STEPS} steps"));
        }
        Ok(())
    }

    fn set(&mut self, v: char, x: i64) -> Result<(), String> {
        let i = (v as u32).wrapping_sub('a' as u32) as usize;
        *self.vars.get_mut(i).ok_or_else(|| format!("`{v}` is not a variable name"))? = Some(x);
        Ok(())
    }

    fn exec(&mut self, body: &[Stmt]) -> Result<(), String> {
        for s in body {
            self.tick()?;
            match s {
                Stmt::Assign(v, e) => {
                    let x = self.eval(e)?;
                    self.set(*v, x)?;
                }
                Stmt::Print(e) => {
                    let x = self.eval(e)?;
                    self.out.push(x);
                }
                Stmt::Append(e) => {
                    let x = self.eval(e)?;
                    self.xs.push(x);
                }
                Stmt::If(c, t, f) => {
                    if self.test(c)? {
                        self.exec(t)?
                    } else {
                        self.exec(f)?
                    }
                }
                Stmt::For(v, lo, hi, b) => {
                    for k in *lo..*hi {
                        self.tick()?;
                        self.set(*v, k)?;
                        self.exec(b)?;
                    }
                }
                Stmt::While(c, b) => {
                    while self.test(c)? {
                        self.tick()?;
                        self.exec(b)?;
                    }
                }
            }
        }
        Ok(())
    }
}

/// The result of running a program: printed values and steps taken.
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    /// Every printed value, in order.
    pub output: Vec<i64>,
    /// Steps executed.
    pub steps: usize,
}

/// Run a program; an `Err` names why it stopped (undefined variable, index out of range, division
/// by zero, value bound or step budget exceeded).
pub fn run(prog: &[Stmt]) -> Result<Run, String> {
    let mut m = Machine::default();
    m.exec(prog)?;
    Ok(Run { output: m.out, steps: m.steps })
}

// ----------------------------------------------------------------------------------------------
// Generator
// ----------------------------------------------------------------------------------------------

/// Knobs of the random program generator.
#[derive(Debug, Clone, Copy)]
pub struct Shape {
    /// Top-level statements (besides the final prints).
    pub stmts: usize,
    /// Deepest nesting of `if`/`for`/`while` blocks.
    pub depth: usize,
    /// Whether loops may appear.
    pub loops: bool,
    /// Whether the list `xs` is used.
    pub lists: bool,
    /// Largest literal.
    pub max_lit: i64,
}

/// The random program generator: tracks which variables are defined and which are loop counters
/// (never assigned inside their loop, so every loop terminates).
pub struct Gen<'a> {
    rng: &'a mut Rng,
    shape: Shape,
    defined: Vec<char>,
    frozen: Vec<char>,
    list_nonempty: bool,
}

const DATA_VARS: [char; 4] = ['a', 'b', 'c', 'd'];
const LOOP_VARS: [char; 3] = ['i', 'j', 'k'];

impl<'a> Gen<'a> {
    /// A generator drawing from `rng` with the given shape.
    pub fn new(rng: &'a mut Rng, shape: Shape) -> Self {
        Gen { rng, shape, defined: Vec::new(), frozen: Vec::new(), list_nonempty: false }
    }

    fn lit(&mut self) -> Expr {
        Expr::Num(self.rng.range(1, self.shape.max_lit))
    }

    fn atom(&mut self) -> Expr {
        let r = self.rng.index(10);
        if r < 6 && !self.defined.is_empty() {
            return Expr::Var(*self.rng.choose(&self.defined).unwrap_or(&'a'));
        }
        if self.shape.lists && r == 6 {
            return Expr::Len;
        }
        if self.shape.lists && r == 7 && self.list_nonempty {
            return Expr::Get(Box::new(Expr::Bin(BinOp::Mod, Box::new(self.atom()), Box::new(Expr::Len))));
        }
        self.lit()
    }

    fn expr(&mut self, depth: usize) -> Expr {
        if depth == 0 || self.rng.chance(0.35) {
            return self.atom();
        }
        let op = match self.rng.index(10) {
            0..=2 => BinOp::Add,
            3..=4 => BinOp::Sub,
            5..=6 => BinOp::Mul,
            7 => BinOp::Div,
            _ => BinOp::Mod,
        };
        let l = self.expr(depth - 1);
        let r = match op {
            BinOp::Div | BinOp::Mod => Expr::Num(self.rng.range(2, 7)),
            BinOp::Mul => self.atom_small(),
            _ => self.expr(depth - 1),
        };
        Expr::Bin(op, Box::new(l), Box::new(r))
    }

    /// A literal or a variable (keeps products from exploding).
    fn atom_small(&mut self) -> Expr {
        if self.rng.chance(0.5) || self.defined.is_empty() {
            Expr::Num(self.rng.range(2, 4))
        } else {
            Expr::Var(*self.rng.choose(&self.defined).unwrap_or(&'a'))
        }
    }

    fn cond(&mut self) -> Cond {
        let ops = [CmpOp::Lt, CmpOp::Le, CmpOp::Gt, CmpOp::Ge, CmpOp::Eq, CmpOp::Ne];
        let op = ops[self.rng.index(ops.len())];
        if self.rng.chance(0.4) {
            let m = self.rng.range(2, 5);
            let l = Expr::Bin(BinOp::Mod, Box::new(self.atom()), Box::new(Expr::Num(m)));
            return Cond {
                op: [CmpOp::Eq, CmpOp::Ne][self.rng.index(2)],
                l,
                r: Expr::Num(self.rng.range(0, m - 1)),
            };
        }
        Cond { op, l: self.atom(), r: self.expr(1) }
    }

    fn assign(&mut self) -> Stmt {
        let free: Vec<char> = DATA_VARS.iter().copied().filter(|v| !self.frozen.contains(v)).collect();
        let v = *self.rng.choose(&free).unwrap_or(&'a');
        let e = self.expr(2);
        if !self.defined.contains(&v) {
            self.defined.push(v);
        }
        Stmt::Assign(v, e)
    }

    fn stmt(&mut self, depth: usize) -> Stmt {
        let r = self.rng.index(12);
        match r {
            0..=4 => self.assign(),
            5 => Stmt::Print(self.expr(1)),
            6 if self.shape.lists => {
                self.list_nonempty = true;
                Stmt::Append(self.expr(1))
            }
            7 | 8 if depth > 0 => {
                let c = self.cond();
                let k = 1 + self.rng.index(2);
                let t = self.block(depth - 1, k);
                let f = if self.rng.chance(0.5) { self.block(depth - 1, 1) } else { Vec::new() };
                Stmt::If(c, t, f)
            }
            9 | 10 if depth > 0 && self.shape.loops => self.for_loop(depth),
            11 if depth > 0 && self.shape.loops => self.while_loop(depth),
            _ => self.assign(),
        }
    }

    fn block(&mut self, depth: usize, n: usize) -> Vec<Stmt> {
        let saved = self.defined.clone();
        let b: Vec<Stmt> = (0..n).map(|_| self.stmt(depth)).collect();
        // A variable first assigned inside a conditional block may be undefined after it.
        self.defined = saved;
        b
    }

    fn for_loop(&mut self, depth: usize) -> Stmt {
        let Some(&v) = LOOP_VARS.iter().find(|v| !self.frozen.contains(v)) else { return self.assign() };
        let lo = self.rng.range(0, 2);
        let hi = lo + self.rng.range(2, 5);
        self.frozen.push(v);
        self.defined.push(v);
        let k = 1 + self.rng.index(3);
        let body = self.block(depth - 1, k);
        self.frozen.retain(|&x| x != v);
        self.defined.retain(|&x| x != v);
        Stmt::For(v, lo, hi, body)
    }

    /// `while v < limit: …; v = v + step` or `while v > 0: …; v = v // m`, with `v` frozen inside.
    fn while_loop(&mut self, depth: usize) -> Stmt {
        let free: Vec<char> = self
            .defined
            .iter()
            .copied()
            .filter(|v| DATA_VARS.contains(v) && !self.frozen.contains(v))
            .collect();
        let Some(&v) = self.rng.choose(&free) else { return self.assign() };
        self.frozen.push(v);
        let k = 1 + self.rng.index(2);
        let mut body = self.block(depth - 1, k);
        self.frozen.retain(|&x| x != v);
        let var = || Box::new(Expr::Var(v));
        let (cond, step) = if self.rng.chance(0.5) {
            let limit = Expr::Num(self.rng.range(5, 30));
            let step = Expr::Bin(BinOp::Add, var(), Box::new(Expr::Num(self.rng.range(1, 4))));
            (Cond { op: CmpOp::Lt, l: Expr::Var(v), r: limit }, step)
        } else {
            let step = Expr::Bin(BinOp::Div, var(), Box::new(Expr::Num(self.rng.range(2, 4))));
            (Cond { op: CmpOp::Gt, l: Expr::Var(v), r: Expr::Num(0) }, step)
        };
        body.push(Stmt::Assign(v, step));
        Stmt::While(cond, body)
    }

    /// A whole program: `shape.stmts` statements, then a print of every defined data variable
    /// that is not printed yet (so the output depends on the whole run).
    pub fn program(&mut self) -> Vec<Stmt> {
        let mut prog = vec![self.assign(), self.assign()];
        for _ in 0..self.shape.stmts {
            let d = self.shape.depth;
            prog.push(self.stmt(d));
        }
        let mut vars = self.defined.clone();
        vars.sort_unstable();
        vars.dedup();
        for v in vars.into_iter().filter(|v| DATA_VARS.contains(v)).take(2) {
            prog.push(Stmt::Print(Expr::Var(v)));
        }
        if self.list_nonempty && self.rng.chance(0.5) {
            prog.push(Stmt::Print(Expr::Len));
        }
        prog
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_semantics_of_floor_division_and_remainder() {
        let m = Machine::default();
        let e = |op, a, b| m.eval(&Expr::Bin(op, Box::new(Expr::Num(a)), Box::new(Expr::Num(b)))).unwrap();
        assert_eq!(e(BinOp::Div, -7, 2), -4);
        assert_eq!(e(BinOp::Mod, -7, 2), 1);
        assert_eq!(e(BinOp::Div, 7, -2), -4);
        assert_eq!(e(BinOp::Mod, 7, -2), -1);
        assert_eq!(e(BinOp::Div, 7, 2), 3);
    }

    #[test]
    fn runs_loops_and_lists_and_stops_runaways() {
        let prog = vec![
            Stmt::Assign('a', Expr::Num(0)),
            Stmt::For(
                'i',
                0,
                4,
                vec![
                    Stmt::Assign(
                        'a',
                        Expr::Bin(BinOp::Add, Box::new(Expr::Var('a')), Box::new(Expr::Var('i'))),
                    ),
                    Stmt::Append(Expr::Var('a')),
                ],
            ),
            Stmt::Print(Expr::Var('a')),
            Stmt::Print(Expr::Get(Box::new(Expr::Num(2)))),
            Stmt::Print(Expr::Len),
        ];
        assert_eq!(run(&prog).unwrap().output, vec![6, 3, 4]);
        assert!(program_src(&prog).contains("for i in range(0, 4):\n    a = a + i\n    xs.append(a)"));
        let forever = vec![
            Stmt::Assign('a', Expr::Num(0)),
            Stmt::While(Cond { op: CmpOp::Ge, l: Expr::Var('a'), r: Expr::Num(0) }, vec![]),
        ];
        assert!(run(&forever).unwrap_err().contains("steps"));
        assert!(run(&[Stmt::Print(Expr::Var('z'))]).unwrap_err().contains("undefined"));
        assert!(run(&[Stmt::Print(Expr::Get(Box::new(Expr::Num(0))))]).unwrap_err().contains("range"));
    }
}
