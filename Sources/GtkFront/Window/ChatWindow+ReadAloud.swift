import AgentCore
import CGtk
import FoundationEssentials

/// The window's side of reading aloud: the transcript follows the app's reader, a missing
/// speech service is explained, and what the window started stops with it.
extension ChatWindow {
    func followReadAloud() {
        let observers = [readAloud.observe { [weak self] state in
            if case .unavailable(let reason) = state { self?.showSpeechUnavailable(reason) }
        }, readAloud.observe { [weak transcript] _ in transcript?.showReading() }]
        // The app's reader outlives the window: what it reads, and its observers here, end with it.
        Signals.connect(window.raw, "destroy") { [weak self] in
            self?.readAloud.stop()
            for observer in observers { self?.readAloud.stopObserving(observer) }
        }
    }

    /// Reading aloud could not start: what it needs, and how to get it.
    private func showSpeechUnavailable(_ reason: String) {
        speechAlert?.withdraw()
        speechAlert = SpeechUnavailableDialog.show(over: window, reason: reason) { [weak self] in
            self?.speechAlert = nil
            self?.present()
        }
    }
}
