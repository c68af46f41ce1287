#if canImport(Glibc)
import Glibc
#endif
import CSumiRuntime
import SumiApp
import SumiEngine
import SumiKit

/// The hidden worker mode of `sumi serve` (`sumi __serve-worker`): a process started by the server
/// that runs one request at a time. It reads a request description, one JSON line, from descriptor 3
/// and writes the answer, one JSON line, to descriptor 4; it ends when descriptor 3 closes. Each run
/// goes through the same steps as `sumi run --safe MANIFEST -i BODY -o OUTPUT --set NAME=VALUE…`
/// (the server starts workers with `SUMI_SAFE=1`), so query values are checked as `--set` values.
enum ServeWorker {
    static let command = "__serve-worker"
    static let requestDescriptor: Int32 = 3
    static let answerDescriptor: Int32 = 4

    static func main() -> Int32 {
        // A request's buffers below 4 MiB (row rings, a photo's bytes, libjpeg's tables) stay in the
        // heap for the next request instead of being faulted in afresh each time: a thumbnail of the
        // 3000x2002 sample took 574 page faults a request, 75 with this, for about 6 MB more kept.
        AllocatorTuning.keepFreed(upTo: 16 << 20)
        // A run gains no privilege through anything it might execute (setuid files, file
        // capabilities); inherited by every process the worker starts.
        _ = sumi_no_new_privileges()
        let reader = LineReader(fd: requestDescriptor)
        while case .line(let line) = reader.next() {
            let answer: JSONValue
            do { answer = run(try JSONParser.parse(line)) } catch {
                answer = failure(SumiError(.internal, "the request description is not JSON: \(error)"))
            }
            let text = Array((answer.serialized() + "\n").utf8)
            do { try FileIO.writeAll(answerDescriptor, text, path: "answer pipe") } catch { return 1 }
        }
        return 0
    }

    /// Runs one request: `{"manifest", "inputs": [PATH…], "output", "set": [[NAME, VALUE]…],
    /// "reads": [PATH…] (the uploaded files), "root"?, "plugins"?: [FOLDER…]}`. Answers
    /// `{"status", "report", "format"}` or `{"status", "error", "stage", "parameter"}`.
    static func run(_ request: JSONValue) -> JSONValue {
        let inputs = (request["inputs"]?.arrayValue ?? []).compactMap(\.stringValue)
        guard let manifest = request["manifest"]?.stringValue, let output = request["output"]?.stringValue else {
            return failure(SumiError(.internal, "the request description lacks manifest or output"))
        }
        // The server's workers run with SUMI_SAFE=1 and its limits.
        let policy = RunPolicy.fromEnvironment(safe: true).lowering(maxPixels: request["max-pixels"]?.numberValue.map { Int($0) })
        var run = RunRequest(pipeline: manifest)
        run.inputs = inputs
        run.output = output
        // The server's --plugin-path folders (a request cannot name plugins), and no others.
        run.pluginPaths = (request["plugins"]?.arrayValue ?? []).compactMap(\.stringValue)
        run.configuredPlugins = false
        for pair in request["set"]?.arrayValue ?? [] {
            guard let items = pair.arrayValue, items.count == 2, let name = items[0].stringValue, let value = items[1].stringValue else { continue }
            run.settings.append((name, value))
        }
        // Files are read only from the uploads and below the server's --root (font files too:
        // the request's folder and --root), checked before any stage is made.
        run.readable = (request["reads"]?.arrayValue ?? []).compactMap(\.stringValue) + (request["root"]?.stringValue.map { [$0] } ?? [])
        run.opened = Set((request["opened"]?.arrayValue ?? []).compactMap(\.stringValue))
        var invocation: Invocation?
        do throws(SumiError) {
            let prepared = try Invocation(request: run, policy: policy)
            invocation = prepared
            guard let planned = prepared.runs.first else { throw SumiError.usage("nothing to run") }
            let pipeline = try prepared.pipeline(for: planned)
            let result = try Runner(pipeline: pipeline, writeConfinement: policy.writeConfinement(output: output),
                                    options: policy.runOptions, warn: { _ in }).run()
            let format = result.outputs.first { $0.file.path == output }?.file.format ?? result.outputs.first?.file.format ?? ""
            return .object([("status", .number(200)), ("format", .string(format)),
                            ("report", RunReport.success(pipeline: prepared.manifest.name, input: nil, result: result))])
        } catch {
            return failure(invocation?.locate(error) ?? error)
        }
    }

    /// A failed run's answer: its HTTP status from the error's kind (`SumiError.Kind.httpStatus`),
    /// the kind, the message and its place.
    static func failure(_ error: SumiError) -> JSONValue {
        var members: [(String, JSONValue)] = [("status", .number(Double(error.kind.httpStatus))), ("kind", .string(error.kind.rawValue)),
                                              ("error", .string(error.message))]
        members.append(("stage", error.stage.map { .string($0) } ?? .null))
        members.append(("parameter", error.parameter.map { .string($0) } ?? .null))
        return .object(members)
    }
}
