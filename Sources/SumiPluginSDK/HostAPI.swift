import CSumiPlugin

/// What the SDK asks of the host's api table (each exported stage keeps the table it was given).
enum HostAPI {
    /// Whether the host has `image_size`, and with it `port_access` and `band_start`
    /// (`SUMI_API_HAS(api, image_size)`).
    static func hasImageSize(_ api: UnsafePointer<sumi_api>) -> Bool {
        guard let offset = MemoryLayout<sumi_api>.offset(of: \sumi_api.image_size) else { return false }
        return Int(api.pointee.size) >= offset + MemoryLayout<UnsafeRawPointer>.size && api.pointee.image_size != nil
    }
}
