import SumiKit

/// A layer repeated edge to edge over a sheet (`place tile=true`, a tiled watermark): the sheet is
/// `size` layout units, and one copy of `tile` has its top-left at `tileOrigin` (layout units from
/// the sheet's top-left: where `place` put the single layer); the others repeat from there in every
/// direction.
///
/// The tile is drawn once at the final scale and its pixels copied, row by row; the sheet is as
/// large as what it covers (the base), 4 bytes a pixel, checked against the run's limits before it
/// is drawn (`LayerContent.rasterize(…limits:)`, which `blend` calls).
struct TiledLayerContent: LayerContent {
    let tile: any LayerContent
    let size: Size
    let tileOrigin: Point

    func rasterize(scaleX: Double, scaleY: Double, phase: Point) throws -> Image {
        let width = max(1, Int((size.width * scaleX + phase.x).rounded(.up)))
        let height = max(1, Int((size.height * scaleY + phase.y).rounded(.up)))
        let drawn = try tile.rasterize(scaleX: scaleX, scaleY: scaleY, phase: Point(x: 0, y: 0))
        let tw = drawn.width, th = drawn.height
        // The first copy's top-left, at or left of (above) the sheet's edge.
        let ox = Int((tileOrigin.x * scaleX + phase.x).rounded(.down)), oy = Int((tileOrigin.y * scaleY + phase.y).rounded(.down))
        func firstCopy(_ origin: Int, _ side: Int) -> Int {
            let remainder = ((origin % side) + side) % side
            return remainder == 0 ? 0 : remainder - side
        }
        let startX = firstCopy(ox, tw), startY = firstCopy(oy, th)
        return Image(width: width, height: height, uninitialized: { sheet in
            // One line of the sheet per row of the tile, then copied to every sheet row it serves.
            var line = [UInt8](repeating: 0, count: width * 4)
            for ty in 0..<th {
                let tileRow = drawn.pixels[(ty * tw * 4)..<((ty + 1) * tw * 4)]
                var x = startX
                while x < width {
                    let from = max(0, -x), to = min(tw, width - x)
                    line.replaceSubrange(((x + from) * 4)..<((x + to) * 4), with: tileRow[(tileRow.startIndex + from * 4)..<(tileRow.startIndex + to * 4)])
                    x += tw
                }
                var y = startY + ty
                while y < height {
                    if y >= 0 { _ = UnsafeMutableBufferPointer(rebasing: sheet[(y * width * 4)..<((y + 1) * width * 4)]).update(fromContentsOf: line) }
                    y += th
                }
            }
        })
    }
}
