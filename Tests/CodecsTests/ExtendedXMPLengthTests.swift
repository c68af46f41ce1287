import Foundation
@testable import SumiCodecs
import SumiCrypto
import SumiKit
import Testing

/// Extended XMP whose portions declare a full length they do not carry (up to 0xFFFFFFFF): the
/// length is checked against the portions present and a cap before anything is set aside for it.
@Suite struct ExtendedXMPLengthTests {
    /// A JPEG with the generator's Extended XMP of `plan`.
    static func jpeg(_ plan: MetadataGenerator.ExtendedXMPPlan) throws -> [UInt8] {
        let plain = try JPEGEncoder.encode(Fixtures.smooth(width: 16, height: 12), quality: 90)
        return MetadataGenerator.jpeg(plain, inserting: MetadataGenerator.extendedXMPSegmentBodies(plan))
    }

    static func plan(declaring length: UInt32) -> MetadataGenerator.ExtendedXMPPlan {
        var plan = MetadataGenerator.ExtendedXMPPlan()
        plan.guid = Hex.string(MD5.digest(plan.extended), uppercase: true)
        plan.declaredLength = length
        return plan
    }

    @Test(arguments: [UInt32(0xFFFF_FFFF), 0x7FFF_FFFF, UInt32(ExtendedXMP.maxLength + 1)])
    func lengthBeyondTheCapIsRefusedBeforeAllocating(length: UInt32) throws {
        let plan = Self.plan(declaring: length)
        let portions = MetadataGenerator.extendedXMPSegmentBodies(plan).dropFirst().map { $0.dropFirst(ExtendedXMP.signature.count) }
        let main = Array(MetadataGenerator.extendedXMPSegmentBodies(plan)[0].dropFirst(JPEGSegments.xmpSignature.count))
        let (xmp, warning) = ExtendedXMP.merged(main: main, portions: portions)
        #expect(xmp == nil)
        #expect(warning?.contains("declares \(length) bytes, more than the \(ExtendedXMP.maxLength) accepted") == true, "\(warning ?? "")")
    }

    /// Under the cap but more than the portions carry: incomplete, named with both numbers.
    @Test func lengthBeyondThePortionsIsIncomplete() throws {
        let plan = Self.plan(declaring: 10_000_000)
        var warnings: [String] = []
        let image = try ImageDecoder.decode(try Self.jpeg(plan), name: "lying.jpg", warn: { warnings.append($0) })
        #expect(image.width == 16)
        #expect(warnings == ["lying.jpg: extended XMP is incomplete (\(plan.extended.count) of 10000000 bytes); ignored"])
    }

    /// The truthful packet is merged (the generator's packet is valid when it does not lie).
    @Test func truthfulLengthIsMerged() throws {
        let plan = Self.plan(declaring: UInt32(MetadataGenerator.ExtendedXMPPlan().extended.count))
        var warnings: [String] = []
        let image = try ImageDecoder.decode(try Self.jpeg(plan), name: "true.jpg", warn: { warnings.append($0) })
        #expect(warnings.isEmpty, "\(warnings)")
        #expect(XMPPacket.orientation(try #require(image.metadata.xmp)) == 6)
    }

    /// The built program decodes the file declaring 0xFFFFFFFF bytes in 1 GiB of address space
    /// (before, it set aside 4 GiB and aborted), quickly, with the warning.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["SUMI_BINARY"] != nil, "needs the built sumi (SUMI_BINARY)"))
    func builtProgramFailsFastInLittleMemory() throws {
        let sumi = ProcessInfo.processInfo.environment["SUMI_BINARY"] ?? ""
        let folder = try ScratchFolder("xmp-4gib")
        let input = try folder.write(try Self.jpeg(Self.plan(declaring: 0xFFFF_FFFF)), to: "lying.jpg")
        try refuseOutsideProgramInCheck("/usr/bin/prlimit")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/prlimit")
        process.arguments = ["--as=1073741824", sumi, "run", "decode ! encode", "-i", input, "-o", folder.file("out.png")]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        let started = Date()
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "exit \(process.terminationStatus): \(message)")
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(message.contains("declares 4294967295 bytes"), "\(message)")
    }
}
