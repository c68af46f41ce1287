import SumiEngine
import SumiKit

/// `--set ID.PARAM=VALUE`: a stage parameter changed by stage id, written into the manifest's stage
/// entry as if the manifest said it. Also remembers which stage parameters the user set on the
/// command line, so that "does not apply" warnings speak only of values the user chose.
package struct StageOverrides {
    /// Stage index → parameters the user set (directly, or through a manifest parameter given with
    /// `--set`, `-i` or `-o`).
    private(set) var userSet: [Int: Set<String>] = [:]

    /// Applies `ID.PARAM=VALUE` to `manifest`. `ID` is a stage id, or a stage name used by exactly one
    /// stage. Returns the manifest parameters the replaced value referred to (`${input}`…), whose
    /// values then no longer reach that stage.
    @discardableResult
    package mutating func apply(_ name: String, _ text: String, to manifest: inout Manifest, registry: StageRegistry,
                        file: String) throws(SumiError) -> [String] {
        guard let dot = name.firstIndex(of: ".") else { return [] }
        let id = String(name[..<dot]), param = String(name[name.index(after: dot)...])
        let ids = manifest.stages.compactMap(\.id)
        var index = manifest.stages.firstIndex { $0.id == id }
        if index == nil {
            let named = manifest.stages.indices.filter { manifest.stages[$0].stage == id }
            if named.count == 1 { index = named[0] }
            else if named.count > 1 {
                throw SumiError(.usage, file: file, "--set \(name): \(named.count) stages are \"\(id)\" stages; name one by its id (\(ids.isEmpty ? "give the stages ids" : "ids: " + ids.joined(separator: ", ")))")
            }
        }
        guard let index else {
            let candidates = ids + manifest.stages.map(\.stage)
            throw SumiError(.usage, file: file, "--set \(name): no stage has the id \"\(id)\"\(NameSuggestion.hint(id, in: candidates)) (ids: \(ids.isEmpty ? "none" : ids.joined(separator: ", ")))")
        }
        let entry = manifest.stages[index]
        guard let definition = registry.definition(named: entry.stage) else {
            throw SumiError(.usage, file: file, stage: entry.place, "unknown stage \"\(entry.stage)\"\(NameSuggestion.hint(entry.stage, in: registry.all.map(\.descriptor.name)))")
        }
        let known = definition.descriptor.parameters.map(\.name)
        guard let spec = definition.descriptor.parameter(named: param) else {
            throw SumiError(.usage, file: file, stage: entry.place, parameter: param,
                            "--set: the stage has no such parameter\(NameSuggestion.hint(param, in: known)) (parameters: \(known.isEmpty ? "none" : known.joined(separator: ", ")))")
        }
        let value: ParamValue
        do { value = try spec.type.parse(text: text) } catch {
            throw SumiError(.usage, file: file, stage: entry.place, parameter: param, "--set: expected \(error.expected), got \(error.found)")
        }
        let replaced = entry.with.filter { $0.0 == param }.flatMap { Substitution.references(in: $0.1) }
        var with = entry.with.filter { $0.0 != param }
        with.append((param, value.json))
        manifest.stages[index].with = with
        userSet[index, default: []].insert(param)
        return replaced
    }

    /// Marks every stage parameter whose value refers to one of `parameters` (manifest parameters the
    /// user gave) as set by the user.
    package mutating func markReferences(to parameters: Set<String>, in manifest: Manifest) {
        guard !parameters.isEmpty else { return }
        for entry in manifest.stages {
            for (name, raw) in entry.with where Substitution.references(in: raw).contains(where: parameters.contains) {
                userSet[entry.index, default: []].insert(name)
            }
        }
    }

    /// Marks every parameter of every stage (an inline pipeline: the user wrote all of it).
    package mutating func markAll(in manifest: Manifest) {
        for entry in manifest.stages { userSet[entry.index, default: []].formUnion(entry.with.map(\.0)) }
    }

    /// Whether a warning should reach the user: a "parameter "X" does not apply" warning only when the
    /// user set X of that stage; every other warning always.
    package func shouldShow(_ message: String, manifest: Manifest) -> Bool {
        guard let start = message.firstRange(of: "parameter \""),
              let end = message[start.upperBound...].firstRange(of: "\" does not apply") else { return true }
        let param = String(message[start.upperBound..<end.lowerBound])
        let prefix = message[..<start.lowerBound]
        guard let entry = manifest.stages.first(where: { prefix.contains(": \($0.place): ") || prefix.hasPrefix("\($0.place): ") }) else {
            return true
        }
        return userSet[entry.index]?.contains(param) ?? false
    }
}
