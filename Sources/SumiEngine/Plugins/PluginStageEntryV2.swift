import CSumiPlugin
import SumiKit

/// One stage of a loaded version 2 plugin: its C function table and its decoded descriptor.
///
/// `@unchecked Sendable`: the table belongs to a library that is never unloaded, and the ABI requires
/// it to stay unchanged for the life of the process, so sharing the pointer between threads is safe.
final class PluginStageEntryV2: @unchecked Sendable {
    let table: UnsafePointer<sumi_stage>
    /// The table read by the size it declares (fields beyond it zero): what the host calls through,
    /// so a table of the first version 2 layout is never read past its end.
    let functions: sumi_stage
    let descriptor: StageDescriptor
    /// The library's path.
    let origin: String

    /// The optional band callbacks (a table that sets them, with an image first input and output).
    let bands: Bands?
    /// The table's `port_access` (nil: port 0 by bands when there are band callbacks, others whole).
    let portAccess: (@convention(c) (UnsafeMutableRawPointer?, UInt32) -> UInt32)?

    struct Bands {
        /// How the bands begin: `band_start` with the other inputs, or `band_begin` with the size.
        enum Begin {
            case size(@convention(c) (UnsafeMutableRawPointer?, Int32, Int32, UnsafeMutablePointer<Int32>?,
                                      UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<sumi_error>?) -> Int32)
            case inputs(@convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafePointer<OpaquePointer?>?, UInt32,
                                        OpaquePointer?, UnsafeMutablePointer<sumi_error>?) -> Int32)
        }
        let begin: Begin
        let process: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<UInt8>?, UnsafeMutablePointer<UInt8>?,
                                     Int32, Int32, Int64, UnsafeMutablePointer<sumi_error>?) -> Int32
        let end: @convention(c) (UnsafeMutableRawPointer?, Int32, UnsafeMutablePointer<sumi_error>?) -> Int32
    }

    init(table: UnsafePointer<sumi_stage>, functions: sumi_stage, descriptor: StageDescriptor, origin: String, bands: Bands? = nil,
         portAccess: (@convention(c) (UnsafeMutableRawPointer?, UInt32) -> UInt32)? = nil) {
        self.table = table
        self.functions = functions
        self.descriptor = descriptor
        self.origin = origin
        self.bands = bands
        self.portAccess = portAccess
    }

    /// Names the library in run errors: `plugin libcontact.so`.
    var place: String { "plugin \(FileIO.fileName(of: origin))" }
}
