import Synchronization

/// A stage's input values, read through the stage's typed `Port` keys.
///
/// `takeImage(_:)` hands the stage the runner's only reference to an image, so a stage that edits
/// its input in place (`blend` drawing a caption onto a photo) does not copy the whole frame first.
public struct StageInputs: Sendable {
    private let storage: Storage

    private let shapes: [String: ImageShape]
    private let streams: [String: RowStream]

    /// Values by port; in a streamed run also the shapes of `.shape` ports whose image is not held
    /// whole, and the streams of `.rows` ports.
    public init(_ values: [String: Value], shapes: [String: ImageShape] = [:], streams: [String: RowStream] = [:]) {
        storage = Storage(values)
        self.shapes = shapes
        self.streams = streams
    }

    /// The value on `port`, as it came (nil when the port is streamed or has nothing).
    public subscript<Content>(port: Port<Content>) -> Value? { storage.values.withLock { $0[port.name] } }

    /// Whether a whole value is on `port` (rather than a stream, a shape, or nothing).
    public func isGiven<Content>(_ port: Port<Content>) -> Bool { self[port] != nil }

    /// The values by port name (what an adapter hands on as it came).
    public var values: [String: Value] { storage.values.withLock { $0 } }

    /// The image on `port`.
    public func image(_ port: Port<Image>) throws -> Image {
        try Self.image(from: self[port], port: port.name)
    }

    /// The image on `port`, removed from the inputs: when no later stage needs it, the stage then
    /// owns the only reference and can write to its pixels without a copy.
    public func takeImage(_ port: Port<Image>) throws -> Image {
        let value = storage.values.withLock { $0.removeValue(forKey: port.name) }
        return try Self.image(from: value, port: port.name)
    }

    /// The size and side data of the image on `port`, whether it came whole, as a shape or as a
    /// stream (whose start this waits for).
    public func shape(_ port: Port<Image>) throws -> ImageShape {
        if let shape = shapes[port.name] { return shape }
        if let stream = streams[port.name] { return try stream.waitForStart() }
        return ImageShape(try image(port))
    }

    /// The image on `port` as a row stream: the one the engine connected, or a complete stream over
    /// a whole image (its pixels, handed over; so a `RowStage` has one code path).
    public func rows(_ port: Port<Image>) throws -> RowStream {
        if let stream = streams[port.name] { return stream }
        return RowStream.whole(try takeImage(port))
    }

    /// The images on `port`, all in memory (a single image reads as a list of one).
    public func images(_ port: Port<ImageList>) throws -> [Image] {
        try imageList(port).images()
    }

    /// The images on `port` as a list whose images are produced when taken (a single image reads as
    /// a list of one).
    public func imageList(_ port: Port<ImageList>) throws -> ImageList {
        switch self[port] {
        case .image(let image)?: return ImageList([image])
        case .images(let list)?: return list
        case let other: throw StageError("port \"\(port.name)\": expected images, got \(other?.kind.rawValue ?? "nothing")")
        }
    }

    /// The layer on `port` (an image reads as a raster layer).
    public func layer(_ port: Port<Layer>) throws -> Layer {
        switch self[port] {
        case .layer(let layer)?: return layer
        case .image(let image)?: return Layer(image: image)
        case let other: throw StageError("port \"\(port.name)\": expected a layer, got \(other?.kind.rawValue ?? "nothing")")
        }
    }

    private static func image(from value: Value?, port: String) throws -> Image {
        switch value {
        case .image(let image)?: return image
        case .images(let list)? where list.count == 1: return try list[0].image()
        case let other: throw StageError("port \"\(port)\": expected an image, got \(other?.kind.rawValue ?? "nothing")")
        }
    }

    private final class Storage: Sendable {
        let values: Mutex<[String: Value]>
        init(_ values: [String: Value]) { self.values = Mutex(values) }
    }
}

/// What a running stage can use besides its inputs.
public struct StageContext: Sendable {
    /// Prints a warning (to stderr in the CLI), prefixed with the stage's place in the manifest.
    public let warn: @Sendable (String) -> Void
    /// For stages that produce an image: a size at least as large as every consumer needs, when all
    /// consumers can use a reduced image (see `Stage.reducedInputSize`). `nil`: produce full size.
    public var sizeHint: (@Sendable (Size) -> Size?)?
    /// Where the stage may write files it names while running (nil: wherever the user may).
    public var writeConfinement: WriteConfinement?
    /// Gives details of the run for the report (`sumi run --json` shows them as the stage's
    /// `details`; the last value given wins).
    public let report: @Sendable (JSONValue) -> Void
    /// The image formats plugin libraries added to this run's registry, which the built-in
    /// `decode` and `encode` consult for what their own codecs do not recognise (empty by default).
    public var formats: ImageFormatRegistry
    /// The run's options (`SOURCE_DATE_EPOCH` as the program read it, ...): a stage reads them here,
    /// never from the environment.
    public var options: RunOptions
    /// Where `FileIO.writeAtomically(_:to:recordedIn:)` records the temporary files of the stage's
    /// writes, so the program can remove them if it is ended meanwhile (by default a record nobody
    /// cleans up).
    public var temporaryFiles = TemporaryFiles()

    public init(warn: @escaping @Sendable (String) -> Void = { _ in },
                sizeHint: (@Sendable (Size) -> Size?)? = nil,
                report: @escaping @Sendable (JSONValue) -> Void = { _ in },
                formats: ImageFormatRegistry = ImageFormatRegistry(), options: RunOptions = RunOptions()) {
        self.warn = warn
        self.sizeHint = sizeHint
        self.report = report
        self.formats = formats
        self.options = options
    }
}

/// An error a stage raises while running (bad data, I/O). The runner adds the stage's place.
public struct StageError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, which decides the exit status and the HTTP status (`SumiError.Kind`, one
    /// table in SumiEngine); never read from the message.
    public enum Cause: Sendable, Hashable {
        /// The data could not be used: a damaged or inconsistent image, a failed conversion (exit 1).
        case data
        /// The manifest or a parameter value is wrong (exit 2).
        case usage
        /// No decoder recognises the input, or it is empty (exit 1; HTTP 415).
        case unsupported
        /// What the run would make or read passes a limit of the run (`PixelLimits`, a decoder's
        /// `max-pixels`, a file size): the data is not wrong, it is more than allowed (exit 1; HTTP 400).
        case limit
        /// Reading or writing a file failed (exit 1; HTTP 500).
        case io
        /// A plugin broke its contract or failed inside (exit 1; HTTP 500).
        case plugin
    }

    public var message: String
    /// The parameter concerned, if any.
    public var parameter: String?
    public var cause: Cause

    public init(_ message: String, parameter: String? = nil, cause: Cause) {
        self.message = message
        self.parameter = parameter
        self.cause = cause
    }

    public init(_ message: String, parameter: String? = nil, isUsageError: Bool = false) {
        self.init(message, parameter: parameter, cause: isUsageError ? .usage : .data)
    }

    /// Whether the error is about the manifest (exit 2) rather than the data (exit 1).
    public var isUsageError: Bool { cause == .usage }
    /// Whether a limit of the run refused it (see `Cause.limit`).
    public var isLimit: Bool { cause == .limit }

    /// A refusal for passing a limit of the run (see `Cause.limit`).
    public static func limit(_ message: String, parameter: String? = nil) -> StageError {
        StageError(message, parameter: parameter, cause: .limit)
    }

    /// A plugin that broke its contract (returned nothing, the wrong kind, a wrong size).
    public static func plugin(_ message: String) -> StageError {
        StageError(message, cause: .plugin)
    }

    /// An invalid parameter value detected by a stage (a validation error, exit 2).
    public static func invalidParameter(_ name: String, _ message: String) -> StageError {
        StageError(message, parameter: name, cause: .usage)
    }

    public var description: String { message }
}
