import CSumiCodecs
import CSumiPixels
import SumiKit

/// Encodes an image as HEIC (x265) or AVIF (libaom) with libheif at a lossy `quality`, writing the
/// profile, EXIF and XMP it is given.
enum HEIFEncoder {
    /// `orientation` (EXIF numbering) other than 1 stores the pixels as given with `irot`/`imir`
    /// boxes that turn them that way for display, as cameras write a photo taken on its side.
    static func encode(_ image: Image, format: ImageFormat, quality: Int, metadata: OutputMetadata,
                       orientation: Int = 1) throws -> [UInt8] {
        let name = format.displayName
        guard image.width > 0, image.height > 0, image.width <= 16384, image.height <= 16384 else {
            throw StageError("image is \(image.width)x\(image.height); \(name) output allows 1 to 16384 pixels a side")
        }
        let context = try HEIFContext()
        let heif = context.heif
        var encoder: OpaquePointer?
        try HEIFContext.check(heif.context_get_encoder_for_format(context.context,
                                                                  format == .avif ? heif_compression_AV1 : heif_compression_HEVC, &encoder),
                              "no \(name) encoder in this libheif")
        guard let encoder else { throw StageError("no \(name) encoder in this libheif") }
        defer { heif.encoder_release(encoder) }
        try HEIFContext.check(heif.encoder_set_lossy_quality(encoder, Int32(min(100, max(1, quality)))), "\(name) quality")

        let opaque = EncodedBuffer.isOpaque(image)
        var picture: OpaquePointer?
        try HEIFContext.check(heif.image_create(Int32(image.width), Int32(image.height), heif_colorspace_RGB,
                                                opaque ? heif_chroma_interleaved_RGB : heif_chroma_interleaved_RGBA, &picture),
                              "out of memory for a \(name) image")
        guard let picture else { throw StageError("out of memory for a \(name) image") }
        defer { heif.image_release(picture) }
        try HEIFContext.check(heif.image_add_plane(picture, heif_channel_interleaved, Int32(image.width), Int32(image.height), 8),
                              "out of memory for a \(name) image")
        var stride: Int32 = 0
        guard let plane = heif.image_get_plane(picture, heif_channel_interleaved, &stride) else {
            throw StageError("out of memory for a \(name) image")
        }
        image.pixels.withUnsafeBufferPointer { pixels in
            guard let base = pixels.baseAddress else { return }
            for y in 0..<image.height {
                let row = plane + y * Int(stride)
                if opaque {
                    sumi_flatten_row(base + y * image.stride, row, Int32(image.width), 255, 255, 255, 0)
                } else {
                    sumi_unpremultiply(base + y * image.stride, row, image.width)
                }
            }
        }
        if let icc = metadata.icc {
            try icc.withUnsafeBytes { bytes in
                try HEIFContext.check(heif.image_set_raw_color_profile(picture, "prof", bytes.baseAddress, bytes.count), "\(name) colour profile")
            }
        }
        let options = heif.encoding_options_alloc()
        defer { heif.encoding_options_free(options) }
        options.pointee.image_orientation = heif_orientation(rawValue: UInt32(min(8, max(1, orientation))))
        var handle: OpaquePointer?
        try HEIFContext.check(heif.context_encode_image(context.context, picture, encoder, options, &handle), "\(name) encoding failed")
        guard let handle else { throw StageError("\(name) encoding failed") }
        defer { heif.image_handle_release(handle) }
        if let exif = metadata.exif {
            try exif.withUnsafeBytes { bytes in
                try HEIFContext.check(heif.context_add_exif_metadata(context.context, handle, bytes.baseAddress, Int32(bytes.count)), "\(name) EXIF")
            }
        }
        if let xmp = metadata.xmp {
            try xmp.withUnsafeBytes { bytes in
                try HEIFContext.check(heif.context_add_XMP_metadata(context.context, handle, bytes.baseAddress, Int32(bytes.count)), "\(name) XMP")
            }
        }
        final class Sink { var bytes: [UInt8] = [] }
        let sink = Sink()
        var writer = heif_writer(writer_api_version: 1, write: { _, data, size, userdata in
            if let userdata, let data {
                Unmanaged<Sink>.fromOpaque(userdata).takeUnretainedValue().bytes
                    += UnsafeRawBufferPointer(start: data, count: size)
            }
            return heif_error(code: heif_error_Ok, subcode: heif_suberror_Unspecified, message: nil)
        })
        try withExtendedLifetime(sink) {
            try HEIFContext.check(heif.context_write(context.context, &writer, Unmanaged.passUnretained(sink).toOpaque()),
                                  "\(name) writing failed")
        }
        return sink.bytes
    }
}
