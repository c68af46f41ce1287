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
public enum ServeWorker {
    public static let command = "__serve-worker"
    static let requestDescriptor: Int32 = 3
    static let answerDescriptor: Int32 = 4

    public static func main() -> Int32 {
        // A request's buffers below 4 MiB (row rings, a photo's bytes, libjpeg's tables) stay in the
        // heap for the next request instead of being faulted in afresh each time: a thumbnail of the
        // 3000x2002 sample took 574 page faults a request, 75 with this, for about 6 MB more kept.
        AllocatorTuning.keepFreed(upTo: 16 << 20)
        // A run gains no privilege through anything it might execute (setuid files, file
        // capabilities); inherited by every process the worker starts.
        _ = sumi_no_new_privileges()
        let reader = LineReader(fd: requestDescriptor)
        while case .line(let line) = reader.next() {
            let answer: WorkerAnswer
            do {
                let json = try JSONParser.parse(line)
                answer = WorkerRequest(json: json).map(run)
                    ?? WorkerAnswer(SumiError(.internal, "the request description lacks manifest, output or max-pixels"))
            } catch {
                answer = WorkerAnswer(SumiError(.internal, "the request description is not JSON: \(error)"))
            }
            let text = Array((answer.json.serialized() + "\n").utf8)
            do { try FileIO.writeAll(answerDescriptor, text, path: "answer pipe") } catch { return 1 }
        }
        return 0
    }

    /// Runs one request through the same session steps as `sumi run --safe`: a request, the safe
    /// policy lowered to the server's --max-pixels, `Invocation.pipeline(for:)`, the runner.
    static func run(_ request: WorkerRequest) -> WorkerAnswer {
        // The server's workers run with SUMI_SAFE=1 and its limits.
        var policy = RunPolicy.fromEnvironment(safe: true).lowering(maxPixels: request.maxPixels)
        policy.maxOutputBytes = request.maxAnswerBytes
        var run = RunRequest(pipeline: request.manifest)
        run.inputs = request.inputs
        run.output = request.output
        run.settings = request.settings
        // The server's --plugin-path folders (a request cannot name plugins), and no others.
        run.pluginPaths = request.plugins
        run.configuredPlugins = false
        // Files are read only from the uploads and below the server's --root (font files too:
        // the request's folder and --root), checked before any stage is made.
        run.readable = request.reads + (request.root.map { [$0] } ?? [])
        run.opened = Set(request.opened)
        var invocation: Invocation?
        do throws(SumiError) {
            let prepared = try Invocation(request: run, policy: policy)
            invocation = prepared
            guard let planned = prepared.runs.first else { throw SumiError.usage("nothing to run") }
            let pipeline = try prepared.pipeline(for: planned)
            let result = try Runner(pipeline: pipeline, writeConfinement: policy.writeConfinement(output: request.output),
                                    options: policy.runOptions, warn: { _ in }).run()
            let output = request.output
            let format = result.outputs.first { $0.file.path == output }?.file.format ?? result.outputs.first?.file.format ?? ""
            return .success(format: format, report: RunReport.success(pipeline: prepared.manifest.name, input: nil, result: result))
        } catch {
            return WorkerAnswer(invocation?.locate(error) ?? error)
        }
    }
}
