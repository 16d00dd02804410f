/// Finds the model servers already running on this computer: asks 127.0.0.1 and ::1 on
/// the ports such servers use by default, all at once, each with a short time-out. Nothing
/// is sent to any other address, nor through a proxy.
public enum LocalServerDiscovery {
    /// A port to ask, the protocol its usual server speaks, and what to call what answers
    /// when the answer does not say.
    public struct Candidate: Sendable, Equatable {
        public var port: Int
        public var protocolKind: ChatProtocol
        public var name: String

        public init(port: Int, protocol protocolKind: ChatProtocol, name: String) {
            self.port = port
            self.protocolKind = protocolKind
            self.name = name
        }
    }

    /// Ollama, llama-server, LM Studio, vLLM, and the ports LocalAI, KoboldCpp and
    /// text-generation-webui are often given.
    public static let candidates = [
        Candidate(port: 11434, protocol: .ollama, name: "Ollama"),
        Candidate(port: 8080, protocol: .openai, name: "llama-server"),
        Candidate(port: 1234, protocol: .openai, name: "LM Studio"),
        Candidate(port: 8000, protocol: .openai, name: "vLLM"),
        // TRANSLATORS: a model server of an unknown kind found running on this computer.
        Candidate(port: 5000, protocol: .openai, name: tr("Local server")),
        // TRANSLATORS: a model server of an unknown kind found running on this computer.
        Candidate(port: 5001, protocol: .openai, name: tr("Local server")),
    ]

    /// This computer's addresses, and the only ones ever asked.
    static let hosts = ["127.0.0.1", "[::1]"]

    /// The servers that answered, in the order of `candidates`; a server that answers the
    /// same on both addresses is listed once, by its IPv4 address. Returns within about
    /// `totalTimeout` however the ports behave (a server that accepts and stalls is given up).
    public static func discover(_ candidates: [Candidate] = candidates, connectTimeout: Duration = .milliseconds(300),
                                totalTimeout: Duration = .milliseconds(1500)) async -> [FoundServer] {
        let probes = candidates.flatMap { candidate in hosts.map { (candidate, $0) } }
        let answers = await withTaskGroup(of: (Int, FoundServer?).self) { group in
            for (index, (candidate, host)) in probes.enumerated() {
                group.addTask {
                    let probe = LocalServerProbe(host: host, candidate: candidate, connectTimeout: connectTimeout,
                                                 totalTimeout: totalTimeout)
                    return (index, await probe.run())
                }
            }
            var answers = [FoundServer?](repeating: nil, count: probes.count)
            for await (index, found) in group { answers[index] = found }
            return answers
        }
        var found: [FoundServer] = []
        for server in answers.compactMap({ $0 }) where !found.contains(where: { $0.isSameServer(as: server) }) {
            found.append(server)
        }
        return found
    }
}

extension FoundServer {
    /// The same server seen on the other address: same port, protocol and models.
    func isSameServer(as other: FoundServer) -> Bool {
        Self.loopbackPort(of: url) == Self.loopbackPort(of: other.url) && protocolKind == other.protocolKind
            && models == other.models
    }
}
