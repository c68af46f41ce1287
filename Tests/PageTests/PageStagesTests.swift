import Testing
import SumiKit
@testable import SumiPage

@Test func familyListsBothStages() {
    #expect(PageStages.stages.map(\.descriptor.name) == ["stitch", "pdf-page"])
}
