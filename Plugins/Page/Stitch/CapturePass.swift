import Dispatch
import Synchronization
import SumiKit

/// The stitch planner's pass over the captures: each one decoded, brought into the first capture's
/// colours (`CaptureColour`), summarised (`CaptureProfile`), kept as `PixelRuns` for the copy while
/// they fit in `budget` bytes (the captures in the order given, up to the first that does not fit:
/// past it none is worked out in vain), and its rows near the edges compared with the first capture's for
/// fixed bars (`FixedRows`).
///
/// Two threads (the caller and one more) take the captures in turn, each decoding and summarising
/// its capture while the other works on the next, so at most two captures are in memory at once.
/// What depends on the captures before it (the fixed rows, the memory left to keep captures in) is
/// done in the captures' order, each capture waiting until the one before is done with it; the
/// result is the same as one thread's. The first capture's error (in the order given) is thrown.
struct CapturePass {
    let captures: ImageList
    let findBars: Bool
    let budget: Int

    /// What the pass learnt, per capture in the order given.
    struct Findings {
        var profiles: [CaptureProfile] = []
        var files: [String?] = []
        var lossless: [Bool] = []
        var knownOpaque = true
        /// The first capture's profile (nil: sRGB), which the others were converted to.
        var target: [UInt8]?
        var width = 0
        var retained: [Int: PixelRuns] = [:]
        var retainedBytes = 0
        var fixedRows: FixedRows.Accumulator?
    }

    /// One capture as its thread left it for the ordered part.
    private struct Summary: Sendable {
        let capture: Image
        let profile: CaptureProfile
        let file: String?
        let lossless: Bool
        let runs: PixelRuns?
    }

    /// What the two threads share.
    private final class Shared: Sendable {
        let next = Atomic<Int>(0)
        let stop = Atomic<Bool>(false)
        let retainedBytes = Atomic<Int>(0)
        /// Set once a capture was not kept: none after it is (nor its runs worked out).
        let full = Atomic<Bool>(false)
        /// The first capture's profile and width, once it is decoded (nil inside: it failed).
        let first = Mutex<(target: [UInt8]?, width: Int)?>(nil)
        /// Signalled once the first capture is decoded or failed; each waiter signals it again.
        let firstKnown = DispatchSemaphore(value: 0)
        /// Per capture: signalled when its ordered part is done (or skipped).
        let done: [DispatchSemaphore]
        let result = Mutex(Findings())
        let errors = Mutex<[Int: any Error]>([:])

        init(count: Int) { done = (0..<count).map { _ in DispatchSemaphore(value: 0) } }
    }

    private static let queue = DispatchQueue(label: "sumi.stitch.capture-pass", attributes: .concurrent)

    func run() throws -> Findings {
        let shared = Shared(count: captures.count)
        let helper = DispatchSemaphore(value: 0)
        CapturePass.queue.async { [self] in
            work(shared)
            helper.signal()
        }
        work(shared)
        helper.wait()
        if let (_, error) = shared.errors.withLock({ $0.min { $0.key < $1.key } }) { throw error }
        return shared.result.withLock { result in
            var taken = Findings()
            swap(&taken, &result)
            return taken
        }
    }

    private func work(_ shared: Shared) {
        while !shared.stop.load(ordering: .acquiring) {
            let i = shared.next.wrappingAdd(1, ordering: .relaxed).oldValue
            guard i < captures.count else { return }
            let outcome = Swift.Result { try summarise(i, shared) }
            if i > 0 { shared.done[i - 1].wait() }
            finish(i, outcome, shared)
            shared.done[i].signal()
        }
    }

    /// The part of capture `i`'s work that needs no other capture but the first's profile.
    private func summarise(_ i: Int, _ shared: Shared) throws -> Summary {
        let capture: Image, decoded: Image
        if i == 0 {
            do {
                decoded = try captures[0].image()
                capture = decoded
                shared.first.withLock { $0 = (capture.metadata.iccProfile, capture.width) }
            } catch {
                shared.firstKnown.signal()
                throw error
            }
            shared.firstKnown.signal()
        } else {
            decoded = try captures[i].image()
            shared.firstKnown.wait()
            shared.firstKnown.signal()
            guard let first = shared.first.withLock({ $0 }) else { throw StageError("stopped: the first capture failed") }
            capture = try CaptureColour.unified(decoded, to: first.target)
            guard capture.width == first.width else {
                throw StageError("capture \(i) is \(capture.width) pixels wide but capture 0 is \(first.width); captures must have the same width")
            }
        }
        guard capture.height > 0, capture.width > 0 else { throw StageError("capture \(i) is empty (\(capture.width)x\(capture.height))") }
        let room = budget - shared.retainedBytes.load(ordering: .relaxed)
        let full = shared.full.load(ordering: .relaxed)
        return Summary(capture: capture, profile: CaptureProfile(capture), file: decoded.metadata.sourcePath,
                       lossless: decoded.metadata.sourceFormat.map(StitchPlanner.losslessFormats.contains) ?? false,
                       runs: full ? nil : PixelRuns(capture, limit: room))
    }

    /// The part of capture `i`'s work done in the captures' order.
    private func finish(_ i: Int, _ outcome: Swift.Result<Summary, any Error>, _ shared: Shared) {
        let summary: Summary
        switch outcome {
        case .failure(let error):
            shared.errors.withLock { $0[i] = error }
            shared.stop.store(true, ordering: .releasing)
            return
        case .success(let value):
            summary = value
        }
        guard !shared.stop.load(ordering: .acquiring) else { return }
        shared.result.withLock { result in
            if i == 0 {
                result.target = summary.capture.metadata.iccProfile
                result.width = summary.capture.width
            }
            result.profiles.append(summary.profile)
            result.files.append(summary.file)
            result.lossless.append(summary.lossless)
            result.knownOpaque = result.knownOpaque && summary.capture.metadata.knownOpaque
            if !shared.full.load(ordering: .relaxed), let runs = summary.runs, runs.bytes <= budget - result.retainedBytes {
                result.retained[i] = runs
                result.retainedBytes += runs.bytes
                shared.retainedBytes.store(result.retainedBytes, ordering: .relaxed)
            } else {
                shared.full.store(true, ordering: .relaxed)
            }
            if findBars {
                if i == 0 {
                    result.fixedRows = FixedRows.Accumulator(first: summary.capture, summary.profile, runs: result.retained[0])
                } else {
                    result.fixedRows?.add(summary.capture, summary.profile)
                }
            }
        }
    }
}

