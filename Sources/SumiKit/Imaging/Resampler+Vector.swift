import CSumiPixels

/// The resampler's two hot loops on vectors, in C (`sumi_resample.h`: SSE2 intrinsics, which Swift's
/// SIMD types compiled to scalar shuffles and clamps): the same fixed-point arithmetic as the scalar
/// loops (`filterRow`, `filterColumns`), so the same bytes. Used when every weight fits in 16 bits
/// (`Coefficients.narrow`), as the weights of every filter do; the scalar loops remain for anything
/// else. Measured on the 750x501 -> 512x342 thumbnail's horizontal pass: 1.95 ms in Swift SIMD,
/// 0.71 ms here.
extension Resampler {
    /// Scratch for the vector loops of one resize: the horizontal pass's interleaved source row and
    /// the vertical pass's row pointers.
    final class VectorScratch {
        let row: UnsafeMutableRawPointer
        let rows: UnsafeMutablePointer<UnsafePointer<UInt8>?>

        init(sourceWidth: Int, taps: Int) {
            row = .allocate(byteCount: sumi_resample_row_scratch(sourceWidth), alignment: 16)
            rows = .allocate(capacity: max(1, taps))
        }

        deinit {
            row.deallocate()
            rows.deallocate()
        }
    }

    /// The horizontal pass over one row with 16-bit weights.
    @inline(__always)
    static func filterRow(_ src: UnsafePointer<UInt8>, sourceWidth: Int, into dst: UnsafeMutablePointer<UInt8>,
                          _ c: Coefficients, narrow wts: UnsafePointer<Int16>, scratch: VectorScratch) {
        c.start.withUnsafeBufferPointer { starts in
            c.count.withUnsafeBufferPointer { counts in
                sumi_resample_row(src, sourceWidth, dst, starts.count, starts.baseAddress, counts.baseAddress, c.taps, wts,
                                  scratch.row)
            }
        }
    }

    /// The vertical pass for output row `y` with 16-bit weights.
    @inline(__always)
    static func filterColumns(row: (Int) -> UnsafePointer<UInt8>, output y: Int, into dst: UnsafeMutablePointer<UInt8>,
                              rowBytes: Int, _ c: Coefficients, narrow wts: UnsafePointer<Int16>, scratch: VectorScratch) {
        let s0 = Int(c.start[y]), n = Int(c.count[y])
        for k in 0..<n { scratch.rows[k] = row(s0 + k) }
        sumi_resample_columns(scratch.rows, n, wts + y * c.taps, dst, rowBytes)
    }
}
