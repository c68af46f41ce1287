import SumiKit

/// `pdf-page`: one image (or a list, one page each) → a PDF file whose pages are the images at
/// `scale` pixels per point. With a viewport the document opens on that rectangle of the current page
/// (`/OpenAction [page /FitR left bottom right top]`, in the page's own units), the Info dictionary
/// repeats it for viewers that ignore OpenAction (`/SumiViewport (x y w h)` in points from the
/// bottom-left, `/SumiViewportPage n`), and the run report gives it as `rectInCurrentPage`.
/// Everything is checked before the file is opened, and the file is written atomically.
public struct PDFPageStage: Stage {
    /// How `compression` encodes the pages.
    enum Compression: String, ParameterChoice { case auto, flate, jpeg }

    static let path = Parameter<String>(required: "path", type: .path(.writes), summary: "the PDF file to write (- for standard output)")
    static let scale = Parameter<Double>("scale", default: 1, min: 0, minExclusive: true, summary: "image pixels per PDF point")
    static let viewport = Parameter<ViewportSpec>("viewport", default: .unset,
                                                  summary: "rectangle the PDF opens on, in image pixels (top-left origin), \"capture:N\" for the N-th stitched capture from the top of the page (from 0), or \"none\"")
    static let currentPage = Parameter<Int>("current-page", default: 0, min: 0,
                                            summary: "the page (from 0) the viewport belongs to and the PDF opens on")
    static let compression = Parameter<Compression>("compression", default: .auto,
                                                    summary: "auto: unmodified JPEG sources embedded as they are, the rest as strips decided by their rows' content: photos as JPEG (4:4:4, progressive, the lowest quality from 89 that measures 40.4 dB PSNR or more), a photo beside text as JPEG over its columns under a lossless image masked out there, text, UI and the rows around photos lossless (palette or Flate); flate: always lossless; jpeg: re-encode as JPEG at quality")
    static let quality = Parameter<Int>("quality", default: 90, min: 1, max: 100, summary: "JPEG quality when compression is jpeg")
    /// How `auto` encodes its photo strips and tiles: full-resolution chroma (4:2:0 caps
    /// fine-grained photos near 37 dB PSNR at any quality), from quality 89 (photos as sites serve
    /// them, JPEG at about quality 80, measure 40 to 42 dB there) up or down to the lowest quality
    /// whose every 240-column slice measures 40.4 dB or more over its photo pixels (fine grain goes
    /// to 98, where the quantisation alone puts it 2 dB above that), written progressive.
    static let autoPhotoJPEG = StripEncoder.JPEGSettings(quality: 89, fullChroma: true, minimumPSNR: 40.4, progressive: true)
    static let title = Parameter<String?>("title", summary: "the document title")

    static let input = Port<ImageList>("in", accepts: [.image, .images])

    public static let descriptor = StageDescriptor(
        name: "pdf-page",
        summary: "Write images as PDF pages (one image per page, stored as strips: photos JPEG, text lossless with compression auto), optionally opening on a viewport",
        inputs: [input.spec],
        output: .file,
        parameters: [path.spec, scale.spec, viewport.spec, currentPage.spec, compression.spec, quality.spec, title.spec])

    /// How the viewport was given: `"X,Y,W,H"`, `"capture:N"`, or `"none"`.
    enum ViewportSpec: ParameterValue, Equatable {
        case unset
        case rect(Rect)
        case capture(Int)

        static var parameterType: ParamType { .either([.rect, .tagged("capture:", .integer), .keyword("none")]) }
        init?(parameterValue: ParamValue) {
            switch parameterValue {
            case .rect(let r): self = .rect(r)
            case .string("none"): self = .unset
            case .string(let text) where text.hasPrefix("capture:"):
                guard let n = Int(text.dropFirst("capture:".count)), n >= 0 else { return nil }
                self = .capture(n)
            default: return nil
            }
        }
        var parameterValue: ParamValue? {
            switch self {
            case .unset: .string("none")
            case .rect(let r): .rect(r)
            case .capture(let n): .string("capture:\(n)")
            }
        }
    }

    let path: String
    let scale: Double
    let viewport: ViewportSpec?
    let currentPage: Int
    let compression: Compression
    let quality: Int
    /// Whether `quality` was given (it only applies to `compression: jpeg`).
    let qualityGiven: Bool
    let title: String?

    public init(parameters: Parameters) throws {
        path = try parameters[Self.path]
        if path != "-", FileIO.isDirectory(path) {
            throw StageError.invalidParameter("path", "\(path) is a folder; give the file to write")
        }
        scale = try parameters[Self.scale]
        currentPage = try parameters[Self.currentPage]
        compression = try parameters[Self.compression]
        quality = try parameters[Self.quality]
        qualityGiven = parameters.isGiven(Self.quality)
        title = try parameters[Self.title]
        viewport = try PDFPageStage.checkViewport(try parameters[Self.viewport])
    }

    static func checkViewport(_ value: ViewportSpec) throws -> ViewportSpec? {
        switch value {
        case .unset: return nil
        case .rect(let r):
            // Under a pixel a side, a viewport is no view: and 1e-300 would round to an empty
            // /FitR box in the file.
            guard r.width >= 1, r.height >= 1 else {
                throw StageError.invalidParameter("viewport", "the rectangle must be at least 1 pixel wide and high, got \(r)")
            }
            return .rect(r)
        case .capture: return value
        }
    }

    public func process(_ inputs: StageInputs, context: StageContext) throws -> Value {
        let images = try inputs.imageList(Self.input)
        guard !images.isEmpty else { throw StageError("no images to write: pdf-page needs at least one") }
        guard currentPage < images.count else {
            throw StageError("page \(currentPage) does not exist: the document has \(images.count) page\(images.count == 1 ? "" : "s") (pages count from 0)",
                             parameter: "current-page")
        }
        if qualityGiven && compression != .jpeg {
            context.warn("parameter \"quality\" applies only to compression \"jpeg\"; ignored")
        }
        // Each page is checked, then encoded as strips one image at a time (its rows through the
        // page path the streamed image takes: `page`, `encode`). The catalog, written first, names
        // the view the current page opens on: the pages before it are held until it is checked,
        // and from there each page's strips go to the file as they are encoded.
        let reader = images.reader()
        func nextPage() throws -> (PageEncoding, Image) {
            let index = reader.nextIndex
            guard let image = try reader.next() else { throw StageError("the list ended before page \(index)") }
            return (try page(index, width: image.width, height: image.height, metadata: image.metadata,
                             opaque: { image.isOpaque }), image)
        }
        func encode(_ page: PageEncoding, _ image: Image, writer: PDFDocumentWriter?) throws -> PDFDocumentWriter.Page {
            try self.encode(page, writer: writer) { flush in
                guard page.needsRows else { return }
                try image.pixels.withUnsafeBufferPointer { px in
                    for y in 0..<image.height {
                        try page.add(UnsafeBufferPointer(rebasing: px[(y * image.stride)..<((y + 1) * image.stride)]))
                        if y % 16 == 15 { try flush() }
                    }
                }
            }
        }
        var held: [PDFDocumentWriter.Page] = []
        while reader.nextIndex < currentPage {
            let (page, image) = try nextPage()
            held.append(try encode(page, image, writer: nil))
        }
        let (current, image) = try nextPage()
        let progressive = Self.isRegularOrNew(path)
        return try writeDocument(current: current.geometry, pageCount: images.count, opening: current.opening,
                                 context: context) { out, title, viewport in
            let writer = progressive ? try PDFDocumentWriter(out: out, pageCount: images.count, title: title, viewport: viewport,
                                                               sourceDateEpoch: context.options.sourceDateEpoch) : nil
            var pages = try held.map { page in
                guard let writer else { return page }
                try writer.add(page)
                return PDFDocumentWriter.Page(geometry: page.geometry, strips: page.strips.map(\.withoutData), iccProfile: nil)
            }
            held = []
            pages.append(try encode(current, image, writer: writer))
            while reader.nextIndex < images.count {
                let (page, image) = try nextPage()
                pages.append(try encode(page, image, writer: writer))
            }
            context.report(report(pages))
            if let writer {
                try writer.finish()
            } else {
                try PDFDocumentWriter.write(pages, title: title, viewport: viewport,
                                            sourceDateEpoch: context.options.sourceDateEpoch, to: out)
            }
        }
    }

    /// The strip encoder for a page of this size, as `compression` asks.
    func makeEncoder(width: Int, height: Int) -> StripedPageEncoder {
        let mode: StripPlanner.Mode = switch compression {
        case .auto: .auto
        case .flate: .lossless
        case .jpeg: .jpeg
        }
        let settings = compression == .jpeg ? StripEncoder.JPEGSettings(quality: quality, fullChroma: false) : Self.autoPhotoJPEG
        let grid = PageGeometry(pixelWidth: width, pixelHeight: height, scale: scale).stripGrid
        return StripedPageEncoder(width: width, height: height, mode: mode, jpeg: settings, alignment: grid)
    }

    /// What the run report says of the pages: each page's strips, top to bottom.
    func report(_ pages: [PDFDocumentWriter.Page]) -> JSONValue {
        .object([("compression", .string(compression.rawValue)),
                 ("pages", .array(pages.map { page in
                     .object([("width", .number(Double(page.geometry.pixelWidth))), ("height", .number(Double(page.geometry.pixelHeight))),
                              ("strips", .array(page.strips.map(\.json)))])
                 }))])
    }

    /// Opens the file (atomically: it appears only if `body` ends without error; its temporary
    /// file in `context.temporaryFiles`), and lets `body` write the document into it; `opening` is
    /// the viewport in the current page's pixels. An error `body` throws is thrown as it is.
    func writeDocument(current: PageGeometry, pageCount: Int, opening: Rect?, context: StageContext,
                       _ body: (PDFByteSink, String?, PDFDocumentWriter.Viewport?) throws -> Void) throws -> Value {
        var rect = Rect.zero
        var viewport: PDFDocumentWriter.Viewport?
        if let pixels = opening {
            rect = current.pointsRect(viewport: pixels)
            let box = current.fitR(viewport: pixels)
            // The box as the file will spell it must still have an area (a huge scale can shrink
            // a pixel below the numbers' precision).
            guard PDFSyntax.number(box[0]) != PDFSyntax.number(box[2]), PDFSyntax.number(box[1]) != PDFSyntax.number(box[3]) else {
                throw StageError("viewport \(pixels) is too small to be written at scale \(scale) (under 0.0001 page units)",
                                 parameter: "viewport")
            }
            viewport = .init(page: currentPage, fitR: box, points: rect)
        }
        var written = 0
        var failure: (any Error)?
        do {
            try FileIO.writeAtomically(to: path, recordedIn: context.temporaryFiles) { (fd: Int32) throws(StageError) in
                let sink = PDFByteSink(fd: fd, path: path)
                do {
                    try body(sink, title, viewport)
                } catch let error as StageError {
                    throw error
                } catch {
                    failure = error
                    throw StageError("\(path): \(error)")
                }
                written = sink.offset
                // Checked before the file is committed: a refused page leaves nothing behind.
                try context.options.checkOutput(bytes: written, what: "\(path) (pdf)")
            }
        } catch {
            throw failure ?? error
        }
        return .file(FileOutput(path: path, format: "pdf", bytes: written,
                                width: current.widthPoints, height: current.heightPoints,
                                pages: pageCount, currentPage: currentPage, rectInCurrentPage: rect))
    }

    /// The viewport in the current page's pixels, checked against the page.
    func viewportPixels(width: Int, height: Int, metadata: ImageMetadata, geometry: PageGeometry) throws -> Rect? {
        let pixels: Rect
        switch viewport {
        case nil, .unset?: return nil
        case .rect(let r)?: pixels = r
        case .capture(let n)?:
            let rects = metadata.captureRects
            guard n < rects.count else {
                let known = rects.isEmpty ? "the image has no stitched captures" : "the image has \(rects.count) (capture:0 to capture:\(rects.count - 1))"
                throw StageError("capture:\(n) does not exist: \(known)", parameter: "viewport")
            }
            guard let rect = rects[n] else {
                throw StageError("capture:\(n) is no longer known: a stage between stitch and pdf-page changed the image's geometry in a way that moved the capture out of the image or did not describe the change",
                                 parameter: "viewport")
            }
            pixels = rect
        }
        guard geometry.contains(viewport: pixels) else {
            throw StageError("viewport \(pixels) is not inside page \(currentPage) (\(width)x\(height) pixels)",
                             parameter: "viewport")
        }
        return pixels
    }

    /// The page as its unmodified greyscale or RGB JPEG source, one strip, if it has one this size
    /// (for `auto`; CMYK JPEGs are stored as decoded, since viewers disagree on how to read their
    /// inverted data).
    func sourceStrip(width: Int, height: Int, metadata: ImageMetadata) -> PageStrip? {
        guard let source = embeddableJPEG(width: width, height: height, metadata: metadata) else { return nil }
        return PageStrip(top: 0, rows: height, imageRows: height, columns: width, data: .jpeg(source.bytes, components: source.components, source: true),
                         alpha: nil, content: .photo)
    }

    /// The unmodified greyscale or RGB JPEG source of an image this size, if it has one.
    func embeddableJPEG(width: Int, height: Int, metadata: ImageMetadata) -> (bytes: [UInt8], components: Int)? {
        guard metadata.sourceFormat == "jpeg", let bytes = metadata.sourceBytes, let header = JPEGHeader(bytes),
              header.width == width, header.height == height, [1, 3].contains(header.components) else { return nil }
        return (bytes, header.components)
    }
}
