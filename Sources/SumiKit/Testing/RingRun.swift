/// What `StageHarness.runRing(_:inputs:pattern:)` gives back: the stage's value (its output image
/// collected from the ring, or what it returned) and what the harness saw on each ring.
public struct RingRun: Sendable {
    /// What one ring around the stage looked like over the run.
    public struct Ring: Sendable {
        /// The largest band either side could ask for, and the ring's rows (`RowStream.slots`).
        public let capacity: Int
        public let slots: Int
        /// The image's height (0 when the stage never started reading the ring).
        public let height: Int
        /// `RowStream.mostRowsHeld`: never above `slots`.
        public let mostRowsHeld: Int
        /// An input: the rows the stage had released when the harness published the last one. The
        /// output: the rows the harness had read and released when the stage returned.
        public let releasedBeforeEnd: Int
        /// How many times the stage waited on this ring (each one served by the harness).
        public let waits: Int
    }

    public let value: Value
    /// The rings of the ports read as rows, by port.
    public let inputs: [String: Ring]
    /// The output ring, when the stage produces rows.
    public let output: Ring?
}
