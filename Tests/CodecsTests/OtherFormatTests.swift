import Foundation
import SumiCodecs
import SumiKit
import Testing

@Suite struct OtherFormatTests {
    @Test func formatIsDetectedFromBytesNotTheName() throws {
        let folder = try ScratchFolder("magic")
        let png = try PNGEncoder.encode(Fixtures.asymmetric())
        let path = try folder.write(png, to: "really-a-png.jpg")
        let image = try StageHarness(DecodeStage.self).runImage(["path": .path(path)])
        #expect(image.metadata.sourceFormat == "png")
        #expect(image.metadata.sourcePath == path)
        #expect(image.pixels == Fixtures.asymmetric().pixels)
    }

    @Test func listOfPathsGivesListOfImages() throws {
        let folder = try ScratchFolder("list")
        let a = try folder.write(try PNGEncoder.encode(Fixtures.asymmetric()), to: "a.png")
        let b = try folder.write(try JPEGEncoder.encode(Fixtures.smooth(width: 30, height: 20), quality: 90), to: "b.jpg")
        let value = try StageHarness(DecodeStage.self).run(["path": .list([.path(a), .path(b)])])
        guard case .images(let list) = value else { Issue.record("expected a list of images"); return }
        let images = try list.images()
        #expect(images.map(\.width) == [64, 30])
        #expect(images.map(\.metadata.sourceFormat) == ["png", "jpeg"])
        let missing = folder.file("missing.png")
        #expect(errorMessage { _ = try StageHarness(DecodeStage.self).run(["path": .list([.path(a), .path(missing), .path(b)])]) }
                == "\(missing): No such file or directory")
        guard case .image = try StageHarness(DecodeStage.self).run(["path": .path(a)]) else {
            Issue.record("one path gives one image"); return
        }
    }

    @Test func decodeReadsStandardInput() throws {
        let bytes = try PNGEncoder.encode(Fixtures.asymmetric())
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let saved = dup(0)
        dup2(fds[0], 0)
        close(fds[0])
        let writer = fds[1]
        let thread = Thread {
            bytes.withUnsafeBytes { _ = write(writer, $0.baseAddress, $0.count) }
            close(writer)
        }
        thread.start()
        defer { dup2(saved, 0); close(saved) }
        let image = try StageHarness(DecodeStage.self).runImage(["path": .path("-")])
        #expect(image.pixels == Fixtures.asymmetric().pixels)
    }
}
