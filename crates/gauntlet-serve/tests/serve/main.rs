//! Integration tests of the environment server, each against a server of its own on a loopback
//! port: the API's answers, every kind of bad request, the limits, and a load test.

mod api;
mod errors;
mod games;
mod limits;
mod load;
mod util;
