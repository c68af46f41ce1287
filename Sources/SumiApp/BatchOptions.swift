import SumiEngine
import SumiKit

/// The options of `run` and `validate` beyond the contract's first version: how inputs expand, how a
/// batch is split and resumed, and what is printed instead of running.
public struct BatchOptions: Sendable {
    /// `-r, --recursive`: folder inputs include their sub-folders.
    public var recursive = false
    /// `--strict`: a non-image in a folder input is an error, not a warning.
    public var strict = false
    /// `-n, --dry-run`: print the input → output plan and validate, decode nothing.
    public var dryRun = false
    /// `--shard K/N` or `auto`.
    public var shard: String?
    /// `--shard-by position|hash`.
    public var shardBy: String?
    /// `--skip-existing`: runs whose output exists are skipped.
    public var skipExisting = false
    /// `--print-inline`: print the pipeline in the one-line form and exit.
    public var printInline = false
    /// `--print-manifest`: print an inline pipeline as a manifest and exit.
    public var printManifest = false
    /// `validate --template`: unset required parameters are listed, not an error.
    public var template = false
    /// `graph --svg`.
    public var svg = false

    public init() {}

    /// Takes `option` (its long name, as `OptionTable` declares it) if it is one of these; `value`
    /// reads the option's value.
    public mutating func parse(_ option: String, value: () throws(SumiError) -> String) throws(SumiError) -> Bool {
        switch option {
        case "--recursive": recursive = true
        case "--strict": strict = true
        case "--dry-run": dryRun = true
        case "--shard": shard = try value()
        case "--shard-by": shardBy = try value()
        case "--skip-existing": skipExisting = true
        case "--print-inline": printInline = true
        case "--print-manifest": printManifest = true
        case "--template": template = true
        case "--svg": svg = true
        default: return false
        }
        return true
    }
}
