/// Runs one stage on in-memory values, without a manifest, files or the CLI — the way every
/// per-stage test (built-in or plugin) exercises a stage.
///
/// ```swift
/// let out = try StageHarness(ScaleStage.self).run(["width": .integer(100)], inputs: ["in": .image(img)])
/// ```
public struct StageHarness: Sendable {
    public let definition: StageDefinition
    /// Warnings the stage printed during the last runs.
    public var warnings: [String] { collected.withLock { $0 } }
    /// Details the stage gave for the run report (`StageContext.report`) during the last runs.
    public var details: [JSONValue] { reported.withLock { $0 } }
    private let collected = SharedList<String>()
    private let reported = SharedList<JSONValue>()
    /// The run's options the stage sees (`StageContext.options`): a test lowers `limits` here.
    public var options = RunOptions()

    public init<S: Stage>(_ type: S.Type) { self.definition = StageDefinition(type) }
    public init(definition: StageDefinition) { self.definition = definition }

    /// Checks `parameters` against the descriptor exactly as a manifest's would be, and creates the stage.
    public func make(_ parameters: [String: ParamValue] = [:]) throws -> any StageInstance {
        let checked: Parameters
        do { checked = try ParameterChecker(definition.descriptor).check(parameters) } catch {
            throw StageError.invalidParameter(error.parameter, error.message)
        }
        return try definition.make(checked)
    }

    /// Creates the stage and runs it once on `inputs` (port name → value).
    public func run(_ parameters: [String: ParamValue] = [:], inputs: [String: Value] = [:],
                    sizeHint: (@Sendable (Size) -> Size?)? = nil) throws -> Value {
        let stage = try make(parameters)
        let context = self.context(sizeHint: sizeHint)
        return try stage.process(StageInputs(inputs), context: context)
    }

    /// Runs the stage's streamed path (`RowStage.process(_:context:output:)`) once: images on ports it
    /// reads as rows arrive as complete streams, and an image output is collected from its stream.
    /// A test compares the result with `run`'s, since both paths must give the same bytes.
    public func runRows(_ parameters: [String: ParamValue] = [:], inputs: [String: Value] = [:],
                        sizeHint: (@Sendable (Size) -> Size?)? = nil) throws -> Value {
        guard let stage = try make(parameters) as? any RowStage else {
            throw StageError("\(definition.descriptor.name) has no streamed path")
        }
        var values = inputs
        var streams: [String: RowStream] = [:]
        for (port, value) in inputs where stage.imageAccess(for: port) == .rows {
            guard case .image(let image) = value else { continue }
            streams[port] = RowStream.whole(image)
            values[port] = nil
        }
        let context = self.context(sizeHint: sizeHint)
        let output = stage.producesRows ? RowStream(capacity: Int.max, limits: context.options.limits) : nil
        let value = try stage.process(StageInputs(values, streams: streams), context: context, output: output)
        guard let output else {
            guard let value else { throw StageError("\(definition.descriptor.name) returned no value") }
            return value
        }
        guard output.isComplete else { throw StageError("\(definition.descriptor.name) ended without producing its image") }
        output.finish()
        return .image(try output.image())
    }

    func context(sizeHint: (@Sendable (Size) -> Size?)?) -> StageContext {
        let warnings = collected, details = reported
        return StageContext(warn: { message in warnings.withLock { $0.append(message) } }, sizeHint: sizeHint,
                            report: { value in details.withLock { $0.append(value) } }, options: options)
    }

    /// Runs the stage and returns its image output.
    public func runImage(_ parameters: [String: ParamValue] = [:], inputs: [String: Value] = [:]) throws -> Image {
        switch try run(parameters, inputs: inputs) {
        case .image(let image): return image
        case .images(let list) where list.count == 1: return try list[0].image()
        case let other: throw StageError("expected an image from \(definition.descriptor.name), got \(other.kind.rawValue)")
        }
    }
}

import Synchronization

/// A list shared between threads.
final class SharedList<Element: Sendable>: Sendable {
    private let mutex = Mutex<[Element]>([])
    func withLock<R>(_ body: (inout [Element]) -> R) -> R { mutex.withLock { body(&$0) } }
}
