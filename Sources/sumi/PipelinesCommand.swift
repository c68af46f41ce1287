import SumiApp
import SumiEngine

/// `sumi pipelines [NAME] [--json]` (`InstalledPipelines.listing`).
struct PipelinesCommand {
    let arguments: Arguments

    func execute() throws(SumiError) -> Int32 {
        Terminal.standardOutput(try InstalledPipelines.listing(named: arguments.target, json: arguments.json))
        return 0
    }
}
