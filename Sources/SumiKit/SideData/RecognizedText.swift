/// A word an OCR stage found in an image: its text, its box in pixels (top-left origin), the
/// recogniser's confidence (0 to 100), its line and block (numbered from 0 down the image, in reading
/// order) and the y of its line's baseline.
public struct RecognizedWord: Sendable, Hashable {
    public var text: String
    public var box: Rect
    public var confidence: Double
    public var line: Int
    public var block: Int
    public var baseline: Double

    public init(text: String, box: Rect, confidence: Double, line: Int, block: Int, baseline: Double) {
        self.text = text; self.box = box; self.confidence = confidence
        self.line = line; self.block = block; self.baseline = baseline
    }
}

/// The words recognised in an image, in reading order (`recognize`).
///
/// A streaming recogniser knows its words only once it has read the last row, while the image's
/// side data travels at its start: the entry is therefore a promise (`RecognizedWords`), filled
/// once by the stage that made it, plus the geometry applied to the image since. A consumer reads
/// `words()` after its input ended (the words are final by then; until they are, it waits, and a
/// recogniser that stopped without words makes it throw, so it never hangs).
///
/// The rule: pixel changes keep the words where they are (a caption drawn over the page does not
/// move them); crops, scales, padding and translations move and scale the boxes with the pixels
/// (a word whose box's centre leaves the image is dropped, the others are clipped to it); a
/// mirror, a turn or any undescribed change drops the entry, since upright boxes read left to
/// right could not follow the text there.
public enum RecognizedText: SideDataKind {
    public struct Value: Sendable {
        /// The words as the recogniser found them, in its image's pixels.
        public let source: RecognizedWords
        /// The geometry applied to the image since, if any (always a scale and a translation).
        public let transform: GeometryTransform?

        public init(source: RecognizedWords, transform: GeometryTransform? = nil) {
            self.source = source
            self.transform = transform
        }

        /// The words in this image's pixels, once the recogniser filled them (waits until then).
        public func words() throws -> [RecognizedWord] {
            let found = try source.wait()
            guard let t = transform else { return found }
            return found.compactMap { word in
                let centre = t.apply(Point(x: word.box.x + word.box.width / 2, y: word.box.y + word.box.height / 2))
                guard centre.x >= 0, centre.y >= 0, centre.x < Double(t.width), centre.y < Double(t.height),
                      let box = t.apply(word.box) else { return nil }
                var moved = word
                moved.box = box
                moved.baseline = t.apply(Point(x: word.box.x, y: word.baseline)).y
                return moved
            }
        }
    }

    public static let name = "recognized-text"

    public static func transform(_ value: Value, by change: ImageChange) -> Value? {
        switch change {
        case .pixels: return value
        case .unknown: return nil
        case .geometry(let t):
            // Only scales and translations keep upright, left-to-right words upright and in order.
            guard t.b == 0, t.c == 0, t.a > 0, t.d > 0 else { return nil }
            return Value(source: value.source, transform: value.transform.map { $0.then(t) } ?? t)
        }
    }
}

/// The words a recogniser finds, filled once (`resolve`) while the image they belong to is still
/// streaming; readers wait for them (`wait`). `outcome` is read and written only under `lock`.
public final class RecognizedWords: @unchecked Sendable {
    private let lock = ConditionLock()
    private var outcome: Result<[RecognizedWord], StageError>?

    public init() {}

    /// Words known already (a recogniser that read a whole image).
    public convenience init(_ words: [RecognizedWord]) {
        self.init()
        resolve(.success(words))
    }

    /// Fills the words, or the reason there are none; only the first call counts.
    public func resolve(_ result: Result<[RecognizedWord], StageError>) {
        lock.locked {
            if outcome == nil { outcome = result }
            lock.broadcast()
        }
    }

    /// Whether `resolve` was called.
    public var isResolved: Bool { lock.locked { outcome != nil } }

    /// The words, waiting until they are resolved; throws the recogniser's failure.
    public func wait() throws(StageError) -> [RecognizedWord] {
        let result = lock.locked { () -> Result<[RecognizedWord], StageError> in
            while outcome == nil { lock.wait() }
            return outcome ?? .success([])
        }
        return try result.get()
    }
}
