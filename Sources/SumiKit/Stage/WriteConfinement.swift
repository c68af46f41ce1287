/// Where a run lets a stage write a file whose path is only known while it runs (a plugin's
/// `write_file`). Paths a manifest gives are checked before the run; this covers the rest. A safe
/// run confines writes to the output folder; standard output (`-`) is always allowed.
public struct WriteConfinement: Sendable {
    /// The folder writes are confined to, for messages; nil when the run has none (then only
    /// standard output may be written).
    public let folder: String?
    private let allows: @Sendable (String) -> Bool

    /// `allows` decides for a path other than `-` (symbolic links and `..` resolved by the caller's rule).
    public init(folder: String?, allows: @escaping @Sendable (String) -> Bool) {
        self.folder = folder
        self.allows = allows
    }

    /// Throws when `path` may not be written.
    public func check(_ path: String) throws(StageError) {
        guard path != "-", !allows(path) else { return }
        let rule = folder.map { "only below the output folder \($0)" } ?? "only to standard output (no output folder was given)"
        throw StageError("this run writes \(rule); refused \(MessageText.cut(path))")
    }
}
