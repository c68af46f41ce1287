import Foundation
import SumiEngine
@testable import SumiServe
import SumiKit
import Testing

/// `sumi serve`'s own logic in-process, without a server or a worker: the worker protocol's two
/// messages, the statuses errors get, the wording of answers, entity tags, signed URLs and options.
@Suite struct ServeProtocolTests {
    static let valueOptions = ["--listen", "--workers", "--max-pixels", "--max-answer", "--allow-host", "--key-file", "--key", "--salt"]

    @Test func aWorkerRequestSurvivesItsLine() throws {
        // Paths as the server names them (nothing is read or written here).
        var request = WorkerRequest(manifest: "/p/caption.json", inputs: ["/r/body"], output: "/r/output.png", maxPixels: 1_000_000)
        request.settings = [("text", "A&size=90"), ("label.font", "/r/upload-1")]
        request.reads = ["/r/body", "/r/upload-1"]
        request.opened = ["/proc/1/fd/9"]
        request.root = "/srv"
        request.plugins = ["/opt/plugins"]
        request.maxAnswerBytes = 5 << 20
        let line = request.json.serialized()
        let back = try #require(WorkerRequest(json: try JSONParser.parse(line)))
        #expect(back == request && back.settings.map(\.value) == ["A&size=90", "/r/upload-1"] && back.maxAnswerBytes == 5 << 20)
        // A line without what a run needs is no request (the worker answers an internal error).
        #expect(WorkerRequest(json: try JSONParser.parse(#"{"manifest": "m.json", "output": "o.png"}"#)) == nil)
        #expect(WorkerRequest(json: try JSONParser.parse(#"{"manifest": "m.json", "output": "o.png", "max-pixels": 0}"#)) == nil)
    }

    @Test func anAnswersStatusIsItsErrorsKind() throws {
        let failures: [(SumiError.Kind, Int)] = [(.usage, 400), (.limit, 400), (.unsupported, 415), (.run, 422), (.io, 500), (.plugin, 500), (.internal, 500)]
        for (kind, status) in failures {
            let answer = WorkerAnswer(SumiError(kind, stage: "stages[0] (decode)", parameter: "path", "message"))
            let json = try JSONParser.parse(answer.json.serialized())
            #expect(json["status"]?.numberValue == Double(status) && json["kind"]?.stringValue == kind.rawValue)
            guard case .failure(let back, let message, let stage, let parameter) = WorkerAnswer(json: json) else {
                Issue.record("\(kind) came back as a success")
                continue
            }
            #expect(back == kind && message == "message" && stage == "stages[0] (decode)" && parameter == "path")
        }
        // An answer the server cannot read is the server's fault, not the request's.
        guard case .failure(let kind, _, _, _) = WorkerAnswer(json: try JSONParser.parse(#"{"status": 400}"#)) else { return }
        #expect(kind == .internal)
        guard case .success(let format, _) = WorkerAnswer(json: WorkerAnswer.success(format: "png", report: .null).json) else {
            Issue.record("a success came back as a failure")
            return
        }
        #expect(format == "png")
    }

    @Test func answersSpeakOfRequestsNotOfTheCommandLine() {
        let messages = [
            "--safe: reads only the files given with -i (or below a folder given) (its direction is not declared: checked as a read and a write); refused /etc/passwd",
            "--safe: a file this parameter names must lie below the folders of the -i inputs; refused /x.ttf",
            "--safe: writes only below the folder of -o; refused /etc/x.jpg",
            "--safe: at most 10000 characters in a safe run, got 10001",
            "--set names an undeclared parameter \"widht\"",
            "--set: expected a number, got \"wide\"",
        ]
        for message in messages {
            let shown = ServeRouter.serviceWording(message)
            for word in ["--safe", " -i", "-o;", "--set", "safe run"] { #expect(!shown.contains(word), "\(shown)") }
        }
        #expect(ServeRouter.shown(String(repeating: "A", count: 10_000)).count <= 40)
    }

    @Test func entityTagsTellEncodedSeparatorsFromRealOnes() {
        let encoded = ServeRouter.entityTag(pipeline: "/p/caption.json", inputDigest: "ab", query: [("text", "A&size=90")])
        let split = ServeRouter.entityTag(pipeline: "/p/caption.json", inputDigest: "ab", query: [("text", "A"), ("size", "90")])
        #expect(encoded != split)
        #expect(encoded == ServeRouter.entityTag(pipeline: "/p/caption.json", inputDigest: "ab", query: [("text", "A&size=90")]))
        #expect(encoded != ServeRouter.entityTag(pipeline: "/p/caption.json", inputDigest: "ac", query: [("text", "A&size=90")]))
        #expect(encoded.hasPrefix("\"") && encoded.hasSuffix("\"") && encoded.count == 34)
    }

    @Test func signedURLsVerifyOnlyTheirOwnPath() throws {
        let signature = try #require(URLSignature(keyHex: "0b0b0b0b", saltHex: "5a"))
        let signed = signature.signature(of: "/run/thumbnail?input=a.jpg")
        #expect(signature.verifies(signed, path: "/run/thumbnail?input=a.jpg"))
        #expect(!signature.verifies(signed, path: "/run/thumbnail?input=b.jpg"))
        #expect(!signed.contains("=") && !signed.contains("+") && !signed.contains("/"))
        #expect(URLSignature(keyHex: "", saltHex: "00") == nil && URLSignature(keyHex: "0g", saltHex: "00") == nil)
    }

    @Test func optionsAreCheckedBeforeTheServerStarts() throws {
        let options = try ServeOptions.parse(["--max-answer", "7", "--allow-host", "sumi-serve", "--max-pixels", "1000"], names: Self.valueOptions)
        #expect(options.maxAnswer == 7 && options.allowedHosts == ["sumi-serve"] && options.maxPixels == 1000)
        func refusal(_ argv: [String]) -> String? {
            do { _ = try ServeOptions.parse(argv, names: Self.valueOptions); return nil } catch { return error.message }
        }
        #expect(refusal(["--max-pixels", "60000000"])?.contains("50000000") == true)
        #expect(refusal(["--allow-host", "a/b"])?.contains("--allow-host") == true)
        #expect(refusal(["--max-anwser", "7"])?.contains("did you mean") == true)
        #expect(refusal(["--key-file", "/nonexistent/key"]) != nil)
        #expect(try ServeOptions.parse(["--key", "0b0b", "--salt", "00"], names: Self.valueOptions).warnings.isEmpty == false)
    }
}
