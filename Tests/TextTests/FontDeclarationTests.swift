import SumiKit
import Testing
@testable import SumiText

/// `text`'s `font` declares that it may name a file the stage reads (`ParameterSpec.namedFile`):
/// `--safe` confines such files by this declaration, not by the stage's or the parameter's name.
@Suite struct FontDeclarationTests {
    @Test func theFontParameterDeclaresTheFilesItNames() throws {
        let font = try #require(TextStage.descriptor.parameter(named: "font"))
        let namedFile = try #require(font.namedFile, "font declares no named file")
        #expect(namedFile(TextTestSupport.dejaVu) == TextTestSupport.dejaVu)
        #expect(namedFile("DejaVu Sans:bold") == nil && namedFile("Noto Sans, IPAGothic") == nil)
        // No other parameter of the built-in stage claims to name files.
        #expect(TextStage.descriptor.parameters.filter { $0.namedFile != nil }.map(\.name) == ["font"])
    }
}
