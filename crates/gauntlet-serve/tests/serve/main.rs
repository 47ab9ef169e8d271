//! Integration tests of the servers, each against a server of its own on a loopback port: the
//! environment server's answers, every kind of bad request, the limits, and a load test; the
//! policy server's OpenAI API (`policy`) and gauntlet's HTTP policy backend against it
//! (`policy_client`).

mod api;
mod conversations;
mod errors;
mod games;
mod limits;
mod load;
mod openenv;
mod policy;
mod policy_client;
mod structure;
mod traces;
mod util;
