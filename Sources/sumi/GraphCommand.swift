#if canImport(Glibc)
import Glibc
#endif
import SumiApp
import SumiEngine
import SumiKit

/// `sumi graph MANIFEST`: the validated stage graph as Graphviz DOT (stages as boxes with their
/// parameters as written, edges labelled by port); `--svg` renders it with Graphviz's `dot`.
struct GraphCommand {
    let arguments: Arguments

    func execute() throws(SumiError) -> Int32 {
        // -o names the graph file here, not the pipeline's output.
        var pipelineArguments = arguments
        pipelineArguments.output = nil
        let invocation = try pipelineArguments.invocation()
        // A template's unset parameters take stand-in values: the graph only needs the wiring.
        let pipeline = try invocation.wiring()
        let dot = PipelineGraph.dot(pipeline)
        guard arguments.batch.svg || (arguments.output.map { FileIO.fileExtension(of: $0) == "svg" } ?? false) else {
            if let output = arguments.output {
                do { try FileIO.writeAtomically(Array(dot.utf8), to: output, recordedIn: SignalCleanup.temporaryFiles) } catch {
                    throw SumiError(.run, "\(error.message)")
                }
            } else {
                Terminal.standardOutput(dot)
            }
            return 0
        }
        return try Self.renderSVG(dot, to: arguments.output)
    }

    /// Pipes DOT through `dot -Tsvg` (to `output`, or standard output).
    static func renderSVG(_ dot: String, to output: String?) throws(SumiError) -> Int32 {
        let dirs = (getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin").split(separator: ":")
        guard dirs.contains(where: { access("\($0)/dot", X_OK) == 0 }) else {
            throw SumiError(.run, "SVG needs Graphviz's dot, which is not installed (apt-get install graphviz); without --svg, sumi graph prints DOT")
        }
        var command = "dot -Tsvg"
        if let output { command += " -o '" + output.replacingAll("'", with: "'\\''") + "'" }
        guard let pipe = popen(command, "w") else { throw SumiError(.run, "cannot start dot: \(FileIO.errorText(errno))") }
        let bytes = Array(dot.utf8)
        _ = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, pipe) }
        let status = pclose(pipe)
        guard status == 0 else { throw SumiError(.run, "dot failed (status \(status))") }
        return 0
    }
}
