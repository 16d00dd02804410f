import Glibc
import Dispatch
import CProcess
import FoundationEssentials
import Synchronization

/// The installed local model runtime: llama.cpp's `llama-server` and model files, in a
/// per-user Python virtual environment that `scripts/install-runtime` creates and
/// describes in `manifest.json`.
public struct LocalRuntime: Sendable {
    public let directory: URL
    public let serverExecutable: URL
    public let modelFiles: [String: URL]

    /// The command that installs the runtime, named in the error a user sees without it
    /// (`make install` installs it as `agent-install-runtime`).
    public static let installCommand = "agent-install-runtime"

    /// `$AGENT_RUNTIME_DIR`, else `$XDG_DATA_HOME/<app id>/runtime`.
    public static var defaultDirectory: URL {
        if let override = ProcessInfo.processInfo.environment["AGENT_RUNTIME_DIR"], !override.isEmpty {
            return URL(filePath: override, directoryHint: .isDirectory)
        }
        return AppIdentity.dataDirectory.appending(path: "runtime", directoryHint: .isDirectory)
    }

    private struct Manifest: Decodable {
        let llamaServer: String
        let models: [String: String]

        enum CodingKeys: String, CodingKey {
            case llamaServer = "llama_server"
            case models
        }
    }

    /// Reads the runtime's manifest, or explains how to install the runtime.
    public static func locate(in directory: URL = defaultDirectory) throws -> LocalRuntime {
        let manifestURL = directory.appending(path: "manifest.json")
        // TRANSLATORS: %1$s is a folder's path, %2$s a command; keep the line breaks.
        let notInstalled = ChatError.localModel(tr("The local model runtime is not installed (looked in %1$s).\nInstall it with: %2$s   (in Agent's source folder: scripts/install-runtime)\nor start Agent with --server URL to use another server.",
                                                   directory.path, installCommand))
        guard let data = try? Data(contentsOf: manifestURL) else { throw notInstalled }
        guard let manifest = try? JSONDecoder().decode(Manifest.self, from: data) else {
            // TRANSLATORS: %1$s is a file's path, %2$s a command.
            throw ChatError.localModel(tr("The local model runtime's manifest (%1$s) is damaged. Reinstall it with: %2$s", manifestURL.path, installCommand))
        }
        let server = URL(filePath: manifest.llamaServer)
        guard FileManager.default.isExecutableFile(atPath: server.path) else { throw notInstalled }
        return LocalRuntime(directory: directory, serverExecutable: server,
                            modelFiles: manifest.models.mapValues { URL(filePath: $0) })
    }

    /// The model file for `model`, or an error naming the package to install (or, for a
    /// chosen file that has gone, saying so).
    public func modelFile(for model: LocalModel) throws -> URL {
        if let file = model.file {
            guard FileManager.default.fileExists(atPath: file.path) else {
                // TRANSLATORS: %1$s is a file's name, %2$s its path.
                throw ChatError.localModel(tr("The model file “%1$s” is no longer at %2$s. Choose another model in Preferences › Models.",
                                              file.lastPathComponent, file.path))
            }
            return file
        }
        guard let file = modelFiles[model.id], FileManager.default.fileExists(atPath: file.path) else {
            // TRANSLATORS: %1$s is a model's name, %2$s a command.
            throw ChatError.localModel(tr("The model %1$s is not installed. Install it with: %2$s", model.displayName, model.installCommand))
        }
        return file
    }

    /// Whether `model`'s file is installed.
    public func has(_ model: LocalModel) -> Bool {
        (try? modelFile(for: model)) != nil
    }
}

extension LocalRuntime {
    /// The first line `llama-server --version` prints ("version: 0.6.0-dev (…)"), for bug
    /// reports; nil when it cannot be run (or has not answered within five seconds).
    public func serverVersion() async -> String? {
        var pipe: [Int32] = [-1, -1]
        guard agent_cloexec_pipe(&pipe) == 0 else { return nil }
        let pid = try? await TiedChildLauncher.shared.spawn([serverExecutable.path, "--version"], output: pipe[1])
        close(pipe[1])
        guard let pid else {
            close(pipe[0])
            return nil
        }
        let output = await withCheckedContinuation { (continuation: CheckedContinuation<String, Never>) in
            let descriptor = pipe[0]
            // One that hangs is killed, which ends its output too. The child is reaped only
            // under `reaped`'s lock, so the pid the timer signals is still this child's.
            let reaped = Mutex(false)
            DispatchQueue.global().asyncAfter(deadline: .now() + 5) {
                reaped.withLock { if !$0 { kill(pid, SIGKILL) } }
            }
            DetachedThread.start {
                var bytes: [UInt8] = []
                var buffer = [UInt8](repeating: 0, count: 4096)
                while bytes.count < 64 * 1024 {
                    let count = read(descriptor, &buffer, buffer.count)
                    if count < 0 && errno == EINTR { continue }
                    guard count > 0 else { break }
                    bytes += buffer[..<count]
                }
                close(descriptor)
                ChildExit.waitWithoutReaping(pid)
                reaped.withLock { done in
                    var status: Int32 = 0
                    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                    done = true
                }
                continuation.resume(returning: String(decoding: bytes, as: UTF8.self))
            }
        }
        return output.split(whereSeparator: \.isNewline).first { $0.hasPrefix("version") }.map(String.init)
    }
}
