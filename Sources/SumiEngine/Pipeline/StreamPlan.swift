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
struct StreamPlan: Sendable {
    /// The effective access of each node's ports.
    let access: [[String: ImageAccess]]
    /// Nodes whose output image goes through a `RowStream` to its one pixel consumer.
    let streamedOutput: [Bool]

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
        self.access = access
        streamedOutput = nodes.map { node -> Bool in
            guard let stage = node.stage as? any RowStage, stage.producesRows else { return false }
            return pixelUses[node.index] == [.rows]
        }
    }
}
