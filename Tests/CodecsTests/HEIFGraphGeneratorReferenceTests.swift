import Foundation
@testable import SumiCodecs
import SumiKit
import Testing

/// libheif's heif-info reads what the generator writes (`make test`).
@Suite struct HEIFGraphGeneratorReferenceTests {
    @Test func libheifReadsWhatTheGeneratorWrites() throws {
        // No input: a plain top-level 64×64 tile, which libheif reads and which decodes.
        let folder = try ScratchFolder("photos")
        var generator = HEIFGraphGenerator([])
        let bytes = generator.build().build()
        #expect(try runTool(["/usr/bin/heif-info", try folder.write(bytes, to: "generated.heic")]).status == 0)
    }
}
