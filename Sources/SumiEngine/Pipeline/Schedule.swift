import Synchronization
import SumiKit

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

/// The runner's shared state: which stages are waiting for what, the values not yet consumed, and
/// the first error.
final class Schedule: Sendable {
    struct State {
        var waiting: [Int]           // unfinished producers per node
        var ready: [Int]             // nodes whose producers have all finished, not yet started
        var running = 0              // nodes started and not finished
        var settled = 0              // nodes finished, failed or abandoned
        var remainingUses: [Int]     // consumers that still need each node's value
        var values: [Int: Value] = [:]
        var outputs: [Int: FileOutput] = [:]
        var timings: [Int: Double] = [:]
        var error: SumiError?
    }

    let pipeline: Pipeline
    let consumers: [[Int]]
    let state: Mutex<State>

    init(pipeline: Pipeline) {
        self.pipeline = pipeline
        var consumers = [[Int]](repeating: [], count: pipeline.nodes.count)
        var waiting = [Int](repeating: 0, count: pipeline.nodes.count)
        for node in pipeline.nodes {
            for source in Set(node.inputs.flatMap(\.sources)) {
                consumers[source].append(node.index)
                waiting[node.index] += 1
            }
        }
        self.consumers = consumers
        self.state = Mutex(State(waiting: waiting, ready: pipeline.order.filter { waiting[$0] == 0 },
                                 remainingUses: consumers.map(\.count)))
    }

    enum Work {
        /// Run `first` on this thread and `others` elsewhere.
        case run(first: Int, others: [Int])
        /// Stages are running elsewhere: wait for one to finish.
        case wait
        /// Every stage has finished, or an error stopped the run and nothing is running.
        case done
    }

    /// What the calling thread should do next.
    func nextWork() -> Work {
        state.withLock { s -> Work in
            if s.error != nil || s.settled == pipeline.nodes.count {
                if s.running == 0 { return .done }
                s.ready = []
                return .wait
            }
            guard let first = s.ready.first else { return .wait }
            let others = Array(s.ready.dropFirst())
            s.ready = []
            s.running += 1 + others.count
            return .run(first: first, others: others)
        }
    }

    /// A node that was not run because the run had already failed.
    func abandon(_ index: Int) {
        state.withLock { s in
            s.running -= 1
            s.settled += 1
        }
    }

    /// The input values of a node whose producers have all finished (nil after an error).
    func takeInputs(for index: Int) -> [String: Value]? {
        state.withLock { s -> [String: Value]? in
            guard s.error == nil else { return nil }
            var inputs: [String: Value] = [:]
            for (port, sources) in pipeline.nodes[index].inputs {
                var collected: [Value] = []
                for source in sources {
                    guard let v = s.values[source] else { continue }
                    collected.append(v)
                }
                if sources.count == 1, let only = collected.first {
                    inputs[port] = only
                } else {
                    inputs[port] = .images(collected.flatMap { value -> [Image] in
                        switch value {
                        case .image(let i): [i]
                        case .images(let l): l
                        default: []
                        }
                    })
                }
            }
            for source in Set(pipeline.nodes[index].inputs.flatMap(\.sources)) {
                s.remainingUses[source] -= 1
                if s.remainingUses[source] == 0 { s.values[source] = nil }
            }
            return inputs
        }
    }

    /// Records a finished node; its consumers whose producers are all done become ready.
    func finish(_ index: Int, value: Value, milliseconds: Double) {
        state.withLock { s in
            s.running -= 1
            s.settled += 1
            s.timings[index] = milliseconds
            if case .file(let f) = value { s.outputs[index] = f }
            guard s.error == nil else { return }
            if s.remainingUses[index] > 0 { s.values[index] = value }
            for c in consumers[index] {
                s.waiting[c] -= 1
                if s.waiting[c] == 0 { s.ready.append(c) }
            }
        }
    }

    /// Records a failed node: the first error wins, and no further stage starts.
    func fail(_ index: Int, _ error: SumiError) {
        state.withLock { s in
            s.running -= 1
            s.settled += 1
            if s.error == nil { s.error = error }
            s.values = [:]
            s.ready = []
        }
    }

    /// A size hint for a node whose consumers can all work from a reduced image.
    func sizeHint(for index: Int) -> (@Sendable (Size) -> Size?)? {
        let users = consumers[index]
        guard !users.isEmpty else { return nil }
        var stages: [any StageInstance] = []
        for user in users {
            let node = pipeline.nodes[user]
            guard node.inputs.allSatisfy({ $0.sources.count == 1 }) else { return nil }
            stages.append(node.stage)
        }
        let probe = Size(width: 4096, height: 4096)
        guard stages.allSatisfy({ $0.reducedInputSize(for: probe) != nil }) else { return nil }
        return { [stages] size in
            var needed = Size(width: 0, height: 0)
            for stage in stages {
                guard let r = stage.reducedInputSize(for: size) else { return nil }
                needed.width = max(needed.width, r.width)
                needed.height = max(needed.height, r.height)
            }
            return needed
        }
    }

    func result() throws(SumiError) -> Runner.Result {
        let s = state.withLock { $0 }
        if let error = s.error { throw error }
        let nodes = pipeline.nodes
        return Runner.Result(
            outputs: nodes.compactMap { n in s.outputs[n.index].map { (n.entry.reportID, $0) } },
            timings: nodes.map { ($0.entry.reportID, $0.descriptor.name, s.timings[$0.index] ?? 0) })
    }
}
