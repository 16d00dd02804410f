import AgentCore
import Foundation

/// A speech-dispatcher of the test's own, as a desktop runs it but writing its voice to a WAV
/// file: a temporary home whose `.asoundrc` points ALSA's default device at a file, and a
/// `speechd.conf` (the system's, with ALSA output) in its own config folder — with the
/// default output (PulseAudio) and no sound server, the service never finishes a message.
/// Started as libspeechd starts it (Tests/Servers/spawn-speech-dispatcher), it returns once it
/// takes connections. It ends with `stop()`, or by itself a minute after its last client left.
public final class SpeechService: Sendable {
    public let folder: URL
    /// The WAV file the voice goes to (the service holds it open until it ends).
    public let audioFile: URL
    public let socketPath: String
    private let runtime: URL

    public struct NotStarted: Error, CustomStringConvertible {
        public let description: String
    }

    public init() throws {
        folder = FileManager.default.temporaryDirectory.appending(path: "agent-speech-\(UUID().uuidString.prefix(8))")
        let home = folder.appending(path: "home")
        let config = folder.appending(path: "config")
        runtime = folder.appending(path: "run")
        audioFile = folder.appending(path: "voice.wav")
        socketPath = runtime.appending(path: "speech-dispatcher/speechd.sock").path
        let manager = FileManager.default
        for directory in [home, config.appending(path: "speech-dispatcher"), runtime] {
            try manager.createDirectory(at: directory, withIntermediateDirectories: true)
        }
        try manager.setAttributes([.posixPermissions: 0o700], ofItemAtPath: runtime.path)
        let system = try String(contentsOfFile: "/etc/speech-dispatcher/speechd.conf", encoding: .utf8)
        try (system + "\nAudioOutputMethod \"alsa\"\n")
            .write(to: config.appending(path: "speech-dispatcher/speechd.conf"), atomically: true, encoding: .utf8)
        try "pcm.!default { type file; slave.pcm \"null\"; file \"\(audioFile.path)\"; format \"wav\" }\n"
            .write(to: home.appending(path: ".asoundrc"), atomically: true, encoding: .utf8)

        let service = Process()
        service.executableURL = TiedProcess.serversDirectory.appending(path: "spawn-speech-dispatcher")
        service.arguments = ["--timeout", "60", "--communication-method", "unix_socket", "--socket-path", socketPath]
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = home.path
        environment["XDG_CONFIG_HOME"] = config.path
        environment["XDG_RUNTIME_DIR"] = runtime.path
        service.environment = environment
        service.standardOutput = FileHandle.nullDevice
        service.standardError = FileHandle.nullDevice
        try service.run()
        service.waitUntilExit()
        guard service.terminationStatus == 0, manager.fileExists(atPath: socketPath) else {
            throw NotStarted(description: "speech-dispatcher did not start (status \(service.terminationStatus)); is it installed?")
        }
    }

    /// Where the app reaches it.
    public var address: SpeechAddress { SpeechAddress(socketPath: socketPath, autospawn: false) }

    /// The bytes of voice written so far, the WAV header's left out.
    public var audioBytes: Int {
        let size = (try? FileManager.default.attributesOfItem(atPath: audioFile.path)[.size] as? Int) ?? 0
        return max(size - 44, 0)
    }

    /// Ends the service (by the id in its pid file) and removes its folder.
    public func stop() {
        let pidFile = runtime.appending(path: "speech-dispatcher/pid/speech-dispatcher.pid")
        // Only while that process is still speech-dispatcher: once it has ended, its id may
        // already be another process's (an app another test started).
        if let text = try? String(contentsOf: pidFile, encoding: .utf8), let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)),
           pid > 1, (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?.hasPrefix("speech-dispatch") == true {
            kill(pid, SIGTERM)
        }
        try? FileManager.default.removeItem(at: folder)
    }
}
