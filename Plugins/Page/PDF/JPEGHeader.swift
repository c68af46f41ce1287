/// The frame header of a JPEG file: what a PDF needs to embed the file unchanged as `/DCTDecode`.
struct JPEGHeader: Sendable, Equatable {
    let width: Int
    let height: Int
    let components: Int

    /// Reads the start-of-frame marker; nil when the bytes are not a JPEG this can describe.
    init?(_ bytes: [UInt8]) {
        guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var i = 2
        while i + 4 <= bytes.count {
            guard bytes[i] == 0xFF else { return nil }
            let marker = bytes[i + 1]
            if marker == 0xFF { i += 1; continue }
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { i += 2; continue }
            let length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            guard length >= 2, i + 2 + length <= bytes.count else { return nil }
            let isFrame = (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
            if isFrame {
                guard length >= 8 else { return nil }
                height = Int(bytes[i + 5]) << 8 | Int(bytes[i + 6])
                width = Int(bytes[i + 7]) << 8 | Int(bytes[i + 8])
                components = Int(bytes[i + 9])
                return
            }
            if marker == 0xDA || marker == 0xD9 { return nil }
            i += 2 + length
        }
        return nil
    }
}
