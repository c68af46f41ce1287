import SumiKit

/// A validated pipeline: every stage created from checked parameters, every input wired to a
/// producing stage of a compatible kind, in an order where producers come first.
public struct Pipeline: Sendable {
    /// One stage of the graph.
    public struct Node: Sendable {
        /// Index in the manifest's `stages`.
        public let index: Int
        public let entry: ManifestStage
        public let descriptor: StageDescriptor
        public let stage: any StageInstance
        /// Port name → producing node indices (one, or several combined into a list of images).
        public let inputs: [(port: String, sources: [Int])]
    }

    public let manifest: Manifest
    /// The manifest parameters' values used for this pipeline.
    public let values: [String: ParamValue]
    /// Nodes by manifest index.
    public let nodes: [Node]
    /// Node indices in an order where every producer precedes its consumers.
    public let order: [Int]
    /// The image formats of the registry the pipeline was built from (its plugins' formats).
    public var formats = ImageFormatRegistry()

    /// The indices of nodes that consume `index`'s output.
    public func consumers(of index: Int) -> [Int] {
        nodes.filter { node in node.inputs.contains { $0.sources.contains(index) } }.map(\.index)
    }
}
