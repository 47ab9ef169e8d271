//! Circuit logic: simulate a netlist of logic gates on one input assignment.
//!
//! **Generates** a random acyclic circuit: input wires `x1..xk` with given values and gates
//! `g1..gm`, each an AND, OR, XOR, NAND, NOR, XNOR (two or, from level 4, three inputs) or NOT of
//! earlier wires. The last gates are the outputs; circuits whose outputs are all equal are redrawn
//! (so no constant answer fits). From level 3 the netlist is listed in shuffled order, so the
//! solver has to find an evaluation order itself.
//!
//! **Verifies** by simulation: the answer must give every output gate 0 or 1 (`name=value`
//! grammar), and each value must equal the simulated one. Every correct answer is the same, 0/1.
//!
//! | level | inputs | gates | outputs | gate inputs | order |
//! |---|---|---|---|---|---|
//! | 1 | 3 | 5 | 3 | 2 | listed in order |
//! | 2 | 4 | 9 | 3 | 2 | listed in order |
//! | 3 | 5 | 14 | 4 | 2 | shuffled |
//! | 4 | 6 | 22 | 4 | 2–3 | shuffled |
//! | 5 | 8 | 36 | 5 | 2–3 | shuffled |
//!
//! Level 5 is hard for frontier models: 36 gates in shuffled order with inverted gates (NAND, NOR,
//! XNOR) and fan-out give long dependency chains where one slip flips an output.
//!
//! **Example**: `x1=1, x2=0`; `g1 = AND(x1, x2)`, `g2 = NOT(g1)` → `g2=1`.
//!
//! **Failure modes**: a missing output is wrong; a value other than 0/1, an unknown wire or a
//! repeated output is unparsable.

use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The circuit-logic family.
pub struct CircuitLogic;

/// Gate kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Kind {
    /// All inputs 1.
    And,
    /// Some input 1.
    Or,
    /// An odd number of inputs 1.
    Xor,
    /// Not AND.
    Nand,
    /// Not OR.
    Nor,
    /// Not XOR.
    Xnor,
    /// The negation of the one input.
    Not,
}

/// One gate: its kind and input wires (index `< inputs` is an input `x`, else gate `index - inputs`).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Gate {
    /// Gate kind.
    pub kind: Kind,
    /// Input wires.
    pub ins: Vec<u16>,
}

/// One problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CircuitProblem {
    /// Input values `x1..xk`.
    pub inputs: Vec<bool>,
    /// Gates `g1..gm` in evaluation order.
    pub gates: Vec<Gate>,
    /// Output gates (indices into `gates`).
    pub outputs: Vec<u16>,
    /// Listing order of the gates in the prompt.
    pub order: Vec<u16>,
}

fn wire_name(p: &CircuitProblem, w: usize) -> String {
    if w < p.inputs.len() {
        format!("x{}", w + 1)
    } else {
        format!("g{}", w - p.inputs.len() + 1)
    }
}

/// Simulated values of every wire, or `None` if the netlist is malformed (a forward reference).
fn simulate(p: &CircuitProblem) -> Option<Vec<bool>> {
    let mut v = p.inputs.clone();
    for g in &p.gates {
        let ins: Option<Vec<bool>> = g.ins.iter().map(|&w| v.get(w as usize).copied()).collect();
        let ins = ins?;
        let ones = ins.iter().filter(|b| **b).count();
        let out = match g.kind {
            Kind::And => ones == ins.len(),
            Kind::Or => ones > 0,
            Kind::Xor => ones % 2 == 1,
            Kind::Nand => ones != ins.len(),
            Kind::Nor => ones == 0,
            Kind::Xnor => ones % 2 == 0,
            Kind::Not => ones == 0,
        };
        v.push(out);
    }
    Some(v)
}

fn kind_name(k: Kind) -> &'static str {
    match k {
        Kind::And => "AND",
        Kind::Or => "OR",
        Kind::Xor => "XOR",
        Kind::Nand => "NAND",
        Kind::Nor => "NOR",
        Kind::Xnor => "XNOR",
        Kind::Not => "NOT",
    }
}

fn output_names(p: &CircuitProblem) -> Vec<String> {
    p.outputs.iter().map(|&o| wire_name(p, o as usize + p.inputs.len())).collect()
}

fn draw(rng: &mut Rng, d: Difficulty) -> CircuitProblem {
    let (k, m, o) = d.pick([(3, 5, 3), (4, 9, 3), (5, 14, 4), (6, 22, 4), (8, 36, 5)]);
    let kinds = [Kind::And, Kind::Or, Kind::Xor, Kind::Nand, Kind::Nor, Kind::Xnor, Kind::Not];
    let inputs: Vec<bool> = (0..k).map(|_| rng.chance(0.5)).collect();
    let mut gates = Vec::with_capacity(m);
    for i in 0..m {
        let wires = k + i;
        let kind = *rng.choose(&kinds).unwrap_or(&Kind::And);
        let arity = match kind {
            Kind::Not => 1,
            _ if d.level() >= 4 && rng.chance(0.3) => 3,
            _ => 2,
        };
        // Prefer recent wires so the circuit is deep rather than wide.
        let ins: Vec<u16> = (0..arity)
            .map(|_| {
                let lo = wires.saturating_sub(6);
                (if rng.chance(0.7) { lo + rng.index(wires - lo) } else { rng.index(wires) }) as u16
            })
            .collect();
        gates.push(Gate { kind, ins });
    }
    let outputs: Vec<u16> = ((m - o)..m).map(|g| g as u16).collect();
    let mut order: Vec<u16> = (0..m as u16).collect();
    if d.level() >= 3 {
        rng.shuffle(&mut order);
    }
    CircuitProblem { inputs, gates, outputs, order }
}

impl Task for CircuitLogic {
    type Problem = CircuitProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "circuit_logic",
            category: Category::Logic,
            description: "Simulate a netlist of logic gates and report the output bits.",
            levels: [
                "3 inputs, 5 gates, 3 outputs, in order",
                "4 inputs, 9 gates, 3 outputs, in order",
                "5 inputs, 14 gates, 4 outputs, shuffled",
                "6 inputs, 22 gates (some 3-input), 4 outputs, shuffled",
                "8 inputs, 36 gates (some 3-input), 5 outputs, shuffled",
            ],
            answer_format: "every output gate with 0 or 1, comma-separated, e.g. `g4=1, g5=0`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> CircuitProblem {
        loop {
            let p = draw(rng, d);
            let v = simulate(&p).unwrap_or_default();
            let outs: Vec<bool> = p.outputs.iter().map(|&o| v[o as usize + p.inputs.len()]).collect();
            if outs.iter().any(|b| *b) && outs.iter().any(|b| !*b) {
                return p;
            }
        }
    }

    fn prompt(&self, p: &CircuitProblem) -> String {
        let mut s = String::from(
            "A logic circuit has the input values and gates below. AND is 1 when all its inputs are 1, \
             OR when at least one is 1, XOR when an odd number are 1; NAND, NOR and XNOR are their \
             negations, NOT negates its one input.\n\nInputs: ",
        );
        let ins: Vec<String> =
            p.inputs.iter().enumerate().map(|(i, b)| format!("x{}={}", i + 1, u8::from(*b))).collect();
        s += &ins.join(", ");
        s += "\n\nGates:\n";
        for &g in &p.order {
            let Some(gate) = p.gates.get(g as usize) else { continue };
            let args: Vec<String> = gate.ins.iter().map(|&w| wire_name(p, w as usize)).collect();
            s += &format!(
                "{} = {}({})\n",
                wire_name(p, g as usize + p.inputs.len()),
                kind_name(gate.kind),
                args.join(", ")
            );
        }
        s += &format!("\nWhat are the values of the outputs {}?\n\n", output_names(p).join(", "));
        s + &self.answer_instruction()
    }

    fn solve(&self, p: &CircuitProblem) -> String {
        let v = simulate(p).unwrap_or_default();
        output_names(p)
            .iter()
            .zip(&p.outputs)
            .map(|(n, &o)| format!("{n}={}", u8::from(v.get(o as usize + p.inputs.len()) == Some(&true))))
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn verify(&self, p: &CircuitProblem, answer: &str) -> Score {
        let Some(v) = simulate(p) else { return Score::wrong("malformed problem") };
        let names = output_names(p);
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let bit = |s: &str| match s {
            "0" => Some(false),
            "1" => Some(true),
            _ => None,
        };
        let got = match crate::logic::keyed(answer, &names, bit) {
            Ok(g) => g,
            Err(s) => return s,
        };
        let wrong: Vec<&str> = names
            .iter()
            .zip(&got)
            .zip(&p.outputs)
            .filter(|((_, g), &o)| v.get(o as usize + p.inputs.len()) != Some(g))
            .map(|((n, _), _)| *n)
            .collect();
        if wrong.is_empty() {
            Score::correct()
        } else {
            Score::wrong(format!("wrong value for {}", wrong.join(", ")))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example() -> CircuitProblem {
        CircuitProblem {
            inputs: vec![true, false],
            gates: vec![
                Gate { kind: Kind::And, ins: vec![0, 1] },
                Gate { kind: Kind::Not, ins: vec![2] },
                Gate { kind: Kind::Nor, ins: vec![3, 1] },
            ],
            outputs: vec![1, 2],
            order: vec![0, 1, 2],
        }
    }

    #[test]
    fn example_is_simulated() {
        let p = example();
        let t = CircuitLogic;
        assert_eq!(t.solve(&p), "g2=1, g3=0");
        assert!(t.verify(&p, "g3: 0\nG2 = 1").correct);
        assert!(!t.verify(&p, "g2=1, g3=1").correct);
        assert!(!t.verify(&p, "g2=1").correct);
        for bad in ["g2=1, g3=0 or 1", "g2=1/0, g3=0", "g2=1, g3=0, g2=0", "g2=1, g3=0, g9=1", "g2=T, g3=F"] {
            assert!(t.verify(&p, bad).is_format_error(), "{bad}");
        }
    }

    #[test]
    fn oracle_is_correct_at_every_level() {
        for d in Difficulty::all() {
            for seed in 0..30 {
                let p = CircuitLogic.generate(seed, d);
                assert!(CircuitLogic.verify(&p, &CircuitLogic.solve(&p)).correct);
            }
        }
    }
}
