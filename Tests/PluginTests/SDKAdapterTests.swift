import CSumiPlugin
import SumiPluginSDK
import Testing

/// The Swift SDK seen from the C side, as a host in any language sees it: the exported table,
/// parameter checking in `create`, errors as codes and messages, pixels through `allocate`.
@Suite struct SDKAdapterTests {
    /// Adds `by` to every colour channel (clamped to alpha) and warns once.
    struct Brighten: Stage {
        static let descriptor = StageDescriptor(
            name: "brighten", summary: "Adds to every channel", inputs: [PortSpec(name: "in", accepts: .image)],
            output: .image,
            parameters: [ParameterSpec("by", .integer, default: .integer(10), min: 0, max: 100, summary: "amount")])
        let by: Int
        init(parameters: Parameters) throws { by = parameters.integer("by") ?? 10 }
        func process(_ inputs: StageInputs, context: StageContext) throws -> Value {
            let input = try inputs.image(Port("in"))
            context.warn("brightened by \(by)")
            var pixels = input.pixels
            for i in pixels.indices where i % 4 != 3 { pixels[i] = UInt8(min(Int(pixels[i | 3]), Int(pixels[i]) + by)) }
            return .image(Image(width: input.width, height: input.height, pixels: pixels))
        }
    }

    /// Refuses `level` > 5 in `init`; always fails in `process`.
    struct Refuse: Stage {
        static let descriptor = StageDescriptor(
            name: "refuse", summary: "Fails", inputs: [PortSpec(name: "in", accepts: .image)], output: .image,
            parameters: [ParameterSpec("level", .integer, default: .integer(1), summary: "level")])
        init(parameters: Parameters) throws {
            if let level = parameters.integer("level"), level > 5 { throw StageError.invalidParameter("level", "too high for this stage") }
        }
        func process(_ inputs: StageInputs, context: StageContext) throws -> Value {
            let input = try inputs.image(Port("in"))
            throw StageError("cannot process \(input.width)x\(input.height)")
        }
    }

    static func table() throws -> UnsafePointer<sumi_plugin_v1> {
        var out: UnsafePointer<sumi_plugin_v1>?
        let status = SumiPlugin.export(name: "sdk-test", version: "0.1", stages: [Brighten.self, Refuse.self],
                                       host: nil, into: &out)
        #expect(status == 0)
        return try #require(out)
    }

    @Test func tableDescribesThePluginAndItsStages() throws {
        let plugin = try Self.table().pointee
        #expect(plugin.abi_version == 1 && Int(plugin.size) == MemoryLayout<sumi_plugin_v1>.size)
        #expect(String(cString: try #require(plugin.name)) == "sdk-test")
        #expect(String(cString: try #require(plugin.version)) == "0.1")
        #expect(plugin.stage_count == 2)
        let json = String(cString: try #require(plugin.stages?[0].descriptor_json))
        let decoded = try StageDescriptorJSON.decode(text: json)
        #expect(decoded.name == "brighten" && decoded.parameter(named: "by")?.max == 100)
    }

    @Test func createChecksParametersWithTheStagesDescriptor() throws {
        let host = try CHost(stage: 0)
        let bad = host.create(#"{"by": 500}"#)
        #expect(bad.status == Int32(SUMI_ERROR_INVALID_PARAMETER.rawValue))
        #expect(bad.parameter == "by" && bad.message == "expected an integer from 0 to 100, got 500")
        let refused = try CHost(stage: 1).create(#"{"level": 9}"#)
        #expect(refused.status == Int32(SUMI_ERROR_INVALID_PARAMETER.rawValue))
        #expect(refused.parameter == "level" && refused.message == "too high for this stage")
    }

    @Test func processWritesPixelsThroughTheHostsAllocator() throws {
        let host = try CHost(stage: 0)
        let made = host.create(#"{"by": 20}"#)
        let instance = try #require(made.instance)
        defer { host.destroy(instance) }
        // A 2x1 image stored with a padded stride of 12 bytes.
        let pixels: [UInt8] = [10, 20, 30, 255, 250, 5, 0, 100, 0xEE, 0xEE, 0xEE, 0xEE]
        let result = host.process(instance, pixels: pixels, width: 2, height: 1, stride: 12)
        #expect(result.status == 0)
        #expect(result.pixels == [30, 40, 50, 255, 100, 25, 20, 100])
        #expect(result.warnings == ["brightened by 20"])
    }

    @Test func processErrorsComeBackAsMessages() throws {
        let host = try CHost(stage: 1)
        let instance = try #require(host.create("{}").instance)
        defer { host.destroy(instance) }
        let result = host.process(instance, pixels: [0, 0, 0, 0], width: 1, height: 1, stride: 4)
        #expect(result.status == Int32(SUMI_ERROR_PROCESS.rawValue))
        #expect(result.message == "cannot process 1x1")
        #expect(result.pixels == nil)
    }
}
