#if canImport(Glibc)
import Glibc
#endif
import SumiApp
import SumiEngine
import SumiKit

/// The worker processes of `sumi serve` and the queue in front of them: one thread per worker takes
/// the next job, sends it to its process and hands the outcome back. A worker that crashes, runs
/// over the job's deadline or over the memory limit is killed and replaced; the job gets `.crashed`,
/// `.timedOut` or `.overMemory`.
final class WorkerPool: @unchecked Sendable {
    /// One request for a worker.
    struct Job: Sendable {
        let request: JSONValue
        /// Monotonic time (`BatchPlan.now()`) by which the answer is due.
        let deadline: Double
        let done: @Sendable (WorkerProcess.Outcome) -> Void
    }

    private let lock = ConditionLock()
    // Guarded by `lock`.
    private var queue: [Job] = []
    private var busy = 0
    private var alive = 0
    private var closed = false

    let queueLimit: Int
    /// The most resident memory of one worker, in bytes.
    let memoryLimit: Int
    let metrics: ServeMetrics

    /// Starts `workers` processes (failing if the first cannot start) and their threads.
    init(workers: Int, queueLimit: Int, memoryLimit: Int, metrics: ServeMetrics) throws(SumiError) {
        self.queueLimit = queueLimit
        self.memoryLimit = memoryLimit
        self.metrics = metrics
        var processes: [WorkerProcess] = []
        for _ in 0..<workers { processes.append(try WorkerProcess.spawn()) }
        alive = workers
        for process in processes {
            let box = ProcessBox(process)
            do {
                try PosixThreads.detach { [self] in self.serve(box) }
            } catch {
                // The threads already started see the pool closed and return; no worker outlives it.
                lock.locked {
                    closed = true
                    lock.broadcast()
                }
                for process in processes { process.terminate() }
                throw SumiError(.run, "could not start a thread for a worker: \(error.reason)")
            }
        }
    }

    /// Queues a job; false when the queue is full (or the pool closed).
    func submit(_ job: Job) -> Bool {
        lock.locked {
            guard !closed, queue.count < queueLimit else { return false }
            queue.append(job)
            lock.broadcast()
            return true
        }
    }

    var queued: Int { lock.locked { queue.count } }
    var running: Int { lock.locked { busy } }
    var workers: Int { lock.locked { alive } }
    /// Every worker up and room in the queue.
    func isReady(expected: Int) -> Bool { lock.locked { alive == expected && queue.count < queueLimit && !closed } }

    /// Waits until no job is queued or running, at most `seconds`; true when idle.
    func waitIdle(seconds: Double) -> Bool {
        let end = BatchPlan.now() + seconds
        while BatchPlan.now() < end {
            if lock.locked({ queue.isEmpty && busy == 0 }) { return true }
            var pause = timespec(tv_sec: 0, tv_nsec: 20_000_000)
            nanosleep(&pause, nil)
        }
        return lock.locked { queue.isEmpty && busy == 0 }
    }

    private func serve(_ box: ProcessBox) {
        while true {
            let job: Job? = lock.locked {
                while queue.isEmpty && !closed { lock.wait() }
                if queue.isEmpty { return nil }
                busy += 1
                return queue.removeFirst()
            }
            guard let job else { return }
            // A worker that died while idle is replaced before it is given the job.
            if let process = box.process, !process.isAlive { replace(box, timedOut: false) }
            let left = Int((job.deadline - BatchPlan.now()) * 1000)
            var sent = false
            let outcome: WorkerProcess.Outcome
            if left <= 0 {
                outcome = .timedOut
            } else if let process = box.process {
                sent = true
                outcome = process.run(job.request, milliseconds: left, memoryLimit: memoryLimit)
            } else {
                outcome = .crashed("no worker could be started")
            }
            lock.locked { busy -= 1 }
            job.done(outcome)
            switch outcome {
            case .answer: break
            case .timedOut: if sent { replace(box, timedOut: true) }
            case .crashed, .overMemory: replace(box, timedOut: false)
            }
        }
    }

    /// Kills the box's worker and starts another (retrying once a second while that fails).
    private func replace(_ box: ProcessBox, timedOut: Bool) {
        box.process?.terminate()
        box.process = nil
        lock.locked { alive -= 1 }
        metrics.workerRestarted(timedOut: timedOut)
        while true {
            if let process = try? WorkerProcess.spawn() {
                box.process = process
                lock.locked { alive += 1 }
                return
            }
            var pause = timespec(tv_sec: 1, tv_nsec: 0)
            nanosleep(&pause, nil)
        }
    }

    /// Holds a worker thread's current process.
    private final class ProcessBox: @unchecked Sendable {
        var process: WorkerProcess?
        init(_ process: WorkerProcess) { self.process = process }
    }
}
