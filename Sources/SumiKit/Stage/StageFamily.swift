/// A built-in family of stages, linked into the `sumi` binary and registered like a plugin.
public protocol StageFamily {
    static var name: String { get }
    static var stages: [StageDefinition] { get }
}
