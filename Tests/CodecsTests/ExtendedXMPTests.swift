import Foundation
@testable import SumiCodecs
import SumiKit
import Testing

/// XMP over 64 KB in JPEG: written as Extended XMP (main packet + extension segments), read back
/// whole, checked by exiftool both ways; inconsistent portions are warned about and dropped.
@Suite struct ExtendedXMPTests {
    /// An XMP packet whose dc:description is `size` characters of varied text.
    static func largeXMP(size: Int) -> (packet: [UInt8], description: String) {
        var description = ""
        var n = 0
        while description.count < size { description += "word\(n) "; n += 1 }
        description = String(description.prefix(size))
        let packet = """
            <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/">
            <dc:creator><rdf:Seq><rdf:li>Sumi Test</rdf:li></rdf:Seq></dc:creator>
            <dc:description><rdf:Alt><rdf:li xml:lang="x-default">\(description)</rdf:li></rdf:Alt></dc:description>
            </rdf:Description></rdf:RDF></x:xmpmeta>
            <?xpacket end="w"?>
            """
        return (Array(packet.utf8), description)
    }

    /// The bodies of the APP1 segments of `jpeg` that start with `signature`.
    static func segments(_ jpeg: [UInt8], _ signature: [UInt8]) -> [ArraySlice<UInt8>] {
        var found: [ArraySlice<UInt8>] = []
        JPEGSegments.forEachSegment(jpeg) { marker, body in
            if marker == 0xE1, body.starts(with: signature) { found.append(body) }
        }
        return found
    }

    func writeJPEG(xmp: [UInt8], in folder: ScratchFolder) throws -> String {
        var image = Fixtures.smooth(width: 48, height: 32)
        image.metadata.xmp = xmp
        let path = folder.file("big.jpg")
        _ = try StageHarness(EncodeStage.self).run(["path": .path(path)], inputs: ["in": .image(image)])
        return path
    }

    @Test func largeXMPIsWrittenAsExtendedXMPAndReadBackWhole() throws {
        let folder = try ScratchFolder("photos")
        let (packet, description) = Self.largeXMP(size: 150_000)
        _ = try writeJPEG(xmp: packet, in: folder)
        let jpeg = try folder.read("big.jpg")
        // One main packet naming the GUID; three extension segments (65458 bytes a portion).
        let main = Self.segments(jpeg, JPEGSegments.xmpSignature)
        let extensions = Self.segments(jpeg, ExtendedXMP.signature)
        #expect(main.count == 1 && extensions.count == 3)
        let guid = try #require(ExtendedXMP.guid(in: Array(main[0].dropFirst(JPEGSegments.xmpSignature.count))))
        for body in extensions {
            #expect(String(decoding: body.dropFirst(ExtendedXMP.signature.count).prefix(32), as: UTF8.self) == guid)
        }
        // The decoder reassembles it (ExtendedXMPReferenceTests: so does exiftool); written again, it is the same.
        var warnings: [String] = []
        let decoded = try ImageDecoder.decode(jpeg, name: "big.jpg", warn: { warnings.append($0) })
        #expect(warnings.isEmpty, "\(warnings)")
        let xmp = String(decoding: try #require(decoded.metadata.xmp), as: UTF8.self)
        #expect(xmp.contains(description) && xmp.contains("Sumi Test") && !xmp.contains("HasExtendedXMP"))
        _ = try writeJPEG(xmp: try #require(decoded.metadata.xmp), in: folder)
        let again = try ImageDecoder.decode(try folder.read("big.jpg"), name: "again.jpg")
        #expect(String(decoding: try #require(again.metadata.xmp), as: UTF8.self).contains(description))
        #expect(Self.segments(try folder.read("big.jpg"), ExtendedXMP.signature).count == 3)
    }

    /// Removes the `index`th extension segment, or flips a byte of its portion.
    static func damaged(_ jpeg: [UInt8], index: Int, remove: Bool) -> [UInt8] {
        var starts: [Int] = []
        var at = 2
        while at + 4 <= jpeg.count, jpeg[at] == 0xFF, jpeg[at + 1] != 0xDA {
            let length = Int(jpeg[at + 2]) << 8 | Int(jpeg[at + 3])
            if jpeg[at + 1] == 0xE1, jpeg[(at + 4)...].starts(with: ExtendedXMP.signature) { starts.append(at) }
            at += 2 + length
        }
        let start = starts[index]
        let length = Int(jpeg[start + 2]) << 8 | Int(jpeg[start + 3])
        var out = jpeg
        if remove { out.removeSubrange(start..<(start + 2 + length)) } else { out[start + 2 + length - 10] ^= 0x55 }
        return out
    }

    @Test(arguments: [true, false]) func inconsistentExtensionIsWarnedAndDropped(remove: Bool) throws {
        let folder = try ScratchFolder("photos")
        let (packet, description) = Self.largeXMP(size: 150_000)
        _ = try writeJPEG(xmp: packet, in: folder)
        let bad = Self.damaged(try folder.read("big.jpg"), index: remove ? 2 : 1, remove: remove)
        var warnings: [String] = []
        let decoded = try ImageDecoder.decode(bad, name: "bad.jpg", warn: { warnings.append($0) })
        #expect(warnings.count == 1 && warnings[0].contains("bad.jpg") && warnings[0].contains("extended XMP"), "\(warnings)")
        #expect(warnings.first?.contains(remove ? "incomplete" : "MD5") == true, "\(warnings)")
        // The main packet stays; the extended part is gone.
        let xmp = String(decoding: try #require(decoded.metadata.xmp), as: UTF8.self)
        #expect(!xmp.contains(description.prefix(40)))
        #expect(decoded.width == 48)
    }
}
