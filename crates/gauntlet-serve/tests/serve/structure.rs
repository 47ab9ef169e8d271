//! The shape of the crate's source, checked from the text of `src/` (issue 32):
//!
//! - no import circle spans more than two files: the module graph (an edge from a file to every
//!   file whose module it names in a `use`, a `crate::`/`super::`/`self::` path or a path through
//!   one of its child modules; test modules left out) has no strongly connected component of
//!   more than two files. Before the fix the largest was 11 files around `app.rs` (app, body,
//!   catalog, generate, openenv/{episode, mod, spec, ws}, session_api, sessions, verify), with a
//!   second of 3 (lib, policy/{mod, handlers}); after it, the largest is 2 (a parent module and
//!   a child that uses its items: openenv/{mod, ws}, policy/{mod, handlers});
//! - no function in `src/` is longer than [`MAX_FN_LINES`] lines.
//!
//! `cargo test -p gauntlet-serve --test serve structure -- --nocapture` prints the components.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The longest a function may be, in lines from `fn` to its closing brace.
const MAX_FN_LINES: usize = 120;

/// The longest import circle allowed, in files.
const MAX_CIRCLE: usize = 2;

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Where the literal or comment starting at `i` ends (exclusive), or `None` when none starts
/// there. Handles `//` and nested `/* */` comments, `"..."` with escapes, raw strings
/// `r#"..."#`, and char literals (told apart from lifetimes).
fn skip_literal(b: &[char], i: usize) -> Option<usize> {
    let at = |k: usize| b.get(k).copied();
    let prev_ident = i > 0 && is_ident(b[i - 1]);
    match b[i] {
        '/' if at(i + 1) == Some('/') => Some((i..b.len()).find(|&k| b[k] == '\n').unwrap_or(b.len())),
        '/' if at(i + 1) == Some('*') => {
            let (mut k, mut depth) = (i, 0usize);
            while k < b.len() {
                if b[k] == '/' && at(k + 1) == Some('*') {
                    depth += 1;
                    k += 2;
                } else if b[k] == '*' && at(k + 1) == Some('/') {
                    depth -= 1;
                    k += 2;
                    if depth == 0 {
                        return Some(k);
                    }
                } else {
                    k += 1;
                }
            }
            Some(b.len())
        }
        'r' if !prev_ident && matches!(at(i + 1), Some('#') | Some('"')) => {
            let hashes = (i + 1..b.len()).take_while(|&k| b[k] == '#').count();
            if at(i + 1 + hashes) != Some('"') {
                return None;
            }
            let mut k = i + 2 + hashes;
            while k < b.len() {
                if b[k] == '"' && (1..=hashes).all(|h| at(k + h) == Some('#')) {
                    return Some(k + 1 + hashes);
                }
                k += 1;
            }
            Some(b.len())
        }
        '"' => {
            let mut k = i + 1;
            while k < b.len() && b[k] != '"' {
                k += if b[k] == '\\' { 2 } else { 1 };
            }
            Some((k + 1).min(b.len()))
        }
        '\'' if at(i + 1) == Some('\\') => (i + 3..b.len()).find(|&k| b[k] == '\'').map(|k| k + 1),
        '\'' if at(i + 2) == Some('\'') => Some(i + 3),
        _ => None,
    }
}

/// The source with comments and literals blanked (newlines kept, so line numbers hold).
fn code_only(src: &str) -> String {
    let b: Vec<char> = src.chars().collect();
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    while i < b.len() {
        match skip_literal(&b, i) {
            Some(end) => {
                out.extend(b[i..end].iter().filter(|&&c| c == '\n'));
                out.push(' ');
                i = end;
            }
            None => {
                out.push(b[i]);
                i += 1;
            }
        }
    }
    out
}

/// The index just past the brace that closes the one at `open`.
fn matching_brace(b: &[char], open: usize) -> usize {
    let mut depth = 0usize;
    for (k, &c) in b.iter().enumerate().skip(open) {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return k + 1;
                }
            }
            _ => {}
        }
    }
    b.len()
}

/// `code` without its `#[cfg(test)] mod name { ... }` blocks.
fn without_test_modules(code: &str) -> String {
    let b: Vec<char> = code.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < b.len() {
        let rest: String = b[i..b.len().min(i + 12)].iter().collect();
        if rest == "#[cfg(test)]" {
            let after: String = b[i + 12..].iter().collect();
            let trimmed = after.trim_start();
            if trimmed.starts_with("mod ") {
                if let Some(open) = after.find('{') {
                    let start = i + 12 + after[..open].chars().count();
                    i = matching_brace(&b, start);
                    continue;
                }
            }
        }
        out.push(b[i]);
        i += 1;
    }
    out
}

/// Every path of two or more `::`-joined segments that is not the tail of a longer one.
fn paths(code: &str) -> Vec<Vec<String>> {
    let b: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let starts = is_ident(b[i]) && (i == 0 || !(is_ident(b[i - 1]) || b[i - 1] == ':'));
        if !starts {
            i += 1;
            continue;
        }
        let mut segs = Vec::new();
        loop {
            let s = i;
            while i < b.len() && is_ident(b[i]) {
                i += 1;
            }
            segs.push(b[s..i].iter().collect::<String>());
            if b.get(i) == Some(&':')
                && b.get(i + 1) == Some(&':')
                && b.get(i + 2).is_some_and(|&c| is_ident(c))
            {
                i += 2;
            } else {
                break;
            }
        }
        if segs.len() > 1 {
            out.push(segs);
        }
    }
    out
}

/// Splits `s` at its top-level commas (outside braces).
fn top_level(s: &str) -> Vec<&str> {
    let (mut depth, mut start, mut parts) = (0i32, 0, Vec::new());
    for (k, c) in s.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&s[start..k]);
                start = k + 1;
            }
            _ => {}
        }
    }
    parts.push(&s[start..]);
    parts.into_iter().filter(|p| !p.trim().is_empty()).collect()
}

/// The paths a `use` tree names (`a::{b, c::{self, d}}` → `a::b`, `a::c`, `a::c::d`).
fn expand_use(prefix: Vec<String>, tree: &str, out: &mut Vec<Vec<String>>) {
    let t = tree.trim();
    if let Some(inner) = t.strip_prefix('{').and_then(|x| x.strip_suffix('}')) {
        for part in top_level(inner) {
            expand_use(prefix.clone(), part, out);
        }
    } else if let Some((head, rest)) = t.split_once("::") {
        let mut p = prefix;
        p.push(head.trim().to_string());
        expand_use(p, rest, out);
    } else {
        let name = t.split(" as ").next().unwrap_or("").trim();
        let mut p = prefix;
        if name != "self" && name != "*" {
            p.push(name.to_string());
        }
        out.push(p);
    }
}

/// Every `use` declaration's paths.
fn use_paths(code: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for (at, _) in code.match_indices("use ") {
        if code[..at].chars().next_back().is_some_and(is_ident) {
            continue;
        }
        if let Some(end) = code[at..].find(';') {
            expand_use(Vec::new(), &code[at + 4..at + end], &mut out);
        }
    }
    out
}

/// The module path of a file under `src/` (`openenv/ws.rs` → `["openenv", "ws"]`).
fn module_of(rel: &Path) -> Vec<String> {
    let mut segs: Vec<String> = rel.iter().map(|s| s.to_string_lossy().into_owned()).collect();
    let last = segs.pop().unwrap_or_default();
    let stem = last.trim_end_matches(".rs").to_string();
    if !matches!(stem.as_str(), "lib" | "mod" | "main") {
        segs.push(stem);
    }
    segs
}

/// A path as written in `module` (whose child modules are `children`) made absolute (from the
/// crate root, without `crate`), or `None` for a path outside the crate.
fn absolute(module: &[String], children: &BTreeSet<String>, p: &[String]) -> Option<Vec<String>> {
    let head = p.first()?;
    Some(match head.as_str() {
        "crate" => p[1..].to_vec(),
        "super" => module[..module.len().saturating_sub(1)].iter().chain(&p[1..]).cloned().collect(),
        "self" => module.iter().chain(&p[1..]).cloned().collect(),
        h if children.contains(h) => module.iter().chain(p).cloned().collect(),
        _ => return None,
    })
}

/// The items a file re-exports with `pub use` from inside the crate: item name → the module
/// path it comes from (absolute).
fn reexports(module: &[String], children: &BTreeSet<String>, code: &str) -> BTreeMap<String, Vec<String>> {
    let mut trees = Vec::new();
    for (at, _) in code.match_indices("pub use ") {
        if let Some(end) = code[at..].find(';') {
            expand_use(Vec::new(), &code[at + 8..at + end], &mut trees);
        }
    }
    trees
        .iter()
        .filter(|p| p.len() > 1)
        .filter_map(|p| {
            let abs = absolute(module, children, p)?;
            Some((abs.last()?.clone(), abs[..abs.len() - 1].to_vec()))
        })
        .collect()
}

/// The file-level module graph of `src/`: file → files it imports. A path through a re-export
/// (`crate::Roster` where `lib.rs` says `pub use roster::Roster`) leads to the file the item
/// comes from, not to the re-exporting one.
fn module_graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let modules: BTreeMap<Vec<String>, String> = files
        .iter()
        .map(|f| {
            let rel = f.strip_prefix(src).unwrap();
            (module_of(rel), rel.to_string_lossy().into_owned())
        })
        .collect();
    let code: BTreeMap<&String, String> = modules
        .values()
        .map(|file| {
            (file, without_test_modules(&code_only(&std::fs::read_to_string(src.join(file)).unwrap())))
        })
        .collect();
    let exported: BTreeMap<&Vec<String>, BTreeMap<String, Vec<String>>> = modules
        .iter()
        .map(|(module, file)| (module, reexports(module, &declared_modules(&code[file]), &code[file])))
        .collect();
    let resolve = |path: &[String]| {
        let mut path = path.to_vec();
        for _ in 0..8 {
            let n = (0..=path.len()).rev().find(|&n| modules.contains_key(&path[..n]))?;
            let via = path.get(n).and_then(|item| exported[&path[..n].to_vec()].get(item));
            match via {
                Some(origin) if origin.as_slice() != &path[..n] => {
                    path = origin.iter().chain(&path[n..]).cloned().collect();
                }
                _ => return modules.get(&path[..n]).cloned(),
            }
        }
        None
    };
    let mut graph = BTreeMap::new();
    for (module, file) in &modules {
        let code = &code[file];
        let children: BTreeSet<String> = declared_modules(code);
        let mut edges = BTreeSet::new();
        for p in use_paths(code).into_iter().chain(paths(code)) {
            let Some(absolute) = absolute(module, &children, &p) else { continue };
            if let Some(target) = resolve(&absolute) {
                if &target != file {
                    edges.insert(target);
                }
            }
        }
        graph.insert(file.clone(), edges);
    }
    graph
}

/// The child modules a file declares (`mod x;` → `x`).
fn declared_modules(code: &str) -> BTreeSet<String> {
    let keyword = "mod ";
    let mut out = BTreeSet::new();
    for (k, _) in code.match_indices(keyword) {
        if k > 0 && code[..k].chars().next_back().is_some_and(is_ident) {
            continue;
        }
        let rest = &code[k + keyword.len()..];
        let name: String = rest.chars().take_while(|&c| is_ident(c)).collect();
        if !name.is_empty() && rest[name.len()..].trim_start().starts_with(';') {
            out.insert(name);
        }
    }
    out
}

/// Strongly connected components (Tarjan), largest first.
fn components(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct Tarjan<'a> {
        graph: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        out: Vec<Vec<String>>,
    }
    impl<'a> Tarjan<'a> {
        fn visit(&mut self, v: &'a str) {
            let n = self.index.len();
            self.index.insert(v, n);
            self.low.insert(v, n);
            self.stack.push(v);
            let graph = self.graph;
            for w in &graph[v] {
                if !self.index.contains_key(w.as_str()) {
                    self.visit(w);
                    let lw = self.low[w.as_str()];
                    let lv = self.low.get_mut(v).unwrap();
                    *lv = (*lv).min(lw);
                } else if self.stack.contains(&w.as_str()) {
                    let iw = self.index[w.as_str()];
                    let lv = self.low.get_mut(v).unwrap();
                    *lv = (*lv).min(iw);
                }
            }
            if self.low[v] == self.index[v] {
                let mut comp = Vec::new();
                while let Some(w) = self.stack.pop() {
                    comp.push(w.to_string());
                    if w == v {
                        break;
                    }
                }
                comp.sort();
                self.out.push(comp);
            }
        }
    }
    let mut t =
        Tarjan { graph, index: BTreeMap::new(), low: BTreeMap::new(), stack: Vec::new(), out: Vec::new() };
    for v in graph.keys() {
        if !t.index.contains_key(v.as_str()) {
            t.visit(v);
        }
    }
    t.out.sort_by_key(|c| std::cmp::Reverse(c.len()));
    t.out
}

fn crate_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn no_import_circle_spans_more_than_two_files() {
    let graph = module_graph(&crate_dir().join("src"));
    assert!(graph.len() >= 15, "the graph covers the crate: {graph:?}");
    assert!(graph["app.rs"].contains("session_api.rs"), "the parser sees imports: {:?}", graph["app.rs"]);
    let comps = components(&graph);
    for c in comps.iter().filter(|c| c.len() > 1) {
        eprintln!("import circle of {} files: {}", c.len(), c.join(", "));
    }
    let largest = &comps[0];
    assert!(
        largest.len() <= MAX_CIRCLE,
        "an import circle spans {} files: {} (move what they share into a leaf module)",
        largest.len(),
        largest.join(", ")
    );
}

#[test]
fn the_circle_check_finds_circles() {
    let g = |edges: &[(&str, &str)]| {
        let mut m: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (a, b) in edges {
            m.entry(a.to_string()).or_default().insert(b.to_string());
            m.entry(b.to_string()).or_default();
        }
        m
    };
    assert_eq!(components(&g(&[("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")]))[0], ["a", "b", "c"]);
    assert_eq!(components(&g(&[("a", "b"), ("b", "a"), ("b", "c")]))[0].len(), 2);
    let mut out = Vec::new();
    expand_use(Vec::new(), "crate::{a, b::{self, c as d}, e::*}", &mut out);
    assert_eq!(out, [vec!["crate", "a"], vec!["crate", "b"], vec!["crate", "b", "c"], vec!["crate", "e"]]);
    let code =
        code_only("let s = \"crate::x\"; // crate::y\nlet c = '\"'; r#\"crate::z\"#; crate::w::f(); 'a");
    let found: Vec<String> = paths(&code).into_iter().map(|p| p.join("::")).collect();
    assert_eq!(found, ["crate::w::f"]);
}

/// The functions of the `.rs` files under `src` longer than [`MAX_FN_LINES`], as
/// `path: fn name (N lines)`.
fn long_functions(src: &Path) -> Vec<String> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let mut long = Vec::new();
    for f in &files {
        let text = code_only(&std::fs::read_to_string(f).unwrap());
        let b: Vec<char> = text.chars().collect();
        for (k, _) in text.match_indices("fn ") {
            if k > 0 && text[..k].chars().next_back().is_some_and(is_ident) {
                continue;
            }
            let name: String = text[k + 3..].chars().take_while(|&c| is_ident(c)).collect();
            let rest = &text[k..];
            let Some(body) = rest.find(['{', ';']) else { continue };
            if name.is_empty() || rest.as_bytes()[body] == b';' {
                continue;
            }
            let open = text[..k + body].chars().count();
            let close = matching_brace(&b, open);
            let first = text[..k].matches('\n').count() + 1;
            let last = b[..close].iter().filter(|&&c| c == '\n').count() + 1;
            if last + 1 - first > MAX_FN_LINES {
                long.push(format!("{}: fn {name} ({} lines)", f.display(), last + 1 - first));
            }
        }
    }
    long
}

#[test]
fn no_function_is_longer_than_the_limit() {
    let long = long_functions(&crate_dir().join("src"));
    assert!(
        long.is_empty(),
        "functions over {MAX_FN_LINES} lines (split them into named steps):\n{}",
        long.join("\n")
    );
}

/// The other crates of the layer above the kernel (the kernel itself, rollout, the trainer and
/// the CLI) are held to the same two rules.
const SIBLINGS: [&str; 4] = ["gauntlet-episode", "gauntlet-rollout", "gauntlet-train", "gauntlet"];

#[test]
fn the_kernel_rollout_trainer_and_cli_have_the_same_shape() {
    for name in SIBLINGS {
        let src = crate_dir().join("..").join(name).join("src");
        let graph = module_graph(&src);
        assert!(graph.len() >= 3, "{name}: the graph covers the crate: {graph:?}");
        let comps = components(&graph);
        let edges: Vec<String> = comps[0]
            .iter()
            .flat_map(|a| {
                graph[a].iter().filter(|b| comps[0].contains(b)).map(move |b| format!("{a} -> {b}"))
            })
            .collect();
        assert!(
            comps[0].len() <= MAX_CIRCLE,
            "{name}: an import circle spans {} files: {} (move what they share into a leaf module); its imports:\n{}",
            comps[0].len(),
            comps[0].join(", "),
            edges.join("\n")
        );
        let long = long_functions(&src);
        assert!(long.is_empty(), "{name}: functions over {MAX_FN_LINES} lines:\n{}", long.join("\n"));
    }
}
