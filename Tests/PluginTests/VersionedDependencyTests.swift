import Foundation
import SumiKit
import Testing

/// A plugin package depends on Sumi the way a user's would: by URL and version, not by local path.
/// SwiftPM refuses products whose targets use unsafe flags in a versioned dependency, so this proves
/// that `SumiPluginSDK` (and `SumiKit`) carry none.
@Suite struct VersionedDependencyTests {
    @Test(.timeLimit(.minutes(10)))
    func aPluginPackageBuildsAgainstATaggedSumi() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
        let temp = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: temp) }

        // A release of Sumi: the committed sources, tagged.
        try run("/usr/bin/git", ["clone", "--quiet", "--no-hardlinks", root, temp + "/sumi"])
        try run("/usr/bin/git", ["-C", temp + "/sumi", "-c", "user.name=t", "-c", "user.email=t@t",
                                  "tag", "-a", "9.8.7", "-m", "release"])

        let plugin = temp + "/acme-invert"
        try FileManager.default.createDirectory(atPath: plugin + "/Sources/AcmeInvert", withIntermediateDirectories: true)
        try """
        // swift-tools-version:6.0
        import PackageDescription
        let package = Package(
            name: "AcmeInvert",
            products: [.library(name: "AcmeInvert", type: .dynamic, targets: ["AcmeInvert"])],
            dependencies: [.package(url: "file://\(temp)/sumi", from: "9.8.0")],
            targets: [.target(name: "AcmeInvert", dependencies: [.product(name: "SumiPluginSDK", package: "sumi")],
                              linkerSettings: [.unsafeFlags(["-Xlinker", "-Bsymbolic"])])],
            swiftLanguageModes: [.v6])
        """.write(toFile: plugin + "/Package.swift", atomically: true, encoding: .utf8)
        try """
        import SumiPluginSDK

        struct Invert: Stage {
            static let input = Port<Image>("in")
            static let amount = Parameter<Double>("amount", default: 1, min: 0, max: 1, summary: "how much")
            static let descriptor = StageDescriptor(name: "acme-invert", summary: "Inverts colours",
                                                    inputs: [input.spec], output: .image,
                                                    effect: .pixels, parameters: [amount.spec])
            let amount: Double
            init(parameters: Parameters) throws { amount = try parameters[Self.amount] }
            func process(_ inputs: StageInputs, context: StageContext) throws -> Value { .image(try inputs.image(Self.input)) }
        }

        @_cdecl("sumi_plugin_init")
        public func sumiPluginInit(_ host: UnsafeRawPointer?, _ out: UnsafeMutableRawPointer?) -> Int32 {
            SumiPlugin.export(name: "acme-invert", version: "1.0.0", stages: [Invert.self], host: host, into: out)
        }
        """.write(toFile: plugin + "/Sources/AcmeInvert/AcmeInvert.swift", atomically: true, encoding: .utf8)

        let output = try run("/usr/bin/env", ["swift", "build", "--package-path", plugin, "--scratch-path", temp + "/build"])
        #expect(output.contains("Build complete"), "\(output.suffix(2000))")
        let resolved = try String(contentsOfFile: plugin + "/Package.resolved", encoding: .utf8)
        #expect(resolved.contains("\"version\" : \"9.8.7\""), "\(resolved)")
    }

    func makeTemporaryFolder() throws -> String { try TemporaryFolder.make("versioned") }

    struct TestFailure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    @discardableResult
    func run(_ tool: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0 else { throw TestFailure("\(tool) \(arguments.joined(separator: " ")) failed: \(text.suffix(3000))") }
        return text
    }
}
