import SumiKit

/// `sumi validate`: everything `run` checks before the first pixel, and nothing more.
struct ValidateCommand {
    let arguments: Arguments

    func execute() throws(SumiError) -> Int32 {
        let invocation = try Invocation(arguments: arguments)
        let builder = PipelineBuilder(registry: invocation.registry)
        var stageCount = 0
        for run in invocation.runs {
            let values = try PipelineBuilder.parameterValues(invocation.manifest, overrides: run.overrides)
            let pipeline = try builder.build(invocation.manifest, values: values)
            try SafeMode.current.check(pipeline, inputs: arguments.inputs, output: arguments.output)
            stageCount = pipeline.nodes.count
        }
        if !arguments.quiet {
            Terminal.standardOutput("\(arguments.target ?? ""): valid (\(stageCount) stages)\n")
        }
        return 0
    }
}
