import SumiApp
import SumiEngine
import SumiKit

/// The options that may stand anywhere on the command line and make the run policy: `--safe`
/// (or `SUMI_SAFE=1`) and `--allow-manifest-plugins`.
enum ProcessFlags {
    /// The policy they make (with the environment's limits), and the arguments without them.
    static func split(_ arguments: [String]) -> (RunPolicy, [String]) {
        var safe = RunPolicy.safeFromEnvironment, allowManifestPlugins = false
        var rest: [String] = []
        for argument in arguments {
            switch argument {
            case OptionTable.safe.long: safe = true
            case OptionTable.allowManifestPlugins.long: allowManifestPlugins = true
            default: rest.append(argument)
            }
        }
        return (RunPolicy.fromEnvironment(safe: safe, allowManifestPlugins: allowManifestPlugins), rest)
    }
}
