import Foundation
import Glibc
import Testing

/// `sumi serve` over loopback: runs answered with the output image, each error with its status and
/// the parameter it names, the counts of `/metrics`, draining on SIGTERM, and a killed worker
/// costing one request. See docs/service.md.
@Suite(.serialized) struct ServeTests {
    /// A pipeline that uses a lot of memory fast (the photo enlarged to 6000 pixels, as PNG): for
    /// --max-memory.
    static let hugeManifest = """
    {"sumi": 1, "name": "huge", "params": {"input": {"type": "path"}, "output": {"type": "path", "default": "out/huge.png"}},
     "stages": [{"id": "photo", "stage": "decode", "with": {"path": "${input}"}},
                {"stage": "scale", "with": {"width": 6000, "enlarge": true}},
                {"stage": "encode", "with": {"path": "${output}", "compression": 9}}]}
    """

    /// Request folders the server left in its TMPDIR.
    func leftovers(_ server: ServeServer) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: server.temporary)) ?? []).filter { $0.hasPrefix("sumi-") }
    }

    @Test func runsAnswerTheImageAndErrorsTheirStatusAndMetricsCountThem() throws {
        let dir = try CLI.temporaryFolder("serve")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let garbage = dir + "/garbage.jpg"
        try Data((0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 7919) }).write(to: URL(fileURLWithPath: garbage))
        let server = try ServeServer(["--workers", "2", "--max-body", "2000000"], folder: dir)
        let photo = try #require(CLI.identify(Fixtures.photo))
        let photoBytes = try #require(FileManager.default.attributesOfItem(atPath: Fixtures.photo)[.size] as? Int)

        // The run: a 64-pixel-wide JPEG with the photo's aspect ratio, and its report.
        let thumb = try server.request("POST", "/run/thumbnail?width=64", body: Fixtures.photo)
        #expect(thumb.status == 200, "\(thumb.text)")
        #expect(thumb.headers["content-type"] == "image/jpeg")
        let file = dir + "/thumb.jpg"
        try thumb.body.write(to: URL(fileURLWithPath: file))
        let size = try #require(CLI.identify(file))
        #expect(size.format == "JPEG" && size.width == 64)
        #expect(size.height == Int((64.0 * Double(photo.height) / Double(photo.width)).rounded()), "\(size)")
        let report = try #require(thumb.headers["sumi-report"])
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(report.utf8)) as? [String: Any])
        let outputs = try #require(parsed["outputs"] as? [[String: Any]])
        #expect(outputs.first?["width"] as? Double == 64 && outputs.first?["path"] == nil, "\(report)")
        #expect(report.utf8.count <= 4096)

        // format= picks the output format.
        let png = try server.request("POST", "/run/thumbnail?width=32&format=png", body: Fixtures.photo)
        #expect(png.status == 200 && png.headers["content-type"] == "image/png" && png.body.starts(with: [0x89, 0x50]))

        // Errors: unknown pipeline, bad and unsettable parameters, garbage, no body, too large.
        let unknown = try server.request("POST", "/run/thumbnale", body: Fixtures.photo)
        #expect(unknown.status == 404 && unknown.text.contains("thumbnail"), "\(unknown.text)")
        let bad = try server.request("POST", "/run/thumbnail?width=wide", body: Fixtures.photo)
        #expect(bad.status == 400 && bad.json?["parameter"] as? String == "width", "\(bad.text)")
        #expect((bad.json?["error"] as? String)?.contains("wide") == true, "\(bad.text)")
        let elsewhere = try server.request("POST", "/run/thumbnail?photo.path=/etc/passwd", body: Fixtures.photo)
        #expect(elsewhere.status == 400 && elsewhere.json?["parameter"] as? String == "path", "\(elsewhere.text)")
        #expect((elsewhere.json?["error"] as? String)?.contains("reads only its own files") == true, "\(elsewhere.text)")
        // A font file elsewhere gets one answer whether it exists, is no font or is missing.
        var fontAnswers: [String] = []
        for font in ["/etc/shadow", "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "/nonexistent/x.ttf"] {
            let answer = try server.request("POST", "/run/caption?label.font=\(font)", body: Fixtures.photo)
            #expect(answer.status == 400 && answer.json?["parameter"] as? String == "font", "\(answer.text)")
            fontAnswers.append(answer.text.replacingOccurrences(of: font, with: "FONT"))
        }
        #expect(Set(fontAnswers).count == 1, "\(fontAnswers)")
        let output = try server.request("POST", "/run/thumbnail?output=/etc/x.jpg", body: Fixtures.photo)
        #expect(output.status == 400 && output.json?["parameter"] as? String == "output", "\(output.text)")
        let long = try server.request("POST", "/run/caption?text=" + String(repeating: "a", count: 10_001), body: Fixtures.photo)
        #expect(long.status == 400 && long.text.contains("at most 10000 characters in a served run"), "\(long.text)")
        // A request has no command line: no answer speaks of its options.
        for text in [elsewhere.text, output.text, long.text] + fontAnswers {
            for word in ["--safe", " -i", " -o", "--set"] { #expect(!text.contains(word), "\(text)") }
        }
        let foreign = try server.request("POST", "/run/thumbnail", body: garbage)
        #expect(foreign.status == 415, "\(foreign.text)")
        #expect(!foreign.text.contains(server.temporary), "the message shows a server path: \(foreign.text)")
        let empty = try server.request("POST", "/run/thumbnail")
        #expect(empty.status == 400, "\(empty.text)")
        let big = dir + "/big.bin"
        try Data(count: 3_000_000).write(to: URL(fileURLWithPath: big))
        let tooLarge = try server.request("POST", "/run/thumbnail", body: big)
        #expect(tooLarge.status == 413, "\(tooLarge.text)")

        // Listing and health.
        let list = try server.request("GET", "/pipelines")
        let names = (try JSONSerialization.jsonObject(with: list.body) as? [[String: Any]])?.compactMap { $0["name"] as? String }
        #expect(names?.contains("thumbnail") == true && names?.contains("caption") == true, "\(list.text)")
        let one = try server.request("GET", "/pipelines/thumbnail")
        let parameters = (one.json?["parameters"] as? [[String: Any]])?.compactMap { $0["name"] as? String } ?? []
        #expect(parameters.contains("width"), "\(one.text)")
        #expect(try server.request("GET", "/pipelines/nothing").status == 404)
        #expect(try server.request("GET", "/healthz").status == 200)
        #expect(try server.request("GET", "/readyz").status == 200)

        // /metrics counts what was sent.
        #expect(try server.metric("sumi_serve_requests_total{pipeline=\"thumbnail\",status=\"200\"}") == 2)
        #expect(try server.metric("sumi_serve_requests_total{pipeline=\"thumbnail\",status=\"400\"}") == 4)
        #expect(try server.metric("sumi_serve_requests_total{pipeline=\"caption\",status=\"400\"}") == 4)
        #expect(try server.metric("sumi_serve_requests_total{pipeline=\"thumbnail\",status=\"415\"}") == 1)
        #expect(try server.metric("sumi_serve_requests_total{pipeline=\"unknown\",status=\"404\"}") == 1)
        #expect(try server.metric("sumi_serve_bodies_refused_total") == 1)
        #expect(try server.metric("sumi_serve_request_seconds_count") == 12)
        #expect(try server.metric("sumi_serve_in_flight") == 0)
        #expect(try server.metric("sumi_serve_worker_restarts_total") == 0)
        // The bodies the workers were given: two photos, the bad-parameter one, the one reading
        // elsewhere, the three with a font file elsewhere, the one with too long a text, the garbage.
        #expect(try server.metric("sumi_serve_received_bytes_total") == Double(8 * photoBytes + 5000))
        #expect(try server.metric("sumi_serve_sent_bytes_total") == Double(thumb.body.count + png.body.count))
        #expect(server.wait(seconds: 5) { leftovers(server).isEmpty }, "\(leftovers(server))")
        #expect(server.stop(SIGTERM, seconds: 30) == 0)
    }

    @Test func sigtermLetsTheRunInFlightFinishAndExitsZero() throws {
        let dir = try CLI.temporaryFolder("serve-drain")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let held = try HeldPipeline(in: dir)
        let server = try ServeServer(["--workers", "1"] + held.arguments, folder: dir)
        let running = try server.start("POST", "/run/held", body: Fixtures.photo)
        #expect(try server.wait(seconds: 60) { try server.metric("sumi_serve_workers_busy") == 1 })
        kill(server.process.processIdentifier, SIGTERM)
        // Draining: the run in flight is waited for, and nothing new is taken.
        usleep(300_000)
        #expect(running.0.isRunning && server.process.isRunning, "the run or the server ended before the run was let go")
        try held.open()
        let status = server.stop(SIGTERM, seconds: 120)
        let answer = server.finish(running)
        #expect(answer.status == 200 && answer.body.starts(with: [0x89, 0x50]), "\(answer.status) \(answer.text.prefix(200))")
        #expect(status == 0, "\(server.standardError)")
        #expect(leftovers(server).isEmpty, "\(leftovers(server))")
    }

    @Test func aKilledWorkerCostsOneRequestAndIsReplaced() throws {
        let dir = try CLI.temporaryFolder("serve-crash")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let held = try HeldPipeline(in: dir)
        let server = try ServeServer(["--workers", "1"] + held.arguments, folder: dir)
        // The held run lasts until its worker is killed.
        let running = try server.start("POST", "/run/held", body: Fixtures.photo)
        #expect(try server.wait(seconds: 60) { try server.metric("sumi_serve_workers_busy") == 1 })
        let workers = server.workers
        #expect(workers.count == 1, "\(workers)")
        for pid in workers { kill(pid, SIGKILL) }
        let crashed = server.finish(running)
        #expect(crashed.status == 500 && crashed.text.contains("signal 9"), "\(crashed.status) \(crashed.text)")
        let next = try server.request("POST", "/run/thumbnail?width=40", body: Fixtures.photo)
        #expect(next.status == 200 && next.headers["content-type"] == "image/jpeg", "\(next.text)")
        #expect(try server.metric("sumi_serve_worker_restarts_total") == 1)
        #expect(try server.metric("sumi_serve_requests_total{pipeline=\"held\",status=\"500\"}") == 1)
        #expect(server.workers.count == 1 && server.workers != workers)
        // A worker that dies while idle costs no request: it is replaced before the next one.
        for pid in server.workers { kill(pid, SIGKILL) }
        usleep(200_000)
        let after = try server.request("POST", "/run/thumbnail?width=40", body: Fixtures.photo)
        #expect(after.status == 200, "\(after.status) \(after.text)")
        #expect(try server.metric("sumi_serve_worker_restarts_total") == 2)
        #expect(server.stop(SIGTERM, seconds: 30) == 0)
    }

    @Test func aFullQueueIs503AndARunOverTheTimeoutIs504() throws {
        let dir = try CLI.temporaryFolder("serve-limits")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let held = try HeldPipeline(in: dir)
        let server = try ServeServer(["--workers", "1", "--queue", "1", "--timeout", "3"] + held.arguments, folder: dir)
        let running = try server.start("POST", "/run/held", body: Fixtures.photo)
        #expect(try server.wait(seconds: 60) { try server.metric("sumi_serve_workers_busy") == 1 })
        let waiting = try server.start("POST", "/run/held", body: Fixtures.photo)
        #expect(try server.wait(seconds: 60) { try server.metric("sumi_serve_queued") == 1 })
        let refused = try server.request("POST", "/run/thumbnail", body: Fixtures.photo)
        #expect(refused.status == 503 && refused.headers["retry-after"] == "1", "\(refused.status) \(refused.text)")
        #expect(try server.request("GET", "/readyz").status == 503)
        let first = server.finish(running), second = server.finish(waiting)
        #expect(first.status == 504 && first.text.contains("--timeout"), "\(first.status) \(first.text)")
        #expect(second.status == 504, "\(second.status) \(second.text)")
        #expect(try server.metric("sumi_serve_worker_timeouts_total") >= 1)
        let next = try server.request("POST", "/run/thumbnail?width=40", body: Fixtures.photo)
        #expect(next.status == 200, "\(next.text)")
        #expect(try server.metric("sumi_serve_requests_total{pipeline=\"held\",status=\"504\"}") == 2)
        #expect(try server.metric("sumi_serve_requests_total{pipeline=\"thumbnail\",status=\"503\"}") == 1)
        #expect(server.stop(SIGTERM, seconds: 30) == 0)
        #expect(leftovers(server).isEmpty, "\(leftovers(server))")
    }

    @Test func aClientThatGoesAwayMidUploadLeavesNoFolder() throws {
        let dir = try CLI.temporaryFolder("serve-vanish")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let server = try ServeServer(["--workers", "1"], folder: dir)
        let big = dir + "/big.bin"
        try Data(count: 4_000_000).write(to: URL(fileURLWithPath: big))
        let curl = Process()
        curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        curl.arguments = ["-s", "-o", "/dev/null", "--limit-rate", "200k", "--data-binary", "@" + big,
                          "http://127.0.0.1:\(server.port)/run/thumbnail"]
        try curl.run()
        #expect(server.wait(seconds: 30) { !leftovers(server).isEmpty }, "the upload never started")
        kill(curl.processIdentifier, SIGKILL)
        curl.waitUntilExit()
        #expect(server.wait(seconds: 10) { leftovers(server).isEmpty }, "\(leftovers(server))")
        #expect(try server.metric("sumi_serve_in_flight") == 0)
        #expect(try server.request("GET", "/healthz").status == 200)
        #expect(server.stop(SIGTERM, seconds: 30) == 0)
    }

    /// `pdfinfo`'s page size of a PDF, in points.
    func pageSize(_ pdf: String) -> String? {
        guard let data = CLI.tool("/usr/bin/pdfinfo", [pdf]) else { return nil }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix("Page size:") }.map(String.init)
    }

    @Test func formsCarryTheFilesOfPathParametersAndTextFields() throws {
        let dir = try CLI.temporaryFolder("serve-form")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let server = try ServeServer(["--workers", "1"], folder: dir)
        let thumb = try server.request("POST", "/run/thumbnail", form: ["input=@" + Fixtures.photo, "width=50"])
        #expect(thumb.status == 200, "\(thumb.text)")
        try thumb.body.write(to: URL(fileURLWithPath: dir + "/form.jpg"))
        #expect(CLI.identify(dir + "/form.jpg")?.width == 50)

        // Three captures for fullpage's list input: the same page as `sumi run` makes of them.
        let captures = (0..<3).map { "\(CLI.root)/pipelines/samples/page-\($0).png" }
        let page = try server.request("POST", "/run/fullpage", form: captures.map { "input=@" + $0 })
        #expect(page.status == 200 && page.headers["content-type"] == "application/pdf", "\(page.status) \(page.text.prefix(300))")
        try page.body.write(to: URL(fileURLWithPath: dir + "/served.pdf"))
        let local = try CLI.run(["run", "pipelines/fullpage.json", "-o", dir + "/local.pdf"] + captures.flatMap { ["-i", $0] })
        #expect(local.status == 0, "\(local.stderr)")
        let served = try #require(pageSize(dir + "/served.pdf"))
        #expect(served == pageSize(dir + "/local.pdf"), "\(served)")

        // An empty field followed by another is two fields (the web editor sends `shadow=` before
        // `background=…`): each keeps its own value.
        let label = try server.request("POST", "/run/caption-label", form: ["text=Hi", "shadow=", "background=#ff00ff", "padding=4"])
        #expect(label.status == 200 && label.headers["content-type"] == "image/png", "\(label.status) \(label.text.prefix(300))")
        let empties = try server.request("POST", "/run/caption-label", form: ["text=Hi", "shadow=", "border=", "size=30"])
        #expect(empties.status == 400 && empties.json?["parameter"] as? String == "border", "\(empties.text)")

        let other = try server.request("POST", "/run/thumbnail", form: ["other=@" + Fixtures.photo])
        #expect(other.status == 400 && other.json?["parameter"] as? String == "other", "\(other.text)")
        let two = try server.request("POST", "/run/thumbnail", form: ["input=@" + Fixtures.photo, "input=@" + Fixtures.photo])
        #expect(two.status == 400 && two.json?["parameter"] as? String == "input", "\(two.text)")
        let none = try server.request("POST", "/run/thumbnail", form: ["width=5"])
        #expect(none.status == 400 && none.json?["parameter"] as? String == "input", "\(none.text)")
        let bad = try server.request("POST", "/run/thumbnail", form: ["input=@" + Fixtures.photo, "width=-3"])
        #expect(bad.status == 400 && bad.json?["parameter"] as? String == "width", "\(bad.text)")
        #expect(server.wait(seconds: 5) { leftovers(server).isEmpty }, "\(leftovers(server))")
        #expect(server.stop(SIGTERM, seconds: 30) == 0)
    }

    @Test func slowHeadsAndSlowBodiesAreClosed() throws {
        let dir = try CLI.temporaryFolder("serve-slow")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let server = try ServeServer(["--workers", "1", "--header-timeout", "2"], folder: dir)
        // A head that never completes: closed after about 2 s (the sweeper looks every 0.2 s).
        let script = """
        import socket, time
        s = socket.create_connection(("127.0.0.1", \(server.port)))
        s.sendall(b"POST /run/thumbnail HTTP/1.1\\r\\nHost: x\\r\\n")
        start = time.monotonic()
        s.settimeout(30)
        data = s.recv(100)
        print("%.2f %d" % (time.monotonic() - start, len(data)))
        """
        let head = try ProcessRunner.run("/usr/bin/python3", ["-c", script])
        let parts = head.stdout.split(separator: " ").compactMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        #expect(parts.count == 2 && parts[0] >= 1.5 && parts[0] < 6 && parts[1] == 0, "\(head.stdout) \(head.stderr)")

        // A body at 2 KiB/s, under the least rate of 16 KiB/s: closed within a few seconds.
        let big = dir + "/big.bin"
        try Data(count: 200_000).write(to: URL(fileURLWithPath: big))
        let started = Date()
        let trickle = try ProcessRunner.run("/usr/bin/curl", ["-s", "-o", "/dev/null", "--limit-rate", "2k", "--max-time", "60",
                                                              "--data-binary", "@" + big, "http://127.0.0.1:\(server.port)/run/thumbnail"])
        #expect(trickle.status != 0 && Date().timeIntervalSince(started) < 10, "\(trickle.status) \(Date().timeIntervalSince(started))")
        #expect(try server.metric("sumi_serve_slow_clients_closed_total") == 2)
        #expect(server.wait(seconds: 5) { leftovers(server).isEmpty }, "\(leftovers(server))")
        // A good request afterwards.
        #expect(try server.request("POST", "/run/thumbnail?width=20", body: Fixtures.photo).status == 200)
        #expect(server.stop(SIGTERM, seconds: 30) == 0)
    }

    /// The ETag docs/service.md describes, computed by Python's hashlib.
    func expectedTag(pipeline: String, file: String, query: String) throws -> String {
        let version = try CLI.run(["--version"]).stdout.split(separator: " ")[1]
        let script = """
        import hashlib, sys
        data = open(sys.argv[1], "rb").read()
        pairs = [p.split("=", 1) for p in sys.argv[3].split("&") if p]
        fields = [sys.argv[2], hashlib.sha256(data).hexdigest(), sys.argv[4]] + [f for p in pairs for f in p]
        key = b"".join(b"%d:" % len(f.encode()) + f.encode() for f in fields)
        print('"' + hashlib.sha256(key).hexdigest()[:32] + '"')
        """
        return try ProcessRunner.run("/usr/bin/python3", ["-c", script, file, pipeline, query, String(version)])
            .stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func getRunReadsBelowRootWithAnETag() throws {
        let dir = try CLI.temporaryFolder("serve-root")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let root = dir + "/root"
        try FileManager.default.createDirectory(atPath: root + "/sub", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Fixtures.photo, toPath: root + "/sub/photo.jpg")
        try FileManager.default.createSymbolicLink(atPath: root + "/escape.jpg", withDestinationPath: Fixtures.photo)
        let server = try ServeServer(["--workers", "1", "--root", root], folder: dir)

        let first = try server.request("GET", "/run/thumbnail?input=sub/photo.jpg&width=48")
        #expect(first.status == 200 && first.headers["content-type"] == "image/jpeg", "\(first.text)")
        try first.body.write(to: URL(fileURLWithPath: dir + "/got.jpg"))
        #expect(CLI.identify(dir + "/got.jpg")?.width == 48)
        let tag = try #require(first.headers["etag"])
        #expect(tag == (try expectedTag(pipeline: "thumbnail", file: root + "/sub/photo.jpg", query: "width=48")))
        #expect(first.headers["cache-control"]?.contains("max-age") == true)

        // The same request with its ETag: 304, nothing run; another query: another ETag.
        let again = try server.request("GET", "/run/thumbnail?input=sub/photo.jpg&width=48", headers: ["If-None-Match: " + tag])
        #expect(again.status == 304 && again.body.isEmpty && again.headers["etag"] == tag)
        let other = try server.request("GET", "/run/thumbnail?input=sub/photo.jpg&width=49")
        #expect(other.status == 200 && other.headers["etag"] != nil && other.headers["etag"] != tag)

        // The file rewritten in place with other bytes of the same length (the server keeps digests
        // while a file is unchanged): a new ETag, that of the new bytes; the old one is not 304.
        // The byte changed is the JFIF header's horizontal density (pixels are unchanged).
        var bytes = try Data(contentsOf: URL(fileURLWithPath: root + "/sub/photo.jpg"))
        #expect(bytes[6..<10] == Data("JFIF".utf8))
        bytes[15] ^= 0x02
        let handle = try #require(FileHandle(forWritingAtPath: root + "/sub/photo.jpg"))
        try handle.write(contentsOf: bytes)
        try handle.close()
        let changed = try server.request("GET", "/run/thumbnail?input=sub/photo.jpg&width=48", headers: ["If-None-Match: " + tag])
        #expect(changed.status == 200 && changed.headers["etag"] != tag, "\(changed.status)")
        #expect(changed.headers["etag"] == (try expectedTag(pipeline: "thumbnail", file: root + "/sub/photo.jpg", query: "width=48")))

        // Outside the root, by .. or by a symbolic link, or missing: 404 with one message, so an
        // answer does not tell which paths exist outside the root.
        let up = try server.request("GET", "/run/thumbnail?input=../../../../../../../../etc/passwd")
        #expect(up.status == 404 && up.json?["parameter"] as? String == "input", "\(up.text)")
        #expect(up.json?["error"] as? String == "no file \"../../../../../../../../etc/passwd\" below --root", "\(up.text)")
        #expect(try server.request("GET", "/run/thumbnail?input=escape.jpg").status == 404)
        #expect(try server.request("GET", "/run/thumbnail?input=sub/none.jpg").status == 404)
        #expect(try server.metric("sumi_serve_requests_total{pipeline=\"thumbnail\",status=\"304\"}") == 1)
        #expect(server.wait(seconds: 5) { leftovers(server).isEmpty }, "\(leftovers(server))")
        #expect(server.stop(SIGTERM, seconds: 30) == 0)

        // Without --root, GET /run is refused.
        let plain = try ServeServer(["--workers", "1"], folder: dir + "/plain")
        #expect(try plain.request("GET", "/run/thumbnail?input=sub/photo.jpg").status == 403)
        #expect(plain.stop(SIGTERM, seconds: 30) == 0)
    }

    /// imgproxy's signature of `path`, computed by Python's hmac.
    func signature(keyHex: String, saltHex: String, path: String) throws -> String {
        let script = """
        import base64, hashlib, hmac, sys
        key, salt = bytes.fromhex(sys.argv[1]), bytes.fromhex(sys.argv[2])
        digest = hmac.new(key, salt + sys.argv[3].encode(), hashlib.sha256).digest()
        print(base64.urlsafe_b64encode(digest).rstrip(b"=").decode())
        """
        return try ProcessRunner.run("/usr/bin/python3", ["-c", script, keyHex, saltHex, path])
            .stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func signedURLsAndTheTokenGuardRuns() throws {
        let dir = try CLI.temporaryFolder("serve-signed")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let root = dir + "/root"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Fixtures.photo, toPath: root + "/photo.jpg")
        // A key longer than SHA-256's block, so HMAC hashes it first.
        let key = String(repeating: "943b421c9eb07c83", count: 5), salt = "520f986b998545b4"
        let server = try ServeServer(["--workers", "1", "--root", root, "--key", key, "--salt", salt, "--token", "s3cret"], folder: dir)

        let path = "/run/thumbnail?input=photo.jpg&width=36&format=png"
        let sig = try signature(keyHex: key, saltHex: salt, path: path)
        let signed = try server.request("GET", "/" + sig + path)
        #expect(signed.status == 200 && signed.headers["content-type"] == "image/png", "\(signed.status) \(signed.text)")
        try signed.body.write(to: URL(fileURLWithPath: dir + "/signed.png"))
        #expect(CLI.identify(dir + "/signed.png")?.width == 36)
        #expect(try server.request("GET", path).status == 403)
        #expect(try server.request("GET", "/" + sig + path.replacingOccurrences(of: "36", with: "37")).status == 403)

        let photo = Fixtures.photo
        let anonymous = try server.request("POST", "/run/thumbnail?width=20", body: photo)
        #expect(anonymous.status == 401 && anonymous.headers["www-authenticate"] == "Bearer", "\(anonymous.text)")
        #expect(try server.request("POST", "/run/thumbnail?width=20", body: photo, headers: ["Authorization: Bearer wrong"]).status == 401)
        #expect(try server.request("POST", "/run/thumbnail?width=20", body: photo, headers: ["Authorization: Bearer s3cret"]).status == 200)
        #expect(server.stop(SIGTERM, seconds: 30) == 0)
    }

    @Test func aRunOverTheMemoryLimitIs422AndItsWorkerReplaced() throws {
        let dir = try CLI.temporaryFolder("serve-memory")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // An idle worker holds about 16 MB; the huge run passes 24 MB within a fraction of a second.
        let pipelines = dir + "/pipelines"
        try FileManager.default.createDirectory(atPath: pipelines, withIntermediateDirectories: true)
        try Self.hugeManifest.write(toFile: pipelines + "/huge.json", atomically: true, encoding: .utf8)
        let server = try ServeServer(["--workers", "1", "--max-memory", "24", "--pipelines", pipelines], folder: dir)
        let started = Date()
        let over = try server.request("POST", "/run/huge", body: Fixtures.photo)
        #expect(over.status == 422 && over.text.contains("--max-memory"), "\(over.status) \(over.text)")
        #expect(Date().timeIntervalSince(started) < 30)
        #expect(try server.request("POST", "/run/thumbnail?width=20", body: Fixtures.photo).status == 200)
        #expect(try server.metric("sumi_serve_worker_restarts_total") == 1)
        #expect(server.stop(SIGTERM, seconds: 30) == 0)
    }

    @Test func aSecondServerOnTheSamePortIsRefused() throws {
        let dir = try CLI.temporaryFolder("serve-port")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let server = try ServeServer(["--workers", "1"], folder: dir)
        // It shared the port (SO_REUSEPORT) and split the traffic with the first.
        let second = try ProcessRunner.run("/usr/bin/timeout", ["20", CLI.binary, "serve", "--listen", "127.0.0.1:\(server.port)", "--workers", "1"])
        #expect(second.status == 2 && second.stderr.contains("Address already in use"), "\(second.status) \(second.stderr)")
        #expect(server.stop(SIGTERM, seconds: 30) == 0)
    }
}
