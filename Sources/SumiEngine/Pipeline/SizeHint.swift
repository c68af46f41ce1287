import SumiKit

/// The size a producer may decode at when every consumer can work from a reduced image
/// (`StageInstance.reducedInputSize`): JPEG then decodes at DCT scale.
enum SizeHint {
    /// The hint for node `index`, or nil when some consumer needs full size.
    static func forProducer(_ index: Int, of pipeline: Pipeline) -> (@Sendable (Size) -> Size?)? {
        let users = pipeline.nodes.filter { $0.inputs.contains { $0.sources.contains(index) } }
        guard !users.isEmpty, users.allSatisfy({ node in node.inputs.allSatisfy { $0.sources.count == 1 } }) else { return nil }
        let stages = users.map(\.stage)
        let probe = Size(width: 4096, height: 4096)
        guard stages.allSatisfy({ $0.reducedInputSize(for: probe) != nil }) else { return nil }
        return { size in
            var needed = Size(width: 0, height: 0)
            for stage in stages {
                guard let r = stage.reducedInputSize(for: size) else { return nil }
                needed.width = max(needed.width, r.width)
                needed.height = max(needed.height, r.height)
            }
            return needed
        }
    }
}
