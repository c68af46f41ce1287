import Foundation
import SumiEngine
import SumiKit
import Testing

/// `make check` refuses outside programs (`OutsidePrograms`): a test that would start `program`
/// fails there with a message naming it, and the program is not started.
func refuseOutsideProgramInCheck(_ program: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    guard ProcessInfo.processInfo.environment[OutsidePrograms.variable] == "1" else { return }
    let refusal = OutsidePrograms.Refused(starting: program)
    Issue.record(Comment(rawValue: refusal.description), sourceLocation: sourceLocation)
    throw refusal
}

/// The plugin libraries the tests load: the two examples (from `.build/plugins` when `make examples`
/// ran, otherwise built into a temporary folder) and small C test plugins compiled with `cc`.
struct PluginFixtures: Sendable {
    let root: String
    let temp: String
    let pixelate: String
    let sepia: String

    /// Built once per test process.
    static let shared: Result<PluginFixtures, FixtureError> = Result { () throws(FixtureError) in try PluginFixtures() }

    static func get() throws -> PluginFixtures { try shared.get() }

    struct FixtureError: Error, CustomStringConvertible {
        var description: String
    }

    private init() throws(FixtureError) {
        root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
        do { temp = try TemporaryFolder.make("plugins") } catch { throw FixtureError(description: "\(error)") }

        let prebuilt = root + "/.build/plugins"
        if FileManager.default.fileExists(atPath: prebuilt + "/libpixelate.so") {
            pixelate = prebuilt + "/libpixelate.so"
        } else {
            pixelate = temp + "/libpixelate.so"
            try Self.compileC(source: root + "/Examples/pixelate-c/pixelate.c", output: pixelate, root: root, v1: true)
        }
        if FileManager.default.fileExists(atPath: prebuilt + "/libSepiaPlugin.so") {
            sepia = prebuilt + "/libSepiaPlugin.so"
        } else {
            let scratch = temp + "/sepia-build"
            try Self.run("/usr/bin/env", ["swift", "build", "--package-path", root + "/Examples/SepiaPlugin",
                                          "--scratch-path", scratch, "--product", "SepiaPlugin"])
            sepia = scratch + "/debug/libSepiaPlugin.so"
        }
    }

    /// A folder of its own under the temporary folder, holding copies of `libraries` (path → file name).
    func folder(_ name: String, _ libraries: [(String, String)]) throws -> String {
        let dir = temp + "/" + name
        try Self.makeFolder(dir)
        for (source, fileName) in libraries {
            try? FileManager.default.removeItem(atPath: dir + "/" + fileName)
            try FileManager.default.copyItem(atPath: source, toPath: dir + "/" + fileName)
        }
        return dir
    }

    /// A path for a library named `name` in a folder of its own: tests run in parallel, and two of
    /// them compiling the same name (with other defines) into one path read each other's half-written
    /// or wrong library (and `dlopen` returns a library already loaded from that path).
    func fresh(_ name: String) throws -> String {
        let dir = temp + "/" + UUID().uuidString
        try Self.makeFolder(dir)
        return dir + "/" + name
    }

    /// Compiles the C test plugin (`TestPluginSource`, a version 1 plugin) with `defines`, into `name`.
    func testPlugin(_ name: String, defines: [String] = []) throws -> String {
        let source = temp + "/test_plugin.c"
        if !FileManager.default.fileExists(atPath: source) {
            try TestPluginSource.text.write(toFile: source, atomically: true, encoding: .utf8)
        }
        let output = try fresh(name)
        try Self.compileC(source: source, output: output, root: root, defines: defines, v1: true)
        return output
    }

    /// Compiles the version 2 test plugin (`Fixtures/v2_test_plugin.c`) with `defines`, into `name`,
    /// against the frozen copy of the version 2 header as 0.2.0 shipped it (`Fixtures/v2`): every test
    /// of it proves a plugin built then still loads and runs.
    func v2Plugin(_ name: String, defines: [String] = []) throws -> String {
        let output = try fresh(name)
        try Self.compileC(source: root + "/Tests/PluginTests/Fixtures/v2_test_plugin.c", output: output, root: root,
                          defines: defines, libraries: ["-lm"], include: root + "/Tests/PluginTests/Fixtures/v2")
        return output
    }

    /// Compiles `Fixtures/band_inputs_plugin.c` against the current header, into `name`.
    func bandInputsPlugin(_ name: String) throws -> String {
        let output = try fresh(name)
        try Self.compileC(source: root + "/Tests/PluginTests/Fixtures/band_inputs_plugin.c", output: output, root: root)
        return output
    }

    /// Compiles `Fixtures/abi_additions_plugin.c` against the current header, into `name`.
    func additionsPlugin(_ name: String, defines: [String] = []) throws -> String {
        let output = try fresh(name)
        try Self.compileC(source: root + "/Tests/PluginTests/Fixtures/abi_additions_plugin.c", output: output, root: root,
                          defines: defines)
        return output
    }

    /// A plugin `make examples` builds from a frozen header into `.build/plugins-frozen` (`libNAME.so`),
    /// or, when it has not run, the same source compiled here against the same header.
    func frozen(_ name: String, source: String, header: String, libraries: [String] = []) throws -> String {
        let prebuilt = root + "/.build/plugins-frozen/lib\(name).so"
        if FileManager.default.fileExists(atPath: prebuilt) { return prebuilt }
        let output = try fresh("lib\(name).so")
        try Self.compileC(source: root + "/" + source, output: output, root: root, libraries: libraries,
                          include: root + "/" + header)
        return output
    }

    /// A version 2 C example (`Examples/NAME-c`): from `.build/plugins` when `make examples` built it,
    /// else compiled into the temporary folder.
    func example(_ name: String) throws -> String {
        let prebuilt = root + "/.build/plugins/lib\(name).so"
        if FileManager.default.fileExists(atPath: prebuilt) { return prebuilt }
        let output = try fresh("lib\(name).so")
        let folder = root + "/Examples/\(name)-c"
        let sources = (try? FileManager.default.contentsOfDirectory(atPath: folder))?.filter { $0.hasSuffix(".c") } ?? []
        guard let source = sources.first else { throw FixtureError(description: "no C source in \(folder)") }
        try Self.compileC(source: folder + "/" + source, output: output, root: root)
        return output
    }

    /// A shared library with no entry point.
    func notAPlugin(_ name: String) throws -> String {
        let source = temp + "/not_a_plugin.c"
        try "int not_a_plugin(void) { return 42; }\n".write(toFile: source, atomically: true, encoding: .utf8)
        let output = try fresh(name)
        try Self.compileC(source: source, output: output, root: root)
        return output
    }

    /// Compiles a C plugin; `v1` builds it against the frozen version 1 header
    /// (`Tests/PluginTests/Fixtures/v1`), as a plugin built before version 2 was.
    /// `include`, when given, is the folder of the header to build against instead.
    static func compileC(source: String, output: String, root: String, defines: [String] = [], v1: Bool = false,
                         libraries: [String] = [], include given: String? = nil) throws(FixtureError) {
        let include = given ?? (v1 ? root + "/Tests/PluginTests/Fixtures/v1" : root + "/Sources/CSumiPlugin/include")
        try run("/usr/bin/env", ["cc", "-shared", "-fPIC", "-O1", "-fvisibility=hidden", "-Wall", "-Werror",
                                 "-I", include] + defines.map { "-D" + $0 }
                + ["-o", output, source] + libraries)
    }

    static func makeFolder(_ path: String) throws(FixtureError) {
        do { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) } catch {
            throw FixtureError(description: "cannot create \(path): \(error)")
        }
    }

    /// Only the toolchain (`cc`, `swift`) that builds the test plugins: compiling a fixture is part of
    /// building the tests, not an outside program whose answer a test trusts.
    static func run(_ tool: String, _ arguments: [String]) throws(FixtureError) {
        let program = tool == "/usr/bin/env" ? arguments.first ?? tool : tool
        if !["cc", "swift"].contains(program) {
            do { try refuseOutsideProgramInCheck(program) } catch { throw FixtureError(description: "\(error)") }
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        do { try process.run() } catch { throw FixtureError(description: "cannot run \(tool): \(error)") }
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw FixtureError(description: "\(arguments.joined(separator: " ")) failed: \(text)")
        }
    }
}

/// Canonical path, as the loader records it as the stages' origin.
func canonical(_ path: String) -> String {
    URL(fileURLWithPath: path).resolvingSymlinksInPath().path
}
