import CSumiCodecs
import CSumiPixels
import SumiKit

/// Decodes the primary image of a HEIF (HEIC) or AVIF file with libheif: `irot`/`imir` applied,
/// alpha kept, the ICC profile or `nclx` colour information and the EXIF and XMP read. The size is
/// checked against `limits` from the header boxes before anything is decoded.
enum HEIFDecoder {
    static func decode(_ bytes: [UInt8], format: ImageFormat, name: String, limits: PixelLimits,
                       warn: (String) -> Void) throws -> Image {
        // The item graph is read and its size checked before libheif sees the file.
        let plan: HEIFDecodePlan
        do throws(StageError) {
            plan = try HEIFDecodePlan(try HEIFItemGraph(bytes), maxPixels: limits.maxPixels)
        } catch { throw StageError("\(name): \(format.displayName) \(error.message)", cause: error.cause) }
        try ImageHeader(width: plan.width, height: plan.height).check(name: name, format: format, limits: limits)
        var input = bytes
        if let field = plan.primaryPatch {
            // `pitm` names no top-level image (a thumbnail, say): libheif is given the one to decode.
            for i in 0..<field.width { input[field.offset + i] = UInt8(truncatingIfNeeded: plan.item >> (8 * (field.width - 1 - i))) }
        }
        return try input.withUnsafeBytes { data in
            let context: HEIFContext
            do throws(StageError) { context = try HEIFContext() } catch { throw StageError("\(name): \(error.message)") }
            try context.read(data, name: name, format: format)
            let handle = try context.primaryImage(name: name, format: format)
            let heif = context.heif

            var found = embedded(handle, heif: heif)
            let alpha = heif.image_handle_has_alpha_channel(handle) != 0
            let premultiplied: Int32 = heif.image_handle_is_premultiplied_alpha(handle) != 0 ? 1 : 0
            var decoded: OpaquePointer?
            // 10- and 12-bit images (cameras write them) are converted to 8 bits by libheif.
            let options = heif.decoding_options_alloc()
            defer { heif.decoding_options_free(options) }
            options.pointee.convert_hdr_to_8bit = 1
            try HEIFContext.check(heif.decode_image(handle, &decoded, heif_colorspace_RGB,
                                                    alpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB, options),
                                  "\(name): corrupt or truncated \(format.displayName) image data")
            guard let decoded else { throw StageError("\(name): \(format.displayName) image did not decode") }
            defer { heif.image_release(decoded) }
            var stride: Int32 = 0
            // The decoded size is the plan's, or smaller when `clap` crops it.
            let width = Int(heif.image_get_width(decoded, heif_channel_interleaved))
            let height = Int(heif.image_get_height(decoded, heif_channel_interleaved))
            let bits = Int(heif.image_get_bits_per_pixel_range(decoded, heif_channel_interleaved))
            guard let plane = heif.image_get_plane(decoded, heif_channel_interleaved, &stride),
                  bits == 8, width > 0, height > 0, width * height <= plan.width * plan.height,
                  Int(stride) >= width * (alpha ? 4 : 3) else {
                throw StageError("\(name): \(format.displayName) image decoded to an unexpected layout (\(width)x\(height), \(bits) bits; "
                                 + "\(plan.width)x\(plan.height), 8 bits expected)")
            }
            if alpha && plan.alphaInLimitedRange && premultiplied == 0 {
                sumi_heif_expand_alpha(plane, Int(stride), Int32(width), Int32(height))
            }
            var metadata = ImageMetadata(sourceFormat: format.rawValue, sourcePath: name, knownOpaque: !alpha)
            // irot/imir are applied by libheif; an EXIF orientation tag beside them describes the
            // same turn, so it is reset to 1 on output.
            if let exif = found.exif, let stored = EXIFBlock(exif)?.orientation { metadata.sourceOrientation = stored }
            found.warnings = []
            found.apply(to: &metadata, warn: { warn("\(name): \($0)") })
            return Image(width: width, height: height, metadata: metadata) { out in
                sumi_import_rows(plane, Int(stride), alpha ? 4 : 3, premultiplied, Int32(width), Int32(height), out.baseAddress)
            }
        }
    }

    /// The colour information, EXIF and XMP attached to the image.
    static func embedded(_ handle: OpaquePointer, heif: sumi_heif_api) -> EmbeddedMetadata {
        var found = EmbeddedMetadata()
        let type = heif.image_handle_get_color_profile_type(handle)
        if type == heif_color_profile_type_prof || type == heif_color_profile_type_rICC {
            let size = heif.image_handle_get_raw_color_profile_size(handle)
            if size > 0 && size < 64 << 20 {
                var profile = [UInt8](repeating: 0, count: size)
                let error = profile.withUnsafeMutableBytes { heif.image_handle_get_raw_color_profile(handle, $0.baseAddress) }
                if error.code == heif_error_Ok { found.icc = profile }
            }
        } else if type == heif_color_profile_type_nclx {
            var nclx: UnsafeMutablePointer<heif_color_profile_nclx>?
            if heif.image_handle_get_nclx_color_profile(handle, &nclx).code == heif_error_Ok, let nclx {
                found.cicp = (Int(nclx.pointee.color_primaries.rawValue), Int(nclx.pointee.transfer_characteristics.rawValue))
                heif.nclx_color_profile_free(nclx)
            }
        }
        if let block = metadataBlock(handle, heif: heif, type: "Exif"), block.count >= 4 {
            // Four bytes give the offset of the TIFF header after them.
            let offset = Int(block[0]) << 24 | Int(block[1]) << 16 | Int(block[2]) << 8 | Int(block[3])
            if offset <= block.count - 4 { found.exif = Array(block[(4 + offset)...]) }
        }
        found.xmp = metadataBlock(handle, heif: heif, type: "mime", contentType: "application/rdf+xml")
        return found
    }

    static func metadataBlock(_ handle: OpaquePointer, heif: sumi_heif_api, type: String, contentType: String? = nil) -> [UInt8]? {
        let count = Int(heif.image_handle_get_number_of_metadata_blocks(handle, type))
        guard count > 0, count < 1000 else { return nil }
        var ids = [heif_item_id](repeating: 0, count: count)
        let listed = Int(heif.image_handle_get_list_of_metadata_block_IDs(handle, type, &ids, Int32(count)))
        for id in ids.prefix(listed) {
            if let contentType {
                guard let actual = heif.image_handle_get_metadata_content_type(handle, id),
                      String(cString: actual) == contentType else { continue }
            }
            let size = heif.image_handle_get_metadata_size(handle, id)
            guard size > 0, size < 16 << 20 else { continue }
            var block = [UInt8](repeating: 0, count: size)
            let error = block.withUnsafeMutableBytes { heif.image_handle_get_metadata(handle, id, $0.baseAddress) }
            if error.code == heif_error_Ok { return block }
        }
        return nil
    }
}
