import AgentCore
import CGtk
import FoundationEssentials
import Glibc

/// Benchmarks (`AGENT_REPORT_FRAMES=FILE`): the main-loop work in each frame of the
/// window's frame clock (before-paint to after-paint) and the longest stretch of work
/// between two waits of the main loop, written to FILE as `key value` lines on shutdown.
/// With `AGENT_REPORT_FRAME_LOG=LOG` as well, every frame as a line of LOG: when it began
/// (monotonic µs), its work (µs) and what `probe` said after it (-1 for nothing).
@MainActor
final class FrameMeter {
    private let path: String
    private let logPath: String?
    /// Read after each frame for the frame log (the transcript's top message, say).
    var probe: (() -> Int?)?
    private var frameStart = 0
    private var frameWork: [Int] = []
    private var frameLog: [(start: Int, work: Int, probe: Int)] = []
    /// When each frame over 16.7 ms began (monotonic µs).
    private var slowFrames: [Int] = []

    init?(environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard let path = environment["AGENT_REPORT_FRAMES"], !path.isEmpty else { return nil }
        self.path = path
        logPath = environment["AGENT_REPORT_FRAME_LOG"].flatMap { $0.isEmpty ? nil : $0 }
        agent_loop_meter_start(16_667)
    }

    /// Measures the frames of `window`'s frame clock once it is mapped.
    func watch(_ window: UnsafeMutablePointer<GtkWidget>) {
        Signals.connect(window.raw, "map") { [weak self] in
            guard let self, let clock = gtk_widget_get_frame_clock(window) else { return }
            Signals.connect(UnsafeMutableRawPointer(clock), "before-paint") { [weak self] in
                self?.frameStart = g_get_monotonic_time()
            }
            Signals.connect(UnsafeMutableRawPointer(clock), "after-paint", after: true) { [weak self] in
                guard let self, frameStart != 0 else { return }
                let work = g_get_monotonic_time() - frameStart
                frameWork.append(work)
                if logPath != nil { frameLog.append((frameStart, work, probe?() ?? -1)) }
                if work > 16_667 { slowFrames.append(frameStart) }
            }
        }
    }

    /// Writes the figures (microseconds).
    func write() {
        let loop = agent_loop_meter_read()
        let sorted = frameWork.sorted()
        let p99 = sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, sorted.count * 99 / 100)]
        let lines = [
            "frames \(sorted.count)",
            "frame_work_max_us \(sorted.last ?? 0)",
            "frame_work_p99_us \(p99)",
            "frames_over_16ms \(sorted.filter { $0 > 16_667 }.count)",
            "loop_iterations \(loop.iterations)",
            "loop_longest_us \(loop.longest_us)",
            "loop_over_16ms \(loop.over_budget)",
            "slow_frames_at_us \(slowFrames.map(String.init).joined(separator: ","))",
        ]
        save(lines, to: path)
        if let logPath { save(frameLog.map { "\($0.start) \($0.work) \($0.probe)" }, to: logPath) }
    }

    private func save(_ lines: [String], to path: String) {
        let report = Data((lines.joined(separator: "\n") + "\n").utf8)
        if !FileManager.default.createFile(atPath: path, contents: report) {
            FileDescriptorWriting.writeAll(Array("Could not write the frame report to \(path)\n".utf8), to: STDERR_FILENO)
        }
    }
}
