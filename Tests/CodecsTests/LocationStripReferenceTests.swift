import Foundation
@testable import SumiCodecs
import SumiKit
import Testing

/// GPS stripped or kept as exiftool reads the output (`make test`).
@Suite struct LocationStripReferenceTests {
    typealias Placement = LocationStripTests.Placement

    @Test(arguments: [
        Placement(places: [.exif], pointerType: 4), Placement(places: [.exif], pointerType: 13),
        Placement(places: [.ifd1], pointerType: 4), Placement(places: [.ifd0], pointerType: 13),
        Placement(places: [.ifd0, .exif, .ifd1, .gps], pointerType: 4),
    ])
    func noGPSInAnyOutputFormat(placement: Placement) throws {
        let places = placement.places, pointerType = placement.pointerType
        let folder = try ScratchFolder("strip-location")
        let source = try LocationStripTests.cameraJPEG(gpsIn: places, pointerType: pointerType, bigEndian: pointerType == 13, in: folder)
        // The source's GPS is readable, and its latitude is in its bytes.
        let before = try exifToolEntries(source).filter { $0.name.hasPrefix("GPS") }
        #expect(before.contains { $0.name == "GPSLatitude" }, "the crafted file has no readable GPS: \(before)")
        #expect(LocationStripTests.containsLatitude(try folder.read("camera.jpg"), gpsDirectories: places.count))
        for format in LocationStripTests.formats {
            let output = folder.file("out.\(format)")
            try LocationStripTests().recode(source, to: output, metadata: "strip-location")
            let entries = try exifToolEntries(output)
            let gps = entries.filter { $0.name.contains("GPS") }
            #expect(gps.isEmpty, "\(places) → \(format): exiftool reads \(gps.map { "\($0.group):\($0.name)" })")
            #expect(!LocationStripTests.containsLatitude(try folder.read("out.\(format)"), gpsDirectories: places.count),
                    "\(places) → \(format): latitude bytes remain")
            // The rest of the EXIF is kept.
            #expect(entries.contains { $0.name == "Make" && $0.value == "Sumi" }, "\(format): \(entries.map(\.name))")
            #expect(entries.contains { $0.name == "DateTimeOriginal" }, "\(format)")
        }
    }

    /// With `metadata=keep` the GPS of IFD0 and of the EXIF sub-IFD stays readable (the test above
    /// is not passing because GPS never survives).
    @Test func keepLeavesGPS() throws {
        let folder = try ScratchFolder("keep-location")
        let source = try LocationStripTests.cameraJPEG(gpsIn: [.ifd0, .exif], in: folder)
        try LocationStripTests().recode(source, to: folder.file("out.png"), metadata: "keep")
        #expect(try exifToolEntries(folder.file("out.png")).contains { $0.name == "GPSLatitude" })
    }
}
