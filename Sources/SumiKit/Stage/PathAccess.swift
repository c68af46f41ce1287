/// Which way the file a `path` parameter names goes. A run confined by `--safe` reads only what it
/// was given as inputs and writes only below its output folder, deciding from this declaration and
/// nothing else (not the parameter's name, not the stage's output kind).
public enum PathAccess: String, Sendable, Hashable, CaseIterable {
    /// The stage reads the file (`decode`'s `path`).
    case reads
    /// The stage writes the file (`encode`'s `path`).
    case writes
    /// Nobody said (a plugin built before directions were declared): a confined run checks the
    /// path both ways, so it must be an input and lie below the output folder.
    case undeclared
}
