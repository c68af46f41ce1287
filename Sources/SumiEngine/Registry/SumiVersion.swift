import CSumiPlugin
import CSumiVersion

/// The one version of Sumi (the VERSION file, passed in by Package.swift): printed by `sumi --version`,
/// reported to plugins in `sumi_host.host_version`, and what a plugin package depends on.
public enum SumiVersion {
    public static let string = String(cString: sumi_version_string())
    /// The plugin ABI versions this host loads.
    public static let pluginABIVersions: [UInt32] = Array(SUMI_PLUGIN_ABI_OLDEST...SUMI_PLUGIN_ABI_VERSION)
}
