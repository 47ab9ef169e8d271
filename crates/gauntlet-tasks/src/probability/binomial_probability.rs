//! Binomial probability: repeated independent trials (coins, dice, cards drawn with replacement)
//! and the chance that the number of successes meets a condition, possibly given another.
//!
//! **Generates** a trial (a fair or biased coin landing heads, a fair die showing a face from a
//! stated set, a card of a stated kind drawn from a full 52-card deck and put back), a number of
//! trials `n`, an event on the number of successes `K` (exactly, at least, at most, between) and,
//! from level 4, a condition: `K` in another range, or the first trial being a success. Problems
//! whose answer is 0 or 1 are redrawn.
//!
//! **Verifies** by exact counting: with single-trial probability `p = a/b`,
//! `P(K = k) = C(n, k) · a^k · (b − a)^(n−k) / b^n` in integers (u128), summed over the event;
//! a condition `B` gives `P(A | B) = P(A ∩ B) / P(B)`, and "the first trial succeeds" leaves
//! `n − 1` free trials that need one success fewer. The answer (a fraction, reduced or not, or an
//! exact terminating decimal of any length; `parse_rat`) must equal the exact value. Rounded decimals and
//! percentages are wrong or unparsable. No partial credit.
//!
//! | level | trial | n | event |
//! |---|---|---|---|
//! | 1 | fair coin | 3–5 | exactly k |
//! | 2 | fair coin or die | 4–8 | at least / at most k |
//! | 3 | biased coin, die or card | 5–10 | any range |
//! | 4 | any | 6–10 | given at least one success or the first trial |
//! | 5 | any (p like 3/13, 5/6) | 10–16 | given another range |
//!
//! **Example**: a fair coin tossed 4 times, exactly 2 heads: `C(4,2)/2^4` = `3/8` (`6/16` and
//! `0.375` are accepted too).
//!
//! **Failure modes**: forgetting the `C(n, k)` orderings, off-by-one at "at least" / "more than",
//! using the unconditional probability, answering a rounded decimal.

use crate::arithmetic::expr::Rat;
use crate::arithmetic::number::parse_rat;
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The binomial-probability family.
pub struct BinomialProbability;

/// What one trial is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Trial {
    /// A coin landing heads with probability `num/den` (1/2: fair); success = heads.
    Coin(u8, u8),
    /// A fair six-sided die; success = the face is one of these (a bit mask over faces 1–6).
    Die(u8),
    /// A card drawn from a standard deck and put back; success = the card is of this kind.
    Card(CardKind),
}

/// The kinds of card a success may be.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum CardKind {
    /// A heart (13 of 52).
    Heart,
    /// An ace (4 of 52).
    Ace,
    /// A face card, J Q or K (12 of 52).
    Face,
    /// A red card (26 of 52).
    Red,
    /// A number card, 2–10 (36 of 52).
    Number,
}

/// The condition given (if any).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Given {
    /// No condition.
    Nothing,
    /// The number of successes is in `lo..=hi`.
    Count(u8, u8),
    /// The first trial is a success.
    FirstSuccess,
}

/// One question: `n` trials, the probability that the number of successes is in `lo..=hi`,
/// given `given`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BinomialProblem {
    /// The trial.
    pub trial: Trial,
    /// Number of trials.
    pub n: u8,
    /// Smallest count that counts.
    pub lo: u8,
    /// Largest count that counts.
    pub hi: u8,
    /// The condition.
    pub given: Given,
}

/// Single-trial success probability as `(a, b)`, `0 < a < b`, or `None` for a malformed trial.
fn success(t: Trial) -> Option<(u128, u128)> {
    let (a, b) = match t {
        Trial::Coin(a, b) if b <= 20 => (a as u128, b as u128),
        Trial::Coin(..) => return None,
        Trial::Die(mask) if mask & !0x3f != 0 => return None,
        Trial::Die(mask) => (mask.count_ones() as u128, 6),
        Trial::Card(k) => match k {
            CardKind::Heart => (13, 52),
            CardKind::Ace => (4, 52),
            CardKind::Face => (12, 52),
            CardKind::Red => (26, 52),
            CardKind::Number => (36, 52),
        },
    };
    (0 < a && a < b).then_some((a, b))
}

/// `C(n, k) · a^k · (b − a)^(n−k)` for every `k` in `0..=n` (the numerators over `b^n`).
fn weights(n: u32, a: u128, b: u128) -> Vec<u128> {
    let mut row = vec![1u128];
    for _ in 0..n {
        let mut next = vec![0u128; row.len() + 1];
        for (k, &w) in row.iter().enumerate() {
            next[k] += w * (b - a);
            next[k + 1] += w * a;
        }
        row = next;
    }
    row
}

/// The exact probability, or `None` for a malformed problem.
pub fn probability(p: &BinomialProblem) -> Option<Rat> {
    let (a, b) = success(p.trial)?;
    if !(1..=16).contains(&p.n) || p.lo > p.hi || p.hi > p.n {
        return None;
    }
    let sum = |w: &[u128], lo: i32, hi: i32| -> u128 {
        w.iter().enumerate().filter(|(k, _)| (lo..=hi).contains(&(*k as i32))).map(|(_, &x)| x).sum()
    };
    let (lo, hi) = (p.lo as i32, p.hi as i32);
    let (num, den) = match p.given {
        Given::Nothing => {
            let w = weights(p.n as u32, a, b);
            (sum(&w, lo, hi), w.iter().sum())
        }
        Given::Count(l2, h2) => {
            if l2 > h2 || h2 > p.n {
                return None;
            }
            let w = weights(p.n as u32, a, b);
            (sum(&w, lo.max(l2 as i32), hi.min(h2 as i32)), sum(&w, l2 as i32, h2 as i32))
        }
        Given::FirstSuccess => {
            let w = weights(p.n as u32 - 1, a, b);
            (sum(&w, lo - 1, hi - 1), w.iter().sum())
        }
    };
    if den == 0 {
        return None;
    }
    Rat::new(i128::try_from(num).ok()?, i128::try_from(den).ok()?)
}

fn range_words(lo: u8, hi: u8, n: u8, unit: &str) -> String {
    let many = if unit.ends_with('s') { format!("{unit}es") } else { format!("{unit}s") };
    let s = |k: u8| if k == 1 { unit.to_string() } else { many.clone() };
    if lo == hi {
        format!("exactly {lo} {}", s(lo))
    } else if hi == n {
        format!("at least {lo} {}", s(lo))
    } else if lo == 0 {
        format!("at most {hi} {}", s(hi))
    } else {
        format!("between {lo} and {hi} {many} (inclusive)")
    }
}

fn trial_text(t: Trial) -> (String, &'static str) {
    match t {
        Trial::Coin(1, 2) => ("A fair coin (heads and tails equally likely) is tossed".into(), "head"),
        Trial::Coin(a, b) => {
            (format!("A biased coin that lands heads with probability {a}/{b} is tossed"), "head")
        }
        Trial::Die(mask) => {
            let faces: Vec<String> =
                (1..=6).filter(|f| mask & (1 << (f - 1)) != 0).map(|f| f.to_string()).collect();
            let set =
                if faces.len() == 1 { faces[0].clone() } else { format!("one of {}", faces.join(", ")) };
            (
                format!(
                    "A fair six-sided die (faces 1 to 6, equally likely) is rolled; a roll is a success when it \
                     shows {set}. The die is rolled"
                ),
                "success",
            )
        }
        Trial::Card(k) => {
            let what = match k {
                CardKind::Heart => "a heart",
                CardKind::Ace => "an ace",
                CardKind::Face => "a face card (a jack, queen or king)",
                CardKind::Red => "a red card (a heart or a diamond)",
                CardKind::Number => "a number card (2 to 10)",
            };
            (
                format!(
                    "A card is drawn at random from a standard 52-card deck (four suits, hearts and diamonds red, \
                     clubs and spades black, each with an ace, the numbers 2 to 10, a jack, a queen and a king), \
                     looked at and put back, and the deck is shuffled; a draw is a success when the card is \
                     {what}. This is done"
                ),
                "success",
            )
        }
    }
}

fn draw_trial(rng: &mut Rng, level: u8) -> Trial {
    let coin = [(1u8, 3u8), (2, 3), (1, 4), (3, 4), (2, 5), (3, 5), (1, 5)];
    let dice = [0b100000u8, 0b101010, 0b110000, 0b000011, 0b111100, 0b011111, 0b010101];
    let cards = [CardKind::Heart, CardKind::Ace, CardKind::Face, CardKind::Red, CardKind::Number];
    match (level, rng.index(3)) {
        (1, _) => Trial::Coin(1, 2),
        (2, 0 | 1) => Trial::Coin(1, 2),
        (2, _) => Trial::Die(*rng.choose(&dice[..3]).unwrap_or(&dice[0])),
        (_, 0) => {
            let &(a, b) = rng.choose(&coin).unwrap_or(&coin[0]);
            Trial::Coin(a, b)
        }
        (_, 1) => Trial::Die(*rng.choose(&dice).unwrap_or(&dice[0])),
        _ => Trial::Card(*rng.choose(&cards).unwrap_or(&cards[0])),
    }
}

/// A random range of counts in `0..=n`: exactly, at least, at most or between (kinds allowed by
/// `mix`: 0 exactly only, 1 at least/at most, 2 any).
fn draw_range(rng: &mut Rng, n: u8, mix: u8) -> (u8, u8) {
    let k = rng.range(1, n as i64 - 1) as u8;
    match (mix, rng.index(4)) {
        (0, _) | (2, 0) => (k, k),
        (_, 1) => (k, n),
        (1, _) | (_, 2) => (0, k),
        _ => {
            let (x, y) = (rng.range(1, n as i64 - 1) as u8, rng.range(1, n as i64 - 1) as u8);
            (x.min(y), x.max(y).max(x.min(y) + 1))
        }
    }
}

impl Task for BinomialProbability {
    type Problem = BinomialProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "binomial_probability",
            category: Category::Probability,
            description:
                "Exact probability of a number of successes in repeated coin tosses, die rolls or card \
                          draws, possibly conditional.",
            levels: [
                "fair coin, 3–5 tosses, exactly k heads",
                "fair coin or die, 4–8 trials, at least / at most k",
                "biased coin, die or card, 5–10 trials, any range",
                "6–10 trials, given at least one success or a successful first trial",
                "10–16 trials, conditional on another range of counts",
            ],
            answer_format:
                "one exact number: a fraction (reduced or not) or a terminating decimal (e.g. `3/8`)",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> BinomialProblem {
        let level = d.level();
        loop {
            let trial = draw_trial(rng, level);
            let (nlo, nhi) = d.pick([(3, 5), (4, 8), (5, 10), (6, 10), (10, 16)]);
            let n = rng.range(nlo, nhi) as u8;
            let (lo, hi) = draw_range(rng, n, d.pick([0, 1, 2, 2, 2]));
            let given = match level {
                1..=3 => Given::Nothing,
                4 if rng.chance(0.5) => Given::FirstSuccess,
                4 => Given::Count(1, n),
                _ if rng.chance(0.2) => Given::FirstSuccess,
                _ => {
                    let (l2, h2) = draw_range(rng, n, 2);
                    Given::Count(l2, h2)
                }
            };
            let p = BinomialProblem { trial, n, lo, hi, given };
            let Some(v) = probability(&p) else { continue };
            let plain = probability(&BinomialProblem { given: Given::Nothing, ..p.clone() });
            let trivial = matches!(p.given, Given::Count(l2, h2) if l2 == lo && h2 == hi);
            if v.num() > 0 && v.num() < v.den() && !trivial && (p.given == Given::Nothing || plain != Some(v))
            {
                return p;
            }
        }
    }

    fn prompt(&self, p: &BinomialProblem) -> String {
        let (text, unit) = trial_text(p.trial);
        let event = range_words(p.lo, p.hi, p.n, unit);
        let given = match p.given {
            Given::Nothing => String::new(),
            Given::Count(l, h) => format!(", given that there are {}", range_words(l, h, p.n, unit)),
            Given::FirstSuccess => format!(
                ", given that the first {} is a {}",
                if matches!(p.trial, Trial::Coin(..)) { "toss" } else { "trial" },
                if unit == "head" { "head" } else { "success" }
            ),
        };
        format!(
            "{text} {} times; the trials are independent. What is the exact probability of getting {event}{given}? \
             Give the exact value as a fraction or a terminating decimal, not rounded.\n\n{}",
            p.n,
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &BinomialProblem) -> String {
        probability(p).map(|v| v.to_string()).unwrap_or_default()
    }

    fn verify(&self, p: &BinomialProblem, answer: &str) -> Score {
        let Some(want) = probability(p) else {
            return Score::wrong("malformed problem: bad trial, count or range");
        };
        match parse_rat(answer) {
            Err(e) => Score::unparsable(e),
            Ok(v) if v == want => Score::correct(),
            Ok(v) => Score::wrong(format!("{v} is not the exact probability")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(trial: Trial, n: u8, lo: u8, hi: u8, given: Given) -> BinomialProblem {
        BinomialProblem { trial, n, lo, hi, given }
    }

    #[test]
    fn example_from_the_docs() {
        let t = BinomialProbability;
        let p = q(Trial::Coin(1, 2), 4, 2, 2, Given::Nothing);
        assert_eq!(t.solve(&p), "3/8");
        assert!(t.prompt(&p).contains("exactly 2 heads?"));
        assert_eq!(range_words(2, 5, 6, "success"), "between 2 and 5 successes (inclusive)");
        assert_eq!(range_words(1, 6, 6, "success"), "at least 1 success");
        for ok in ["3/8", "6/16", "0.375", "0.3750"] {
            assert!(t.verify(&p, ok).correct, "{ok}");
        }
        assert!(t.verify(&p, "1/4").reason.contains("not the exact"));
        assert!(!t.verify(&p, "0.38").correct);
        for bad in ["37.5%", "3/8 or 1/2", "3/8/1", "about 3/8", "", "three eighths"] {
            assert!(t.verify(&p, bad).is_format_error(), "{bad}");
        }
    }

    #[test]
    fn known_values() {
        // At least one six in 4 rolls: 1 − (5/6)^4 = 671/1296.
        let p = q(Trial::Die(0b100000), 4, 1, 4, Given::Nothing);
        assert_eq!(probability(&p).unwrap().to_string(), "671/1296");
        // Two fair tosses, both heads given at least one: 1/3.
        let p = q(Trial::Coin(1, 2), 2, 2, 2, Given::Count(1, 2));
        assert_eq!(probability(&p).unwrap().to_string(), "1/3");
        // Three tosses, at least two heads given the first is a head: 3/4.
        let p = q(Trial::Coin(1, 2), 3, 2, 3, Given::FirstSuccess);
        assert_eq!(probability(&p).unwrap().to_string(), "3/4");
        // Hearts with replacement: exactly one in two draws = 2 · 1/4 · 3/4 = 3/8.
        let p = q(Trial::Card(CardKind::Heart), 2, 1, 1, Given::Nothing);
        assert_eq!(probability(&p).unwrap().to_string(), "3/8");
        // The biggest denominators fit: 16 draws of aces.
        let p = q(Trial::Card(CardKind::Ace), 16, 3, 5, Given::Count(1, 16));
        assert!(probability(&p).is_some());
        for bad in [
            q(Trial::Coin(0, 2), 3, 1, 1, Given::Nothing),
            q(Trial::Die(0), 3, 1, 1, Given::Nothing),
            q(Trial::Die(0xff), 3, 1, 1, Given::Nothing),
            q(Trial::Coin(1, 2), 3, 2, 4, Given::Nothing),
            q(Trial::Coin(1, 2), 0, 0, 0, Given::Nothing),
            q(Trial::Coin(1, 2), 17, 1, 1, Given::Nothing),
            q(Trial::Coin(1, 2), 3, 1, 1, Given::Count(3, 2)),
        ] {
            assert!(BinomialProbability.verify(&bad, "1/2").reason.starts_with("malformed"), "{bad:?}");
        }
    }

    #[test]
    fn matches_brute_force_enumeration() {
        let t = BinomialProbability;
        for level in 1..=4 {
            let d = Difficulty::new(level).unwrap();
            for seed in 0..40 {
                let p = t.generate(seed, d);
                let (a, b) = success(p.trial).unwrap();
                let n = p.n as u32;
                if (b as f64).powi(n as i32) > 2e6 {
                    continue;
                }
                // Every sequence of outcomes as a base-b number: digit < a is a success.
                let (mut num, mut den) = (0u128, 0u128);
                for code in 0..(b as u64).pow(n) {
                    let (mut c, mut k, mut first) = (code, 0u8, false);
                    for i in 0..n {
                        let ok = ((c % b as u64) as u128) < a;
                        k += ok as u8;
                        if i == 0 {
                            first = ok;
                        }
                        c /= b as u64;
                    }
                    let cond = match p.given {
                        Given::Nothing => true,
                        Given::Count(l, h) => (l..=h).contains(&k),
                        Given::FirstSuccess => first,
                    };
                    den += cond as u128;
                    num += (cond && (p.lo..=p.hi).contains(&k)) as u128;
                }
                let want = Rat::new(num as i128, den as i128).unwrap();
                assert_eq!(probability(&p), Some(want), "L{level} seed {seed} {p:?}");
            }
        }
    }

    #[test]
    fn oracle_at_every_level() {
        let t = BinomialProbability;
        for d in Difficulty::all() {
            for seed in 0..300 {
                let p = t.generate(seed, d);
                assert!(t.verify(&p, &t.solve(&p)).correct, "L{d} seed {seed}");
                assert!(t.prompt(&p).contains(&format!(" {} times", p.n)));
            }
        }
    }

    /// The decimal expansion of `v` when it terminates (the denominator is `2^a 5^b`).
    fn expansion(v: Rat) -> Option<String> {
        let (num, den) = (v.num().unsigned_abs() as u128, v.den() as u128);
        let mut d = den;
        for p in [2, 5] {
            while d.is_multiple_of(p) {
                d /= p;
            }
        }
        if d != 1 {
            return None;
        }
        let mut text = format!("{}{}.", if v.num() < 0 { "-" } else { "" }, num / den);
        let mut rem = num % den;
        while rem != 0 {
            text.push(char::from(b'0' + (rem * 10 / den) as u8));
            rem = rem * 10 % den;
        }
        Some(text)
    }

    /// Issue 38: level 3, seed 23099 is `10125/524288 = 0.0193119049072265625`, which scored 0
    /// as a decimal; every terminating answer is accepted as its exact decimal, however long.
    #[test]
    fn issue_38_long_exact_decimals_are_accepted() {
        let t = BinomialProbability;
        let p = t.generate(23099, Difficulty::new(3).unwrap());
        assert_eq!(t.solve(&p), "10125/524288");
        for ok in ["10125/524288", "0.0193119049072265625", "0.019311904907226562500000", "20250/1048576"] {
            assert!(t.verify(&p, ok).correct, "{ok}: {}", t.verify(&p, ok).reason);
        }
        let wrong = t.verify(&p, "0.0193119049072265626");
        assert!(!wrong.correct && !wrong.is_format_error(), "{}", wrong.reason);
        let (mut long, mut checked) = (0, 0);
        for d in Difficulty::all() {
            for seed in 0..400 {
                let p = t.generate(seed, d);
                let Some(text) = probability(&p).and_then(expansion) else { continue };
                checked += 1;
                long += usize::from(text.split_once('.').is_some_and(|(_, f)| f.len() >= 19));
                assert!(t.verify(&p, &text).correct, "L{d} seed {seed}: {text}");
                assert!(t.verify(&p, &format!("{text}000")).correct, "L{d} seed {seed}: {text}000");
            }
        }
        assert!(long >= 10 && checked > long, "{long} long expansions of {checked}");
        let v = t.verify(&p, &format!("0.{}1", "0".repeat(80)));
        assert!(v.is_format_error() && v.reason.contains("too large or too precise"), "{}", v.reason);
    }

    #[test]
    fn parser_fuzz_never_panics() {
        let t = BinomialProbability;
        let p = t.generate(1, Difficulty::new(5).unwrap());
        let mut rng = Rng::new(5);
        let alphabet: Vec<char> = "0123456789/.-+ e%".chars().collect();
        for _ in 0..3000 {
            let s: String = (0..rng.index(30)).map(|_| alphabet[rng.index(alphabet.len())]).collect();
            let v = t.verify(&p, &s);
            assert!((0.0..=1.0).contains(&v.reward));
        }
    }
}
