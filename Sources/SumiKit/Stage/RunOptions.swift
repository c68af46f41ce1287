/// Options of a whole run that stages may follow, set by the program that runs the pipeline (the
/// `sumi` command reads them from its environment) and handed to each stage in `StageContext`.
public struct RunOptions: Sendable, Hashable {
    /// Seconds since 1970 to write as the creation time of files that record one (a PDF's
    /// `/CreationDate`) instead of the current time, so runs can make identical files — what
    /// `SOURCE_DATE_EPOCH` means for reproducible builds. nil: the current time.
    public var sourceDateEpoch: Int?
    /// The largest image any stage may make (`PixelLimits.standard` unless the program lowers or
    /// raises it; a safe run holds `PixelLimits.safe`).
    public var limits: PixelLimits
    /// The most bytes one file a stage writes may have (nil: no limit): `sumi serve` caps its
    /// answers. A writer checks what it can know before encoding (an uncompressed format's size)
    /// and the encoded bytes before anything is written.
    public var maxOutputBytes: Int?

    public init(sourceDateEpoch: Int? = nil, limits: PixelLimits = .standard, maxOutputBytes: Int? = nil) {
        self.sourceDateEpoch = sourceDateEpoch
        self.limits = limits
        self.maxOutputBytes = maxOutputBytes
    }

    /// Throws `StageError.limit` when a file of `bytes` bytes (at least: `atLeast`) is more than
    /// `maxOutputBytes`; `what` names the file.
    public func checkOutput(bytes: Int, atLeast: Bool = false, what: String) throws(StageError) {
        guard let maxOutputBytes, bytes > maxOutputBytes else { return }
        throw StageError.limit("\(what) would be \(atLeast ? "at least " : "")\(bytes) bytes, more than this run allows: \(maxOutputBytes) bytes a file")
    }
}
