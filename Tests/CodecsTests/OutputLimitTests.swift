import Foundation
import SumiCodecs
import SumiKit
import Testing

/// `RunOptions.maxOutputBytes` (what `sumi serve --max-answer` sets): a BMP whose size is known
/// before encoding is refused before any byte is encoded, any other file before it is written; a
/// refusal is a limit and leaves no file (not even a temporary one) behind.
@Suite struct OutputLimitTests {
    func run(_ image: Image, path: String, maxOutputBytes: Int?) throws -> FileOutput {
        var harness = StageHarness(EncodeStage.self)
        harness.options.maxOutputBytes = maxOutputBytes
        guard case .file(let output) = try harness.run(["path": .path(path)], inputs: ["in": .image(image)]) else {
            throw StageError("expected a file")
        }
        return output
    }

    @Test func filesOverTheLimitAreRefusedAndNotWritten() throws {
        let folder = try ScratchFolder("output-limit")
        let image = Fixtures.smooth(width: 200, height: 100)
        // 200x100 at 3 bytes a pixel: 60,000 bytes of pixels before the header.
        do {
            _ = try run(image, path: folder.file("a.bmp"), maxOutputBytes: 50_000)
            Issue.record("a BMP over the limit was written")
        } catch let error as StageError {
            #expect(error.isLimit && error.message.contains("at least 60000 bytes, more than this run allows: 50000 bytes"), "\(error.message)")
        }
        let png = try run(image, path: folder.file("a.png"), maxOutputBytes: nil)
        do {
            _ = try run(image, path: folder.file("b.png"), maxOutputBytes: png.bytes - 1)
            Issue.record("a PNG over the limit was written")
        } catch let error as StageError {
            #expect(error.isLimit && error.message.contains("\(png.bytes) bytes, more than this run allows: \(png.bytes - 1) bytes"), "\(error.message)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["a.png"])
        // At the limit exactly, the file is written.
        #expect(try run(image, path: folder.file("c.png"), maxOutputBytes: png.bytes).bytes == png.bytes)
    }
}
