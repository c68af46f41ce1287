import CSumiPlugin
import CSumiVersion

/// The one version of Sumi (the VERSION file, passed in by Package.swift): printed by `sumi --version`,
/// reported to plugins in `sumi_host.host_version`, and what a plugin package depends on.
public enum SumiVersion {
    public static let string = String(cString: sumi_version_string())
    /// The plugin ABI versions this host loads.
    public static let pluginABIVersions: [UInt32] = Array(SUMI_PLUGIN_ABI_OLDEST...SUMI_PLUGIN_ABI_VERSION)

    /// The Swift release the binary was built with, whose runtime ships beside it: a Swift plugin is
    /// built with the same release (docs/install.md). Read from the compiler at build time; exact for
    /// the 6.3 releases, a bound outside them.
    public static let swiftRelease: String = {
        #if compiler(>=6.4)
        return "6.4 or later"
        #elseif compiler(>=6.3.3)
        return "6.3.3"
        #elseif compiler(>=6.3.2)
        return "6.3.2"
        #elseif compiler(>=6.3.1)
        return "6.3.1"
        #elseif compiler(>=6.3)
        return "6.3"
        #else
        return "before 6.3"
        #endif
    }()
}
