//! The GPU a plan is made for: what choosing and planning need to know about it.

/// A GPU as the planner sees it: its SM count (the time models' waves, split-K's slices, persistent
/// and stream-K grids) and whether it runs the sm_90a module (`wgmma`, TMA: Hopper).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Target {
    pub sms: u32,
    pub sm90a: bool,
}

impl Target {
    /// The H200 the models were calibrated on: 132 SMs, sm_90a. The default where no GPU is at hand
    /// (the emulator, tests, the scorecard's CPU mode).
    pub const H200: Target = Target { sms: 132, sm90a: true };

    /// A GPU of `sms` SMs (at least 1), with or without the sm_90a module.
    pub const fn new(sms: u32, sm90a: bool) -> Target {
        Target { sms: if sms == 0 { 1 } else { sms }, sm90a }
    }
}

impl Default for Target {
    fn default() -> Self {
        Target::H200
    }
}
