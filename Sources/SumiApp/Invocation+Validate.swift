import SumiEngine
import SumiKit

extension Invocation {
    /// What `sumi validate` reports of a prepared request.
    public struct Verdict: Sendable {
        /// The stages of a run of the pipeline.
        public var stageCount: Int
        /// For a template: the required parameters no value was given for.
        public var needs: [String]
    }

    /// Everything a run checks before its first pixel, for every planned run, and nothing more.
    /// With `template`, required parameters without a value are listed in the verdict instead of
    /// failing: the run is checked with a well-formed stand-in value for each.
    public func validate(template: Bool = false) throws(SumiError) -> Verdict {
        var verdict = Verdict(stageCount: 0, needs: [])
        for run in runs {
            var overrides = run.overrides
            if template { verdict.needs += fillStandIns(&overrides) }
            verdict.stageCount = try pipeline(for: run, overrides: overrides).nodes.count
        }
        return verdict
    }

    /// The pipeline's stage graph, for drawing: its first run built with a stand-in value for each
    /// required parameter left unset (a template's graph needs only the wiring), and without the
    /// checks of inputs and outputs a run needs.
    public func wiring() throws(SumiError) -> Pipeline {
        var overrides = runs.first?.overrides ?? [:]
        fillStandIns(&overrides)
        do {
            let values = try PipelineBuilder.parameterValues(manifest, overrides: overrides)
            return try PipelineBuilder(registry: registry).build(manifest, values: values)
        } catch {
            throw locate(error)
        }
    }

    /// Gives each required parameter `overrides` leaves without a value a stand-in; returns their
    /// names.
    @discardableResult
    private func fillStandIns(_ overrides: inout [String: ParamValue]) -> [String] {
        var filled: [String] = []
        for param in manifest.params where param.defaultValue == nil && overrides[param.name] == nil {
            filled.append(param.name)
            overrides[param.name] = Self.standIn(for: param.type, name: param.name)
        }
        return filled
    }

    /// A well-formed value of `type` to check a template with (a path stands for a PNG file so that
    /// a writer can tell its format).
    static func standIn(for type: ParamType, name: String) -> ParamValue {
        switch type {
        case .string: .string(name)
        case .number: .number(1)
        case .integer: .integer(1)
        case .bool: .bool(false)
        case .path: .path("\(name).png")
        case .color: .color(Color(red: 0, green: 0, blue: 0))
        case .size: .size(Size(width: 1, height: 1))
        case .point: .point(Point(x: 0, y: 0))
        case .rect: .rect(Rect(x: 0, y: 0, width: 1, height: 1))
        case .list(let element): .list([standIn(for: element, name: name)])
        case .either(let types): types.first.map { standIn(for: $0, name: name) } ?? .string(name)
        case .keyword(let word): .string(word)
        case .tagged(let prefix, let inner): .string(prefix + standIn(for: inner, name: name).description)
        }
    }
}
