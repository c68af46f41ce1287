import SumiEngine
import SumiKit

/// The files a built pipeline writes, read from its stages' declarations: every path named by a
/// parameter declared `.path(.writes)` (`encode`, `pdf-page`, a plugin's writer), and by a path
/// parameter of undeclared direction on a stage whose output is a file (a plugin built before
/// directions were declared). `-` is standard output.
package enum PipelineWrites {
    /// One written path, with the stage and parameter that name it.
    package struct Target {
        package var node: Pipeline.Node
        package var parameter: String
        package var path: String
    }

    package static func targets(of pipeline: Pipeline) -> [Target] {
        pipeline.nodes.flatMap { node -> [Target] in
            node.entry.with.flatMap { name, raw -> [Target] in
                guard let spec = node.descriptor.parameter(named: name), let access = spec.type.pathAccess,
                      access == .writes || (access == .undeclared && node.descriptor.output == .file),
                      let value = try? Substitution.substitute(raw, values: pipeline.values, here: pipeline.manifest.here)
                else { return [] }
                return SafePaths.strings(in: value).map { Target(node: node, parameter: name, path: $0) }
            }
        }
    }

    /// The written paths, without standard output.
    package static func files(of pipeline: Pipeline) -> [String] {
        targets(of: pipeline).map(\.path).filter { $0 != "-" }
    }

    /// Whether a stage writes its file to standard output (the report then goes to stderr so it
    /// does not mix with the data).
    package static func writesToStandardOutput(_ pipeline: Pipeline) -> Bool {
        targets(of: pipeline).contains { $0.path == "-" }
    }
}
