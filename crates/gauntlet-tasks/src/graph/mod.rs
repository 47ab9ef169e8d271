//! The `graph` category: shortest paths, colouring, Hamiltonian paths and topological orders.
//!
//! Every family shows its graph as an edge list, one edge per line, with nodes named by letters
//! or numbers ([`graph::Labels`]); the shared representation and parsers live in [`graph`].

pub mod bipartite;
pub mod eulerian_trail;
#[allow(clippy::module_inception)]
pub mod graph;
pub mod graph_bridges;
pub mod graph_coloring;
pub mod graph_isomorphism;
pub mod hamiltonian_path;
pub mod largest_island;
pub mod min_cut;
pub mod minimum_spanning_tree;
pub mod nl_navigation;
pub mod rotten_oranges;
pub mod shortest_path;
pub mod strongly_connected_components;
pub mod topological_order;
pub mod word_ladder;

use gauntlet_core::DynTask;
use std::sync::Arc;

/// Every family of this category, in listing order.
pub fn families() -> Vec<Arc<dyn DynTask>> {
    vec![
        Arc::new(shortest_path::ShortestPath),
        Arc::new(graph_coloring::GraphColoring),
        Arc::new(hamiltonian_path::HamiltonianPath),
        Arc::new(topological_order::TopologicalOrder),
        Arc::new(nl_navigation::NlNavigation),
        Arc::new(word_ladder::WordLadder),
        Arc::new(graph_isomorphism::GraphIsomorphism),
        Arc::new(largest_island::LargestIsland),
        Arc::new(rotten_oranges::RottenOranges),
        Arc::new(eulerian_trail::EulerianTrail),
        Arc::new(bipartite::Bipartite),
        Arc::new(minimum_spanning_tree::MinimumSpanningTree),
        Arc::new(min_cut::MinCut),
        Arc::new(strongly_connected_components::StronglyConnectedComponents),
        Arc::new(graph_bridges::GraphBridges),
    ]
}
