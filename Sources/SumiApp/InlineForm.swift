import SumiEngine
import SumiKit

/// The one-line form of a validated pipeline (`sumi run MANIFEST --print-inline`), with this run's
/// parameter values substituted, so that `sumi run "$(sumi run m.json --print-inline)"` does the same
/// as `sumi run m.json`.
package enum InlineForm {
    package static func text(of pipeline: Pipeline) -> String {
        let nodes = pipeline.nodes
        // Stages that another chain refers to need an id.
        var referenced = Set<Int>()
        for node in nodes {
            let sources = node.inputs.flatMap(\.sources)
            if !(node.inputs.count == 1 && sources == [node.index - 1]) { referenced.formUnion(sources) }
            if node.inputs.count > 1 || sources.count > 1 { referenced.insert(node.index) }
        }
        var used = Set(nodes.compactMap(\.entry.id))
        var ids: [Int: String] = [:]
        for node in nodes {
            if let id = node.entry.id { ids[node.index] = id; continue }
            guard referenced.contains(node.index) else { continue }
            var id = node.descriptor.name, n = 2
            while used.contains(id) { id = "\(node.descriptor.name)-\(n)"; n += 1 }
            used.insert(id)
            ids[node.index] = id
        }

        var chains: [String] = []
        var current = ""
        var previousEmitted: Int?
        for node in nodes {
            let element = self.element(node, id: ids[node.index], pipeline: pipeline)
            let sources = node.inputs.flatMap(\.sources)
            if node.inputs.isEmpty {
                if !current.isEmpty { chains.append(current) }
                current = element
            } else if node.inputs.count == 1 && sources.count == 1 {
                if sources[0] == previousEmitted {
                    current += " ! " + element
                } else {
                    if !current.isEmpty { chains.append(current) }
                    current = "\(ids[sources[0]] ?? "?"). ! " + element
                }
            } else {
                if !current.isEmpty { chains.append(current) }
                chains.append(element)
                let id = ids[node.index] ?? "?"
                for (port, portSources) in node.inputs {
                    for source in portSources {
                        chains.append("\(ids[source] ?? "?"). ! \(id).\(node.inputs.count > 1 ? port : "")")
                    }
                }
                current = ""
                previousEmitted = nil
                continue
            }
            previousEmitted = node.index
        }
        if !current.isEmpty { chains.append(current) }
        return chains.joined(separator: "  ")
    }

    /// `stage id=… key=value …` with values substituted and written in the text form of their type.
    static func element(_ node: Pipeline.Node, id: String?, pipeline: Pipeline) -> String {
        var words = [node.descriptor.name]
        if let id { words.append("id=\(id)") }
        for (name, raw) in node.entry.with {
            guard let json = try? Substitution.substitute(raw, values: pipeline.values, here: pipeline.manifest.here) else { continue }
            words.append("\(name)=\(quoted(text(json, spec: node.descriptor.parameter(named: name))))")
        }
        return words.joined(separator: " ")
    }

    /// A value in the form `InlinePipeline.value` reads back: lists as JSON, the rest as text.
    static func text(_ json: JSONValue, spec: ParameterSpec?) -> String {
        if case .array = json { return json.serialized() }
        if let spec, let value = try? spec.type.parse(json) {
            if case .list = value { return value.json.serialized() }
            return value.description
        }
        if case .string(let s) = json { return s }
        return json.serialized()
    }

    /// Quotes a word that holds spaces, quotes, `!` or nothing.
    static func quoted(_ text: String) -> String {
        let plain = !text.isEmpty && !text.contains { " \t\n!'\"".contains($0) }
        if plain { return text }
        if !text.contains("'") { return "'\(text)'" }
        return "\"" + text.replacingAll("\\", with: "\\\\").replacingAll("\"", with: "\\\"") + "\""
    }
}
