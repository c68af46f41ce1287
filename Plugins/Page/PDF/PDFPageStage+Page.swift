import SumiKit

extension PDFPageStage {
    /// One page as both inputs make it — an image of a list, or the one streamed image: checked at
    /// its size before any row, then given its rows top to bottom (`add`), then `finish`ed into its
    /// strips. The page's whole path; only where the rows come from differs.
    final class PageEncoding {
        let geometry: PageGeometry
        /// The viewport in this page's pixels, when it is the current page and has one.
        let opening: Rect?
        let metadata: ImageMetadata
        /// The page's unmodified JPEG source, embedded when every row turns out opaque.
        private let source: PageStrip?
        /// Nil when the source is embedded whatever the rows (known opaque before them).
        private let encoder: StripedPageEncoder?

        fileprivate init(geometry: PageGeometry, opening: Rect?, metadata: ImageMetadata, source: PageStrip?,
                         encoder: StripedPageEncoder?) {
            self.geometry = geometry
            self.opening = opening
            self.metadata = metadata
            self.source = source
            self.encoder = encoder
        }

        /// Whether the page's rows are encoded (else they are only read past).
        var needsRows: Bool { encoder != nil }
        /// Whether the page may be its JPEG source: its strips are then known only at the end.
        var mayBeSource: Bool { source != nil }

        /// The next row (premultiplied RGBA, `width * 4` bytes).
        func add(_ row: UnsafeBufferPointer<UInt8>) throws { try encoder?.add(row) }

        /// The strips encoded so far and not taken yet.
        func takeFinished() throws -> [PageStrip] { try encoder?.takeFinished() ?? [] }

        /// The page's strips (the rest of them, after `takeFinished`): its JPEG source when every
        /// row was opaque, else the encoded ones.
        func finish() throws -> [PageStrip] {
            if let source, !(encoder?.isTranslucent ?? false) {
                _ = try encoder?.finish()
                return [source]
            }
            guard let encoder else { throw StageError("the page's rows were not encoded") }
            return try encoder.finish()
        }

        /// The page to write, with `strips` and its text layer.
        func page(_ strips: [PageStrip]) throws -> PDFDocumentWriter.Page {
            PDFDocumentWriter.Page(geometry: geometry, strips: strips, iccProfile: metadata.iccProfile,
                                   text: try PDFPageStage.textLayer(metadata))
        }
    }

    /// Encodes `page` from its rows and writes it through `writer` when there is one: its strips as
    /// they are encoded (`rows` adds every row to the page and calls `flush` between bands), except
    /// for a page that may turn out to be its JPEG source, written once its rows are all seen.
    /// Without a writer the page is returned whole, to be written later (a file that is not
    /// regular, whose partial pages a failed run would leave); with one, its strips without their
    /// bytes, for the run report. Either way the file's bytes are the same.
    func encode(_ page: PageEncoding, writer: PDFDocumentWriter?,
                rows: (_ flush: () throws -> Void) throws -> Void) throws -> PDFDocumentWriter.Page {
        guard let writer else {
            try rows {}
            return try page.page(try page.finish())
        }
        var written: [PageStrip] = []
        func flush(_ strips: [PageStrip]) throws {
            for strip in strips {
                try writer.add(strip)
                written.append(strip.withoutData)
            }
        }
        let streaming = !page.mayBeSource
        if streaming { writer.beginPage(page.geometry, iccProfile: page.metadata.iccProfile) }
        try rows { if streaming { try flush(try page.takeFinished()) } }
        let strips = try page.finish()
        if !streaming { writer.beginPage(page.geometry, iccProfile: page.metadata.iccProfile) }
        try flush(strips)
        let text = try PDFPageStage.textLayer(page.metadata)
        try writer.endPage(text: text)
        return PDFDocumentWriter.Page(geometry: page.geometry, strips: written, iccProfile: nil, text: nil)
    }

    /// Checks page `index` (`width` x `height`, `metadata` its side data) and prepares it: the
    /// viewport when it is the current page; with `compression` auto, an unmodified JPEG source,
    /// whose rows are not encoded when `opaque` (asked only then) says it is opaque beforehand.
    func page(_ index: Int, width: Int, height: Int, metadata: ImageMetadata, opaque: () -> Bool) throws -> PageEncoding {
        guard width > 0, height > 0 else { throw StageError("image \(index) is empty (\(width)x\(height))") }
        let geometry = PageGeometry(pixelWidth: width, pixelHeight: height, scale: scale)
        if let problem = geometry.sizeProblem {
            throw StageError("page \(index): \(problem)", parameter: "scale")
        }
        if compression == .jpeg { try JPEGReencoder.check(width: width, height: height) }
        let opening = index == currentPage
            ? try viewportPixels(width: width, height: height, metadata: metadata, geometry: geometry) : nil
        let source = compression == .auto ? sourceStrip(width: width, height: height, metadata: metadata) : nil
        let encoder = source != nil && opaque() ? nil : makeEncoder(width: width, height: height)
        return PageEncoding(geometry: geometry, opening: opening, metadata: metadata, source: source, encoder: encoder)
    }
}
