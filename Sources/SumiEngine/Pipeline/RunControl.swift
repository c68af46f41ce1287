import Synchronization

/// Stops runs from another thread. A batch checks it between runs (runs not started are left
/// out); a run that has it (`Runner.cancellation`) stops when it is cancelled: every stream and
/// every wait fails, so each stage returns at its next band or input, no output is renamed into
/// place, and the run fails with `SumiError.Kind.cancelled`. A stage busy with a whole image
/// finishes that step first.
public final class RunCancellation: Sendable {
    private struct State {
        var cancelled = false
        var next = 0
        var handlers: [Int: @Sendable () -> Void] = [:]
    }
    private let state = Mutex(State())

    public init() {}

    /// Cancels: the runs watching it stop. Later calls do nothing.
    public func cancel() {
        let handlers = state.withLock { state -> [@Sendable () -> Void] in
            guard !state.cancelled else { return [] }
            state.cancelled = true
            defer { state.handlers = [:] }
            return Array(state.handlers.values)
        }
        for handler in handlers { handler() }
    }

    public var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Calls `handler` once, on `cancel()` (at once when already cancelled); the token returned
    /// removes it (`remove`) when what it stops has ended.
    func onCancel(_ handler: @escaping @Sendable () -> Void) -> Int? {
        let token = state.withLock { state -> Int? in
            guard !state.cancelled else { return nil }
            state.next += 1
            state.handlers[state.next] = handler
            return state.next
        }
        if token == nil { handler() }
        return token
    }

    func remove(_ token: Int?) {
        guard let token else { return }
        _ = state.withLock { $0.handlers.removeValue(forKey: token) }
    }
}

/// A stage of a run starting (its inputs are there) or finishing, as `Runner.progress` hears it.
/// Heard on the stage's own thread: stages of independent branches report concurrently.
public struct StageProgress: Sendable {
    public enum Event: Sendable, Equatable { case started, finished }
    public let event: Event
    /// The stage's id in the report (its manifest id, or its stage name and index).
    public let id: String
    /// The stage's name ("decode").
    public let stage: String
    /// Its index in the manifest.
    public let index: Int
    /// How many of the run's stages have finished, this one included when it finished.
    public let finishedStages: Int
    public let stageCount: Int
    /// The stage's wall time, when it finished.
    public let milliseconds: Double?

    /// The part of the run done, by stages finished (0...1).
    public var fraction: Double { stageCount == 0 ? 1 : Double(finishedStages) / Double(stageCount) }
}
