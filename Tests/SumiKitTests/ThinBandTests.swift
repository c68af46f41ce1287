import SumiKit
import Testing

/// A tall thin image in a stream the engine makes is handed over in bands of at least
/// `RowStream.thinBandPixels` pixels, not of a few one-pixel rows (a 1×100,000,000 PNG took 73 s
/// of lock rounds through `decode ! encode`, 12 s with this); ordinary images and streams made
/// without a minimum keep their rings.
@Suite struct ThinBandTests {
    @Test func tallThinImagesGetBandsOfPixels() throws {
        let thin = RowStream(minimumBandPixels: RowStream.thinBandPixels)
        try thin.begin(ImageShape(width: 2, height: RowStream.tallRows + 1))
        #expect(thin.capacity == RowStream.thinBandPixels / 2 && thin.slots == 2 * thin.capacity)
        // Short images, wide images and streams without a minimum are as before.
        let short = RowStream(minimumBandPixels: RowStream.thinBandPixels)
        try short.begin(ImageShape(width: 2, height: 5000))
        #expect(short.capacity == RowStream.defaultCapacity)
        let wide = RowStream(minimumBandPixels: RowStream.thinBandPixels)
        try wide.begin(ImageShape(width: 4096, height: RowStream.tallRows + 1))
        #expect(wide.capacity == RowStream.defaultCapacity)
        let plain = RowStream()
        try plain.begin(ImageShape(width: 2, height: RowStream.tallRows + 1))
        #expect(plain.capacity == RowStream.defaultCapacity)
    }
}
