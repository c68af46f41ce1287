/// The commands of `sumi`, in the order help, completions and the man page list them.
public enum CommandName: String, CaseIterable, Sendable {
    case run, pipelines, validate, stages, inspect, schema, graph, formats, completion, serve
}
