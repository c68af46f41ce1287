import Foundation
import SumiCodecs
import SumiKit
@testable import SumiPage
import Testing

/// Colour profiles in pdf-page (ICCBased) and stitch (captures brought to one space).
@Suite struct ColourPageTests {
    static let adobePath = "/usr/share/color/icc/colord/AdobeRGB1998.icc"

    func adobe() throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.adobePath))) }

    func tagged(_ color: Color, _ profile: [UInt8]?, width: Int = 40, height: Int = 30) -> Image {
        var image = Image(width: width, height: height, fill: color)
        image.metadata.iccProfile = profile
        return image
    }

    /// The image XObject's dictionary and the ICC stream bytes it points at, via qpdf.
    func imageColourSpace(_ path: String) throws -> (dictionary: String, profile: [UInt8]?) {
        let objects = try runTool("/usr/bin/qpdf", ["--show-xref", path]).text
        for line in objects.split(separator: "\n") {
            guard let number = Int(line.split(separator: "/").first ?? "") else { continue }
            let text = try runTool("/usr/bin/qpdf", ["--show-object=\(number)", path]).text
            guard text.contains("/Subtype /Image"), !text.contains("/DeviceGray") else { continue }
            guard let range = text.range(of: #"/ICCBased (\d+) 0 R"#, options: .regularExpression) else { return (text, nil) }
            let reference = text[range].split(separator: " ")[1]
            let data = try runTool("/usr/bin/qpdf", ["--show-object=\(reference)", "--filtered-stream-data", path]).output
            return (text, [UInt8](data))
        }
        throw ToolFailure("no image XObject in \(path)")
    }

    @Test func stitchConvertsCapturesToTheFirstProfile() throws {
        let adobe = try adobe()
        let first = tagged(Color(red: 200, green: 60, blue: 40), adobe, width: 20, height: 40)
        // The same colour as the first, but expressed in sRGB (as another display would capture it).
        let srgb = try ColorConversion.convert(Color(red: 200, green: 60, blue: 40), from: adobe, to: nil)
        #expect(srgb != Color(red: 200, green: 60, blue: 40))
        let second = tagged(srgb, nil, width: 20, height: 40)
        let out = try StageHarness(StitchStage.self).runImage(["offsets": .list([.number(0), .number(30)])],
                                                               inputs: ["in": .images(ImageList([first, second]))])
        #expect(out.metadata.iccProfile == adobe)
        #expect(out.height == 70)
        let top = out.pixel(x: 10, y: 5), bottom = out.pixel(x: 10, y: 65)
        #expect(abs(Int(top.r) - Int(bottom.r)) <= 2 && abs(Int(top.g) - Int(bottom.g)) <= 2 && abs(Int(top.b) - Int(bottom.b)) <= 2,
                "\(top) vs \(bottom)")
    }
}
