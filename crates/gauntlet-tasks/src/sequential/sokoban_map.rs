//! The Sokoban board used by [`sokoban`](super::sokoban): parsing and rendering of the level text,
//! forward moves (for verification), reverse play with pulls (for generation) and turning a reverse
//! play into a forward plan.

use crate::sequential::moves::Dir;
use gauntlet_core::Rng;

/// Largest side a level may have.
const MAX_SIDE: usize = 32;

/// A Sokoban position: static walls and goals, the boxes and the player. Cells are `r * w + c`.
#[derive(Debug, Clone)]
pub struct Map {
    /// Rows.
    pub h: usize,
    /// Columns.
    pub w: usize,
    /// Wall cells.
    pub wall: Vec<bool>,
    /// Goal cells.
    pub goal: Vec<bool>,
    /// Cells holding a box.
    pub boxed: Vec<bool>,
    /// The player's cell.
    pub player: usize,
}

/// One pull of the reverse play: the player stood on `from` and stepped in direction `dir`,
/// dragging the box from the cell behind it onto `from`.
#[derive(Debug, Clone, Copy)]
pub struct Pull {
    /// Where the player stood before the pull.
    pub from: usize,
    /// The direction the player stepped.
    pub dir: Dir,
}

impl Map {
    /// The neighbour of `cell` in direction `d`, if it is on the board.
    pub fn next(&self, cell: usize, d: Dir) -> Option<usize> {
        d.step(cell / self.w, cell % self.w, self.h, self.w).map(|(r, c)| r * self.w + c)
    }

    fn free(&self, cell: usize) -> bool {
        !self.wall[cell] && !self.boxed[cell]
    }

    /// A `size × size` room: walls all around, `inner` random inner walls placed only where the
    /// floor stays connected (bounded attempts, so possibly fewer).
    pub fn random_room(rng: &mut Rng, size: usize, inner: usize) -> Map {
        let n = size * size;
        let mut m = Map {
            h: size,
            w: size,
            wall: vec![false; n],
            goal: vec![false; n],
            boxed: vec![false; n],
            player: 0,
        };
        for cell in 0..n {
            let (r, c) = (cell / size, cell % size);
            m.wall[cell] = r == 0 || c == 0 || r + 1 == size || c + 1 == size;
        }
        let mut placed = 0;
        for _ in 0..inner * 8 {
            if placed == inner {
                break;
            }
            let cell = (1 + rng.index(size - 2)) * size + 1 + rng.index(size - 2);
            if m.wall[cell] {
                continue;
            }
            m.wall[cell] = true;
            let floor = m.floor_cells();
            if m.reachable(floor[0]).iter().filter(|&&x| x).count() == floor.len() {
                placed += 1;
            } else {
                m.wall[cell] = false;
            }
        }
        m.player = m.floor_cells()[0];
        m
    }

    /// Every non-wall cell, in order.
    pub fn floor_cells(&self) -> Vec<usize> {
        (0..self.wall.len()).filter(|&c| !self.wall[c]).collect()
    }

    /// Cells reachable by walking from `from` without pushing any box.
    fn reachable(&self, from: usize) -> Vec<bool> {
        let mut seen = vec![false; self.wall.len()];
        let mut stack = vec![from];
        seen[from] = true;
        while let Some(c) = stack.pop() {
            for d in Dir::ALL {
                if let Some(t) = self.next(c, d) {
                    if self.free(t) && !seen[t] {
                        seen[t] = true;
                        stack.push(t);
                    }
                }
            }
        }
        seen
    }

    /// A shortest walk (no pushes) from the player to `to`.
    fn walk_to(&self, to: usize) -> Option<Vec<Dir>> {
        let mut came: Vec<Option<Dir>> = vec![None; self.wall.len()];
        let mut queue = vec![self.player];
        let mut seen = vec![false; self.wall.len()];
        seen[self.player] = true;
        let mut head = 0;
        while head < queue.len() && !seen[to] {
            let c = queue[head];
            head += 1;
            for d in Dir::ALL {
                if let Some(t) = self.next(c, d) {
                    if self.free(t) && !seen[t] {
                        seen[t] = true;
                        came[t] = Some(d);
                        queue.push(t);
                    }
                }
            }
        }
        if !seen[to] {
            return None;
        }
        let mut path = Vec::new();
        let mut c = to;
        while let Some(d) = came[c] {
            path.push(d);
            c = self.next(c, d.opposite())?;
        }
        path.reverse();
        Some(path)
    }

    /// One forward move of the player (pushing a box if there is one); the map is unchanged on error.
    pub fn step(&mut self, d: Dir) -> Result<(), &'static str> {
        let to = self.next(self.player, d).filter(|&t| !self.wall[t]).ok_or("wall")?;
        if self.boxed[to] {
            let beyond = self.next(to, d).ok_or("the box would hit a wall")?;
            if self.wall[beyond] {
                return Err("the box would hit a wall");
            }
            if self.boxed[beyond] {
                return Err("the box would hit another box");
            }
            self.boxed[to] = false;
            self.boxed[beyond] = true;
        }
        self.player = to;
        Ok(())
    }

    /// Random reverse play of `episodes` pull episodes: each picks a random box and side; if the
    /// player can walk to that side, it pulls the box away from it 1–3 squares (fewer when
    /// blocked). At the end the player walks to a random reachable square. Returns the pulls in
    /// order; [`Map::plan_from_pulls`] fills in the walks.
    pub fn reverse_play(&mut self, rng: &mut Rng, episodes: usize) -> Vec<Pull> {
        let mut pulls = Vec::new();
        for _ in 0..episodes {
            let boxes: Vec<usize> = (0..self.boxed.len()).filter(|&c| self.boxed[c]).collect();
            let b = boxes[rng.index(boxes.len())];
            let dir = Dir::ALL[rng.index(4)];
            let Some(from) = self.next(b, dir).filter(|&f| self.free(f)) else { continue };
            if !self.reachable(self.player)[from] {
                continue;
            }
            self.player = from;
            for _ in 0..1 + rng.index(3) {
                let Some(to) = self.next(self.player, dir).filter(|&t| self.free(t)) else { break };
                let Some(behind) = self.next(self.player, dir.opposite()) else { break };
                self.boxed[behind] = false;
                self.boxed[self.player] = true;
                pulls.push(Pull { from: self.player, dir });
                self.player = to;
            }
        }
        let reach = self.reachable(self.player);
        let cells: Vec<usize> = (0..reach.len()).filter(|&c| reach[c]).collect();
        self.player = cells[rng.index(cells.len())];
        pulls
    }

    /// The forward plan that undoes `pulls` (made from this position by reverse play): the pulls
    /// in reverse order as pushes, joined by shortest walks.
    pub fn plan_from_pulls(&self, pulls: &[Pull]) -> Option<Vec<Dir>> {
        let mut m = self.clone();
        let mut plan = Vec::new();
        for pull in pulls.iter().rev() {
            let stand = m.next(pull.from, pull.dir)?;
            plan.extend(m.walk_to(stand)?);
            m.player = stand;
            m.step(pull.dir.opposite()).ok()?;
            plan.push(pull.dir.opposite());
        }
        (m.boxes_off_goal() == 0).then_some(plan)
    }

    /// How many boxes are not on a goal.
    pub fn boxes_off_goal(&self) -> usize {
        (0..self.boxed.len()).filter(|&c| self.boxed[c] && !self.goal[c]).count()
    }

    /// Sum over boxes of the Manhattan distance to the nearest goal (0 exactly when solved).
    pub fn misplacement(&self) -> usize {
        let goals: Vec<usize> = (0..self.goal.len()).filter(|&c| self.goal[c]).collect();
        let dist = |a: usize, b: usize| (a / self.w).abs_diff(b / self.w) + (a % self.w).abs_diff(b % self.w);
        (0..self.boxed.len())
            .filter(|&c| self.boxed[c])
            .map(|c| goals.iter().map(|&g| dist(c, g)).min().unwrap_or(0))
            .sum()
    }

    /// The level as text rows with the standard symbols (`_` for floor).
    pub fn render(&self) -> Vec<String> {
        (0..self.h)
            .map(|r| {
                (0..self.w)
                    .map(|c| {
                        let i = r * self.w + c;
                        match (self.wall[i], self.goal[i], self.boxed[i], self.player == i) {
                            (true, ..) => '#',
                            (_, true, true, _) => '*',
                            (_, false, true, _) => '$',
                            (_, true, _, true) => '+',
                            (_, false, _, true) => '@',
                            (_, true, ..) => '.',
                            _ => '_',
                        }
                    })
                    .collect()
            })
            .collect()
    }

    /// Parse level rows (`#` wall; `_`, `-` or space floor; `. $ * @ +`), checking that the rows
    /// have equal length, there is exactly one player, at least one box and enough goals.
    pub fn parse(rows: &[String]) -> Result<Map, String> {
        let h = rows.len();
        let w = rows.first().map_or(0, |r| r.chars().count());
        if !(1..=MAX_SIDE).contains(&h) || !(1..=MAX_SIDE).contains(&w) {
            return Err(format!("level is {h}x{w}"));
        }
        let n = h * w;
        let mut m =
            Map { h, w, wall: vec![false; n], goal: vec![false; n], boxed: vec![false; n], player: 0 };
        let mut players = 0;
        for (r, row) in rows.iter().enumerate() {
            if row.chars().count() != w {
                return Err(format!("row {} has a different length", r + 1));
            }
            for (c, ch) in row.chars().enumerate() {
                let i = r * w + c;
                match ch {
                    '#' => m.wall[i] = true,
                    '_' | '-' | ' ' => {}
                    '.' => m.goal[i] = true,
                    '$' => m.boxed[i] = true,
                    '*' => (m.goal[i], m.boxed[i]) = (true, true),
                    '@' | '+' => {
                        m.goal[i] = ch == '+';
                        m.player = i;
                        players += 1;
                    }
                    _ => return Err(format!("unknown symbol `{ch}`")),
                }
            }
        }
        let boxes = m.boxed.iter().filter(|&&b| b).count();
        let goals = m.goal.iter().filter(|&&g| g).count();
        if players != 1 || boxes == 0 || goals < boxes {
            return Err(format!("{players} players, {boxes} boxes, {goals} goals"));
        }
        Ok(m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_render_roundtrip() {
        let rows: Vec<String> = ["#####", "#+$_#", "#_*.#", "#####"].iter().map(|s| s.to_string()).collect();
        let m = Map::parse(&rows).unwrap();
        assert_eq!(m.render(), rows);
        assert_eq!(m.boxes_off_goal(), 1);
        assert_eq!(m.misplacement(), 1);
    }

    #[test]
    fn reverse_play_is_undone_by_the_plan() {
        let mut rng = Rng::new(5);
        for _ in 0..50 {
            let mut m = Map::random_room(&mut rng, 7, 4);
            let floor = m.floor_cells();
            let pick = rng.sample_indices(floor.len(), 3);
            for &i in &pick[..2] {
                m.goal[floor[i]] = true;
                m.boxed[floor[i]] = true;
            }
            m.player = floor[pick[2]];
            let pulls = m.reverse_play(&mut rng, 8);
            let plan = m.plan_from_pulls(&pulls).expect("the reverse play can be undone");
            let mut f = m.clone();
            for d in plan {
                f.step(d).unwrap();
            }
            assert_eq!(f.boxes_off_goal(), 0);
        }
    }
}
