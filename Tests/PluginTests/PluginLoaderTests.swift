import SumiEngine
import SumiKit
import Testing

/// Loading: folders, repeated loads, and every way a library can be refused — each a clear error,
/// never a crash.
@Suite struct PluginLoaderTests {
    @Test func folderLoadsEveryLibrary() throws {
        let fixtures = try PluginFixtures.get()
        let dir = try fixtures.folder("both", [(fixtures.pixelate, "libpixelate.so"), (fixtures.sepia, "libsepia.so")])
        let registry = StageRegistry()
        try PluginLoader.loadFolder(dir, into: registry)
        #expect(registry.all.map(\.descriptor.name) == ["pixelate", "sepia"])
        #expect(registry.definition(named: "pixelate")?.origin == canonical(dir + "/libpixelate.so"))
        #expect(registry.definition(named: "sepia")?.origin == canonical(dir + "/libsepia.so"))
        // The copy in the folder is its own library, and works like the original.
        let input = ExamplePluginTests.pattern(width: 16, height: 16)
        let out = try StageHarness(definition: try #require(registry.definition(named: "sepia")))
            .runImage(inputs: ["in": .image(input)])
        #expect(out.width == 16 && out.pixels != input.pixels)
    }

    @Test func loadingTwiceIsANoOp() throws {
        let fixtures = try PluginFixtures.get()
        let registry = StageRegistry()
        try PluginLoader.loadLibrary(at: fixtures.pixelate, into: registry)
        try PluginLoader.loadLibrary(at: fixtures.pixelate, into: registry)
        // The same file under another spelling of its path.
        let slash = try #require(fixtures.pixelate.lastIndex(of: "/"))
        let respelled = fixtures.pixelate[..<slash] + "/." + fixtures.pixelate[slash...]
        try PluginLoader.loadLibrary(at: String(respelled), into: registry)
        #expect(registry.all.count == 1)
    }

    @Test func missingFileIsAUsageError() throws {
        let error = try #require(throws: SumiError.self) {
            try PluginLoader.loadLibrary(at: "/nonexistent/libnothing.so", into: StageRegistry())
        }
        #expect(error.kind == .usage && error.exitCode == 2)
        #expect(error.description == "plugin library /nonexistent/libnothing.so does not exist")
    }

    @Test func libraryWithoutEntryPointIsNotAPlugin() throws {
        let fixtures = try PluginFixtures.get()
        let path = try fixtures.notAPlugin("libplain.so")
        let error = try #require(throws: SumiError.self) { try PluginLoader.loadLibrary(at: path, into: StageRegistry()) }
        #expect(error.kind == .usage)
        #expect(error.description == "\(canonical(path)) is not a Sumi plugin (no sumi_plugin_init)")
    }

    /// A folder loads like GStreamer's registry: a bad library is a warning and is remembered as
    /// broken; the good ones around it load.
    @Test func nonPluginInAFolderIsSkippedNamingTheFile() throws {
        let fixtures = try PluginFixtures.get()
        let plain = try fixtures.notAPlugin("libplain-folder.so")
        let dir = try fixtures.folder("mixed", [(fixtures.pixelate, "liba.so"), (plain, "libz-plain.so")])
        let registry = StageRegistry()
        var warnings: [String] = []
        try PluginLoader.loadFolder(dir, into: registry) { warnings.append($0) }
        #expect(registry.definition(named: "pixelate") != nil)
        #expect(warnings.count == 1 && warnings.first?.contains("libz-plain.so is not a Sumi plugin") == true, "\(warnings)")
        #expect(registry.brokenLibraries.map { FileIO.fileName(of: $0.path) } == ["libz-plain.so"])
        // Loading the folder again (or through another path) loads nothing twice and records it once.
        try PluginLoader.loadFolder(dir + "/", into: registry)
        #expect(registry.brokenLibraries.count == 1)
        #expect(registry.all.filter { $0.descriptor.name == "pixelate" }.count == 1)
    }

    @Test func fileThatIsNotALibraryIsSkipped() throws {
        let fixtures = try PluginFixtures.get()
        let dir = try fixtures.folder("text", [])
        try "not a library".write(toFile: dir + "/libtext.so", atomically: true, encoding: .utf8)
        let registry = StageRegistry()
        try PluginLoader.loadFolder(dir, into: registry)
        #expect(registry.brokenLibraries.first?.reason.contains("libtext.so is not a loadable library") == true)
        // Loading it by name (as a manifest's plugins do) is still an error.
        let error = try #require(throws: SumiError.self) { try PluginLoader.loadLibrary(at: dir + "/libtext.so", into: StageRegistry()) }
        #expect(error.kind == .usage)
        #expect(error.message.contains("libtext.so is not a loadable library"))
    }

    @Test func missingFolderIsAUsageError() throws {
        let error = try #require(throws: SumiError.self) { try PluginLoader.loadFolder("/nonexistent-plugins", into: StageRegistry()) }
        #expect(error.kind == .usage && error.message.contains("/nonexistent-plugins"))
    }

    @Test func abiMismatchNamesThePluginAndBothVersions() throws {
        let fixtures = try PluginFixtures.get()
        let path = try fixtures.testPlugin("libfuture.so", defines: ["TEST_ABI=999"])
        let error = try #require(throws: SumiError.self) { try PluginLoader.loadLibrary(at: path, into: StageRegistry()) }
        #expect(error.kind == .usage)
        #expect(error.message == "plugin \(canonical(path)) was built for Sumi plugin ABI version 999, "
            + "but this sumi supports ABI versions 1 and 2")
    }

    @Test func pluginRefusingTheHostIsAUsageError() throws {
        let fixtures = try PluginFixtures.get()
        let path = try fixtures.testPlugin("libpicky.so", defines: ["TEST_REFUSE_HOST"])
        let error = try #require(throws: SumiError.self) { try PluginLoader.loadLibrary(at: path, into: StageRegistry()) }
        #expect(error.kind == .usage)
        #expect(error.message == "plugin \(canonical(path)) does not support this sumi's plugin ABI version 2")
    }

    @Test func malformedDescriptorIsRefused() throws {
        let fixtures = try PluginFixtures.get()
        let path = try fixtures.testPlugin("libbroken.so", defines: ["TEST_BAD_DESCRIPTOR"])
        let registry = StageRegistry()
        let error = try #require(throws: SumiError.self) { try PluginLoader.loadLibrary(at: path, into: registry) }
        #expect(error.kind == .usage)
        #expect(error.message.contains("malformed descriptor"))
        #expect(error.message.contains("parameter \"x\": unknown type \"colour\""))
        #expect(registry.all.isEmpty)
    }

    @Test func nameClashBetweenPluginsIsRefused() throws {
        let fixtures = try PluginFixtures.get()
        let impostor = try fixtures.testPlugin("libimpostor.so", defines: ["TEST_STAGE=\"pixelate\""])
        let registry = StageRegistry()
        try PluginLoader.loadLibrary(at: fixtures.pixelate, into: registry)
        let error = try #require(throws: SumiError.self) { try PluginLoader.loadLibrary(at: impostor, into: registry) }
        #expect(error.kind == .usage)
        #expect(error.message.contains(canonical(impostor)) && error.message.contains(canonical(fixtures.pixelate)))
        #expect(registry.definition(named: "pixelate")?.origin == canonical(fixtures.pixelate))
    }

    @Test func nameClashWithABuiltInIsRefused() throws {
        let fixtures = try PluginFixtures.get()
        let registry = StageRegistry()
        try registry.register([StageDefinition(descriptor: StageDescriptor(name: "pixelate", summary: "built in", output: .image)) { _ in
            throw StageError("not used")
        }])
        let error = try #require(throws: SumiError.self) { try PluginLoader.loadLibrary(at: fixtures.pixelate, into: registry) }
        #expect(error.kind == .usage)
        #expect(error.message == "stage \"pixelate\" from \(canonical(fixtures.pixelate)) clashes with the stage of the same name from builtin")
    }

    @Test func oneInstanceIsNeverRunConcurrently() async throws {
        let fixtures = try PluginFixtures.get()
        let path = try fixtures.testPlugin("liboverlap.so", defines: ["TEST_DETECT_OVERLAP", "TEST_STAGE=\"overlap\""])
        let registry = StageRegistry()
        try PluginLoader.loadLibrary(at: path, into: registry)
        let stage = try StageHarness(definition: try #require(registry.definition(named: "overlap"))).make()
        let input = Image(width: 3, height: 3, fill: .white)
        let failures = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<6 {
                group.addTask {
                    (try? stage.process(StageInputs(["in": .image(input)]), context: StageContext())) == nil ? 1 : 0
                }
            }
            return await group.reduce(0, +)
        }
        #expect(failures == 0, "failures \(failures)")
    }

    @Test func processErrorIsARunErrorWithThePluginsMessage() throws {
        let fixtures = try PluginFixtures.get()
        let path = try fixtures.testPlugin("libfailing.so", defines: ["TEST_FAIL", "TEST_STAGE=\"failing\""])
        let registry = StageRegistry()
        try PluginLoader.loadLibrary(at: path, into: registry)
        let harness = StageHarness(definition: try #require(registry.definition(named: "failing")))
        let input = Image(width: 5, height: 3, fill: .white)
        let error = try #require(throws: StageError.self) { try harness.run(inputs: ["in": .image(input)]) }
        #expect(!error.isUsageError)
        #expect(error.message == "plugin libfailing.so: the probe always fails (1 input, 5x3)")
    }

    @Test func pluginThatWritesNoOutputIsARunError() throws {
        let fixtures = try PluginFixtures.get()
        let path = try fixtures.testPlugin("libsilent.so", defines: ["TEST_NO_OUTPUT", "TEST_STAGE=\"silent\""])
        let registry = StageRegistry()
        try PluginLoader.loadLibrary(at: path, into: registry)
        let harness = StageHarness(definition: try #require(registry.definition(named: "silent")))
        let error = try #require(throws: StageError.self) {
            try harness.run(inputs: ["in": .image(Image(width: 2, height: 2, fill: .white))])
        }
        #expect(!error.isUsageError && error.message.contains("returned no image"))
    }

    @Test func createErrorIsAParameterErrorAndWarningsReachTheHost() throws {
        let fixtures = try PluginFixtures.get()
        let path = try fixtures.testPlugin("libprobe.so")
        let registry = StageRegistry()
        try PluginLoader.loadLibrary(at: path, into: registry)
        let harness = StageHarness(definition: try #require(registry.definition(named: "probe")))
        let refused = try #require(throws: StageError.self) { try harness.make(["refuse": .bool(true)]) }
        #expect(refused.isUsageError && refused.parameter == "refuse" && refused.message == "refused by the plugin")
        let input = Image(width: 2, height: 1, pixels: [10, 20, 30, 255, 40, 50, 60, 128])
        let out = try harness.runImage(inputs: ["in": .image(input)])
        #expect(out.pixels == [245, 235, 225, 255, 88, 78, 68, 128])
        #expect(harness.warnings == ["probe warning"])
    }
}
