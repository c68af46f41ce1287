#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SumiKit

/// What a signal does to a run: a process ended by Ctrl-C, `kill`, a closed terminal or Ctrl-\
/// removes the temporary files of its writes in progress and the output folders it created
/// (recorded in `temporaryFiles`), then ends as the signal would have.
///
/// The signals are not handled in a signal handler (which could only touch a fixed table) but by a
/// thread that waits for them (`sigwait`) while every other thread keeps them blocked: it takes the
/// same lock as the writers, so any number of files is tracked.
public enum SignalCleanup {
    /// The process's record of temporary files and created output folders: every run's stages write
    /// through it (`Runner`), and a signal or a limit removes what it holds.
    public static let temporaryFiles = TemporaryFiles()

    /// The signals that end a run and clean up.
    static let endingSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

    /// Blocks SIGINT, SIGTERM, SIGHUP and SIGQUIT in this thread (and so in every thread started
    /// after it: call this first) and starts the thread that waits for them. On one, it removes the
    /// temporary files and empty created folders, then ends the process as the signal would have
    /// (SIGQUIT without a core file). A signal the process was started ignoring stays ignored.
    /// SIGPIPE is ignored: a write to a closed pipe fails with EPIPE, and the run reports it.
    public static func install() {
        signal(SIGPIPE, SIG_IGN)
        var set = sigset_t()
        sigemptyset(&set)
        for sig in endingSignals {
            var current = sigaction()
            sigaction(sig, nil, &current)
            if unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self) == 1 { continue }  // SIG_IGN
            sigaddset(&set, sig)
        }
        pthread_sigmask(SIG_BLOCK, &set, nil)
        let waiting = UnsafeMutablePointer<sigset_t>.allocate(capacity: 1)
        waiting.initialize(to: set)
        var thread = pthread_t()
        let started = pthread_create(&thread, nil, { argument in
            guard let set = argument?.assumingMemoryBound(to: sigset_t.self) else { return nil }
            var received: Int32 = 0
            while sigwait(set, &received) != 0 {}
            SignalCleanup.end(by: received)
        }, waiting)
        guard started == 0 else {
            // No thread to wait for them: the signals end the process as by default (its temporary
            // files stay), rather than being blocked for good.
            pthread_sigmask(SIG_UNBLOCK, &set, nil)
            waiting.deallocate()
            return
        }
        pthread_detach(thread)
    }

    /// Removes the temporary files and empty created folders, then exits with `status` at once
    /// (a limit that ends a run from another thread).
    public static func cleanUpAndExit(_ status: Int32) -> Never {
        temporaryFiles.removeAll { _exit(status) }
        _exit(status)
    }

    /// Cleans up, then ends the process by `sig`. The lock is kept: no write starts or commits after.
    static func end(by sig: Int32) -> Never {
        temporaryFiles.removeAll {
            if sig == SIGQUIT {
                var none = rlimit(rlim_cur: 0, rlim_max: 0)
                setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &none)
            }
            signal(sig, SIG_DFL)
            var only = sigset_t()
            sigemptyset(&only)
            sigaddset(&only, sig)
            pthread_sigmask(SIG_UNBLOCK, &only, nil)
            raise(sig)
        }
        _exit(128 + sig)
    }
}
