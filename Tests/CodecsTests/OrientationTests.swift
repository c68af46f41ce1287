import Foundation
@testable import SumiCodecs
import SumiKit
import Testing

/// JPEG bytes with an EXIF APP1 segment carrying `orientation` inserted after SOI.
func withEXIFOrientation(_ jpeg: [UInt8], _ orientation: Int, bigEndian: Bool) -> [UInt8] {
    let n = UInt8(orientation)
    let tiff: [UInt8] = bigEndian
        ? [0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, n, 0, 0, 0, 0, 0, 0]
        : [0x49, 0x49, 42, 0, 8, 0, 0, 0, 1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0, n, 0, 0, 0, 0, 0, 0, 0]
    let payload = Array("Exif\0\0".utf8) + tiff
    let length = payload.count + 2
    return [0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload + jpeg[2...]
}

@Suite struct OrientationTests {
    /// ImageMagick operations that turn the upright image into what a camera stores for each orientation.
    static let storedBy: [Int: [String]] = [
        1: [], 2: ["-flop"], 3: ["-rotate", "180"], 4: ["-flip"],
        5: ["-transpose"], 6: ["-rotate", "270"], 7: ["-transverse"], 8: ["-rotate", "90"],
    ]

    @Test func malformedEXIFIsIgnored() throws {
        let jpeg = try JPEGEncoder.encode(Fixtures.asymmetric(), quality: 90)
        var bytes = withEXIFOrientation(jpeg, 6, bigEndian: false)
        bytes[18] = 0xFF; bytes[19] = 0xFF  // IFD offset far past the segment
        #expect(try decodeBytes(bytes).width == 64)
        var bad = withEXIFOrientation(jpeg, 9, bigEndian: true)  // out of range
        #expect(try decodeBytes(bad).width == 64)
        bad[5] = 0xFF  // segment length past the end of the file: a clear error, no crash
        let message = errorMessage { _ = try decodeBytes(bad) }
        #expect(message?.hasPrefix("test: ") == true)
    }

    @Test func hostileEXIFNeverCrashesTheParser() {
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xD9]
        let base = withEXIFOrientation(jpeg, 6, bigEndian: true)
        var state: UInt64 = 0x9E3779B97F4A7C15
        func next() -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(truncatingIfNeeded: state >> 33)
        }
        #expect(EXIFOrientation.read(fromJPEG: base) == 6)
        for _ in 0..<3000 {
            var bytes = base
            for _ in 0..<(1 + next() % 4) { bytes[2 + next() % (bytes.count - 2)] = UInt8(truncatingIfNeeded: next()) }
            if next() % 3 == 0 { bytes.removeLast(next() % (bytes.count - 2)) }
            #expect((1...8).contains(EXIFOrientation.read(fromJPEG: bytes)))
        }
    }
}

@Suite struct ScalingTests {
    @Test func sizeHintPicksTheSmallestSufficientDCTScale() throws {
        let image = Fixtures.smooth(width: 800, height: 600)
        let bytes = try JPEGEncoder.encode(image, quality: 90)
        let cases: [(Size, Int, Int)] = [
            (Size(width: 200, height: 150), 200, 150),   // 2/8
            (Size(width: 250, height: 100), 300, 225),   // 3/8
            (Size(width: 90, height: 10), 100, 75),      // 1/8
            (Size(width: 700, height: 600), 800, 600),   // full size
        ]
        for (hint, width, height) in cases {
            let decoded = try ImageDecoder.decode(bytes, name: "t.jpg", sizeHint: { full in
                #expect(full == Size(width: 800, height: 600))
                return hint
            })
            #expect(decoded.width == width && decoded.height == height)
            #expect((decoded.metadata.sourceBytes != nil) == (width == 800))
            // Same content as a full decode resized to that size.
            let reference = Resampler(filter: .box).resize(try decodeBytes(bytes), width: width, height: height)
            #expect(psnr(decoded, reference) > 35)
        }
    }

    @Test func sizeHintSeesTheUprightSize() throws {
        let jpeg = try JPEGEncoder.encode(Fixtures.smooth(width: 800, height: 600), quality: 90)
        let bytes = withEXIFOrientation(jpeg, 6, bigEndian: false)
        let harness = StageHarness(DecodeStage.self)
        let folder = try ScratchFolder("hint-upright")
        let path = try folder.write(bytes, to: "rotated.jpg")
        let value = try harness.run(["path": .path(path)], sizeHint: { full in
            full == Size(width: 600, height: 800) ? Size(width: 150, height: 200) : nil
        })
        guard case .image(let decoded) = value else { Issue.record("expected an image"); return }
        #expect(decoded.width == 150 && decoded.height == 200)
    }
}
