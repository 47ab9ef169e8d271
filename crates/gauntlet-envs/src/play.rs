//! A terminal play loop: a human at one seat, scripted policies at the others.
//!
//! [`play`] shows the human's observation and the legal actions numbered (type a number or the
//! action itself; at most [`SHOWN_ACTIONS`] are listed for open-ended action spaces), reads one
//! line, applies it, shows the feedback, lets the opponent policy act at the other seats
//! (printing what it did), and prints the returns at the end. End of input or `quit` stops
//! cleanly. Used by `gauntlet play ENV [--seat N] [--vs random|oracle]`.

use crate::ScriptedEnv;
use gauntlet_core::AgentId;
use std::io::{self, BufRead, Write};

/// The most legal actions listed per turn.
pub const SHOWN_ACTIONS: usize = 30;

/// How a play session ended.
#[derive(Debug, Clone, PartialEq)]
pub enum PlayOutcome {
    /// The episode ended; the return of each seat.
    Finished(Vec<f64>),
    /// The human quit (`quit` or end of input) before the end; the returns so far.
    Quit(Vec<f64>),
}

/// Run one episode of `env` (already reset) with a human at `human_seat` reading from `input`
/// and writing to `output`; `opponent` picks the action of every other seat.
pub fn play(
    env: &mut dyn ScriptedEnv,
    human_seat: usize,
    opponent: &mut dyn FnMut(&dyn ScriptedEnv, AgentId) -> String,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
) -> io::Result<PlayOutcome> {
    while let Some(agent) = env.to_act() {
        if agent.0 != human_seat {
            let action = opponent(&*env, agent);
            let fb = env.act(agent, &action);
            writeln!(output, "[{agent}] plays: {action}\n{}", fb.message)?;
            continue;
        }
        writeln!(output, "\n{}", env.observe(agent).text)?;
        let legal = env.legal_actions();
        if !legal.is_empty() {
            let shown: Vec<String> = legal
                .iter()
                .take(SHOWN_ACTIONS)
                .enumerate()
                .map(|(i, a)| format!("{}) {a}", i + 1))
                .collect();
            let more = legal.len().saturating_sub(SHOWN_ACTIONS);
            let tail = if more > 0 { format!(" ... and {more} more") } else { String::new() };
            writeln!(output, "Actions: {}{tail}", shown.join("  "))?;
        }
        write!(output, "> ")?;
        output.flush()?;
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 || line.trim().eq_ignore_ascii_case("quit") {
            writeln!(output, "Bye.")?;
            return Ok(PlayOutcome::Quit(env.returns()));
        }
        let typed = line.trim();
        let action = match typed.parse::<usize>() {
            Ok(n) if n >= 1 && n <= legal.len().min(SHOWN_ACTIONS) => legal[n - 1].clone(),
            _ => typed.to_string(),
        };
        let fb = env.act(agent, &action);
        writeln!(output, "{}", fb.message)?;
    }
    let returns = env.returns();
    let shown: Vec<String> = returns.iter().enumerate().map(|(i, r)| format!("seat {i}: {r}")).collect();
    writeln!(output, "Episode over. Returns: {}", shown.join(", "))?;
    Ok(PlayOutcome::Finished(returns))
}
