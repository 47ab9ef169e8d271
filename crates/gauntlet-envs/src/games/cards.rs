//! A standard 52-card deck: card names (`Ah`, `Td`, `7c`) and a poker hand evaluator for the
//! best five of up to seven cards.
//!
//! A card is `0..52`: rank `c / 4` (0 = deuce … 12 = ace), suit `c % 4` (`c d h s`). [`rank7`]
//! returns a number that orders hands correctly: the category (high card 0 … straight flush 8)
//! in the top bits, then the ranks that break ties, most significant first.

const RANKS: &[u8; 13] = b"23456789TJQKA";
const SUITS: &[u8; 4] = b"cdhs";

/// Append the two-character name of card `c` (`Ah`).
pub fn write_card(c: u8, out: &mut String) {
    out.push(char::from(RANKS[(c / 4) as usize]));
    out.push(char::from(SUITS[(c % 4) as usize]));
}

/// Hand categories, lowest first.
pub const CATEGORIES: [&str; 9] = [
    "high card",
    "pair",
    "two pair",
    "three of a kind",
    "straight",
    "flush",
    "full house",
    "four of a kind",
    "straight flush",
];

/// The highest card of a five-rank run in the rank mask `m` (bit r = rank r present, aces also
/// low), if any.
fn straight_top(m: u16) -> Option<u32> {
    let m = m | if m & (1 << 12) != 0 { 1 << 13 } else { 0 };
    // Shift so that bit 0 is the ace-low: bits 0..=13 = A,2,...,A.
    let low = (m >> 13) & 1 | (m << 1);
    (4..14).rev().find(|&top| (low >> (top - 4)) & 0b11111 == 0b11111).map(|top| top - 1)
}

/// Strength of the best five-card hand among `cards` (5 to 7 cards); higher is better.
pub fn rank7(cards: &[u8]) -> u32 {
    let mut counts = [0u8; 13];
    let mut suits = [0u16; 4];
    for &c in cards {
        counts[(c / 4) as usize] += 1;
        suits[(c % 4) as usize] |= 1 << (c / 4);
    }
    let pack = |cat: u32, ranks: &[u32]| {
        ranks.iter().take(5).fold(cat, |acc, &r| (acc << 4) | r) << (4 * (5 - ranks.len().min(5)) as u32)
    };
    if let Some(flush) = suits.iter().find(|s| s.count_ones() >= 5) {
        if let Some(top) = straight_top(*flush) {
            return pack(8, &[top]);
        }
    }
    // Ranks by (count, rank), highest first.
    let mut groups: Vec<(u8, u32)> =
        (0..13).filter(|&r| counts[r] > 0).map(|r| (counts[r], r as u32)).collect();
    groups.sort_unstable_by(|a, b| b.cmp(a));
    let ranks_by_count = |skip: &[u32]| -> Vec<u32> {
        (0..13u32).rev().filter(|r| counts[*r as usize] > 0 && !skip.contains(r)).collect()
    };
    if groups[0].0 == 4 {
        let k = ranks_by_count(&[groups[0].1]);
        return pack(7, &[groups[0].1, k[0]]);
    }
    if groups[0].0 == 3 && groups.len() > 1 && groups[1].0 >= 2 {
        return pack(6, &[groups[0].1, groups[1].1]);
    }
    if let Some(flush) = suits.iter().find(|s| s.count_ones() >= 5) {
        let top: Vec<u32> = (0..13u32).rev().filter(|r| flush & (1 << r) != 0).take(5).collect();
        return pack(5, &top);
    }
    let all = suits.iter().fold(0, |a, s| a | s);
    if let Some(top) = straight_top(all) {
        return pack(4, &[top]);
    }
    match (groups[0].0, groups.get(1).map_or(0, |g| g.0)) {
        (3, _) => {
            let k = ranks_by_count(&[groups[0].1]);
            pack(3, &[groups[0].1, k[0], k[1]])
        }
        (2, 2) => {
            let k = ranks_by_count(&[groups[0].1, groups[1].1]);
            pack(2, &[groups[0].1, groups[1].1, k[0]])
        }
        (2, _) => {
            let k = ranks_by_count(&[groups[0].1]);
            pack(1, &[groups[0].1, k[0], k[1], k[2]])
        }
        _ => pack(0, &ranks_by_count(&[])),
    }
}

/// The category name of a [`rank7`] value.
pub fn category(rank: u32) -> &'static str {
    CATEGORIES[((rank >> 20) as usize).min(8)]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> Vec<u8> {
        s.split(' ')
            .map(|c| {
                let b = c.as_bytes();
                let r = RANKS.iter().position(|&x| x == b[0]).unwrap() as u8;
                let su = SUITS.iter().position(|&x| x == b[1]).unwrap() as u8;
                r * 4 + su
            })
            .collect()
    }

    #[test]
    fn categories_and_ties_order_correctly() {
        let hands = [
            "2c 3d 5h 7s 9c Jd Kh", // high card
            "2c 2d 5h 7s 9c Jd Kh", // pair
            "2c 2d 5h 5s 9c Jd Kh", // two pair
            "2c 2d 2h 7s 9c Jd Kh", // trips
            "Ac 2d 3h 4s 5c Jd Kh", // wheel straight
            "6c 2d 3h 4s 5c Jd Kh", // six-high straight
            "2c 4c 6c 8c Tc Jd Kh", // flush
            "2c 2d 2h 7s 7c Jd Kh", // full house
            "2c 2d 2h 2s 9c Jd Kh", // quads
            "Ac 2c 3c 4c 5c Jd Kh", // steel wheel
            "Tc Jc Qc Kc Ac 2d 3h", // royal flush
        ];
        let ranks: Vec<u32> = hands.iter().map(|h| rank7(&parse(h))).collect();
        for w in ranks.windows(2) {
            assert!(w[0] < w[1], "{ranks:?}");
        }
        assert_eq!(category(ranks[4]), "straight");
        assert_eq!(category(ranks[10]), "straight flush");
        // Kickers: pair of aces with K beats pair of aces with Q.
        assert!(rank7(&parse("Ac Ad Kh 7s 5c 3d 2h")) > rank7(&parse("Ac Ad Qh 7s 5c 3d 2h")));
        // The board plays: equal.
        assert_eq!(rank7(&parse("2c 3d Ah Kh Qh Jh Th")), rank7(&parse("4c 5d Ah Kh Qh Jh Th")));
    }
}
