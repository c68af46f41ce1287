import CSumiPlugin
import SumiKit

/// One stage of a loaded version 1 plugin: its C function table and its decoded descriptor.
///
/// `@unchecked Sendable`: the table belongs to a library that is never unloaded, and the ABI requires
/// it to stay unchanged for the life of the process, so sharing the pointer between threads is safe.
final class PluginStageEntryV1: @unchecked Sendable {
    let table: UnsafePointer<sumi_stage_v1>
    let descriptor: StageDescriptor
    /// The library's path.
    let origin: String

    init(table: UnsafePointer<sumi_stage_v1>, descriptor: StageDescriptor, origin: String) {
        self.table = table
        self.descriptor = descriptor
        self.origin = origin
    }

    /// Names the library in run errors, which the runner already prefixes with the stage's place:
    /// `plugin libpixelate.so`.
    var place: String { "plugin \(FileIO.fileName(of: origin))" }
}
