import Testing
import SumiEngine
import SumiKit
#if canImport(Glibc)
import Glibc
#endif

@Suite struct ImageTests {
    @Test func fillStoresPremultipliedColour() {
        let image = Image(width: 3, height: 2, fill: Color(red: 200, green: 100, blue: 50, alpha: 128))
        #expect(image.pixel(x: 2, y: 1) == (100, 50, 25, 128))
        let straight = image.color(x: 0, y: 0)
        #expect(abs(Int(straight.red) - 200) <= 1 && abs(Int(straight.green) - 100) <= 1 && straight.alpha == 128)
        #expect(!image.isOpaque)
    }

    @Test func copiesShareStorageUntilWritten() {
        let a = Image(width: 100, height: 100, fill: .white)
        var b = a
        let same = a.pixels.withUnsafeBufferPointer { pa in b.pixels.withUnsafeBufferPointer { pa.baseAddress == $0.baseAddress } }
        #expect(same)
        b.pixels[0] = 0
        #expect(a.pixels[0] == 255)
    }

    @Test func cropClipsToTheImage() {
        var image = Image(width: 4, height: 4, fill: .black)
        image.pixels[(1 * 4 + 2) * 4] = 99
        let c = image.cropped(x: 2, y: 1, width: 10, height: 2)
        #expect(c.width == 2 && c.height == 2)
        #expect(c.pixel(x: 0, y: 0).r == 99)
    }

    @Test func atomicWriteReplacesWholeFilesOnly() throws {
        let dir = try TemporaryFolder("kit-io").path
        #expect(throws: StageError.self) { try FileIO.writeAtomically([1, 2, 3], to: "\(dir)/missing/x.bin") }
        #expect(!FileIO.exists("\(dir)/missing/x.bin"))
        let target = "\(dir)/x.bin"
        try FileIO.writeAtomically([1, 2, 3], to: target)
        #expect(try FileIO.read(target) == [1, 2, 3])
        // A write that fails half way leaves the old file as it was and no temporary file.
        #expect(throws: StageError.self) {
            try FileIO.writeAtomically(to: target) { (fd: Int32) throws(StageError) in
                try FileIO.writeAll(fd, [9, 9], path: target)
                throw StageError("failed on purpose")
            }
        }
        #expect(try FileIO.read(target) == [1, 2, 3])
        let leftovers = try listing(dir)
        #expect(leftovers == ["x.bin"])
    }
}

/// The names in a folder.
func listing(_ dir: String) throws -> [String] {
    guard let d = opendir(dir) else { return [] }
    defer { closedir(d) }
    var names: [String] = []
    while let entry = readdir(d) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if name != "." && name != ".." { names.append(name) }
    }
    return names.sorted()
}
