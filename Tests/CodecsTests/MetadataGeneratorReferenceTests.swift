import Foundation
@testable import SumiCodecs
import SumiKit
import Testing

/// The generator's GPS placements as exiftool reads them (`make test`).
@Suite struct MetadataGeneratorReferenceTests {
    @Test func gpsPointerInTheEXIFSubIFDAndInIFD1() throws {
        var plan = MetadataGenerator.EXIFPlan()
        plan.gpsPointers = [.exif, .ifd1]
        let directories = try MetadataGeneratorTests.tagsByDirectory(MetadataGenerator.exif(plan))
        let exif = try #require(directories.first { $0.pointer == EXIFBlock.exifPointerTag })
        let ifd1 = try #require(directories.first { $0.belowIFD1 && $0.pointer == nil })
        #expect(exif.tags.contains(EXIFBlock.gpsPointerTag))
        #expect(ifd1.tags.contains(EXIFBlock.gpsPointerTag))
        #expect(!directories[0].tags.contains(EXIFBlock.gpsPointerTag))
        #expect(directories.filter { $0.pointer == EXIFBlock.gpsPointerTag }.count == 2)
        // exiftool agrees: GPS read from both places.
        let folder = try ScratchFolder("generator-gps")
        let jpeg = MetadataGenerator.jpeg(try JPEGEncoder.encode(Fixtures.smooth(width: 8, height: 8), quality: 90),
                                          inserting: [MetadataGenerator.exifSegmentBody(MetadataGenerator.exif(plan))])
        let entries = try exifToolEntries(try folder.write(jpeg, to: "gps.jpg"))
        #expect(entries.filter { $0.group == "GPS" && $0.name == "GPSLatitude" }.count == 2, "\(entries.map { "\($0.group):\($0.name)" })")
    }
}
