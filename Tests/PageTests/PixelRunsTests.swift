import Testing
import SumiKit
@testable import SumiPage

@Suite struct PixelRunsTests {
    /// A screen-like image (flat bands, repeated rows, a few translucent pixels) comes back pixel for
    /// pixel, with its side data, from runs a small fraction of its size.
    @Test func screenLikeImageRoundTrips() throws {
        var metadata = ImageMetadata()
        metadata.knownOpaque = false
        let image = Image(width: 300, height: 200, metadata: metadata) { out in
            for y in 0..<200 {
                for x in 0..<300 {
                    let i = (y * 300 + x) * 4
                    let band = UInt8((y / 20) * 20)
                    out[i] = band; out[i + 1] = x < 150 ? 255 : 0; out[i + 2] = UInt8(y % 20 == 0 ? x % 256 : 9)
                    out[i + 3] = x == 299 && y % 50 == 1 ? 128 : 255
                    if out[i + 3] == 128 { out[i] = 64; out[i + 1] = 0; out[i + 2] = 4 }
                }
            }
        }
        let runs = try #require(PixelRuns(image, limit: image.pixels.count / 2))
        #expect(runs.bytes * 4 < image.pixels.count, "\(runs.bytes) bytes of runs for \(image.pixels.count)")
        let back = runs.image()
        #expect(back.width == 300 && back.height == 200)
        #expect(back.pixels == image.pixels)
        #expect(back.metadata.knownOpaque == false)
    }

    /// Noise has no runs: past the limit the encoder gives up rather than keep a larger copy.
    @Test func noiseIsRefusedAtTheLimit() {
        var state: UInt32 = 7
        let image = Image(width: 200, height: 100) { out in
            for i in 0..<out.count {
                state = state &* 1_664_525 &+ 1_013_904_223
                out[i] = UInt8(truncatingIfNeeded: state >> 24)
            }
        }
        #expect(PixelRuns(image, limit: image.pixels.count / 2) == nil)
        // With room enough it still round-trips.
        let runs = PixelRuns(image, limit: image.pixels.count * 4)
        #expect(runs?.image().pixels == image.pixels)
    }

    /// A capture half photo, half flat: the photo's rows are kept as their pixels (as runs they
    /// would take twice that), the flat rows as runs, so the whole takes little more than half its
    /// pixels; each row read back is the image's.
    @Test func photoRowsAreKeptAsTheirPixels() throws {
        var state: UInt32 = 3
        let width = 240, height = 160
        let image = Image(width: width, height: height) { out in
            for y in 0..<height {
                for x in 0..<width {
                    let i = (y * width + x) * 4
                    state = state &* 1_664_525 &+ 1_013_904_223
                    let photo = y < height / 2 && x >= 10
                    out[i] = photo ? UInt8(truncatingIfNeeded: state >> 24) : UInt8(y / 16 * 20)
                    out[i + 1] = photo ? UInt8(truncatingIfNeeded: state >> 16) : 200
                    out[i + 2] = x < 10 ? 40 : 90
                    out[i + 3] = 255
                }
            }
        }
        let runs = try #require(PixelRuns(image, limit: image.pixels.count * 6 / 10))
        #expect(runs.bytes < image.pixels.count * 55 / 100, "\(runs.bytes) bytes for \(image.pixels.count)")
        var row = [UInt8](repeating: 0, count: width * 4)
        for y in [0, 1, height / 2 - 1, height / 2, height - 1] {
            row.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.map { runs.copyRow(y, into: $0) } }
            #expect(row == Array(image.pixels[(y * width * 4)..<((y + 1) * width * 4)]), "row \(y)")
        }
        #expect(runs.image().pixels == image.pixels)
    }
}
