import Synchronization
import SumiKit

/// What each stage of a run said besides its value: its warnings and the details it gave
/// (`StageContext.report`), for the run report.
final class StageNotes: Sendable {
    /// One stage's warnings, in order, and its details (the last given).
    struct Note: Sendable {
        var warnings: [String] = []
        var details: JSONValue?
    }

    private let notes = Mutex<[Int: Note]>([:])

    func warn(_ index: Int, _ message: String) { notes.withLock { $0[index, default: Note()].warnings.append(message) } }

    func report(_ index: Int, _ details: JSONValue) { notes.withLock { $0[index, default: Note()].details = details } }

    /// The notes of stages `indices`, in that order.
    func notes(for indices: [Int]) -> [Note] {
        let all = notes.withLock { $0 }
        return indices.map { all[$0] ?? Note() }
    }
}
