#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CSumiOCR
import Dispatch
import Synchronization
import SumiKit

/// Recognises a page streamed top to bottom in bands (`BandCutter`), several at once: each band's
/// rows, as grey, go to a worker with a Tesseract engine of its own while the next band's rows
/// arrive; at most `concurrency` bands are in flight (adding a row waits for a free worker), so
/// memory holds those bands and the one filling, whatever the page's height. A band keeps the words
/// of the lines whose centre lies in its `keeps` rows, so each line of an overlap is found once;
/// `finish` joins the bands' words top to bottom and numbers their lines and blocks down the page.
///
/// The words are resolved into `words` by `finish`, or as a failure when the recogniser is
/// dropped before (a failed run), so a reader waiting for them never hangs.
final class BandRecognizer: @unchecked Sendable {
    let width: Int
    let height: Int
    let words: RecognizedWords
    private let languages: String
    private let dataFolder: String
    private let concurrency: Int
    private var cutter: BandCutter
    /// Grey rows from page row `heldTop` on.
    private var held: [UInt8] = []
    private var heldTop = 0
    private var row: [UInt8]

    private let queue = DispatchQueue(label: "sumi.recognize.bands", attributes: .concurrent)
    private let room: DispatchSemaphore
    private let group = DispatchGroup()
    private let engines = Mutex<[TesseractEngine]>([])
    private let results = Mutex<[Int: Result<[BandWord], StageError>]>([:])
    private let failed = Atomic<Bool>(false)
    private var submitted = 0

    /// A word of a band, in page pixels, with its band-local line and block.
    struct BandWord {
        var word: TesseractEngine.Word
        var band: Int
    }

    /// Bands recognised at once: one a core, at most 8.
    static var defaultConcurrency: Int { max(1, min(8, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))) }

    init(width: Int, height: Int, languages: String, dataFolder: String, cutter: BandCutter = BandCutter(),
         concurrency: Int = BandRecognizer.defaultConcurrency, words: RecognizedWords = RecognizedWords()) {
        self.width = width
        self.height = height
        self.languages = languages
        self.dataFolder = dataFolder
        self.cutter = cutter.forHeight(height)
        self.concurrency = concurrency
        self.words = words
        room = DispatchSemaphore(value: concurrency)
        row = [UInt8](repeating: 0, count: width)
    }

    deinit {
        // Dropped before `finish` resolved the words (the run failed or stopped): readers are told.
        words.resolve(.failure(StageError("the text was not recognised: the run stopped before the page's last row")))
    }

    /// Adds the next row (premultiplied RGBA, `width` pixels).
    func add(_ rgba: UnsafePointer<UInt8>) throws {
        let blank = row.withUnsafeMutableBufferPointer { sumi_ocr_grey_row(rgba, Int32(width), $0.baseAddress) != 0 }
        held.append(contentsOf: row)
        if let band = cutter.add(blank: blank) { try submit(band) }
    }

    /// Recognises the last band, waits for every band and returns the page's words in reading order
    /// (also resolved into `words`).
    @discardableResult
    func finish() throws -> [RecognizedWord] {
        do {
            if let band = cutter.finish() { try submit(band) }
            group.wait()
            let found = try merged()
            words.resolve(.success(found))
            engines.withLock { $0.removeAll() }
            return found
        } catch {
            group.wait()
            let failure = error as? StageError ?? StageError("\(error)")
            words.resolve(.failure(failure))
            throw failure
        }
    }

    /// Hands `band`'s grey rows to a worker (waiting for a free one) and keeps the rows the next
    /// band starts with.
    private func submit(_ band: BandCutter.Band) throws {
        try check()
        let first = (band.rows.lowerBound - heldTop) * width, last = (band.rows.upperBound - heldTop) * width
        guard first >= 0, last <= held.count else { throw StageError("a band of rows \(band.rows) was not held") }
        let grey = Array(held[first..<last])
        let next = cutter.top
        held.removeFirst((next - heldTop) * width)
        heldTop = next
        let index = submitted
        submitted += 1
        room.wait()
        queue.async(group: group) { [self] in
            defer { room.signal() }
            guard !failed.load(ordering: .relaxed) else { return }
            let outcome = Result { () throws(StageError) -> [BandWord] in
                let engine = try takeEngine()
                defer { engines.withLock { $0.append(engine) } }
                let found = try engine.recognize(grey: grey, width: width, height: band.rows.count)
                return Self.kept(found, in: band, index: index)
            }
            if case .failure = outcome { failed.store(true, ordering: .relaxed) }
            results.withLock { $0[index] = outcome }
        }
    }

    /// The words of the lines whose centre lies in the band's `keeps` rows, moved to page rows.
    static func kept(_ found: [TesseractEngine.Word], in band: BandCutter.Band, index: Int) -> [BandWord] {
        let top = band.rows.lowerBound
        return found.compactMap { word in
            let centre = top + (word.lineTop + word.lineBottom) / 2
            guard band.keeps.contains(centre) else { return nil }
            var moved = word
            moved.box.y += Double(top)
            moved.lineTop += top
            moved.lineBottom += top
            moved.baseline += top
            return BandWord(word: moved, band: index)
        }
    }

    /// A free engine, or a new one (at most one a worker).
    private func takeEngine() throws(StageError) -> TesseractEngine {
        if let engine = engines.withLock({ $0.popLast() }) { return engine }
        return try TesseractEngine(languages: languages, dataFolder: dataFolder)
    }

    /// The first failure so far, if any.
    private func check() throws {
        guard failed.load(ordering: .relaxed) else { return }
        let failure = results.withLock { $0.values.first { if case .failure = $0 { true } else { false } } }
        if case .failure(let error)? = failure { throw error }
    }

    /// Every band's words, top to bottom; lines and blocks numbered down the page.
    private func merged() throws -> [RecognizedWord] {
        try check()
        var words: [RecognizedWord] = []
        var line = -1, block = -1
        for index in 0..<submitted {
            guard let result = results.withLock({ $0[index] }) else { throw StageError("a band's recognition did not finish") }
            var lastLine: Int?, lastBlock: Int?
            for found in try result.get() {
                let w = found.word
                if w.block != lastBlock { block += 1; lastBlock = w.block }
                if w.line != lastLine { line += 1; lastLine = w.line }
                words.append(RecognizedWord(text: w.text, box: w.box, confidence: w.confidence, line: line, block: block,
                                            baseline: Double(w.baseline)))
            }
        }
        return words
    }
}
