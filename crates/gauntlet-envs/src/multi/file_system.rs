//! An agentic shell over a generated file system (InterCode-Bash / Terminal-Bench style): answer
//! a question about files the agent can only see through `ls`, `cd`, `cat`, `grep` and `find`.
//!
//! **Generates** a directory tree under `/` (top-level folders such as `etc`, `srv`, `var`, a
//! home folder `/home/<user>` where the agent starts) with files of three kinds: configs
//! (`<service>.conf`, `key = value` lines, from level 3 grouped under `[section]` headers where
//! the same key recurs with other values), logs (`<service>.log`, lines `HH:MM LEVEL message`,
//! some with `ERROR`) and notes (`*.txt`, sentences, some naming access codes such as
//! `QX-4821`). Then a question, drawn from the level's kinds:
//!
//! - *value*: the value of `key` in the file named `F` (unique name; the location is unknown);
//! - *section*: the value of `key` in section `[S]` of `F` (the key recurs in other sections;
//!   from level 4 a stale copy `F.bak` with its own values lies elsewhere);
//! - *where*: the path of the one file containing an access code (other codes are decoys);
//! - *count*: how many files under a folder (any depth) contain `ERROR` (logs elsewhere contain
//!   it too; lowercase `error` does not count);
//! - *chain*: `profile.txt` names the active service in its line `active = NAME` (and a stale one
//!   in `previous = …`); the value of `key` in `[S]` of `NAME.conf`.
//!
//! Nothing is shown until the agent looks: the observation is the current directory and the
//! output of the last command (partial observability; the agent keeps its own notes).
//!
//! **Plays**: `ls [PATH]` (directories end with `/`), `cd PATH`, `pwd`, `cat PATH`, `grep
//! PATTERN` (case-sensitive substring, in the files of the current directory only, printed as
//! `name: line`), `find NAME` (every file and directory under the current directory whose name
//! contains `NAME`, as absolute paths), `answer VALUE`. Paths are absolute (`/srv/app`) or
//! relative (`app/conf`, `..`, `.`). A path that does not exist, `cd` to a file or `cat` of a
//! directory is invalid; an unknown command is a format error. Outputs longer than
//! [`MAX_LINES`] lines are cut (the rest counted).
//!
//! **Rewards**: one answer only: `answer` ends the episode, 1.0 when it is right (a value
//! exactly, a count as an integer, a path absolute or relative to the current directory), else
//! 0.0. The turn limit truncates with 0.0.
//!
//! | level | folders | files | questions | turns |
//! |---|---|---|---|---|
//! | 1 | 4 | 8 | value | 15 |
//! | 2 | 6 | 14 | value, where | 40 |
//! | 3 | 9 | 22 | section, where | 50 |
//! | 4 | 12 | 30 | section (+ stale copy), where, count | 70 |
//! | 5 | 16 | 40 | chain, where, count | 90 |
//!
//! (folders: generated ones, besides `/`, `/home` and the home folder.)
//!
//! **Example**: "What is the value of `timeout` in the file `billing.conf`?" → `cd /`, `find
//! billing.conf` (prints `/srv/billing/billing.conf`), `cat /srv/billing/billing.conf` (prints
//! `timeout = 45`), `answer 45`.
//!
//! **Oracle**: works only from what the commands printed. File questions: `cd /`, `find` the
//! name, `cat` the exact path, answer (the chain reads `profile.txt` first). Search questions:
//! visits the folders in scope depth first (`cd` by absolute path, `grep` the code or `ERROR`,
//! `ls` for subfolders), answering the path on the first hit, or the count once every folder in
//! scope is searched. Layouts where it would exceed the turn limit are redrawn, so it is exact
//! (1.0 at every level).
//!
//! **Failure modes**: answering from the stale `.bak` copy or another section, forgetting that
//! `grep` does not recurse, counting matching lines instead of files, counting `error`, reading
//! `previous` instead of `active`, giving a bare file name from another directory.

use super::ledger::Outcome;
use super::shell::{verb, Step, World};
use gauntlet_core::Rng;

/// Most lines a command prints; the rest are counted.
pub const MAX_LINES: usize = 40;

const TOP: [&str; 8] = ["etc", "srv", "var", "opt", "data", "backup", "projects", "archive"];
const SUB: [&str; 20] = [
    "app", "web", "logs", "config", "old", "reports", "cache", "lib", "share", "docs", "db", "mail", "cron",
    "jobs", "tmp", "build", "releases", "notes", "team", "misc",
];
const USERS: [&str; 10] = ["ana", "ben", "chen", "dara", "eli", "fay", "gus", "hana", "ivo", "jun"];
const SERVICES: [&str; 15] = [
    "billing",
    "auth",
    "mailer",
    "search",
    "queue",
    "gateway",
    "metrics",
    "storage",
    "scheduler",
    "payments",
    "inventory",
    "catalog",
    "reports",
    "ledger",
    "notify",
];
const NOTES: [&str; 8] =
    ["notes.txt", "todo.txt", "readme.txt", "handover.txt", "ideas.txt", "log.txt", "plan.txt", "memo.txt"];
const KEYS: [&str; 10] =
    ["port", "host", "timeout", "retries", "user", "mode", "level", "workers", "region", "replicas"];
const SECTIONS: [&str; 6] = ["server", "database", "cache", "auth", "logging", "network"];
const WORDS: [&str; 10] =
    ["alpha", "beta", "gamma", "delta", "omega", "sigma", "kappa", "theta", "zeta", "iota"];
const MESSAGES: [&str; 8] = [
    "request served",
    "cache warmed",
    "job finished",
    "connection reset by peer",
    "disk usage high",
    "retried after error",
    "config reloaded",
    "worker started",
];
const SENTENCES: [&str; 6] = [
    "Remember to rotate the keys.",
    "Meeting moved to Thursday.",
    "The old server is gone.",
    "Ask ops about the backup window.",
    "Nothing urgent this week.",
    "Check the error budget.",
];

/// (generated folders, files, turn limit) per level.
const LEVELS: [(usize, usize, u32); 5] = [(4, 8, 15), (6, 14, 40), (9, 22, 50), (12, 30, 70), (16, 40, 90)];

#[derive(Debug, Clone, PartialEq)]
enum Body {
    Dir(Vec<usize>),
    File(Vec<String>),
}

#[derive(Debug, Clone, PartialEq)]
struct Node {
    name: String,
    parent: usize,
    body: Body,
}

/// The question of an episode (node indices into the tree).
#[derive(Debug, Clone, PartialEq)]
enum Question {
    /// The value of `key` in `file` (optionally in `[section]`).
    Value { file: usize, section: Option<String>, key: String },
    /// The one file containing `code`.
    Where { code: String, file: usize },
    /// Files under `dir` containing `ERROR`.
    Count { dir: usize },
    /// `pointer`'s `active = NAME` names `target`; the value of `key` in `[section]` there.
    Chain { pointer: usize, target: usize, section: String, key: String },
}

/// The file-system world.
#[derive(Debug, Clone)]
pub struct FileSystem {
    nodes: Vec<Node>,
    cwd: usize,
    question: Question,
    /// Per node: the agent has seen its path (in `ls` or `find` output).
    known: Vec<bool>,
    /// Per folder: listed with `ls`.
    listed: Vec<bool>,
    /// Per file: printed with `cat`.
    read: Vec<bool>,
    /// (folder, pattern) pairs searched with `grep`.
    grepped: Vec<(usize, String)>,
    /// The last command and its output.
    last: String,
    limit: u32,
}

/// The value of `key` in config lines, under `[section]` when given.
fn value_in(lines: &[String], section: Option<&str>, key: &str) -> Option<String> {
    let mut current: Option<&str> = None;
    for line in lines {
        if let Some(s) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            current = Some(s);
        } else if let Some((k, v)) = line.split_once(" = ") {
            if k == key && (section.is_none() || section == current) {
                return Some(v.to_string());
            }
        }
    }
    None
}

impl FileSystem {
    fn children(&self, d: usize) -> &[usize] {
        match &self.nodes[d].body {
            Body::Dir(c) => c,
            Body::File(_) => &[],
        }
    }

    fn is_dir(&self, i: usize) -> bool {
        matches!(self.nodes[i].body, Body::Dir(_))
    }

    fn lines(&self, i: usize) -> &[String] {
        match &self.nodes[i].body {
            Body::File(l) => l,
            Body::Dir(_) => &[],
        }
    }

    /// The absolute path of node `i`.
    fn path(&self, i: usize) -> String {
        let mut parts = Vec::new();
        let mut cur = i;
        while cur != 0 {
            parts.push(self.nodes[cur].name.as_str());
            cur = self.nodes[cur].parent;
        }
        parts.reverse();
        format!("/{}", parts.join("/"))
    }

    /// The node a path names, from the current directory.
    fn resolve(&self, path: &str) -> Option<usize> {
        let mut cur = if path.starts_with('/') { 0 } else { self.cwd };
        for part in path.split('/') {
            match part {
                "" | "." => {}
                ".." => cur = self.nodes[cur].parent,
                name => cur = *self.children(cur).iter().find(|&&c| self.nodes[c].name == name)?,
            }
        }
        Some(cur)
    }

    fn under(&self, mut i: usize, dir: usize) -> bool {
        loop {
            if i == dir {
                return true;
            }
            if i == 0 {
                return false;
            }
            i = self.nodes[i].parent;
        }
    }

    /// Every node below `d` (not `d`), depth first in name order.
    fn descendants(&self, d: usize) -> Vec<usize> {
        let mut out = Vec::new();
        for &c in self.children(d) {
            out.push(c);
            out.extend(self.descendants(c));
        }
        out
    }

    fn contains(&self, f: usize, pattern: &str) -> bool {
        self.lines(f).iter().any(|l| l.contains(pattern))
    }

    /// The right answer (as text).
    fn truth(&self) -> String {
        match &self.question {
            Question::Value { file, section, key } => {
                value_in(self.lines(*file), section.as_deref(), key).unwrap_or_default()
            }
            Question::Where { file, .. } => self.path(*file),
            Question::Count { dir } => self.count_errors(*dir).to_string(),
            Question::Chain { target, section, key, .. } => {
                value_in(self.lines(*target), Some(section), key).unwrap_or_default()
            }
        }
    }

    fn count_errors(&self, dir: usize) -> usize {
        self.descendants(dir).into_iter().filter(|&f| !self.is_dir(f) && self.contains(f, "ERROR")).count()
    }

    fn cut(lines: Vec<String>, empty: &str) -> String {
        if lines.is_empty() {
            return empty.to_string();
        }
        let more = lines.len().saturating_sub(MAX_LINES);
        let mut out: Vec<String> = lines.into_iter().take(MAX_LINES).collect();
        if more > 0 {
            out.push(format!("({more} more lines not shown)"));
        }
        out.join("\n")
    }

    /// Run one command: its output, or why it is invalid (`Err("")`: not a command).
    fn run(&mut self, v: &str, arg: &str) -> Result<String, String> {
        let missing = |p: &str| format!("No such file or directory: `{}`.", super::text_common::clip(p));
        match (v, arg) {
            ("pwd", "") => Ok(self.path(self.cwd)),
            ("ls", p) => {
                let d = if p.is_empty() { self.cwd } else { self.resolve(p).ok_or_else(|| missing(p))? };
                if !self.is_dir(d) {
                    return Ok(self.nodes[d].name.clone());
                }
                self.listed[d] = true;
                let kids = self.children(d).to_vec();
                let names = kids
                    .iter()
                    .map(|&c| {
                        self.known[c] = true;
                        let slash = if self.is_dir(c) { "/" } else { "" };
                        format!("{}{slash}", self.nodes[c].name)
                    })
                    .collect();
                Ok(Self::cut(names, "(empty)"))
            }
            ("cd", p) if !p.is_empty() => {
                let d = self.resolve(p).ok_or_else(|| missing(p))?;
                if !self.is_dir(d) {
                    return Err(format!("`{}` is a file, not a directory.", super::text_common::clip(p)));
                }
                self.cwd = d;
                Ok(format!("(now in {})", self.path(d)))
            }
            ("cat", p) if !p.is_empty() => {
                let f = self.resolve(p).ok_or_else(|| missing(p))?;
                if self.is_dir(f) {
                    return Err(format!("`{}` is a directory; use ls.", super::text_common::clip(p)));
                }
                self.read[f] = true;
                self.known[f] = true;
                Ok(Self::cut(self.lines(f).to_vec(), "(empty file)"))
            }
            ("grep", pat) if !pat.is_empty() => {
                let key = (self.cwd, pat.to_string());
                if !self.grepped.contains(&key) {
                    self.grepped.push(key);
                }
                let mut out = Vec::new();
                for &c in self.children(self.cwd) {
                    for l in self.lines(c).iter().filter(|l| l.contains(pat)) {
                        out.push(format!("{}: {l}", self.nodes[c].name));
                    }
                }
                Ok(Self::cut(out, "(no matches)"))
            }
            ("find", name) if !name.is_empty() => {
                let hits: Vec<usize> = self
                    .descendants(self.cwd)
                    .into_iter()
                    .filter(|&i| self.nodes[i].name.contains(name))
                    .collect();
                let mut out = Vec::new();
                for i in hits {
                    let mut a = i;
                    while a != 0 {
                        self.known[a] = true;
                        a = self.nodes[a].parent;
                    }
                    out.push(format!("{}{}", self.path(i), if self.is_dir(i) { "/" } else { "" }));
                }
                Ok(Self::cut(out, "(nothing found)"))
            }
            _ => Err(String::new()),
        }
    }

    fn check(&self, answer: &str) -> bool {
        let a = answer.trim_matches(|c| c == '`' || c == '"' || c == '\'');
        match &self.question {
            Question::Where { file, .. } => self.resolve(a) == Some(*file),
            Question::Count { dir } => a.parse::<usize>().ok() == Some(self.count_errors(*dir)),
            _ => a == self.truth(),
        }
    }
}

// ---- generation ----

impl FileSystem {
    fn add(&mut self, parent: usize, name: String, body: Body) -> usize {
        let i = self.nodes.len();
        self.nodes.push(Node { name, parent, body });
        if let Body::Dir(c) = &mut self.nodes[parent].body {
            c.push(i);
        }
        i
    }

    fn free_name(&self, dir: usize, name: &str) -> bool {
        self.children(dir).iter().all(|&c| self.nodes[c].name != name)
    }

    fn sort_children(&mut self) {
        for d in 0..self.nodes.len() {
            let mut kids = self.children(d).to_vec();
            kids.sort_by(|&a, &b| self.nodes[a].name.cmp(&self.nodes[b].name));
            if let Body::Dir(c) = &mut self.nodes[d].body {
                *c = kids;
            }
        }
    }

    fn tree(rng: &mut Rng, level: u8) -> FileSystem {
        let (folders, _, limit) = LEVELS[level as usize - 1];
        let root = Node { name: String::new(), parent: 0, body: Body::Dir(Vec::new()) };
        let mut w = FileSystem {
            nodes: vec![root],
            cwd: 0,
            question: Question::Count { dir: 0 },
            known: Vec::new(),
            listed: Vec::new(),
            read: Vec::new(),
            grepped: Vec::new(),
            last: String::new(),
            limit,
        };
        let home = w.add(0, "home".into(), Body::Dir(Vec::new()));
        w.cwd = w.add(home, USERS[rng.index(USERS.len())].into(), Body::Dir(Vec::new()));
        let max_depth = if level <= 1 {
            2
        } else if level <= 3 {
            3
        } else {
            4
        };
        let mut made = 0;
        while made < folders {
            let dirs: Vec<usize> =
                (0..w.nodes.len()).filter(|&d| w.is_dir(d) && d != home && w.depth(d) < max_depth).collect();
            let parent = dirs[rng.index(dirs.len())];
            let pool: &[&str] = if parent == 0 { &TOP } else { &SUB };
            let name = pool[rng.index(pool.len())];
            if w.free_name(parent, name) {
                w.add(parent, name.into(), Body::Dir(Vec::new()));
                made += 1;
            }
        }
        w
    }

    fn depth(&self, mut i: usize) -> usize {
        let mut d = 0;
        while i != 0 {
            d += 1;
            i = self.nodes[i].parent;
        }
        d
    }

    /// A folder for a new file (anything but `/` and `/home`).
    fn any_folder(&self, rng: &mut Rng) -> usize {
        let dirs: Vec<usize> = (2..self.nodes.len()).filter(|&d| self.is_dir(d)).collect();
        dirs[rng.index(dirs.len())]
    }

    fn value(rng: &mut Rng, key: &str) -> String {
        match key {
            "port" => rng.range(1024, 9999).to_string(),
            "timeout" => (5 * rng.range(1, 60)).to_string(),
            "retries" | "replicas" => rng.range(1, 9).to_string(),
            "workers" => rng.range(2, 64).to_string(),
            "user" => USERS[rng.index(USERS.len())].into(),
            "mode" => ["fast", "safe", "debug", "strict", "lazy"][rng.index(5)].into(),
            "level" => ["info", "warn", "debug", "trace"][rng.index(4)].into(),
            "region" => ["north", "south", "east", "west", "central"][rng.index(5)].into(),
            _ => format!("{}{}", WORDS[rng.index(WORDS.len())], rng.range(1, 9)),
        }
    }

    /// Config lines: flat, or 2–3 sections sharing `shared` keys with distinct values.
    fn config(rng: &mut Rng, sectioned: bool, shared: &[&str]) -> Vec<String> {
        let mut lines = Vec::new();
        if !sectioned {
            let n = 4 + rng.index(3);
            for k in rng.sample_indices(KEYS.len(), n) {
                lines.push(format!("{} = {}", KEYS[k], Self::value(rng, KEYS[k])));
            }
            return lines;
        }
        let n = 2 + rng.index(2);
        let secs = rng.sample_indices(SECTIONS.len(), n);
        let mut used: Vec<(String, String)> = Vec::new();
        for s in secs {
            lines.push(format!("[{}]", SECTIONS[s]));
            let mut keys: Vec<&str> = shared.to_vec();
            for k in rng.sample_indices(KEYS.len(), 2) {
                if !keys.contains(&KEYS[k]) {
                    keys.push(KEYS[k]);
                }
            }
            for k in keys {
                // A key repeated across sections gets a new value each time.
                let v = loop {
                    let v = Self::value(rng, k);
                    if !used.iter().any(|(uk, uv)| uk == k && *uv == v) {
                        break v;
                    }
                };
                used.push((k.to_string(), v.clone()));
                lines.push(format!("{k} = {v}"));
            }
        }
        lines
    }

    fn log(rng: &mut Rng, errors: bool) -> Vec<String> {
        let n = 3 + rng.index(5);
        let at = rng.index(n);
        (0..n)
            .map(|i| {
                let level = if errors && i == at { "ERROR" } else { ["INFO", "INFO", "WARN"][rng.index(3)] };
                format!("{:02}:{:02} {level} {}", 8 + i, rng.index(60), MESSAGES[rng.index(MESSAGES.len())])
            })
            .collect()
    }

    fn code(rng: &mut Rng) -> String {
        let l = |rng: &mut Rng| (b'A' + rng.index(26) as u8) as char;
        format!("{}{}-{}", l(rng), l(rng), rng.range(1000, 9999))
    }

    fn note(rng: &mut Rng, code: Option<&str>) -> Vec<String> {
        let mut lines: Vec<String> =
            rng.sample_indices(SENTENCES.len(), 2).into_iter().map(|s| SENTENCES[s].to_string()).collect();
        if let Some(c) = code {
            let at = rng.index(lines.len() + 1);
            lines.insert(at, format!("Access code for the vault: {c}"));
        }
        lines
    }

    /// A file with a fresh name in a random folder; `name` picks the name.
    fn place(&mut self, rng: &mut Rng, name: impl Fn(&mut Rng) -> String, lines: Vec<String>) -> usize {
        loop {
            let d = self.any_folder(rng);
            let n = name(rng);
            if self.free_name(d, &n) {
                return self.add(d, n, Body::File(lines));
            }
        }
    }
}

impl FileSystem {
    /// The question's files; returns the names fillers must not take.
    fn ask(&mut self, rng: &mut Rng, level: u8) -> Vec<String> {
        let kinds: &[u8] = match level {
            1 => &[0],
            2 => &[0, 1],
            3 => &[0, 1],
            4 => &[0, 1, 2],
            _ => &[3, 1, 2],
        };
        let services = rng.sample_indices(SERVICES.len(), 2);
        let (svc, other) = (SERVICES[services[0]], SERVICES[services[1]]);
        let sectioned = level >= 3;
        let key = KEYS[rng.index(KEYS.len())];
        match kinds[rng.index(kinds.len())] {
            0 => {
                let lines = Self::config(rng, sectioned, &[key]);
                let section = sectioned.then(|| {
                    let heads: Vec<&String> = lines.iter().filter(|l| l.starts_with('[')).collect();
                    heads[rng.index(heads.len())].trim_matches(|c| c == '[' || c == ']').to_string()
                });
                let key = if sectioned {
                    key.to_string()
                } else {
                    let ks: Vec<&str> =
                        lines.iter().filter_map(|l| l.split_once(" = ").map(|p| p.0)).collect();
                    ks[rng.index(ks.len())].to_string()
                };
                let file = self.place(rng, |_| format!("{svc}.conf"), lines);
                if level >= 4 {
                    let stale = Self::config(rng, true, &[&key]);
                    self.place(rng, |_| format!("{svc}.conf.bak"), stale);
                }
                self.question = Question::Value { file, section, key };
                vec![format!("{svc}.conf"), format!("{svc}.conf.bak")]
            }
            1 => {
                let code = Self::code(rng);
                let lines = Self::note(rng, Some(&code));
                let file = self.place(rng, |r| NOTES[r.index(NOTES.len())].into(), lines);
                for _ in 0..2 + rng.index(3) {
                    let decoy = loop {
                        let c = Self::code(rng);
                        if c != code {
                            break c;
                        }
                    };
                    let lines = Self::note(rng, Some(&decoy));
                    self.place(rng, |r| NOTES[r.index(NOTES.len())].into(), lines);
                }
                self.question = Question::Where { code, file };
                Vec::new()
            }
            2 => {
                let with_sub: Vec<usize> = (3..self.nodes.len())
                    .filter(|&d| self.is_dir(d) && self.children(d).iter().any(|&c| self.is_dir(c)))
                    .collect();
                let dir = match with_sub.is_empty() {
                    true => self.any_folder(rng),
                    false => with_sub[rng.index(with_sub.len())],
                };
                let mut inside: Vec<usize> =
                    self.descendants(dir).into_iter().filter(|&d| self.is_dir(d)).collect();
                inside.push(dir);
                for i in 0..3 + rng.index(3) {
                    let d = inside[rng.index(inside.len())];
                    let errors = i == 0 || rng.chance(0.5);
                    let s = SERVICES[rng.index(SERVICES.len())];
                    if self.free_name(d, &format!("{s}.log")) {
                        self.add(d, format!("{s}.log"), Body::File(Self::log(rng, errors)));
                    }
                }
                self.question = Question::Count { dir };
                Vec::new()
            }
            _ => {
                let mut pointer = vec!["# which service profile is live".to_string()];
                let mut pair = vec![format!("active = {svc}"), format!("previous = {other}")];
                rng.shuffle(&mut pair);
                pointer.extend(pair);
                let pointer = self.place(rng, |_| "profile.txt".into(), pointer);
                let lines = Self::config(rng, true, &[key]);
                let heads: Vec<&String> = lines.iter().filter(|l| l.starts_with('[')).collect();
                let section =
                    heads[rng.index(heads.len())].trim_matches(|c| c == '[' || c == ']').to_string();
                let target = self.place(rng, |_| format!("{svc}.conf"), lines);
                let stale = Self::config(rng, true, &[key]);
                self.place(rng, |_| format!("{other}.conf"), stale);
                self.question = Question::Chain { pointer, target, section, key: key.into() };
                vec!["profile.txt".into(), format!("{svc}.conf"), format!("{other}.conf")]
            }
        }
    }

    /// Filler files up to the level's count; never a reserved name.
    fn fill(&mut self, rng: &mut Rng, level: u8, reserved: &[String]) {
        let files = LEVELS[level as usize - 1].1;
        let code = match &self.question {
            Question::Where { code, .. } => code.clone(),
            _ => String::new(),
        };
        while self.nodes.iter().filter(|n| matches!(n.body, Body::File(_))).count() < files {
            let d = self.any_folder(rng);
            let kind = rng.index(4);
            if let Question::Count { dir } = self.question {
                // Logs in the counted folder are only the question's own.
                if kind == 2 && self.under(d, dir) {
                    continue;
                }
            }
            let s = SERVICES[rng.index(SERVICES.len())];
            let (name, lines) = match kind {
                0 | 1 => (format!("{s}.conf"), Self::config(rng, level >= 3, &[])),
                2 => {
                    let errors = rng.chance(0.4);
                    (format!("{s}.log"), Self::log(rng, errors))
                }
                _ => {
                    let c = Self::code(rng);
                    let c = (rng.chance(0.5) && c != code).then_some(c);
                    (NOTES[rng.index(NOTES.len())].to_string(), Self::note(rng, c.as_deref()))
                }
            };
            if self.free_name(d, &name) && !reserved.contains(&name) {
                self.add(d, name, Body::File(lines));
            }
        }
    }

    fn layout(rng: &mut Rng, level: u8) -> FileSystem {
        let mut w = Self::tree(rng, level);
        let reserved = w.ask(rng, level);
        w.fill(rng, level, &reserved);
        w.sort_children();
        let n = w.nodes.len();
        w.known = vec![false; n];
        w.listed = vec![false; n];
        w.read = vec![false; n];
        for a in [0, 1, w.cwd] {
            w.known[a] = true;
        }
        w
    }
}

// ---- the oracle ----

impl FileSystem {
    /// `cat` the file once its path is known, else `find` it from `/`.
    fn reach(&self, file: usize) -> String {
        if self.known[file] {
            format!("cat {}", self.path(file))
        } else if self.cwd == 0 {
            format!("find {}", self.nodes[file].name)
        } else {
            "cd /".into()
        }
    }

    fn searched(&self, d: usize, pattern: &str) -> bool {
        self.grepped.iter().any(|(g, p)| *g == d && p == pattern)
    }

    /// The next step of a depth-first search of `scope` for `pattern` (`None`: all searched).
    fn explore(&self, scope: usize, pattern: &str) -> Option<String> {
        if self.under(self.cwd, scope) {
            if !self.searched(self.cwd, pattern) {
                return Some(format!("grep {pattern}"));
            }
            if !self.listed[self.cwd] {
                return Some("ls".into());
            }
        }
        let mut stack = vec![scope];
        while let Some(d) = stack.pop() {
            if !self.listed[d] || !self.searched(d, pattern) {
                return Some(format!("cd {}", self.path(d)));
            }
            stack.extend(self.children(d).iter().rev().filter(|&&c| self.is_dir(c)));
        }
        None
    }

    fn plan(&self) -> String {
        match &self.question {
            Question::Value { file, .. } if self.read[*file] => format!("answer {}", self.truth()),
            Question::Value { file, .. } => self.reach(*file),
            Question::Chain { pointer, .. } if !self.read[*pointer] => self.reach(*pointer),
            Question::Chain { target, .. } if self.read[*target] => format!("answer {}", self.truth()),
            Question::Chain { target, .. } => self.reach(*target),
            Question::Where { code, file } => {
                let hit = self.searched(self.nodes[*file].parent, code);
                if hit {
                    return format!("answer {}", self.path(*file));
                }
                self.explore(0, code).unwrap_or_else(|| "pwd".into())
            }
            Question::Count { dir } => {
                self.explore(*dir, "ERROR").unwrap_or_else(|| format!("answer {}", self.count_errors(*dir)))
            }
        }
    }

    fn question_text(&self) -> String {
        match &self.question {
            Question::Value { file, section: None, key } => {
                format!("What is the value of `{key}` in the file `{}`?", self.nodes[*file].name)
            }
            Question::Value { file, section: Some(s), key } => format!(
                "What is the value of `{key}` in section `[{s}]` of the file `{}`?",
                self.nodes[*file].name
            ),
            Question::Where { code, .. } => {
                format!("Which file contains the access code `{code}`? Answer with its path.")
            }
            Question::Count { dir } => format!(
                "How many files under `{}` (at any depth) contain the text `ERROR` (upper case)? Answer a number.",
                self.path(*dir)
            ),
            Question::Chain { section, key, .. } => format!(
                "The file `profile.txt` names the live service in its line `active = NAME`. What is the value of \
                 `{key}` in section `[{section}]` of the file `NAME.conf`?"
            ),
        }
    }

    /// Up to three answers a random player might give: values, paths and files in the output.
    fn candidates(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for line in self.last.lines().skip(1) {
            let c = if let Some((_, v)) = line.split_once(" = ") {
                v.to_string()
            } else if line.starts_with('/') {
                line.trim_end_matches('/').to_string()
            } else if let Some((name, _)) = line.split_once(": ") {
                self.path(self.cwd).trim_end_matches('/').to_string() + "/" + name
            } else {
                continue;
            };
            if !out.contains(&c) && out.len() < 3 {
                out.push(c);
            }
        }
        out
    }
}

impl World for FileSystem {
    const NAME: &'static str = "file_system";
    const CATEGORY: &'static str = "agentic";
    const DESCRIPTION: &'static str =
        "Answer a question about a generated file system explored with ls, cd, cat, grep and find.";
    const FLOORS: [f64; 5] = [1.0; 5];

    fn generate(rng: &mut Rng, level: u8) -> Self {
        loop {
            let w = Self::layout(rng, level);
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
        format!(
            "File system. You are at a shell prompt and see only what your commands print.\nQuestion: {}\n\
             Commands: `ls [PATH]` lists a directory (directories end with /); `cd PATH`; `pwd`; `cat PATH` \
             prints a file; `grep PATTERN` prints the lines containing PATTERN (case-sensitive) in the files of \
             the current directory only, as `name: line`; `find NAME` lists every file and directory under the \
             current directory whose name contains NAME, as absolute paths; `answer VALUE` ends the episode \
             (one answer only; a path may be absolute or relative to the current directory). Paths are \
             absolute (/a/b) or relative (a/b, .., .). Output is cut after {MAX_LINES} lines.",
            self.question_text()
        )
    }

    fn render(&self) -> String {
        let out = if self.last.is_empty() { "(no command yet)".to_string() } else { self.last.clone() };
        format!("Current directory: {}\nLast output:\n{out}", self.path(self.cwd))
    }

    fn grammar(&self) -> String {
        "Actions: ls [PATH] | cd PATH | pwd | cat PATH | grep PATTERN | find NAME | answer VALUE.".into()
    }

    fn step(&mut self, action: &str) -> Step {
        let (v, arg) = verb(action);
        if v == "answer" && !arg.is_empty() {
            let clipped = super::text_common::clip(arg);
            return if self.check(arg) {
                Step::Done(Outcome::Won, format!("`{clipped}` is correct."))
            } else {
                Step::Done(Outcome::Lost, format!("`{clipped}` is wrong."))
            };
        }
        match self.run(&v, arg) {
            Ok(out) => {
                self.last = format!("$ {}\n{out}", super::text_common::clip(action));
                Step::Done(
                    Outcome::Continue,
                    format!("Ran `{}`; its output is below.", super::text_common::clip(action)),
                )
            }
            Err(why) if why.is_empty() => Step::Format(format!("Not a command. {}", self.grammar())),
            Err(why) => Step::Invalid(why),
        }
    }

    fn legal(&self) -> Vec<String> {
        let mut out: Vec<String> = vec!["ls".into(), "pwd".into(), "cd /".into()];
        if self.cwd != 0 {
            out.push("cd ..".into());
        }
        for &c in self.children(self.cwd) {
            let verb = if self.is_dir(c) { "cd" } else { "cat" };
            out.push(format!("{verb} {}", self.nodes[c].name));
        }
        match &self.question {
            Question::Value { file, .. } => out.push(format!("find {}", self.nodes[*file].name)),
            Question::Chain { .. } => out.push("find profile.txt".into()),
            Question::Where { code, .. } => out.push(format!("grep {code}")),
            Question::Count { .. } => out.push("grep ERROR".into()),
        }
        out.extend(self.candidates().into_iter().map(|c| format!("answer {c}")));
        out
    }

    fn oracle(&self, _rng: &mut Rng) -> String {
        self.plan()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn world(seed: u64, level: u8) -> FileSystem {
        FileSystem::generate(&mut Rng::new(seed), level)
    }

    #[test]
    fn oracle_meets_the_floors_and_random_is_lower() {
        let (oracle, random) = super::super::rates::rates(FileSystem::NAME, 100);
        for l in 0..5 {
            assert_eq!(oracle[l], FileSystem::FLOORS[l], "level {}", l + 1);
            assert!(random[l] < oracle[l] - 0.25, "level {}: random {}", l + 1, random[l]);
        }
    }

    #[test]
    fn commands_follow_the_stated_rules() {
        let mut w = world(5, 3);
        let home = w.path(w.cwd);
        assert!(home.starts_with("/home/"));
        assert!(matches!(w.step("cd /no/such/dir"), Step::Invalid(m) if m.contains("No such")));
        assert!(matches!(w.step("cat /home"), Step::Invalid(m) if m.contains("directory")));
        assert!(matches!(w.step("dance"), Step::Format(_)));
        assert!(matches!(w.step("grep"), Step::Format(_)));
        assert!(matches!(w.step("answer"), Step::Format(_)));
        assert!(matches!(w.step("cd .."), Step::Done(Outcome::Continue, _)));
        assert_eq!(w.path(w.cwd), "/home");
        assert!(matches!(w.step("cd ../etc/../home/./"), Step::Done(..) | Step::Invalid(_)));
        assert!(matches!(w.step("cd /"), Step::Done(Outcome::Continue, _)));
        // grep does not recurse: `/` holds folders only.
        assert!(matches!(w.step("grep ="), Step::Done(..)));
        assert!(w.last.ends_with("(no matches)"), "{}", w.last);
        // ls marks directories; find prints absolute paths.
        w.step("ls");
        assert!(w.last.contains("home/"), "{}", w.last);
        w.step("find .");
        assert!(w.last.lines().skip(1).all(|l| l.starts_with('/')), "{}", w.last);
        let file = w.nodes.iter().position(|n| matches!(n.body, Body::File(_))).unwrap();
        assert!(matches!(w.step(&format!("cd {}", w.path(file))), Step::Invalid(m) if m.contains("file")));
        assert!(matches!(w.step(&format!("cat {}", w.path(file))), Step::Done(Outcome::Continue, _)));
        assert_eq!(w.last.lines().count(), 1 + w.lines(file).len());
    }

    #[test]
    fn answers_are_checked_exactly() {
        for seed in 0..30 {
            let w = world(seed, 2);
            let truth = w.truth();
            let mut right = w.clone();
            assert!(matches!(right.step(&format!("answer {truth}")), Step::Done(Outcome::Won, _)));
            let mut wrong = w.clone();
            assert!(matches!(wrong.step(&format!("answer {truth}x")), Step::Done(Outcome::Lost, _)));
            if let Question::Where { file, .. } = w.question {
                // A path relative to the current directory names the same file.
                let mut rel = w.clone();
                rel.cwd = rel.nodes[file].parent;
                let name = rel.nodes[file].name.clone();
                assert!(matches!(rel.step(&format!("answer {name}")), Step::Done(Outcome::Won, _)));
            }
        }
    }

    #[test]
    fn questions_have_one_answer() {
        for level in 1..=5 {
            for seed in 0..40 {
                let w = world(seed, level);
                match &w.question {
                    Question::Value { file, section, key } => {
                        let name = &w.nodes[*file].name;
                        assert_eq!(w.nodes.iter().filter(|n| &n.name == name).count(), 1);
                        if let Some(s) = section {
                            // The key recurs in other sections with other values.
                            let v = value_in(w.lines(*file), Some(s), key).unwrap();
                            let all =
                                w.lines(*file).iter().filter(|l| l.starts_with(&format!("{key} = "))).count();
                            assert!(all >= 2 && !w.lines(*file).contains(&format!("{key} = {v}x")));
                        }
                    }
                    Question::Where { code, .. } => {
                        let hits = (0..w.nodes.len()).filter(|&f| w.contains(f, code)).count();
                        assert_eq!(hits, 1, "level {level} seed {seed}");
                    }
                    Question::Count { dir } => assert!(w.count_errors(*dir) >= 1),
                    Question::Chain { pointer, target, .. } => {
                        let active = format!("active = {}", w.nodes[*target].name.trim_end_matches(".conf"));
                        assert!(w.lines(*pointer).contains(&active));
                    }
                }
            }
        }
    }

    #[test]
    fn parser_fuzz_never_panics() {
        let mut rng = Rng::new(9);
        let verbs = ["ls", "cd", "cat", "grep", "find", "pwd", "answer", "", "LS", "cd ../../..", "cat //"];
        let bits = ["/", "..", ".", "etc", "a/b/c", "🦀", "\0", "*", "-1", "home/../..", " ", "[server]"];
        for level in 1..=5 {
            let mut w = world(level as u64, level);
            for _ in 0..2_000 {
                let mut a = verbs[rng.index(verbs.len())].to_string();
                for _ in 0..rng.index(4) {
                    a.push_str(bits[rng.index(bits.len())]);
                }
                let a = a.split_whitespace().collect::<Vec<_>>().join(" ");
                if a.is_empty() {
                    continue;
                }
                let _ = w.clone().step(&a);
                if !a.starts_with("answer") {
                    let _ = w.step(&a);
                }
            }
        }
    }

    #[test]
    fn same_seed_same_transcript() {
        super::super::rates::assert_same_seed_same_transcript("file_system", 4, 0.5);
    }
}

#[cfg(test)]
mod measure {
    use super::super::rates;

    /// The `gauntlet bench --envs` row (same function, same defaults): `cargo test --release -p
    /// gauntlet-envs --lib file_system_speed -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn file_system_speed() {
        rates::print_speed("file_system");
    }

    /// `cargo test -p gauntlet-envs --lib file_system_rates -- --ignored --nocapture`
    #[test]
    #[ignore]
    fn file_system_rates() {
        rates::assert_rates("file_system", [1.0; 5]);
    }

    /// The oracle's episode lengths per level (seeds 0–199) and one level-2 episode:
    /// `cargo test -p gauntlet-envs --lib file_system_lengths -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn file_system_lengths() {
        rates::print_lengths("file_system", 2);
    }
}
