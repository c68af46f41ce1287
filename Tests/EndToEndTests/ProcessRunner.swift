import Foundation

/// Runs any program (a shell line, Python) the way `CLI.run` runs `sumi`, capturing what it prints.
enum ProcessRunner {
    static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                    in directory: String? = nil, stdin: Data? = nil) throws -> CLI.Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory ?? CLI.root)
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "SUMI_PLUGIN_PATH")
        // `make test-parity`: every run gets the plugin folder that replaces a skipped built-in family.
        if let parity = env["SUMI_TEST_PLUGIN_PATH"] { env["SUMI_PLUGIN_PATH"] = parity }
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let input = Pipe()
        process.standardInput = stdin == nil ? FileHandle.nullDevice : input
        try process.run()
        if let stdin {
            input.fileHandleForWriting.write(stdin)
            try input.fileHandleForWriting.close()
        }
        nonisolated(unsafe) var errData = Data()
        let reader = Thread { errData = err.fileHandleForReading.readDataToEndOfFile() }
        reader.start()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while !reader.isFinished { usleep(1000) }
        return CLI.Result(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                          stderr: String(decoding: errData, as: UTF8.self), stdoutData: outData)
    }

    /// `bash -c script`.
    static func shell(_ script: String, environment: [String: String] = [:], in directory: String? = nil) throws -> CLI.Result {
        try run("/bin/bash", ["-c", script], environment: environment, in: directory)
    }
}
