#if canImport(Glibc)
import Glibc
#endif
import SumiEngine
import SumiKit

/// One of N deterministic, disjoint parts of an input list (`--shard K/N`, K from 1 to N), for batches
/// spread over the tasks of a Slurm array or a Kubernetes Indexed Job.
///
/// Every task expands the same sorted input list, so by default an input belongs to the shard of its
/// position in it, round robin (`--shard-by position`): 40 inputs over 4 shards are 10 each, and no
/// two shards differ by more than one input. `--shard-by hash` picks the shard from a hash of the
/// path instead (FNV-1a mixed, the same on every machine), for tasks whose lists may differ (a file
/// added while the array starts): they still never process one file twice, at the price of parts
/// that are only even on average.
package struct Shard: Sendable, Hashable, CustomStringConvertible {
    /// How inputs are assigned to shards.
    package enum Assignment: String, Sendable, CaseIterable {
        case position, hash
    }

    /// 1-based.
    package let index: Int
    package let count: Int
    package var assignment = Assignment.position

    /// The most shards.
    package static let maxCount = 1_000_000

    package var description: String { "\(index)/\(count)" }

    /// Parses `K/N`, or `auto` from the environment: Kubernetes' `JOB_COMPLETION_INDEX` (with the
    /// count from `SUMI_SHARD_COUNT`, or `JOB_COMPLETIONS`), or Slurm's `SLURM_ARRAY_TASK_ID` with
    /// `SLURM_ARRAY_TASK_COUNT` (both 0-based indices, so task 0 runs shard 1).
    package static func parse(_ text: String, by assignment: String? = nil,
                      environment: (String) -> String? = Shard.environment) throws(SumiError) -> Shard {
        var shard: Shard
        if text == "auto" {
            shard = try fromEnvironment(environment)
        } else {
            let parts = text.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]) else {
                throw SumiError.usage("--shard needs K/N (the K-th of N parts, K from 1 to N) or auto, got \"\(text)\"")
            }
            shard = try make(k, n, origin: "--shard \(text)")
        }
        if let assignment {
            guard let chosen = Assignment(rawValue: assignment) else {
                throw SumiError.usage("--shard-by needs \(Assignment.allCases.map(\.rawValue).joined(separator: " or ")), got \"\(MessageText.cut(assignment))\"")
            }
            shard.assignment = chosen
        }
        return shard
    }

    package static func make(_ k: Int, _ n: Int, origin: String) throws(SumiError) -> Shard {
        guard n >= 1 else { throw SumiError.usage("\(origin): the number of shards must be at least 1, got \(n)") }
        guard n <= maxCount else { throw SumiError.usage("\(origin): at most \(maxCount) shards, got \(n)") }
        guard k >= 1, k <= n else { throw SumiError.usage("\(origin): shard \(k) does not exist; shards count from 1 to \(n)") }
        return Shard(index: k, count: n)
    }

    package static func fromEnvironment(_ environment: (String) -> String?) throws(SumiError) -> Shard {
        func integer(_ name: String) throws(SumiError) -> Int? {
            guard let text = environment(name) else { return nil }
            guard let value = Int(text.filter { $0 != " " && $0 != "\n" }) else {
                throw SumiError.usage("--shard auto: \(name)=\"\(MessageText.cut(text))\" is not a whole number")
            }
            return value
        }
        // Values that would overflow the arithmetic below are out of range before any of it.
        func inRange(_ name: String, _ value: Int) throws(SumiError) -> Int {
            guard value.magnitude <= 1 << 40 else {
                throw SumiError.usage("--shard auto: \(name)=\(value) is out of range")
            }
            return value
        }
        if let index = try integer("JOB_COMPLETION_INDEX") {
            let explicit = try integer("SUMI_SHARD_COUNT")
            let completions = try integer("JOB_COMPLETIONS")
            guard let count = explicit ?? completions else {
                throw SumiError.usage("--shard auto: JOB_COMPLETION_INDEX is set, but not the number of shards; set SUMI_SHARD_COUNT (or JOB_COMPLETIONS) to the Job's completions")
            }
            let origin = "--shard auto (JOB_COMPLETION_INDEX=\(index))"
            guard index >= 0, index < maxCount else { throw SumiError.usage("\(origin): the index is out of range (0 to \(maxCount - 1))") }
            return try make(index + 1, count, origin: origin)
        }
        if let index = try integer("SLURM_ARRAY_TASK_ID") {
            guard let count = try integer("SLURM_ARRAY_TASK_COUNT") else {
                throw SumiError.usage("--shard auto: SLURM_ARRAY_TASK_ID is set, but not SLURM_ARRAY_TASK_COUNT")
            }
            // An array such as --array=1-4 or 0-6:2 counts from its minimum, in steps.
            let task = try inRange("SLURM_ARRAY_TASK_ID", index)
            let minimum = try inRange("SLURM_ARRAY_TASK_MIN", try integer("SLURM_ARRAY_TASK_MIN") ?? 0)
            let step = max(1, try inRange("SLURM_ARRAY_TASK_STEP", try integer("SLURM_ARRAY_TASK_STEP") ?? 1))
            return try make((task - minimum) / step + 1, count, origin: "--shard auto (SLURM_ARRAY_TASK_ID=\(index))")
        }
        throw SumiError.usage("--shard auto: no shard in the environment (JOB_COMPLETION_INDEX of a Kubernetes Indexed Job, or SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT of a Slurm array); give --shard K/N")
    }

    package static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// Whether the input at `position` (0-based, in the whole expanded list) with path `path`
    /// belongs to this shard.
    package func contains(position: Int, path: String) -> Bool {
        switch assignment {
        case .position: position % count + 1 == index
        case .hash: Int(Self.hash(path) % UInt64(count)) + 1 == index
        }
    }

    /// FNV-1a, 64 bits, then MurmurHash3's finaliser: FNV's low bits follow the last characters
    /// too closely for a modulo by a small count.
    package static func hash(_ text: String) -> UInt64 {
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
