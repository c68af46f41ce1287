import SumiCodecs
import SumiKit

/// A page's Flate image data made from its rows as they arrive, the bytes `PDFDocumentWriter`
/// writes for the whole image. Which form the page takes is known only after the last row, so every
/// form still possible is compressed meanwhile: RGB; palette indices at 2, 4 and 8 bits while the
/// image has at most 4, 16 and 256 distinct pixels (numbered in order of first appearance, as
/// `IndexedImage` numbers them), each dropped as soon as the colours outgrow it; and alpha unless
/// the image is known to be opaque.
final class StreamedPageEncoder {
    let width: Int
    private let rgb: FlateRowEncoder
    private var indexStreams: [(bits: Int, encoder: FlateRowEncoder)]
    private var alpha: FlateRowEncoder?
    /// Whether some pixel so far is not opaque.
    private(set) var isTranslucent = false
    /// The distinct pixels so far, in order of first appearance.
    private let palette: PaletteNumbering
    private var samples: [UInt8]
    private var indices: [UInt8]
    private var packed: [UInt8]

    init(width: Int, height: Int, knownOpaque: Bool, level: Int32) throws {
        self.width = width
        rgb = try FlateRowEncoder(height: height, rowLength: width * 3, bytesPerPixel: 3, unordered: false, level: level)
        let indexLevel = level > 0 ? min(9, level + 2) : 0
        indexStreams = try [2, 4, 8].map { bits in
            (bits, try FlateRowEncoder(height: height, rowLength: (width * bits + 7) / 8, bytesPerPixel: 1, unordered: true, level: indexLevel))
        }
        if !knownOpaque {
            alpha = try FlateRowEncoder(height: height, rowLength: width, bytesPerPixel: 1, unordered: false, level: level)
        }
        palette = try PaletteNumbering()
        samples = [UInt8](repeating: 0, count: width * 3)
        indices = [UInt8](repeating: 0, count: width)
        packed = [UInt8](repeating: 0, count: width)
    }

    /// Compresses the next row (premultiplied RGBA, `width * 4` bytes).
    func add(_ row: UnsafeBufferPointer<UInt8>) throws {
        let width = self.width
        samples.withUnsafeMutableBufferPointer { FlateImageEncoder.rgbSamples(row, width: width, into: $0) }
        try samples.withUnsafeBufferPointer { try rgb.add($0) }
        if let alpha {
            samples.withUnsafeMutableBufferPointer { out in
                for x in 0..<width {
                    out[x] = row[x * 4 + 3]
                    if out[x] != 255 { isTranslucent = true }
                }
            }
            try samples.withUnsafeBufferPointer { try alpha.add(UnsafeBufferPointer(rebasing: $0[0..<width])) }
        }
        guard !indexStreams.isEmpty else { return }
        guard indices.withUnsafeMutableBufferPointer({ palette.number(row, into: $0) }) else {
            indexStreams = []
            return
        }
        indexStreams.removeAll { $0.bits < 8 && palette.count > 1 << $0.bits }
        for (bits, encoder) in indexStreams {
            pack(bits: bits)
            try packed.withUnsafeBufferPointer { try encoder.add(UnsafeBufferPointer(rebasing: $0[0..<encoder.rowLength])) }
        }
    }

    /// `indices` packed at `bits` per index, most significant bits first, into `packed`.
    private func pack(bits: Int) {
        indices.withUnsafeBufferPointer { row in
            packed.withUnsafeMutableBufferPointer { IndexedImage.pack(row, bits: bits, into: $0) }
        }
    }

    /// The page's data once every row was added.
    func finish() throws -> PDFDocumentWriter.EncodedFlate {
        let mask = isTranslucent ? try alpha?.finish() : nil
        let count = palette.count
        // At least 2 bits, as the whole-image path asks of `IndexedImage`.
        if count > 0, let stream = indexStreams.first(where: { $0.bits == max(2, IndexedImage.fewestBits(colors: count)) }) {
            let entries = palette.entries
            // The same unpremultiplied colours as `IndexedImage`: each entry appears once, in order.
            guard let colors = try IndexedImage(Image(width: count, height: 1, pixels: entries))?.colors else {
                throw StageError("the palette of the streamed image could not be made")
            }
            return .init(indexed: .init(colors: colors, bitsPerIndex: stream.bits, bytes: try stream.encoder.finish()),
                         rgb: nil, alpha: mask)
        }
        return .init(indexed: nil, rgb: try rgb.finish(), alpha: mask)
    }
}
