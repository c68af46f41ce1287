/// Wall time since creation.
struct Stopwatch {
    let clock = ContinuousClock()
    let began: ContinuousClock.Instant
    init() { began = clock.now }
    var milliseconds: Double {
        let elapsed = clock.now - began
        return Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
    }
}
