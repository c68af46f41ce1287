import SumiCodecs
import SumiKit

extension PDFPageStage: RowStage {
    /// `in` is read as rows when its producer streams one image (stitch, decode of one file).
    public func imageAccess(for port: String) -> ImageAccess { .rows }

    /// The output is a file.
    public var producesRows: Bool { false }

    /// One streamed image → one page. Its rows are compressed as they come (`StreamedPageEncoder`)
    /// and released at once, so the image is never whole in memory; the compressed forms are held
    /// until the last row, and the file is written once the producer has ended without error. An
    /// unmodified JPEG source is embedded as it is, as for a list; `compression: jpeg` encodes the
    /// rows as they come when the image is known opaque, and otherwise collects it whole (its
    /// alpha becomes a soft mask, and its colour is unpremultiplied).
    public func process(_ inputs: StageInputs, context: StageContext, output: RowStream?) throws -> Value? {
        if inputs.isGiven(Self.input) { return try process(inputs, context: context) }
        let stream = try inputs.rows(Port<Image>(Self.input))
        let (width, height, metadata) = try { let s = try stream.waitForStart(); return (s.width, s.height, s.metadata) }()
        guard compression != .jpeg || metadata.knownOpaque else {
            return try process(StageInputs([Self.input.name: .image(try stream.image())]), context: context)
        }
        guard currentPage == 0 else {
            throw StageError("page \(currentPage) does not exist: the document has 1 page (pages count from 0)", parameter: "current-page")
        }
        guard width > 0, height > 0 else { throw StageError("image 0 is empty (\(width)x\(height))") }
        let geometry = PageGeometry(pixelWidth: width, pixelHeight: height, scale: scale)
        if let problem = geometry.sizeProblem {
            throw StageError("page 0: \(problem)", parameter: "scale")
        }
        if qualityGiven && compression != .jpeg {
            context.warn("parameter \"quality\" applies only to compression \"jpeg\"; ignored")
        }
        let opening = try viewportPixels(width: width, height: height, metadata: metadata, geometry: geometry)
        if compression == .jpeg {
            // libjpeg takes the bands as the producer publishes them: the page is encoded while
            // the stitch is still copying rows.
            try JPEGReencoder.check(width: width, height: height)
            let bytes = try JPEGEncoder.encode(rows: stream, quality: quality)
            try stream.waitForEnd()
            let page = PDFDocumentWriter.Page(image: ImageSource(producing: { throw StageError("a streamed page's image is not kept") }),
                                              geometry: geometry, data: .jpeg(bytes, components: 3, hasAlpha: false),
                                              iccProfile: metadata.iccProfile)
            return try write([page], opening: opening, context: context)
        }
        let embeddable = compression == .auto ? embeddableJPEG(width: width, height: height, metadata: metadata) : nil
        // An opaque JPEG source is embedded as it is: its pixels are not needed.
        let encoder = embeddable != nil && metadata.knownOpaque
            ? nil : try StreamedPageEncoder(width: width, height: height, knownOpaque: metadata.knownOpaque, level: 6)
        let stride = width * 4
        var y = 0
        while y < height {
            let ready = try stream.waitForRows(through: min(height, y + stream.capacity))
            if let encoder {
                for row in y..<ready {
                    try encoder.add(UnsafeBufferPointer(start: stream.row(row), count: stride))
                }
            }
            stream.release(through: ready)
            y = ready
        }
        try stream.waitForEnd()
        let data: PDFDocumentWriter.ImageData
        if let embeddable, !(encoder?.isTranslucent ?? false) {
            data = .jpeg(embeddable.bytes, components: embeddable.components, hasAlpha: false)
        } else if let encoder {
            data = .flateEncoded(try encoder.finish())
        } else {
            throw StageError("the streamed image was not compressed")
        }
        let page = PDFDocumentWriter.Page(image: ImageSource(producing: { throw StageError("a streamed page's image is not kept") }),
                                          geometry: geometry, data: data, iccProfile: metadata.iccProfile)
        return try write([page], opening: opening, context: context)
    }
}
