//! Shopping in a text web shop backed by a real SQLite catalogue (WebShop-style).
//!
//! **Generates** one in-memory SQLite database per seed (`rusqlite`, bundled): `items(id, title,
//! brand, style, color, category, material, price_cents)` and `sizes(item_id, size)`, and an
//! instruction such as "Buy a navy wool coat from Harbor in size L, priced at most $80.00". The
//! generator first makes the target item, then *near misses* (the target with one required
//! attribute changed: another colour, material, brand, a price over the budget, the size not
//! offered), then random items; ids are distinct random three-digit numbers. Titles read
//! `<brand> <style> <color> <category>`; material and sizes appear only on the item page (and
//! in filters).
//!
//! **Plays** like a shop's pages: `search <words>` lists the items whose title contains every
//! word (whole words, any case) and clears the filters; `filter <field> <value>` narrows the
//! current list (`color`, `material`, `brand`, `category`, `size`, `max_price` in dollars);
//! `page <n>` turns the result pages (5 items each); `view <id>` opens an item page; `add <id>
//! <size>` puts one item in the cart in an offered size; `remove <id>` takes it out; `checkout`
//! ends the episode. Queries are parameterised SQL against the catalogue. Unknown ids, values,
//! pages or sizes, duplicate cart lines and checking out an empty cart are invalid (state
//! unchanged). Only the current page is shown; earlier pages must be remembered.
//!
//! **Reward** at checkout (WebShop's attribute credit): each cart line scores the fraction of
//! the instruction's constraints it meets (category, colour, size, material, brand, price ≤
//! budget, as the level asks); the order scores the mean over its lines. Success, reward 1.0,
//! is exactly one line meeting every constraint; otherwise the reward is that partial score.
//! Scores are computed in Rust from the generator's rows, independently of SQLite.
//!
//! | level | items | constraints | turns |
//! |---|---|---|---|
//! | 1 | 12 | category, colour | 8 |
//! | 2 | 25 | + size | 10 |
//! | 3 | 50 | + material | 12 |
//! | 4 | 100 | + price | 14 |
//! | 5 | 200 | + brand | 16 |
//!
//! **Example**: "Buy a red linen shirt in size M" → `search red shirt` → `filter material
//! linen` → `view 417` → `add 417 M` → `checkout` → 1.0.
//!
//! **Oracle**: searches the colour and category words (and the brand), applies one filter per
//! remaining constraint, views the first result, adds it in the asked size (the first offered
//! one when no size is asked) and checks out: exact, 1.0.
//!
//! **Failure modes**: buying a near miss (right title, wrong material), forgetting the size,
//! adding several candidates "to be safe" (the mean drops), running out of turns paging.

use super::ledger::{Ledger, Outcome, TurnRules, ANSWER_LINE};
use super::shell::{index1, verb};
use super::text_common::clip;
use crate::{action::parse_action, ScriptedEnv};
use gauntlet_core::{AgentId, Difficulty, Env, EnvError, EnvKind, EnvSpec, Feedback, Observation, Rng};
use rusqlite::{params_from_iter, types::Value, Connection};

const NAME: &str = "web_shop";
const CATEGORIES: [&str; 10] =
    ["shirt", "sweater", "jacket", "pants", "shorts", "dress", "skirt", "hoodie", "coat", "vest"];
const COLORS: [&str; 10] =
    ["red", "blue", "green", "black", "white", "grey", "navy", "beige", "pink", "yellow"];
const MATERIALS: [&str; 8] = ["cotton", "linen", "wool", "silk", "denim", "polyester", "fleece", "cashmere"];
const BRANDS: [&str; 8] =
    ["Arbor", "Bellwether", "Copperline", "Driftwood", "Evergreen", "Foxglove", "Granite", "Harbor"];
const STYLES: [&str; 6] = ["classic", "slim", "relaxed", "vintage", "everyday", "tailored"];
const SIZES: [&str; 5] = ["XS", "S", "M", "L", "XL"];
/// Results per page.
const PAGE: usize = 5;

/// One catalogue row (the generator's copy).
#[derive(Debug, Clone, PartialEq)]
struct Item {
    id: i64,
    brand: usize,
    style: usize,
    color: usize,
    category: usize,
    material: usize,
    price: i64,
    /// Offered sizes (bit mask over [`SIZES`]).
    sizes: u8,
}

impl Item {
    fn title(&self) -> String {
        format!(
            "{} {} {} {}",
            BRANDS[self.brand], STYLES[self.style], COLORS[self.color], CATEGORIES[self.category]
        )
    }
}

/// What the instruction asks (`None`: not asked at this level).
#[derive(Debug, Clone, Default)]
struct Want {
    category: usize,
    color: usize,
    size: Option<usize>,
    material: Option<usize>,
    max_price: Option<i64>,
    brand: Option<usize>,
}

impl Want {
    /// Constraints met by `item` bought in `size`, and the number asked.
    fn score(&self, item: &Item, size: usize) -> (usize, usize) {
        let checks = [
            Some(item.category == self.category),
            Some(item.color == self.color),
            self.size.map(|s| s == size),
            self.material.map(|m| m == item.material),
            self.max_price.map(|p| item.price <= p),
            self.brand.map(|b| b == item.brand),
        ];
        let asked: Vec<bool> = checks.into_iter().flatten().collect();
        (asked.iter().filter(|&&b| b).count(), asked.len())
    }

    fn text(&self) -> String {
        let material = self.material.map_or(String::new(), |m| format!(" {}", MATERIALS[m]));
        let mut s = format!("Buy a {}{material} {}", COLORS[self.color], CATEGORIES[self.category]);
        if let Some(b) = self.brand {
            s.push_str(&format!(" from {}", BRANDS[b]));
        }
        if let Some(z) = self.size {
            s.push_str(&format!(" in size {}", SIZES[z]));
        }
        if let Some(p) = self.max_price {
            s.push_str(&format!(", priced at most {}", dollars(p)));
        }
        s.push('.');
        s
    }
}

fn dollars(cents: i64) -> String {
    format!("${}.{:02}", cents / 100, cents % 100)
}

/// A result row: id, title, price in cents.
type Row = (i64, String, i64);

/// The page on screen.
#[derive(Debug, Clone, PartialEq)]
enum Page {
    Home,
    Results { page: usize },
    Item(i64),
}

/// One shopping episode.
struct Shop {
    conn: Connection,
    items: Vec<Item>,
    want: Want,
    level: u8,
    words: Vec<String>,
    /// Applied filters: (field, value as typed, canonical).
    filters: Vec<(String, String)>,
    page: Page,
    cart: Vec<(i64, usize)>,
}

fn random_item(rng: &mut Rng, id: i64) -> Item {
    Item {
        id,
        brand: rng.index(BRANDS.len()),
        style: rng.index(STYLES.len()),
        color: rng.index(COLORS.len()),
        category: rng.index(CATEGORIES.len()),
        material: rng.index(MATERIALS.len()),
        price: rng.range(8, 150) * 100 + [0, 50, 99][rng.index(3)],
        sizes: (1 + rng.index(31)) as u8,
    }
}

fn other(rng: &mut Rng, n: usize, not: usize) -> usize {
    (not + 1 + rng.index(n - 1)) % n
}

impl Shop {
    fn generate(rng: &mut Rng, level: u8) -> Shop {
        let n = [12, 25, 50, 100, 200][level as usize - 1];
        let ids: Vec<i64> = rng.sample_indices(900, n).into_iter().map(|i| 100 + i as i64).collect();
        let mut target = random_item(rng, ids[0]);
        let want = Want {
            category: target.category,
            color: target.color,
            size: (level >= 2).then(|| rng.index(SIZES.len())),
            material: (level >= 3).then_some(target.material),
            max_price: (level >= 4).then(|| (target.price / 1000 + 1) * 1000),
            brand: (level >= 5).then_some(target.brand),
        };
        if let Some(z) = want.size {
            target.sizes |= 1 << z;
        }
        let mut items = vec![target.clone()];
        // Near misses: one asked attribute off.
        let misses = [2, 4, 8, 16, 30][level as usize - 1];
        for k in 0..misses {
            let mut m = target.clone();
            m.id = ids[items.len()];
            m.style = rng.index(STYLES.len());
            match (k % 6, &want) {
                (1, Want { size: Some(z), .. }) => m.sizes = (m.sizes & !(1 << z)).max(1 << ((z + 1) % 5)),
                (2, Want { material: Some(x), .. }) => m.material = other(rng, MATERIALS.len(), *x),
                (3, Want { max_price: Some(p), .. }) => m.price = p + rng.range(1, 40) * 100 + 99,
                (4, Want { brand: Some(b), .. }) => m.brand = other(rng, BRANDS.len(), *b),
                (5, _) => m.category = other(rng, CATEGORIES.len(), m.category),
                _ => m.color = other(rng, COLORS.len(), m.color),
            }
            items.push(m);
        }
        while items.len() < n {
            items.push(random_item(rng, ids[items.len()]));
        }
        let conn = Connection::open_in_memory().expect("an in-memory SQLite opens");
        conn.execute_batch(
            "CREATE TABLE items(id INTEGER PRIMARY KEY, title TEXT, brand TEXT, style TEXT, color TEXT, \
             category TEXT, material TEXT, price_cents INTEGER);
             CREATE TABLE sizes(item_id INTEGER, size TEXT);",
        )
        .expect("the schema is valid");
        for it in &items {
            conn.execute(
                "INSERT INTO items VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                rusqlite::params![
                    it.id,
                    it.title(),
                    BRANDS[it.brand].to_lowercase(),
                    STYLES[it.style],
                    COLORS[it.color],
                    CATEGORIES[it.category],
                    MATERIALS[it.material],
                    it.price
                ],
            )
            .expect("a row inserts");
            for (z, name) in SIZES.iter().enumerate() {
                if it.sizes >> z & 1 == 1 {
                    conn.execute("INSERT INTO sizes VALUES (?1, ?2)", rusqlite::params![it.id, name])
                        .expect("a size inserts");
                }
            }
        }
        Shop {
            conn,
            items,
            want,
            level,
            words: Vec::new(),
            filters: Vec::new(),
            page: Page::Home,
            cart: Vec::new(),
        }
    }

    fn item(&self, id: i64) -> Option<&Item> {
        self.items.iter().find(|it| it.id == id)
    }

    /// One page of the current result list and its total count (`None` before any search), by
    /// SQL.
    fn query(&self, page: usize) -> Option<(Vec<Row>, usize)> {
        if self.words.is_empty() {
            return None;
        }
        let mut sql = String::from("FROM items WHERE 1 = 1");
        let mut args: Vec<Value> = Vec::new();
        for w in &self.words {
            sql.push_str(" AND (' ' || lower(title) || ' ') LIKE ?");
            args.push(Value::Text(format!("% {w} %")));
        }
        for (field, value) in &self.filters {
            match field.as_str() {
                "size" => sql.push_str(
                    " AND EXISTS (SELECT 1 FROM sizes s WHERE s.item_id = items.id AND s.size = ?)",
                ),
                "max_price" => sql.push_str(" AND price_cents <= ?"),
                "brand" => sql.push_str(" AND brand = ?"),
                "color" => sql.push_str(" AND color = ?"),
                "material" => sql.push_str(" AND material = ?"),
                _ => sql.push_str(" AND category = ?"),
            }
            args.push(match field.as_str() {
                "max_price" => Value::Integer(value.parse().unwrap_or(0)),
                _ => Value::Text(value.clone()),
            });
        }
        let count: i64 = self
            .conn
            .query_row(&format!("SELECT COUNT(*) {sql}"), params_from_iter(args.iter()), |r| r.get(0))
            .ok()?;
        args.push(Value::Integer(PAGE as i64));
        args.push(Value::Integer((page * PAGE) as i64));
        let mut stmt = self
            .conn
            .prepare(&format!("SELECT id, title, price_cents {sql} ORDER BY id LIMIT ? OFFSET ?"))
            .ok()?;
        let rows = stmt
            .query_map(params_from_iter(args.iter()), |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .ok()?
            .flatten()
            .collect();
        Some((rows, count as usize))
    }

    fn pages(&self) -> usize {
        self.query(0).map_or(0, |(_, n)| n.div_ceil(PAGE))
    }

    fn render_page(&self) -> String {
        match &self.page {
            Page::Home => "Page: home. Search to see items.".into(),
            Page::Results { page } => {
                let Some((rows, count)) = self.query(*page) else { return "Page: home.".into() };
                let filters: Vec<String> =
                    self.filters.iter().map(|(f, v)| format!("{f}={}", self.show(f, v))).collect();
                let mut s = format!(
                    "Page: results for \"{}\"{} — page {} of {}, {count} item(s).",
                    self.words.join(" "),
                    if filters.is_empty() { String::new() } else { format!(" with {}", filters.join(", ")) },
                    page + 1,
                    count.div_ceil(PAGE).max(1)
                );
                for (id, title, price) in rows {
                    s.push_str(&format!("\n  [{id}] {title} — {}", dollars(price)));
                }
                s
            }
            Page::Item(id) => {
                let Some(it) = self.item(*id) else { return "Page: home.".into() };
                let sizes: Vec<&str> = (0..5).filter(|z| it.sizes >> z & 1 == 1).map(|z| SIZES[z]).collect();
                format!(
                    "Page: item [{}] {}\n  brand: {}; color: {}; category: {}; material: {}; price: {}; sizes: {}.",
                    it.id,
                    it.title(),
                    BRANDS[it.brand],
                    COLORS[it.color],
                    CATEGORIES[it.category],
                    MATERIALS[it.material],
                    dollars(it.price),
                    sizes.join(", ")
                )
            }
        }
    }

    fn show(&self, field: &str, value: &str) -> String {
        if field == "max_price" {
            dollars(value.parse().unwrap_or(0))
        } else {
            value.to_string()
        }
    }

    fn cart_text(&self) -> String {
        if self.cart.is_empty() {
            return "Cart: empty.".into();
        }
        let lines: Vec<String> = self
            .cart
            .iter()
            .filter_map(|&(id, z)| self.item(id).map(|it| format!("[{id}] {} size {}", it.title(), SIZES[z])))
            .collect();
        format!("Cart: {}.", lines.join("; "))
    }

    /// A filter's canonical value, or why it is not one.
    fn filter_value(field: &str, value: &str) -> Result<String, String> {
        let pick = |list: &[&str]| {
            list.iter()
                .find(|x| x.eq_ignore_ascii_case(value))
                .map(|x| x.to_lowercase())
                .ok_or_else(|| format!("Unknown {field} `{}`; one of: {}.", clip(value), list.join(", ")))
        };
        match field {
            "color" => pick(&COLORS),
            "material" => pick(&MATERIALS),
            "brand" => pick(&BRANDS),
            "category" => pick(&CATEGORIES),
            "size" => pick(&SIZES).map(|s| s.to_uppercase()),
            "max_price" => {
                let v = value.trim_start_matches('$');
                let (whole, frac) = v.split_once('.').unwrap_or((v, "0"));
                let ok = !whole.is_empty()
                    && whole.len() <= 5
                    && frac.len() <= 2
                    && whole.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit());
                if !ok {
                    return Err(format!(
                        "max_price takes dollars such as 30 or 29.99, not `{}`.",
                        clip(value)
                    ));
                }
                let frac: i64 = format!("{frac:0<2}").parse().unwrap_or(0);
                Ok((whole.parse::<i64>().unwrap_or(0) * 100 + frac).to_string())
            }
            _ => Err(format!(
                "Unknown filter `{}`; one of: color, material, brand, category, size, max_price.",
                clip(field)
            )),
        }
    }

    /// Apply one action: `Ok(Some(message))` goes on, `Ok(None)` is checkout, `Err((format, why))`.
    fn apply(&mut self, action: &str) -> Result<Option<String>, (bool, String)> {
        let (v, rest) = verb(action);
        let args: Vec<&str> = rest.split(' ').filter(|w| !w.is_empty()).collect();
        let id_of = |s: &str| s.trim_start_matches('[').trim_end_matches(']').parse::<i64>().ok();
        match (v.as_str(), args.as_slice()) {
            ("search", words) if !words.is_empty() => {
                let words: Vec<String> = words.iter().map(|w| w.to_lowercase()).collect();
                if words
                    .iter()
                    .any(|w| w.len() > 20 || !w.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'))
                {
                    return Err((false, "Search words are letters, digits and hyphens.".into()));
                }
                if words.len() > 8 {
                    return Err((false, "At most 8 search words.".into()));
                }
                self.words = words;
                self.filters.clear();
                self.page = Page::Results { page: 0 };
                Ok(Some(format!("Searched \"{}\".", self.words.join(" "))))
            }
            ("filter", [field, value]) => {
                let field = field.to_lowercase();
                let canon = Self::filter_value(&field, value).map_err(|e| (false, e))?;
                if self.words.is_empty() {
                    return Err((false, "Search first; filters narrow the current results.".into()));
                }
                self.filters.retain(|(f, _)| *f != field);
                self.filters.push((field.clone(), canon.clone()));
                self.page = Page::Results { page: 0 };
                Ok(Some(format!("Filtered {field}={}.", self.show(&field, &canon))))
            }
            ("page", [n]) => {
                let pages = self.pages();
                let p =
                    index1(n, pages).ok_or((false, format!("No page `{}`; there are {pages}.", clip(n))))?;
                self.page = Page::Results { page: p };
                Ok(Some(format!("Turned to page {}.", p + 1)))
            }
            ("view", [id]) => {
                let id = id_of(id).filter(|&i| self.item(i).is_some());
                let id = id.ok_or((false, "No item with that id.".to_string()))?;
                self.page = Page::Item(id);
                Ok(Some(format!("Opened item {id}.")))
            }
            ("add", [id, size]) => {
                let it = id_of(id)
                    .and_then(|i| self.item(i))
                    .ok_or((false, "No item with that id.".to_string()))?;
                let z = SIZES.iter().position(|s| s.eq_ignore_ascii_case(size));
                let z = z.filter(|&z| it.sizes >> z & 1 == 1);
                let z =
                    z.ok_or((false, format!("Item {} does not come in size `{}`.", it.id, clip(size))))?;
                if self.cart.iter().any(|&(i, _)| i == it.id) {
                    return Err((false, format!("Item {} is already in the cart.", it.id)));
                }
                let id = it.id;
                self.cart.push((id, z));
                Ok(Some(format!("Added item {id} in size {} to the cart.", SIZES[z])))
            }
            ("remove", [id]) => {
                let id = id_of(id).filter(|&i| self.cart.iter().any(|&(c, _)| c == i));
                let id = id.ok_or((false, "That item is not in the cart.".to_string()))?;
                self.cart.retain(|&(i, _)| i != id);
                Ok(Some(format!("Removed item {id}.")))
            }
            ("checkout", []) if self.cart.is_empty() => Err((false, "The cart is empty.".into())),
            ("checkout", []) => Ok(None),
            _ => Err((true, GRAMMAR.into())),
        }
    }

    /// The order's score: mean fraction of constraints met per line; success only for one line
    /// meeting them all.
    fn score(&self) -> (f64, bool) {
        let per: Vec<(usize, usize)> =
            self.cart.iter().filter_map(|&(id, z)| self.item(id).map(|it| self.want.score(it, z))).collect();
        let mean = per.iter().map(|&(m, n)| m as f64 / n as f64).sum::<f64>() / per.len().max(1) as f64;
        (mean, per.len() == 1 && per[0].0 == per[0].1)
    }

    fn oracle(&self) -> String {
        let w = &self.want;
        let mut words = vec![COLORS[w.color].to_string(), CATEGORIES[w.category].to_string()];
        if let Some(b) = w.brand {
            words.push(BRANDS[b].to_lowercase());
        }
        if self.words != words {
            return format!("search {}", words.join(" "));
        }
        let wanted = [
            w.material.map(|m| ("material", MATERIALS[m].to_string())),
            w.size.map(|z| ("size", SIZES[z].to_string())),
            w.max_price.map(|p| ("max_price", p.to_string())),
        ];
        for (field, value) in wanted.into_iter().flatten() {
            if !self.filters.iter().any(|(f, v)| f == field && *v == value) {
                return format!(
                    "filter {field} {}",
                    if field == "max_price" {
                        dollars(value.parse().unwrap_or(0))[1..].to_string()
                    } else {
                        value
                    }
                );
            }
        }
        if !self.cart.is_empty() {
            return "checkout".into();
        }
        match self.page {
            Page::Item(id) => {
                let it = self.item(id).expect("viewed items exist");
                let z = w.size.unwrap_or_else(|| (0..5).find(|z| it.sizes >> z & 1 == 1).unwrap_or(0));
                format!("add {id} {}", SIZES[z])
            }
            _ => match self.query(0).and_then(|(rows, _)| rows.first().map(|r| r.0)) {
                Some(id) => format!("view {id}"),
                None => "checkout".into(),
            },
        }
    }

    fn legal(&self) -> Vec<String> {
        let w = &self.want;
        let mut out = vec![
            format!("search {} {}", COLORS[w.color], CATEGORIES[w.category]),
            format!("search {}", CATEGORIES[w.category]),
            format!("search {}", COLORS[(w.color + self.cart.len() + 1) % COLORS.len()]),
        ];
        if !self.words.is_empty() {
            out.push(format!("filter size {}", SIZES[w.size.unwrap_or(2)]));
            out.push(format!("filter material {}", MATERIALS[w.material.unwrap_or(0)]));
            out.push("filter max_price 50".into());
            for p in 2..=self.pages().min(3) {
                out.push(format!("page {p}"));
            }
        }
        if let Page::Results { page } = self.page {
            for (id, _, _) in self.query(page).map(|r| r.0).unwrap_or_default() {
                out.push(format!("view {id}"));
            }
        }
        if let Page::Item(id) = self.page {
            if let Some(it) = self.item(id).filter(|it| !self.cart.iter().any(|&(i, _)| i == it.id)) {
                for z in (0..5).filter(|z| it.sizes >> z & 1 == 1) {
                    out.push(format!("add {id} {}", SIZES[z]));
                }
            }
        }
        for &(id, _) in &self.cart {
            out.push(format!("remove {id}"));
        }
        if !self.cart.is_empty() {
            out.push("checkout".into());
        }
        out
    }
}

const GRAMMAR: &str =
    "Actions: search <words> | filter <color|material|brand|category|size|max_price> <value> | \
                       page <n> | view <id> | add <id> <size> | remove <id> | checkout.";

/// The web shop environment (see the module docs).
pub struct WebShop {
    spec: EnvSpec,
    ledger: Ledger,
    shop: Option<Shop>,
}

impl Default for WebShop {
    fn default() -> Self {
        WebShop {
            spec: EnvSpec {
                name: NAME.into(),
                category: "agentic".into(),
                kind: EnvKind::MultiTurn,
                seats: 1,
                description: "Find and buy the item an instruction describes in a shop backed by SQLite."
                    .into(),
            },
            ledger: Ledger::closed(TurnRules::default()),
            shop: None,
        }
    }
}

impl Env for WebShop {
    fn spec(&self) -> &EnvSpec {
        &self.spec
    }

    fn reset(&mut self, seed: u64, difficulty: Difficulty) -> Result<(), EnvError> {
        let mut rng = Rng::for_instance(NAME, seed, difficulty.level());
        let shop = Shop::generate(&mut rng, difficulty.level());
        self.ledger.start([8, 10, 12, 14, 16][shop.level as usize - 1], "(start)");
        self.shop = Some(shop);
        Ok(())
    }

    fn to_act(&self) -> Option<AgentId> {
        self.ledger.to_act()
    }

    fn observe(&self, _agent: AgentId) -> Observation {
        let Some(s) = &self.shop else {
            return Observation { text: self.ledger.last.clone(), anchor: "closed".into() };
        };
        let text = format!(
            "Web shop. Instruction: {}\nRules: search matches whole words of item titles (`<brand> <style> \
             <color> <category>`) and clears the filters; filters narrow the current results (max_price in \
             dollars, inclusive); {PAGE} results per page; material and sizes show on the item page. Add \
             exactly one item in an offered size, then checkout. The order is scored by the share of the \
             instruction's constraints each cart line meets (mean over lines); it succeeds only as one line \
             meeting all of them.\n{}\n{}\nLast turn: {}\n{}\n{GRAMMAR}\n{ANSWER_LINE}",
            s.want.text(),
            s.render_page(),
            s.cart_text(),
            self.ledger.last,
            self.ledger.status()
        );
        let anchor = format!(
            "{NAME}|{}|{:?}|{:?}|{:?}|{:?}|t{}",
            s.want.text(),
            s.words,
            s.filters,
            s.page,
            s.cart,
            self.ledger.turn
        );
        Observation { text, anchor }
    }

    fn act(&mut self, agent: AgentId, response: &str) -> Feedback {
        if let Some(fb) = self.ledger.refuse(agent) {
            return fb;
        }
        let Some(shop) = self.shop.as_mut() else { return self.ledger.reject(true, "No episode.") };
        let Some(action) = parse_action(response) else {
            return self.ledger.reject(true, &format!("No action found. {GRAMMAR}"));
        };
        if action.len() > 500 {
            return self.ledger.reject(true, "The action is longer than 500 characters.");
        }
        match shop.apply(&action) {
            Err((format, why)) => self.ledger.reject(format, &why),
            Ok(Some(what)) => self.ledger.accept(Outcome::Continue, &what),
            Ok(None) => {
                let (score, won) = shop.score();
                if won {
                    return self.ledger.accept(Outcome::Won, "Order placed: it meets every constraint.");
                }
                let mut fb = self.ledger.accept(
                    Outcome::Lost,
                    &format!("Order placed: it meets {:.0}% of the constraints on average.", score * 100.0),
                );
                fb.reward = score;
                self.ledger.total += score;
                fb
            }
        }
    }

    fn returns(&self) -> Vec<f64> {
        vec![self.ledger.total]
    }
}

impl ScriptedEnv for WebShop {
    fn legal_actions(&self) -> Vec<String> {
        match &self.shop {
            Some(s) if !self.ledger.done => s.legal(),
            _ => Vec::new(),
        }
    }

    fn oracle_action(&self, _rng: &mut Rng) -> String {
        self.shop.as_ref().map(|s| s.oracle()).unwrap_or_default()
    }

    fn success(&self) -> bool {
        self.ledger.won
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shop(seed: u64, level: u8) -> Shop {
        Shop::generate(&mut Rng::new(seed), level)
    }

    #[test]
    fn sql_search_agrees_with_the_rows() {
        for level in 1..=5 {
            for seed in 0..20 {
                let mut s = shop(seed, level);
                let c = COLORS[s.want.color];
                s.words = vec![c.to_string()];
                s.filters = vec![("material".into(), "wool".into()), ("size".into(), "M".into())];
                let (_, count) = s.query(0).unwrap();
                let expect = s
                    .items
                    .iter()
                    .filter(|it| COLORS[it.color] == c && it.material == 2 && it.sizes >> 2 & 1 == 1)
                    .count();
                assert_eq!(count, expect, "level {level} seed {seed}");
            }
        }
    }

    #[test]
    fn partial_credit_and_cart_rules() {
        let mut env = WebShop::default();
        env.reset(5, Difficulty::new(4).unwrap()).unwrap();
        let s = env.shop.as_ref().unwrap();
        let target = s.items[0].clone();
        // A near miss with the colour changed.
        let miss = s
            .items
            .iter()
            .find(|it| it.color != target.color && it.category == target.category)
            .unwrap()
            .clone();
        let z = s.want.size.unwrap();
        let act = |env: &mut WebShop, a: &str| env.act(AgentId(0), &format!("<answer>{a}</answer>"));
        assert!(act(&mut env, "checkout").invalid, "empty cart");
        assert!(act(&mut env, "filter colour red").invalid);
        assert!(act(&mut env, "buy it").format_error);
        let size = (0..5).find(|k| miss.sizes >> k & 1 == 1).unwrap();
        assert!(!act(&mut env, &format!("add {} {}", miss.id, SIZES[size])).invalid);
        let fb = act(&mut env, "checkout");
        let (m, n) = env.shop.as_ref().unwrap().want.score(&miss, size);
        assert!(fb.done && !env.success());
        assert!((fb.reward - m as f64 / n as f64).abs() < 1e-12 && fb.reward < 1.0, "{}", fb.reward);
        assert_eq!(env.returns(), vec![fb.reward]);
        // The target in the asked size wins.
        env.reset(5, Difficulty::new(4).unwrap()).unwrap();
        assert!(!act(&mut env, &format!("add {} {}", target.id, SIZES[z])).invalid);
        let fb = act(&mut env, "checkout");
        assert!(env.success() && fb.reward == 1.0);
    }

    #[test]
    fn near_misses_fail_exactly_one_constraint() {
        for seed in 0..20 {
            let s = shop(seed, 5);
            let z = s.want.size.unwrap();
            assert_eq!(s.want.score(&s.items[0], z), (6, 6));
            for it in &s.items[1..31] {
                let best =
                    (0..5).filter(|k| it.sizes >> k & 1 == 1).map(|k| s.want.score(it, k).0).max().unwrap();
                assert_eq!(best, 5, "seed {seed}: {it:?}");
            }
        }
    }
}

#[cfg(test)]
mod measure {
    /// `cargo test -p gauntlet-envs --lib web_shop_rates -- --ignored --nocapture`
    #[test]
    #[ignore]
    fn web_shop_rates() {
        let (oracle, random) = super::super::rates::rates("web_shop", 200);
        for l in 0..5 {
            assert!(oracle[l] == 1.0 && random[l] < oracle[l] - 0.25);
        }
    }
}
