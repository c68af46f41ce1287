import SumiKit

/// Encodes an image as TIFF through gdk-pixbuf (`gdk_pixbuf_save_to_bufferv`), straight RGBA, with
/// the ICC `profile` (tag 34675) when one is given.
public enum TIFFEncoder {
    public static func encode(_ image: Image, profile: [UInt8]? = nil) throws -> [UInt8] {
        guard image.width > 0, image.height > 0, image.width <= Int(Int32.max) / 4 else {
            throw StageError("cannot encode a \(image.width)x\(image.height) image as TIFF")
        }
        let pixbuf = try OwnedPixbuf(width: image.width, height: image.height, format: .tiff)
        pixbuf.fill(from: image)
        return try pixbuf.save(type: "tiff", iccProfile: profile)
    }
}
