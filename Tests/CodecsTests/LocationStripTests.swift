import Foundation
@testable import SumiCodecs
import SumiKit
import Testing

/// `metadata=strip-location` removes every GPSInfo pointer wherever it is (IFD0, the EXIF sub-IFD,
/// IFD1, a GPS IFD; LONG or IFD type) and zeroes the GPS directories in place, for every output
/// format: exiftool finds no GPS tag, and the latitude values written are nowhere in the file.
@Suite struct LocationStripTests {
    static let formats = ["jpg", "png", "webp", "tif", "heic"]

    /// A 40×30 JPEG whose EXIF (from the fuzz generator) has GPS IFDs behind pointers in `places`.
    static func cameraJPEG(gpsIn places: Set<MetadataGenerator.Place>, pointerType: Int = 4, bigEndian: Bool = false,
                           in folder: ScratchFolder) throws -> String {
        var plan = MetadataGenerator.EXIFPlan()
        plan.gpsPointers = places
        plan.gpsPointerType = pointerType
        plan.littleEndian = !bigEndian
        let plain = try JPEGEncoder.encode(Fixtures.smooth(width: 40, height: 30), quality: 90)
        let jpeg = MetadataGenerator.jpeg(plain, inserting: [MetadataGenerator.exifSegmentBody(MetadataGenerator.exif(plan))])
        return try folder.write(jpeg, to: "camera.jpg")
    }

    /// Whether the numerator of a generated latitude (the n-th GPS IFD's) is in `bytes`, in either
    /// byte order.
    static func containsLatitude(_ bytes: [UInt8], gpsDirectories: Int) -> Bool {
        (0..<gpsDirectories).contains { index in
            let value = MetadataGenerator.latitudeMarker + UInt32(index)
            let big = MetadataGenerator.bigEndian(value)
            return [big, Array(big.reversed())].contains { pattern in
                ExtendedXMP.find(pattern, in: bytes, from: 0) != nil
            }
        }
    }

    func recode(_ source: String, to output: String, metadata: String) throws {
        let image = try StageHarness(DecodeStage.self).runImage(["path": .path(source)])
        _ = try StageHarness(EncodeStage.self).run(["path": .path(output), "metadata": .string(metadata)],
                                                   inputs: ["in": .image(image)])
    }

    /// Where the GPS pointers are and of which type.
    struct Placement: Sendable, CustomTestStringConvertible {
        let places: Set<MetadataGenerator.Place>
        let pointerType: Int
        var testDescription: String { "\(places.map { "\($0)" }.sorted()) type \(pointerType)" }
    }

    @Test(arguments: [
        Placement(places: [.exif], pointerType: 4), Placement(places: [.exif], pointerType: 13),
        Placement(places: [.ifd1], pointerType: 4), Placement(places: [.ifd0], pointerType: 13),
        Placement(places: [.ifd0, .exif, .ifd1, .gps], pointerType: 4),
    ])
    func noGPSInAnyOutputFormat(placement: Placement) throws {
        let places = placement.places, pointerType = placement.pointerType
        let folder = try ScratchFolder("strip-location")
        let source = try Self.cameraJPEG(gpsIn: places, pointerType: pointerType, bigEndian: pointerType == 13, in: folder)
        // The source's GPS is readable, and its latitude is in its bytes.
        let before = try exifToolEntries(source).filter { $0.name.hasPrefix("GPS") }
        #expect(before.contains { $0.name == "GPSLatitude" }, "the crafted file has no readable GPS: \(before)")
        #expect(Self.containsLatitude(try folder.read("camera.jpg"), gpsDirectories: places.count))
        for format in Self.formats {
            let output = folder.file("out.\(format)")
            try recode(source, to: output, metadata: "strip-location")
            let entries = try exifToolEntries(output)
            let gps = entries.filter { $0.name.contains("GPS") }
            #expect(gps.isEmpty, "\(places) → \(format): exiftool reads \(gps.map { "\($0.group):\($0.name)" })")
            #expect(!Self.containsLatitude(try folder.read("out.\(format)"), gpsDirectories: places.count),
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
        let source = try Self.cameraJPEG(gpsIn: [.ifd0, .exif], in: folder)
        try recode(source, to: folder.file("out.png"), metadata: "keep")
        #expect(try exifToolEntries(folder.file("out.png")).contains { $0.name == "GPSLatitude" })
    }

    /// The rewriter on blocks whose pointers are of every kind: what it writes parses, and no
    /// GPS pointer or GPS value is left.
    @Test func rewriteOfEveryPlacementIsClean() throws {
        for placesBits in 0..<16 {
            for typeBit in 0..<2 {
                var plan = MetadataGenerator.EXIFPlan()
                plan.gpsPointers = Set(MetadataGenerator.Place.allCases.filter { placesBits >> $0.rawValue & 1 == 1 })
                plan.gpsPointerType = typeBit == 0 ? 4 : 13
                plan.littleEndian = placesBits % 2 == 0
                plan.orientations = [.ifd0: [6, 8], .exif: [8], .ifd1: [3], .gps: [5]]
                let exif = MetadataGenerator.exif(plan)
                let block = try #require(EXIFBlock(exif))
                let written = try #require(block.rewritten(upright: true, width: 30, height: 40, stripLocation: true))
                #expect(MetadataGenerator.violations(in: written, stripLocation: true, upright: true).isEmpty)
                #expect(!Self.containsLatitude(written, gpsDirectories: 4), "\(plan.gpsPointers) type \(plan.gpsPointerType)")
                #expect(EXIFBlock(written)?.ifd0[0x010F] != nil)
            }
        }
    }

    /// As the fuzz target does, deterministically: generated blocks with bytes overwritten, then
    /// rewritten; whatever is written passes the generator's independent check.
    @Test func mutatedBlocksAreWrittenClean() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: state >> 33)
        }
        var rewrittenCount = 0
        for _ in 0..<4000 {
            let plan = MetadataGenerator.EXIFPlan(choices: (0..<6).map { _ in UInt8(truncatingIfNeeded: next()) })
            var exif = MetadataGenerator.exif(plan)
            for _ in 0..<(next() % 8) { exif[next() % exif.count] = UInt8(truncatingIfNeeded: next()) }
            guard let block = EXIFBlock(exif), let written = block.rewritten(upright: true, width: 2, height: 2, stripLocation: true)
            else { continue }
            rewrittenCount += 1
            let found = MetadataGenerator.violations(in: written, stripLocation: true, upright: true)
            #expect(found.isEmpty, "\(found) from \(exif)")
            if !found.isEmpty { return }
        }
        #expect(rewrittenCount > 2000)
    }
}
