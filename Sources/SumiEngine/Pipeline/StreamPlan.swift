import SumiKit

/// Which images of a pipeline pass as bounded row streams, decided before the run from each
/// stage's declared `ImageAccess` per port.
///
/// - A port reads its image as rows when the stage declares `.rows` (and is a `RowStage`), the
///   port has one source, and that source is a `RowStage` producing rows.
/// - A source's output is *streamed* when exactly one port reads its pixels and reads them as rows;
///   ports that read only the shape (`place`'s base) do not count, so the caption's photo streams
///   into `blend` while `place` gets its size at `begin`.
/// - A value with several pixel consumers is buffered whole (each consumer reads the one image;
///   a tee would hold the slowest consumer's distance from the fastest anyway, which for a stage
///   that needs the whole image is the whole image).
/// - A stage runs its streamed path (`RowStage.process(_:context:output:)`) when one of its inputs
///   or its output is streamed; otherwise its whole-image path, as without streaming.
struct StreamPlan: Sendable {
    /// The effective access of each node's ports.
    let access: [[String: ImageAccess]]
    /// Nodes whose output image goes through a `RowStream` to its one pixel consumer.
    let streamedOutput: [Bool]
    /// Nodes that run their `RowStage` path.
    let rowMode: [Bool]

    /// Whether any image is streamed: otherwise the run is the whole-image run.
    var streamsAnything: Bool { streamedOutput.contains(true) }

    init(pipeline: Pipeline) {
        let nodes = pipeline.nodes
        var access = [[String: ImageAccess]](repeating: [:], count: nodes.count)
        var pixelUses = [[ImageAccess]](repeating: [], count: nodes.count)
        for node in nodes {
            for (port, sources) in node.inputs {
                var declared = node.stage.imageAccess(for: port)
                if sources.count != 1 || (declared == .rows && !(node.stage is any RowStage)) { declared = .whole }
                access[node.index][port] = declared
                for source in sources where declared != .shape { pixelUses[source].append(declared) }
            }
        }
        var streamed = nodes.map { node -> Bool in
            guard let stage = node.stage as? any RowStage, stage.producesRows else { return false }
            return pixelUses[node.index] == [.rows]
        }
        var rowMode = [Bool](repeating: false, count: nodes.count)
        for node in nodes where node.stage is any RowStage {
            let streamedInput = node.inputs.contains { access[node.index][$0.port] == .rows && streamed[$0.sources[0]] }
            rowMode[node.index] = streamedInput || streamed[node.index]
        }
        // A streamed output whose producer does not run its streamed path cannot happen (a streamed
        // output puts its producer in row mode); keep the arrays consistent anyway.
        for i in nodes.indices where streamed[i] && !rowMode[i] { streamed[i] = false }
        self.access = access
        self.streamedOutput = streamed
        self.rowMode = rowMode
    }
}
