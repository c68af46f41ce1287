#if canImport(Glibc)
import Glibc
#endif
import SumiEngine
import SumiKit

/// One of N deterministic, disjoint parts of an input list (`--shard K/N`, K from 1 to N), for batches
/// spread over the tasks of a Slurm array or a Kubernetes Indexed Job.
///
/// An input belongs to the shard chosen by a hash of its path (FNV-1a mixed, the same on every machine),
/// not by its position: tasks whose lists differ (a file added while the array starts) still never
/// process one file twice, and every listed file belongs to exactly one shard.
struct Shard: Sendable, Hashable, CustomStringConvertible {
    /// 1-based.
    let index: Int
    let count: Int

    var description: String { "\(index)/\(count)" }

    /// Parses `K/N`, or `auto` from the environment: Kubernetes' `JOB_COMPLETION_INDEX` (with the
    /// count from `SUMI_SHARD_COUNT`, or `JOB_COMPLETIONS`), or Slurm's `SLURM_ARRAY_TASK_ID` with
    /// `SLURM_ARRAY_TASK_COUNT` (both 0-based indices, so task 0 runs shard 1).
    static func parse(_ text: String, environment: (String) -> String? = Shard.environment) throws(SumiError) -> Shard {
        if text == "auto" { return try fromEnvironment(environment) }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]) else {
            throw SumiError.usage("--shard needs K/N (the K-th of N parts, K from 1 to N) or auto, got \"\(text)\"")
        }
        return try make(k, n, origin: "--shard \(text)")
    }

    static func make(_ k: Int, _ n: Int, origin: String) throws(SumiError) -> Shard {
        guard n >= 1 else { throw SumiError.usage("\(origin): the number of shards must be at least 1, got \(n)") }
        guard n <= 1_000_000 else { throw SumiError.usage("\(origin): at most 1000000 shards, got \(n)") }
        guard k >= 1, k <= n else { throw SumiError.usage("\(origin): shard \(k) does not exist; shards count from 1 to \(n)") }
        return Shard(index: k, count: n)
    }

    static func fromEnvironment(_ environment: (String) -> String?) throws(SumiError) -> Shard {
        func integer(_ name: String) throws(SumiError) -> Int? {
            guard let text = environment(name) else { return nil }
            guard let value = Int(text.filter { $0 != " " && $0 != "\n" }) else {
                throw SumiError.usage("--shard auto: \(name)=\"\(text)\" is not a whole number")
            }
            return value
        }
        if let index = try integer("JOB_COMPLETION_INDEX") {
            let explicit = try integer("SUMI_SHARD_COUNT")
            let completions = try integer("JOB_COMPLETIONS")
            guard let count = explicit ?? completions else {
                throw SumiError.usage("--shard auto: JOB_COMPLETION_INDEX is set, but not the number of shards; set SUMI_SHARD_COUNT (or JOB_COMPLETIONS) to the Job's completions")
            }
            return try make(index + 1, count, origin: "--shard auto (JOB_COMPLETION_INDEX=\(index))")
        }
        if let index = try integer("SLURM_ARRAY_TASK_ID") {
            guard let count = try integer("SLURM_ARRAY_TASK_COUNT") else {
                throw SumiError.usage("--shard auto: SLURM_ARRAY_TASK_ID is set, but not SLURM_ARRAY_TASK_COUNT")
            }
            // An array such as --array=1-4 or 0-6:2 counts from its minimum, in steps.
            let minimum = try integer("SLURM_ARRAY_TASK_MIN") ?? 0
            let step = max(1, try integer("SLURM_ARRAY_TASK_STEP") ?? 1)
            return try make((index - minimum) / step + 1, count, origin: "--shard auto (SLURM_ARRAY_TASK_ID=\(index))")
        }
        throw SumiError.usage("--shard auto: no shard in the environment (JOB_COMPLETION_INDEX of a Kubernetes Indexed Job, or SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT of a Slurm array); give --shard K/N")
    }

    static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// Whether `path` belongs to this shard.
    func contains(_ path: String) -> Bool {
        Int(Self.hash(path) % UInt64(count)) + 1 == index
    }

    /// FNV-1a, 64 bits, then MurmurHash3's finaliser: FNV's low bits follow the last characters
    /// too closely for a modulo by a small count.
    static func hash(_ text: String) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            h ^= UInt64(byte)
            h = h &* 0x0000_0100_0000_01B3
        }
        h ^= h >> 33
        h = h &* 0xff51_afd7_ed55_8ccd
        h ^= h >> 33
        h = h &* 0xc4ce_b9fe_1a85_ec53
        h ^= h >> 33
        return h
    }
}
