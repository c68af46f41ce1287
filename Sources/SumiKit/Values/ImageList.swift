import Dispatch
import Synchronization

/// One image of a list: either in memory already, or produced (decoded) each time a consumer asks
/// for it, so a list of files costs only what the consumer holds at once.
public struct ImageSource: Sendable {
    private let produce: @Sendable () throws -> Image

    /// An image already in memory.
    public init(_ image: Image) { produce = { image } }

    /// An image made by `produce` when asked for (a decoder reading its file). It may be called more
    /// than once, by a consumer that reads the list twice; each call gives the same image or throws.
    public init(producing produce: @escaping @Sendable () throws -> Image) { self.produce = produce }

    /// The image (decoded now when it is not in memory).
    public func image() throws -> Image { try produce() }

    /// `image` handed over to the first taker, which then holds the only reference; later takers
    /// get it from `source` (decoded again). For a consumer that read the list once and kept a few
    /// images, so that its second reading does not decode them again, nor keep them longer.
    public static func handingOver(_ image: Image, then source: ImageSource) -> ImageSource {
        let held = Mutex<Image?>(image)
        return ImageSource(producing: { try held.withLock { $0.take() } ?? source.image() })
    }
}

/// An ordered list of images (`Value.images`): what `decode` of several paths gives, and what `from`
/// arrays collect. Its elements are `ImageSource`s, so a consumer that works on one image after
/// another (`stitch`, `pdf-page`) holds only those it works on; `forEachImage` decodes the next one on
/// another thread while the current one is in use.
public struct ImageList: Sendable, RandomAccessCollection, ExpressibleByArrayLiteral {
    public let sources: [ImageSource]

    public init(sources: [ImageSource]) { self.sources = sources }
    public init(_ images: [Image]) { sources = images.map(ImageSource.init) }
    public init(arrayLiteral images: Image...) { self.init(images) }

    public var startIndex: Int { sources.startIndex }
    public var endIndex: Int { sources.endIndex }
    public subscript(position: Int) -> ImageSource { sources[position] }

    /// Every image, all in memory at once (for consumers that need them together).
    public func images() throws -> [Image] { try sources.map { try $0.image() } }

    /// Calls `body` with each image in order, each produced while the previous one is in use (see
    /// `Reader`).
    public func forEachImage(_ body: (Int, Image) throws -> Void) throws {
        let reader = reader()
        var index = 0
        while let image = try reader.next() {
            try body(index, image)
            index += 1
        }
    }

    /// A reader of the images in order.
    public func reader() -> Reader { Reader(self) }

    /// Reads a list's images in order. Once image `i` is handed out, image `i + 1` is produced on
    /// another thread (one ahead: with two cores, decoding overlaps the work on the image before).
    /// A reader dropped early (its consumer failed) waits for the image being produced, so nothing
    /// runs on after the error.
    public final class Reader {
        private let list: ImageList
        /// The index of the image `next` returns.
        public private(set) var nextIndex = 0
        private var ahead: Prefetch?

        init(_ list: ImageList) {
            self.list = list
            if !list.isEmpty { ahead = Prefetch(list.sources[0]) }
        }

        deinit { ahead?.wait() }

        /// The next image, or nil after the last.
        public func next() throws -> Image? {
            guard let current = ahead else { return nil }
            ahead = nil
            let image = try current.take()
            nextIndex += 1
            if nextIndex < list.count { ahead = Prefetch(list.sources[nextIndex]) }
            return image
        }
    }
}

/// One image being produced on a queue of its own (its threads are made on demand, so waiting for it
/// cannot starve when the caller runs on a pool thread).
private final class Prefetch: Sendable {
    private static let queue = DispatchQueue(label: "sumi.image-list.prefetch", attributes: .concurrent)
    private let done = DispatchSemaphore(value: 0)
    private let result = Mutex<Result<Image, any Error>?>(nil)
    private let waited = Mutex(false)

    init(_ source: ImageSource) {
        Prefetch.queue.async { [self] in
            let outcome = Result { try source.image() }
            result.withLock { $0 = outcome }
            done.signal()
        }
    }

    /// Waits until the image is produced (once; later calls return at once).
    func wait() {
        let first = waited.withLock { w -> Bool in
            defer { w = true }
            return !w
        }
        if first { done.wait() }
    }

    /// The image, waiting for it; the list no longer holds it afterwards.
    func take() throws -> Image {
        wait()
        guard let outcome = result.withLock({ $0.take() }) else { throw StageError("the image was already taken") }
        return try outcome.get()
    }
}
