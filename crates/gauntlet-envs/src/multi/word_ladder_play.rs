//! Word ladder with dictionary feedback: change one letter per turn, every step a real word.
//!
//! **Generates** a start and a target word from the embedded list of 549 five-letter words
//! (`wordle::WORDS`), at a breadth-first ladder distance that grows with the level.
//!
//! **Plays**: the action is the next word. It must differ from the current word in exactly one
//! letter (else invalid, with the count of letters changed) and be in the dictionary (else
//! invalid: "not in the dictionary"). Success: reaching the target.
//!
//! | level | ladder distance | turn limit |
//! |---|---|---|
//! | 1 | 2 | distance + 4 |
//! | 2 | 3 | distance + 4 |
//! | 3 | 3–4 | distance + 4 |
//! | 4 | 5–6 | distance + 4 |
//! | 5 | 7 or more | distance + 4 |
//!
//! **Example**: `alike` → `alive` → `olive` (distance 2).
//!
//! **Oracle**: breadth-first search over the dictionary graph (exact, 1.0). The dictionary is the
//! environment's: words a model knows but the list lacks are refused, which is the feedback the
//! agent must use.
//!
//! **Failure modes**: changing two letters at once, inventing words, greedy letter matching into
//! dead ends.

use super::ledger::Outcome;
use super::shell::{bfs, Step, World};
use super::wordle::WORDS;
use gauntlet_core::Rng;

const DIST: [(usize, usize); 5] = [(2, 2), (3, 3), (3, 4), (5, 6), (7, 99)];

/// The word-ladder world.
pub struct WordLadderPlay {
    word: &'static str,
    target: &'static str,
    distance: usize,
}

fn diff(a: &str, b: &str) -> usize {
    a.bytes().zip(b.bytes()).filter(|(x, y)| x != y).count()
}

fn neighbours(w: &str) -> Vec<(String, &'static str)> {
    WORDS.iter().filter(|x| diff(w, x) == 1).map(|x| (x.to_string(), *x)).collect()
}

fn ladder(from: &'static str, to: &'static str) -> Option<Vec<(&'static str, String)>> {
    bfs(&from, |w| neighbours(w), |w| *w == to, 10_000)
}

impl World for WordLadderPlay {
    const NAME: &'static str = "word_ladder_play";
    const CATEGORY: &'static str = "text";
    const DESCRIPTION: &'static str =
        "Turn one word into another, one letter per turn, through dictionary words.";
    const FLOORS: [f64; 5] = [1.0; 5];

    fn generate(rng: &mut Rng, level: u8) -> Self {
        let (lo, hi) = DIST[level as usize - 1];
        loop {
            let start = WORDS[rng.index(WORDS.len())];
            // Distances from `start` over the whole component.
            let mut dist = std::collections::HashMap::from([(start, 0usize)]);
            let mut queue = std::collections::VecDeque::from([start]);
            while let Some(w) = queue.pop_front() {
                for (_, x) in neighbours(w) {
                    if !dist.contains_key(x) {
                        dist.insert(x, dist[w] + 1);
                        queue.push_back(x);
                    }
                }
            }
            let mut fits: Vec<(&str, usize)> =
                dist.into_iter().filter(|(_, d)| (lo..=hi).contains(d)).collect();
            if fits.is_empty() {
                continue;
            }
            fits.sort_unstable();
            let (target, distance) = fits[rng.index(fits.len())];
            return WordLadderPlay { word: start, target, distance };
        }
    }

    fn limit(&self) -> u32 {
        (self.distance + 4) as u32
    }

    fn intro(&self) -> String {
        format!(
            "Word ladder. Change the current word into `{}` one letter at a time; every word on the way must \
             be in the dictionary (common five-letter English words).",
            self.target
        )
    }

    fn render(&self) -> String {
        format!("Current word: {}. Target: {}.", self.word, self.target)
    }

    fn grammar(&self) -> String {
        "Actions: the next word (five letters, one letter changed).".into()
    }

    fn step(&mut self, action: &str) -> Step {
        let w = action.to_ascii_lowercase();
        if w.len() != 5 || !w.bytes().all(|b| b.is_ascii_lowercase()) {
            return Step::Format("Answer one five-letter word.".into());
        }
        let changed = diff(self.word, &w);
        if changed != 1 {
            return Step::Invalid(format!(
                "`{w}` changes {changed} letters of `{}`; change exactly one.",
                self.word
            ));
        }
        let Some(next) = WORDS.iter().find(|x| **x == w) else {
            return Step::Invalid(format!("`{w}` is not in the dictionary."));
        };
        self.word = next;
        let outcome = if *next == self.target { Outcome::Won } else { Outcome::Continue };
        Step::Done(outcome, format!("`{next}` is a word."))
    }

    fn legal(&self) -> Vec<String> {
        neighbours(self.word).into_iter().map(|(a, _)| a).collect()
    }

    fn oracle(&self, _rng: &mut Rng) -> String {
        ladder(self.word, self.target)
            .and_then(|p| p.first().map(|s| s.1.clone()))
            .unwrap_or_else(|| self.word.into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dictionary_and_one_letter_rules() {
        let mut w = WordLadderPlay { word: "alike", target: "olive", distance: 2 };
        assert!(matches!(w.step("alixe"), Step::Invalid(m) if m.contains("dictionary")));
        assert!(matches!(w.step("olive"), Step::Invalid(m) if m.contains("2 letters")));
        assert!(matches!(w.step("al1ke"), Step::Format(_)));
        assert!(matches!(w.step("alive"), Step::Done(Outcome::Continue, _)));
        assert!(matches!(w.step("OLIVE"), Step::Done(Outcome::Won, _)));
    }
}
