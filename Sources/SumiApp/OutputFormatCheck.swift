import SumiEngine
import SumiKit

/// An output whose name promises another format than its stage writes (`sumi run fullpage -o x.jpg`
/// would write a PDF named `.jpg`) is refused before anything runs. Which format a stage writes is
/// read from declarations: a writer with a `format` parameter (`encode`) picks the format from the
/// name it is given, so any name it can write is right, and it judges the name itself; a writer
/// without one (`pdf-page`, a plugin's writer) writes one format, and the manifest's default output
/// (`out/fullpage.pdf`) names its extension.
package enum OutputFormatCheck {
    package static func check(_ pipeline: Pipeline, formats: ImageFormatRegistry) throws(SumiError) {
        guard let expected = InstalledPipelines.defaultOutputExtension(of: pipeline.manifest),
              let output = pipeline.values["output"]?.description, output != "-" else { return }
        let given = FileIO.fileExtension(of: output)
        guard given != expected else { return }
        for target in PipelineWrites.targets(of: pipeline) where target.path == output {
            let descriptor = target.node.descriptor
            guard descriptor.parameter(named: "format") == nil else { continue }
            let named = given.isEmpty ? "has no extension" : "ends in .\(given)"
                + (formats.encoder(forExtension: given).map { " (a \($0.displayName) file)" } ?? "")
            let writes = formats.encoder(forExtension: expected)?.displayName ?? expected.uppercased()
            throw SumiError(.usage, file: FileIO.fileName(of: pipeline.manifest.path), stage: target.node.entry.place, parameter: target.parameter,
                            "the output \"\(MessageText.cut(output))\" \(named), but \(descriptor.name) writes \(writes) "
                            + "(the pipeline's default output is .\(expected)): name the output .\(expected)")
        }
    }
}
