//! Carvel packages: releasing them (kctrl's side) and consuming them (kapp-controller's
//! side: which version a constraint selects, install manifests with checked values).

pub mod available;
pub mod constraints;
pub mod source;
