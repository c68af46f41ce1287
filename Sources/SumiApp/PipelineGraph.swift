import SumiEngine
import SumiKit

/// A built pipeline as a Graphviz DOT graph (`sumi graph`): stages as boxes with their parameters as
/// written, edges labelled by port when a stage has several.
package enum PipelineGraph {
    package static func dot(_ pipeline: Pipeline) -> String {
        var text = "digraph \(quote(pipeline.manifest.name)) {\n"
        text += "  rankdir=LR;\n  node [shape=box, style=rounded, fontname=\"sans-serif\"];\n  edge [fontname=\"sans-serif\", fontsize=10];\n"
        for node in pipeline.nodes {
            var lines = [node.entry.id.map { "\($0) (\(node.descriptor.name))" } ?? node.descriptor.name]
            for (name, raw) in node.entry.with {
                let value = raw.stringValue ?? raw.serialized()
                lines.append("\(name)=\(value.count > 40 ? String(value.prefix(39)) + "…" : value)")
            }
            text += "  s\(node.index) [label=\(quote(lines.joined(separator: "\n")))];\n"
        }
        for node in pipeline.nodes {
            for (port, sources) in node.inputs {
                for source in sources {
                    let label = node.inputs.count > 1 ? " [label=\(quote(port))]" : ""
                    text += "  s\(source) -> s\(node.index)\(label);\n"
                }
            }
        }
        return text + "}\n"
    }

    /// A DOT string literal (newlines become `\n` line breaks).
    package static func quote(_ text: String) -> String {
        var out = "\""
        for ch in text {
            switch ch {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default: out.append(ch)
            }
        }
        return out + "\""
    }
}
