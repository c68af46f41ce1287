#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SumiKit

extension PDFPageStage: RowStage {
    /// `in` is read as rows when its producer streams one image (stitch, decode of one file).
    public func imageAccess(for port: String) -> ImageAccess { .rows }

    /// The output is a file.
    public var producesRows: Bool { false }

    /// One streamed image → one page. Its rows are encoded as strips as they come
    /// (`StripedPageEncoder`) and released at once, so the image is never whole in memory; the
    /// strips go to the (temporary, atomically renamed) file as they are encoded, and it becomes the
    /// output once the producer has ended without error. An unmodified opaque JPEG source is
    /// embedded as it is, as for a list.
    public func process(_ inputs: StageInputs, context: StageContext, output: RowStream?) throws -> Value? {
        if inputs.isGiven(Self.input) { return try process(inputs, context: context) }
        let stream = try inputs.rows(Port<Image>(Self.input))
        let (width, height, metadata) = try { let s = try stream.waitForStart(); return (s.width, s.height, s.metadata) }()
        guard currentPage == 0 else {
            throw StageError("page \(currentPage) does not exist: the document has 1 page (pages count from 0)", parameter: "current-page")
        }
        // An opaque JPEG source is embedded as it is: its pixels are not needed.
        let page = try page(0, width: width, height: height, metadata: metadata, opaque: { metadata.knownOpaque })
        if qualityGiven && compression != .jpeg {
            context.warn("parameter \"quality\" applies only to compression \"jpeg\"; ignored")
        }
        // Strips go to the file as they are encoded when it is a regular one, written atomically
        // (standard output or a pipe would keep a partial page if the run failed).
        let progressive = Self.isRegularOrNew(path)
        return try writeDocument(current: page.geometry, pageCount: 1, opening: page.opening, context: context) { out, title, viewport in
            let writer = progressive ? try PDFDocumentWriter(out: out, pageCount: 1, title: title, viewport: viewport,
                                                               sourceDateEpoch: context.options.sourceDateEpoch) : nil
            let done = try encode(page, writer: writer) { flush in
                let stride = width * 4
                var y = 0
                while y < height {
                    let ready = try stream.waitForRows(through: min(height, y + stream.capacity))
                    if page.needsRows {
                        for row in y..<ready {
                            try page.add(UnsafeBufferPointer(start: stream.row(row), count: stride))
                        }
                        try flush()
                    }
                    stream.release(through: ready)
                    y = ready
                }
                try stream.waitForEnd()
            }
            context.report(report([done]))
            if let writer {
                try writer.finish()
            } else {
                try PDFDocumentWriter.write([done], title: title, viewport: viewport,
                                            sourceDateEpoch: context.options.sourceDateEpoch, to: out)
            }
        }
    }

    /// Whether `path` names a regular file or nothing yet (a link is followed).
    static func isRegularOrNew(_ path: String) -> Bool {
        guard path != "-" else { return false }
        var info = stat()
        guard stat(path, &info) == 0 else { return errno == ENOENT }
        return (info.st_mode & S_IFMT) == S_IFREG
    }
}
