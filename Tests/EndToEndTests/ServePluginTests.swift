import Foundation
import Glibc
import Testing

/// `sumi serve --plugin-path`: a served pipeline using a plugin stage, a plugin that crashes its
/// worker costing one request (500, the worker replaced), manifests naming plugins of their own
/// refused; and `--listen` on IPv6 loopback. See docs/service.md.
@Suite(.serialized) struct ServePluginTests {
    /// The thumbnail through the crash test plugin's stage (Examples/crash-c).
    static let crashyManifest = """
    {"sumi": 1, "name": "crashy", "params": {"input": {"type": "path"}, "output": {"type": "path", "default": "out/c.jpg"},
     "width": {"type": "integer", "default": 64}},
     "stages": [{"id": "photo", "stage": "decode", "with": {"path": "${input}"}},
                {"id": "small", "stage": "scale", "with": {"width": "${width}"}},
                {"id": "crash", "stage": "crash"},
                {"stage": "encode", "with": {"path": "${output}", "quality": 85}}]}
    """

    /// A folder with the crash plugin alone (`make examples` builds it), and one with the pipeline.
    func folders(in dir: String) throws -> (plugins: String, pipelines: String) {
        let built = CLI.root + "/.build/plugins/libcrash.so"
        try #require(FileManager.default.fileExists(atPath: built), "run `make examples` first: libcrash.so is missing")
        let plugins = dir + "/plugins", pipelines = dir + "/pipelines"
        for folder in [plugins, pipelines] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        try FileManager.default.copyItem(atPath: built, toPath: plugins + "/libcrash.so")
        try Self.crashyManifest.write(toFile: pipelines + "/crashy.json", atomically: true, encoding: .utf8)
        return (plugins, pipelines)
    }

    @Test func aCrashingPluginStageCostsOneRequestAndItsWorker() throws {
        let dir = try CLI.temporaryFolder("serve-plugin")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (plugins, pipelines) = try folders(in: dir)
        let server = try ServeServer(["--workers", "1", "--plugin-path", plugins, "--pipelines", pipelines], folder: dir)
        let photo = try #require(CLI.identify(Fixtures.photo))

        // The stage passes the image through: the thumbnail as the shipped pipeline makes it.
        let through = try server.request("POST", "/run/crashy?width=48", body: Fixtures.photo)
        #expect(through.status == 200 && through.headers["content-type"] == "image/jpeg", "\(through.text)")
        let file = dir + "/through.jpg"
        try through.body.write(to: URL(fileURLWithPath: file))
        let size = try #require(CLI.identify(file))
        #expect(size.width == 48 && size.height == Int((48.0 * Double(photo.height) / Double(photo.width)).rounded()), "\(size)")
        // The listing gives the plugin stage's parameters, as for a built-in stage.
        let stages = try #require(try server.request("GET", "/pipelines/crashy").json?["stages"] as? [[String: Any]])
        let crash = try #require(stages.first { $0["id"] as? String == "crash" })
        let properties = ((crash["parameters"] as? [String: Any])?["properties"] as? [String: Any])?["mode"] as? [String: Any]
        #expect(crash["stage"] as? String == "crash" && properties?["default"] as? String == "none", "\(crash)")

        // A null-pointer write, then abort(): each costs its request (500 naming the signal) and a worker.
        let before = server.workers
        let segv = try server.request("POST", "/run/crashy?crash.mode=segv", body: Fixtures.photo)
        #expect(segv.status == 500 && segv.text.contains("signal 11"), "\(segv.status) \(segv.text)")
        let abort = try server.request("POST", "/run/crashy?crash.mode=abort", body: Fixtures.photo)
        #expect(abort.status == 500 && abort.text.contains("signal 6"), "\(abort.status) \(abort.text)")
        #expect(try server.metric("sumi_serve_worker_restarts_total") == 2)
        #expect(try server.metric("sumi_serve_requests_total{pipeline=\"crashy\",status=\"500\"}") == 2)
        #expect(try server.metric("sumi_serve_workers") == 1)
        #expect(server.workers.count == 1 && server.workers != before)

        // The server carries on: the next runs succeed, a value the stage does not take is 400.
        let after = try server.request("POST", "/run/thumbnail?width=40", body: Fixtures.photo)
        #expect(after.status == 200, "\(after.text)")
        let bad = try server.request("POST", "/run/crashy?crash.mode=explode", body: Fixtures.photo)
        #expect(bad.status == 400 && bad.json?["parameter"] as? String == "mode", "\(bad.status) \(bad.text)")
        #expect(try server.metric("sumi_serve_worker_restarts_total") == 2)
        #expect(server.stop(SIGTERM, seconds: 30) == 0)
    }

    @Test func aServedManifestNamingPluginsIsRefusedAtStart() throws {
        let dir = try CLI.temporaryFolder("serve-plugin-refused")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (plugins, pipelines) = try folders(in: dir)
        let own = Self.crashyManifest.replacingOccurrences(of: "\"sumi\": 1,", with: "\"sumi\": 1, \"plugins\": [\"\(plugins)/libcrash.so\"],")
        try own.write(toFile: pipelines + "/own.json", atomically: true, encoding: .utf8)
        let r = try CLI.run(["serve", "--listen", "127.0.0.1:0", "--plugin-path", plugins, "--pipelines", pipelines])
        #expect(r.status == 2 && r.stderr.contains("own.json") && r.stderr.contains("--plugin-path"), "\(r.status) \(r.stderr)")
        // Without --plugin-path the stage is unknown to the server's workers: the run is 400, naming it.
        try FileManager.default.removeItem(atPath: pipelines + "/own.json")
        let server = try ServeServer(["--workers", "1", "--pipelines", pipelines], folder: dir)
        let unknown = try server.request("POST", "/run/crashy", body: Fixtures.photo)
        #expect(unknown.status == 400 && unknown.text.contains("crash"), "\(unknown.status) \(unknown.text)")
        #expect(server.stop(SIGTERM, seconds: 30) == 0)
    }

    @Test func listensOnIPv6Loopback() throws {
        let dir = try CLI.temporaryFolder("serve-ipv6")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let server = try ServeServer(["--workers", "1"], folder: dir, listen: "[::1]:0")
        #expect(server.host == "[::1]")
        let health = try server.request("GET", "/healthz")
        #expect(health.status == 200 && health.text.contains("true"), "\(health.status) \(health.text)")
        let thumb = try server.request("POST", "/run/thumbnail?width=24", body: Fixtures.photo)
        #expect(thumb.status == 200 && thumb.headers["content-type"] == "image/jpeg", "\(thumb.text)")
        #expect(server.stop(SIGTERM, seconds: 30) == 0)
        for bad in ["::1:8080", "[::1:8080", "[]:8080", "[::g]:0"] {
            let r = try CLI.run(["serve", "--listen", bad])
            #expect(r.status == 2 && r.stderr.contains("--listen"), "\(bad): \(r.status) \(r.stderr)")
        }
    }

    /// `format=` names a format a `--plugin-path` plugin writes (Examples/ppm-c's "ppm"), by name or
    /// extension, as `encode` picks it; the listing names it; without the plugin it is a 400 that
    /// lists what may be asked for.
    @Test func aPluginFormatIsServedByName() throws {
        let dir = try CLI.temporaryFolder("serve-plugin-format")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let built = CLI.root + "/.build/plugins/libppm.so"
        try #require(FileManager.default.fileExists(atPath: built), "run `make examples` first: libppm.so is missing")
        let plugins = dir + "/plugins"
        try FileManager.default.createDirectory(atPath: plugins, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: built, toPath: plugins + "/libppm.so")
        let server = try ServeServer(["--workers", "1", "--plugin-path", plugins], folder: dir)
        let listed = try #require(try server.request("GET", "/pipelines/thumbnail").json?["formats"] as? [String])
        #expect(listed.contains("jpeg") && listed.contains("ppm"), "\(listed)")
        for asked in ["ppm", "PPM"] {
            let answer = try server.request("POST", "/run/thumbnail?width=16&format=\(asked)", body: Fixtures.photo)
            #expect(answer.status == 200 && answer.headers["content-type"] == "application/octet-stream", "\(answer.status) \(answer.text)")
            // A binary PPM: "P6", the width 16, the height, 255, then 3 bytes a pixel.
            let head = String(decoding: answer.body.prefix(16), as: UTF8.self).split(whereSeparator: \.isWhitespace)
            #expect(head.count >= 4 && head[0] == "P6" && head[1] == "16" && head[3] == "255", "\(head)")
            if let height = Int(head.count > 2 ? head[2] : "") {
                #expect(answer.body.count >= 16 * height * 3 && answer.body.count < 16 * height * 3 + 20, "\(answer.body.count)")
            }
        }
        let refused = try server.request("POST", "/run/thumbnail?format=qoi", body: Fixtures.photo)
        #expect(refused.status == 400 && refused.json?["parameter"] as? String == "format" && refused.text.contains("ppm"),
                "\(refused.status) \(refused.text)")
        #expect(server.stop(SIGTERM, seconds: 30) == 0)
        // Without the plugin the format is unknown to the server.
        let plain = try ServeServer(["--workers", "1"], folder: dir)
        let unknown = try plain.request("POST", "/run/thumbnail?format=ppm", body: Fixtures.photo)
        #expect(unknown.status == 400 && !unknown.text.contains("ppm,"), "\(unknown.status) \(unknown.text)")
        #expect(plain.stop(SIGTERM, seconds: 30) == 0)
    }
}
