//! The `algebra` category: symbolic mathematics: polynomials, linear systems, integration.
//!
//! Shared helpers: [`poly`] (polynomials with exact rational coefficients and a strict parser)
//! and [`cas`] (an exact computer-algebra system for the calculus families).

pub mod cas;
pub mod convex_hull;
pub mod coordinate_geometry;
pub mod differentiation;
pub mod geometric_shapes;
pub mod integration;
pub mod linear_system;
pub mod matrix_determinant;
pub mod poly;
pub mod polynomial_division;
pub mod polynomial_multiplication;
pub mod polynomial_roots;
pub mod triangle_geometry;

use gauntlet_core::DynTask;
use std::sync::Arc;

/// Every family of this category, in listing order.
pub fn families() -> Vec<Arc<dyn DynTask>> {
    vec![
        Arc::new(polynomial_multiplication::PolynomialMultiplication),
        Arc::new(polynomial_roots::PolynomialRoots),
        Arc::new(polynomial_division::PolynomialDivision),
        Arc::new(linear_system::LinearSystem),
        Arc::new(differentiation::Differentiation),
        Arc::new(integration::Integration),
        Arc::new(coordinate_geometry::CoordinateGeometry),
        Arc::new(convex_hull::ConvexHull),
        Arc::new(matrix_determinant::MatrixDeterminant),
        Arc::new(triangle_geometry::TriangleGeometry),
        Arc::new(geometric_shapes::GeometricShapes),
    ]
}
