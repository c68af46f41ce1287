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

    public init(sourceDateEpoch: Int? = nil, limits: PixelLimits = .standard) {
        self.sourceDateEpoch = sourceDateEpoch
        self.limits = limits
    }
}
