//! Tool use against a real database: query an embedded SQLite with SQL, then answer a question.
//!
//! **Generates** one in-memory SQLite database per seed (compiled in through `rusqlite`'s
//! `bundled` feature, no system library): `departments(id, name, city)`,
//! `employees(id, name, dept_id, salary, hired)` and, from level 4, `projects(id, name, dept_id,
//! budget)` and `assignments(employee_id, project_id, hours)`, filled with seeded values
//! (distinct names and salaries, one city per department). The question's answer is computed by
//! the generator in Rust from the same rows, independently of SQLite; questions whose answer
//! would be a tie are never asked.
//!
//! **Plays**: `sql <one statement>` runs the statement and shows its result (at most 20 rows) or
//! SQLite's error message; `answer <value>` ends the episode. Only reads are allowed: an
//! authorizer admits `SELECT`, reads of the tables, recursive CTEs and an allow-list of
//! deterministic functions (`count`, `sum`, `avg`, `min`, `max`, `round`, `lower`, …), and every
//! other statement (`INSERT`, `UPDATE`, `DELETE`, `CREATE`, `DROP`, `PRAGMA`, `ATTACH`, `BEGIN`,
//! `random()`, `date('now')`) is refused with a message; a statement is stopped after 500,000
//! virtual-machine steps (SQLite's progress handler). A refused, failing or stopped statement
//! costs one turn like any query and never ends the episode: the error is the tool's answer.
//! A line that is neither `sql …` nor `answer …` is a format error. Answers: integers exactly,
//! names case-insensitively.
//!
//! | level | tables | employees | question | turns |
//! |---|---|---|---|---|
//! | 1 | 2 | 8 | a count with a filter, or one employee's salary | 6 |
//! | 2 | 2 | 15 | the top salary, its holder, or hires since a year | 8 |
//! | 3 | 2 | 25 | a join: staff of a department, payroll of a city, one's city | 10 |
//! | 4 | 3 | 40 | a group-by: largest department, its mean salary, top project budget | 12 |
//! | 5 | 4 | 60 | a multi-join over assignments: hours of a department, top worker, budgets | 12 |
//!
//! **Example**: "How many employees earn more than 5200?" → `sql SELECT COUNT(*) FROM employees
//! WHERE salary > 5200` → `3`, then `answer 3`.
//!
//! **Oracle**: runs the reference query of the question, then answers the value it returned
//! (exact: 1.0). Random play (a sample of canned queries and answers) almost never succeeds.
//!
//! **Failure modes**: answering before querying, joining on the wrong key, ties broken by
//! guessing, integer division differences (`avg` is real: the question says how to round).

use super::ledger::Outcome;
use super::shell::{verb, Step, World};
use gauntlet_core::Rng;
use rusqlite::hooks::{AuthAction, AuthContext, Authorization};
use rusqlite::{limits::Limit, types::ValueRef, Connection};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

/// Virtual-machine steps per progress-handler call.
const OPS_PER_TICK: i32 = 1_000;
/// Progress-handler calls before a statement is stopped (500,000 steps).
const TICKS: u32 = 500;
/// Rows shown per result.
const SHOWN_ROWS: usize = 20;
/// Functions a query may call (all deterministic).
const FUNCTIONS: &[&str] = &[
    "count",
    "sum",
    "total",
    "avg",
    "min",
    "max",
    "round",
    "abs",
    "lower",
    "upper",
    "length",
    "substr",
    "substring",
    "instr",
    "replace",
    "trim",
    "ltrim",
    "rtrim",
    "coalesce",
    "ifnull",
    "nullif",
    "iif",
    "typeof",
    "group_concat",
    "like",
    "glob",
    "printf",
    "format",
];
const FIRST: [&str; 60] = [
    "ada", "alan", "alice", "amir", "ana", "anya", "arjun", "ben", "bruno", "carla", "chen", "clara", "dan",
    "dara", "dina", "eli", "emma", "erik", "eva", "farah", "felix", "gia", "greta", "hana", "hugo", "ida",
    "igor", "ines", "ivan", "jade", "jon", "kai", "kira", "lars", "lea", "leon", "lina", "luca", "maya",
    "mei", "milo", "nadia", "nina", "noah", "omar", "otto", "paz", "priya", "quinn", "rafa", "rosa", "sami",
    "sara", "tara", "theo", "uma", "vera", "wren", "yara", "zoe",
];
const DEPTS: [&str; 6] = ["engineering", "sales", "marketing", "finance", "support", "research"];
const CITIES: [&str; 8] = ["paris", "oslo", "lima", "cairo", "tokyo", "quito", "perth", "dakar"];
const PROJECTS: [&str; 10] =
    ["apollo", "birch", "comet", "delta", "ember", "falcon", "garnet", "harbor", "iris", "juniper"];

/// The generated rows (the generator's own copy, for computing answers).
#[derive(Debug, Clone, Default)]
struct Data {
    depts: Vec<(&'static str, &'static str)>,
    /// (name, dept index, salary, hired)
    emps: Vec<(&'static str, usize, i64, i64)>,
    /// (name, dept index, budget)
    projects: Vec<(&'static str, usize, i64)>,
    /// (employee index, project index, hours)
    hours: Vec<(usize, usize, i64)>,
}

/// The SQL environment's world.
pub struct SqlQuery {
    conn: Connection,
    ticks: Arc<AtomicU32>,
    level: u8,
    schema: String,
    question: String,
    truth: String,
    reference: String,
    log: Vec<(String, String)>,
}

fn distinct(rng: &mut Rng, lo: i64, hi: i64, n: usize) -> Vec<i64> {
    rng.sample_indices((hi - lo) as usize, n).into_iter().map(|i| lo + i as i64).collect()
}

impl Data {
    fn generate(rng: &mut Rng, level: u8) -> Data {
        let nd = [3, 4, 5, 6, 6][level as usize - 1];
        let ne = [8, 15, 25, 40, 60][level as usize - 1];
        let cities = rng.sample_indices(CITIES.len(), nd);
        let depts = (0..nd).map(|i| (DEPTS[i], CITIES[cities[i]])).collect();
        let names = rng.sample_indices(FIRST.len(), ne);
        let salaries = distinct(rng, 30, 120, ne);
        let emps = (0..ne)
            .map(|i| (FIRST[names[i]], rng.index(nd), salaries[i] * 100, rng.range(2010, 2024)))
            .collect();
        let mut d = Data { depts, emps, ..Data::default() };
        if level >= 4 {
            let np = if level == 4 { 8 } else { 10 };
            let budgets = distinct(rng, 10, 200, np);
            d.projects = (0..np).map(|i| (PROJECTS[i], rng.index(nd), budgets[i] * 1000)).collect();
        }
        if level >= 5 {
            let mut seen = std::collections::HashSet::new();
            while d.hours.len() < 80 {
                let (e, p) = (rng.index(ne), rng.index(d.projects.len()));
                if seen.insert((e, p)) {
                    d.hours.push((e, p, rng.range(1, 40)));
                }
            }
        }
        d
    }

    fn load(&self, conn: &Connection) -> rusqlite::Result<()> {
        conn.execute_batch(
            "CREATE TABLE departments(id INTEGER PRIMARY KEY, name TEXT, city TEXT);
             CREATE TABLE employees(id INTEGER PRIMARY KEY, name TEXT, dept_id INTEGER, salary INTEGER, hired INTEGER);",
        )?;
        for (i, (n, c)) in self.depts.iter().enumerate() {
            conn.execute("INSERT INTO departments VALUES (?1, ?2, ?3)", (i + 1, n, c))?;
        }
        for (i, (n, d, s, h)) in self.emps.iter().enumerate() {
            conn.execute("INSERT INTO employees VALUES (?1, ?2, ?3, ?4, ?5)", (i + 1, n, d + 1, s, h))?;
        }
        if !self.projects.is_empty() {
            conn.execute_batch(
                "CREATE TABLE projects(id INTEGER PRIMARY KEY, name TEXT, dept_id INTEGER, budget INTEGER);",
            )?;
            for (i, (n, d, b)) in self.projects.iter().enumerate() {
                conn.execute("INSERT INTO projects VALUES (?1, ?2, ?3, ?4)", (i + 1, n, d + 1, b))?;
            }
        }
        if !self.hours.is_empty() {
            conn.execute_batch(
                "CREATE TABLE assignments(employee_id INTEGER, project_id INTEGER, hours INTEGER);",
            )?;
            for (e, p, h) in &self.hours {
                conn.execute("INSERT INTO assignments VALUES (?1, ?2, ?3)", (e + 1, p + 1, h))?;
            }
        }
        Ok(())
    }

    /// The unique index of the largest value, if unique.
    fn argmax(values: &[i64]) -> Option<usize> {
        let max = *values.iter().max()?;
        let mut at = values.iter().enumerate().filter(|(_, v)| **v == max);
        let first = at.next()?.0;
        at.next().is_none().then_some(first)
    }

    /// One question of kind `k` at `level`: (text, answer, reference SQL), or `None` when it
    /// would be ambiguous.
    fn question(&self, rng: &mut Rng, level: u8, k: usize) -> Option<(String, String, String)> {
        let e = &self.emps[rng.index(self.emps.len())];
        let d = rng.index(self.depts.len());
        let (dn, city) = self.depts[d];
        let per_dept = |f: &dyn Fn(usize) -> i64| (0..self.depts.len()).map(f).collect::<Vec<i64>>();
        Some(match (level, k) {
            (1, 0) => {
                let s = rng.range(40, 110) * 100;
                let n = self.emps.iter().filter(|x| x.2 > s).count();
                (format!("How many employees earn more than {s}?"), n.to_string(),
                 format!("SELECT COUNT(*) FROM employees WHERE salary > {s}"))
            }
            (1, _) => (format!("What is the salary of {}?", e.0), e.2.to_string(),
                       format!("SELECT salary FROM employees WHERE name = '{}'", e.0)),
            (2, 0) => {
                let m = self.emps.iter().map(|x| x.2).max()?;
                ("What is the highest salary?".into(), m.to_string(), "SELECT MAX(salary) FROM employees".into())
            }
            (2, 1) => {
                let i = Self::argmax(&self.emps.iter().map(|x| x.2).collect::<Vec<_>>())?;
                ("Who has the highest salary? Answer the name.".into(), self.emps[i].0.into(),
                 "SELECT name FROM employees ORDER BY salary DESC LIMIT 1".into())
            }
            (2, _) => {
                let y = rng.range(2012, 2022);
                let n = self.emps.iter().filter(|x| x.3 >= y).count();
                (format!("How many employees were hired in {y} or later?"), n.to_string(),
                 format!("SELECT COUNT(*) FROM employees WHERE hired >= {y}"))
            }
            (3, 0) => {
                let n = self.emps.iter().filter(|x| x.1 == d).count();
                (format!("How many employees work in the {dn} department?"), n.to_string(),
                 format!("SELECT COUNT(*) FROM employees e JOIN departments d ON e.dept_id = d.id WHERE d.name = '{dn}'"))
            }
            (3, 1) => {
                let s: i64 = self.emps.iter().filter(|x| x.1 == d).map(|x| x.2).sum();
                (format!("What is the total salary of the employees of the department located in {city}?"), s.to_string(),
                 format!("SELECT TOTAL(salary) FROM employees e JOIN departments d ON e.dept_id = d.id WHERE d.city = '{city}'"))
            }
            (3, _) => (format!("In which city does {} work?", e.0), self.depts[e.1].1.into(),
                       format!("SELECT d.city FROM employees e JOIN departments d ON e.dept_id = d.id WHERE e.name = '{}'", e.0)),
            (4, 0) => {
                let i = Self::argmax(&per_dept(&|d| self.emps.iter().filter(|x| x.1 == d).count() as i64))?;
                ("Which department has the most employees? Answer its name.".into(), self.depts[i].0.into(),
                 "SELECT d.name FROM employees e JOIN departments d ON e.dept_id = d.id GROUP BY d.id ORDER BY COUNT(*) DESC LIMIT 1".into())
            }
            (4, 1) => {
                let v: Vec<i64> = self.emps.iter().filter(|x| x.1 == d).map(|x| x.2).collect();
                let avg = v.iter().sum::<i64>().checked_div(v.len() as i64)?;
                (format!("What is the average salary in the {dn} department, rounded down to an integer?"), avg.to_string(),
                 format!("SELECT CAST(AVG(salary) AS INTEGER) FROM employees e JOIN departments d ON e.dept_id = d.id WHERE d.name = '{dn}'"))
            }
            (4, _) => {
                let i = Self::argmax(&per_dept(&|d| self.projects.iter().filter(|x| x.1 == d).map(|x| x.2).sum()))?;
                ("Which department has the largest total project budget? Answer its name.".into(), self.depts[i].0.into(),
                 "SELECT d.name FROM projects p JOIN departments d ON p.dept_id = d.id GROUP BY d.id ORDER BY SUM(p.budget) DESC LIMIT 1".into())
            }
            (_, 0) => {
                let h: i64 = self.hours.iter().filter(|x| self.emps[x.0].1 == d).map(|x| x.2).sum();
                (format!("How many hours in total did the employees of the {dn} department log on projects?"), h.to_string(),
                 format!("SELECT TOTAL(a.hours) FROM assignments a JOIN employees e ON a.employee_id = e.id JOIN departments d ON e.dept_id = d.id WHERE d.name = '{dn}'"))
            }
            (_, 1) => {
                let per: Vec<i64> = (0..self.emps.len())
                    .map(|i| self.hours.iter().filter(|x| x.0 == i).map(|x| x.2).sum())
                    .collect();
                let i = Self::argmax(&per)?;
                ("Which employee logged the most hours in total? Answer the name.".into(), self.emps[i].0.into(),
                 "SELECT e.name FROM assignments a JOIN employees e ON a.employee_id = e.id GROUP BY e.id ORDER BY SUM(a.hours) DESC LIMIT 1".into())
            }
            (_, _) => {
                let i = self.emps.iter().position(|x| x.0 == e.0)?;
                let b: i64 = self.hours.iter().filter(|x| x.0 == i).map(|x| self.projects[x.1].2).sum();
                (format!("What is the total budget of the projects {} is assigned to?", e.0), b.to_string(),
                 format!("SELECT TOTAL(p.budget) FROM assignments a JOIN projects p ON a.project_id = p.id JOIN employees e ON a.employee_id = e.id WHERE e.name = '{}'", e.0))
            }
        })
    }
}

/// Whether the authorizer admits an action: reads, selects and allow-listed functions only.
fn authorize(ctx: AuthContext<'_>) -> Authorization {
    match ctx.action {
        AuthAction::Select | AuthAction::Read { .. } | AuthAction::Recursive => Authorization::Allow,
        AuthAction::Function { function_name }
            if FUNCTIONS.contains(&function_name.to_ascii_lowercase().as_str()) =>
        {
            Authorization::Allow
        }
        _ => Authorization::Deny,
    }
}

fn cell(v: ValueRef<'_>) -> String {
    match v {
        ValueRef::Null => "NULL".into(),
        ValueRef::Integer(i) => i.to_string(),
        ValueRef::Real(f) if f.fract() == 0.0 && f.abs() < 1e15 => format!("{}", f as i64),
        ValueRef::Real(f) => format!("{f:.4}"),
        ValueRef::Text(t) => super::text_common::clip(&String::from_utf8_lossy(t)),
        ValueRef::Blob(b) => format!("<blob {} bytes>", b.len()),
    }
}

impl SqlQuery {
    /// Run one statement: its result table or the error the agent sees.
    pub fn run(&self, sql: &str) -> Result<String, String> {
        self.ticks.store(0, Ordering::Relaxed);
        let explain = |e: rusqlite::Error| {
            let m = e.to_string();
            if self.ticks.load(Ordering::Relaxed) > TICKS {
                format!("Stopped: the statement ran past the limit of {} steps.", TICKS * OPS_PER_TICK as u32)
            } else if m.contains("not authorized") {
                "Refused: only read-only SELECT queries are allowed (no writes, schema changes, PRAGMA, \
                 ATTACH, transactions or non-deterministic functions)."
                    .into()
            } else {
                let m: String = m.chars().take(300).collect();
                format!("SQL error: {m}")
            }
        };
        let mut stmt = self.conn.prepare(sql).map_err(explain)?;
        if !stmt.readonly() {
            return Err("Refused: only read-only SELECT queries are allowed.".into());
        }
        let cols: Vec<String> = stmt.column_names().iter().map(|c| c.to_string()).collect();
        let mut rows = stmt.query([]).map_err(explain)?;
        let mut shown = Vec::new();
        let mut total = 0usize;
        while let Some(row) = rows.next().map_err(explain)? {
            if shown.len() < SHOWN_ROWS {
                shown.push(
                    (0..cols.len())
                        .map(|i| row.get_ref(i).map_or("?".into(), cell))
                        .collect::<Vec<_>>()
                        .join(" | "),
                );
            }
            total += 1;
        }
        let more = if total > shown.len() {
            format!("\n(showing {} of {total} rows)", shown.len())
        } else {
            String::new()
        };
        Ok(format!(
            "{}\n{}{more}",
            cols.join(" | "),
            if shown.is_empty() { "(no rows)".into() } else { shown.join("\n") }
        ))
    }

    fn seen(&self, sql: &str) -> Option<&str> {
        self.log.iter().find(|(s, _)| s == sql).map(|(_, r)| r.as_str())
    }

    fn check(&self, answer: &str) -> bool {
        let a = answer.trim_matches(|c| c == '\'' || c == '"');
        if self.truth.bytes().all(|b| b.is_ascii_digit()) {
            a == self.truth
        } else {
            a.eq_ignore_ascii_case(&self.truth)
        }
    }
}

impl World for SqlQuery {
    const NAME: &'static str = "sql_query";
    const CATEGORY: &'static str = "agentic";
    const DESCRIPTION: &'static str =
        "Query a generated SQLite database with SQL and answer a question about it.";
    const FLOORS: [f64; 5] = [1.0; 5];

    fn generate(rng: &mut Rng, level: u8) -> Self {
        let data = Data::generate(rng, level);
        let conn = Connection::open_in_memory().expect("an in-memory SQLite opens");
        data.load(&conn).expect("the generated rows load");
        let ticks = Arc::new(AtomicU32::new(0));
        let t = ticks.clone();
        conn.progress_handler(OPS_PER_TICK, Some(move || t.fetch_add(1, Ordering::Relaxed) + 1 > TICKS));
        conn.authorizer(Some(authorize));
        conn.set_limit(Limit::SQLITE_LIMIT_LENGTH, 100_000).ok();
        conn.set_limit(Limit::SQLITE_LIMIT_SQL_LENGTH, 2_000).ok();
        let mut schema = Vec::new();
        if let Ok(mut s) = conn.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' ORDER BY rowid") {
            if let Ok(rows) = s.query_map([], |r| r.get::<_, String>(0)) {
                schema.extend(rows.flatten());
            }
        }
        let kinds = rng.permutation(3);
        let (question, truth, reference) =
            kinds.iter().find_map(|&k| data.question(rng, level, k)).unwrap_or_else(|| {
                (
                    "How many employees are there?".into(),
                    data.emps.len().to_string(),
                    "SELECT COUNT(*) FROM employees".into(),
                )
            });
        SqlQuery {
            conn,
            ticks,
            level,
            schema: schema.join(";\n"),
            question,
            truth,
            reference,
            log: Vec::new(),
        }
    }

    fn limit(&self) -> u32 {
        [6, 8, 10, 12, 12][self.level as usize - 1]
    }

    fn intro(&self) -> String {
        format!(
            "SQL tool use. A SQLite database has these tables:\n{};\nQuestion: {}\nRun one read-only SQL \
             statement per turn; results show at most {SHOWN_ROWS} rows.",
            self.schema, self.question
        )
    }

    fn render(&self) -> String {
        let log: Vec<String> = self.log.iter().map(|(s, r)| format!("> {s}\n{r}")).collect();
        if log.is_empty() {
            "Results: (none yet)".into()
        } else {
            format!("Results:\n{}", log.join("\n"))
        }
    }

    fn anchor(&self) -> String {
        let mut s: Vec<&str> = self.log.iter().map(|(s, _)| s.as_str()).collect();
        s.sort_unstable();
        s.dedup();
        format!("{}|{}", self.question, s.join(";"))
    }

    fn grammar(&self) -> String {
        "Actions: sql <one SELECT statement> | answer <value> (ends the episode).".into()
    }

    fn step(&mut self, action: &str) -> Step {
        let (v, rest) = verb(action);
        match v.as_str() {
            "sql" if !rest.is_empty() => {
                let result = self.run(rest).unwrap_or_else(|e| e);
                // The result itself is listed under Results in the observation.
                let first = result.lines().next().unwrap_or("");
                let msg = if first.starts_with("Refused")
                    || first.starts_with("SQL error")
                    || first.starts_with("Stopped")
                {
                    format!("Query {} failed: {first}", self.log.len() + 1)
                } else {
                    format!("Query {} ran; its result is under Results.", self.log.len() + 1)
                };
                self.log.push((rest.to_string(), result));
                Step::Done(Outcome::Continue, msg)
            }
            "answer" if !rest.is_empty() => {
                if self.check(rest) {
                    Step::Done(Outcome::Won, format!("{} is correct.", super::text_common::clip(rest)))
                } else {
                    Step::Done(
                        Outcome::Lost,
                        format!(
                            "{} is wrong; the answer was {}.",
                            super::text_common::clip(rest),
                            self.truth
                        ),
                    )
                }
            }
            _ => Step::Format(
                "Start with `sql` followed by a statement, or `answer` followed by the value.".into(),
            ),
        }
    }

    fn legal(&self) -> Vec<String> {
        let mut out: Vec<String> = [
            "sql SELECT * FROM departments",
            "sql SELECT * FROM employees LIMIT 10",
            "sql SELECT COUNT(*) FROM employees",
            "sql SELECT MAX(salary) FROM employees",
            "sql SELECT name FROM sqlite_master",
            "answer 0",
            "answer 1",
            "answer 100",
        ]
        .map(String::from)
        .to_vec();
        out.push(format!("answer {}", FIRST[self.log.len() % FIRST.len()]));
        out
    }

    fn oracle(&self, _rng: &mut Rng) -> String {
        let Some(result) = self.seen(&self.reference) else { return format!("sql {}", self.reference) };
        let value = result.lines().nth(1).unwrap_or("");
        format!("answer {value}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn world(seed: u64, level: u8) -> SqlQuery {
        SqlQuery::generate(&mut Rng::new(seed), level)
    }

    #[test]
    fn writes_and_side_effects_are_refused() {
        let w = world(1, 3);
        for sql in [
            "INSERT INTO employees VALUES (99, 'x', 1, 1, 2020)",
            "UPDATE employees SET salary = 0",
            "DELETE FROM employees",
            "DROP TABLE employees",
            "CREATE TABLE t(x)",
            "PRAGMA query_only = OFF",
            "ATTACH DATABASE 'x.db' AS x",
            "BEGIN",
            "SELECT random()",
            "SELECT date('now')",
        ] {
            let e = w.run(sql).expect_err(sql);
            assert!(e.starts_with("Refused"), "{sql}: {e}");
        }
        assert_eq!(w.run("SELECT COUNT(*) FROM employees").unwrap(), "COUNT(*)\n25");
    }

    #[test]
    fn bad_sql_is_an_error_message_and_the_episode_goes_on() {
        let mut w = world(2, 1);
        let e = w.run("SELEC name FROM employees").unwrap_err();
        assert!(e.starts_with("SQL error") && e.contains("syntax error"), "{e}");
        assert!(w.run("SELECT nope FROM employees").unwrap_err().contains("no such column"));
        assert!(w.run("SELECT 1; SELECT 2").unwrap_err().starts_with("SQL error"));
        assert!(matches!(w.step("sql SELEC"), Step::Done(Outcome::Continue, _)));
    }

    #[test]
    fn long_statements_are_stopped() {
        let w = world(3, 1);
        let sql = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT COUNT(*) FROM c";
        let e = w.run(sql).unwrap_err();
        assert!(e.starts_with("Stopped"), "{e}");
        // The connection is usable afterwards.
        assert!(w.run("SELECT COUNT(*) FROM departments").is_ok());
    }

    #[test]
    fn reference_queries_agree_with_the_generator() {
        for level in 1..=5 {
            for seed in 0..40 {
                let w = world(seed, level);
                let r = w.run(&w.reference).unwrap();
                assert_eq!(
                    r.lines().nth(1),
                    Some(w.truth.as_str()),
                    "level {level} seed {seed}: {}",
                    w.question
                );
            }
        }
    }
}
