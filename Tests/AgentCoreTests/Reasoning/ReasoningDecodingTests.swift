@testable import AgentCore
import Testing

/// Reasoning in its three forms — OpenAI-style `reasoning_content`/`reasoning`, `<think>…</think>`
/// opening the content, Ollama's `message.thinking` — told apart from the answer however the
/// stream is cut.
@Suite("Reasoning told apart from the answer")
struct ReasoningDecodingTests {
    /// The reasoning and the answer that `events` carry, each joined.
    static func split(_ events: [ReplyEvent]) -> (reasoning: String, answer: String) {
        events.reduce(into: ("", "")) { result, event in
            switch event {
            case .reasoning(let piece): result.0 += piece
            case .text(let piece): result.1 += piece
            default: break
            }
        }
    }

    static func run(_ splitter: inout ThinkTagSplitter, _ pieces: [String]) -> (reasoning: String, answer: String) {
        var all: [ThinkTagSplitter.Piece] = []
        for piece in pieces { all += splitter.feed(piece) }
        all += splitter.finish()
        return all.reduce(into: ("", "")) { result, piece in
            switch piece {
            case .reasoning(let text): result.0 += text
            case .answer(let text): result.1 += text
            }
        }
    }

    static let tagged = "\n<think>\nI weigh it — carefully 🤔.\n</think>\n\nThe answer is 4."

    @Test("<think>…</think> is split from the answer with the content cut at every position, in two and in three")
    func thinkTagsCutAnywhere() {
        let characters = Array(Self.tagged)
        for first in 0...characters.count {
            var splitter = ThinkTagSplitter()
            let result = Self.run(&splitter, [String(characters[..<first]), String(characters[first...])])
            #expect(result.reasoning == "I weigh it — carefully 🤔.\n", "cut at \(first)")
            #expect(result.answer == "The answer is 4.", "cut at \(first)")
            for second in first...characters.count {
                var splitter = ThinkTagSplitter()
                let result = Self.run(&splitter, [String(characters[..<first]), String(characters[first..<second]),
                                                  String(characters[second...])])
                #expect(result.reasoning == "I weigh it — carefully 🤔.\n" && result.answer == "The answer is 4.",
                        "cut at \(first) and \(second)")
            }
        }
    }

    @Test("Content that does not open with <think> is all answer, a later <think> included",
          arguments: ["<b>bold</b>", "<thinking>no</thinking>", "Sure. <think>x</think>", "<thi", "  ", "<", "think>"])
    func otherContentIsAnswer(_ content: String) {
        let characters = Array(content)
        for cut in 0...characters.count {
            var splitter = ThinkTagSplitter()
            let result = Self.run(&splitter, [String(characters[..<cut]), String(characters[cut...])])
            #expect(result.reasoning.isEmpty)
            #expect(result.answer == content, "cut at \(cut)")
        }
    }

    @Test("Thinking cut off before </think> is kept as reasoning, a half marker included")
    func unfinishedThinking() {
        var splitter = ThinkTagSplitter()
        let result = Self.run(&splitter, ["<think>Still", " going</thi"])
        #expect(result.reasoning == "Still going</thi")
        #expect(result.answer.isEmpty)
    }

    @Test("Pieces stream out as soon as they are known: only a possible marker is held back")
    func streamsAsItGoes() {
        var splitter = ThinkTagSplitter()
        #expect(splitter.feed("<thi") == [])
        #expect(splitter.feed("nk>Let me") == [.reasoning("Let me")])
        #expect(splitter.feed(" see.</") == [.reasoning(" see.")])
        #expect(splitter.feed("think>4") == [.answer("4")])
        #expect(splitter.feed(" it is") == [.answer(" it is")])
    }

    /// An OpenAI SSE stream fed in two reads cut at every byte (and byte by byte).
    static func decodeOpenAI(_ stream: String, cutAt cut: Int?) -> [ReplyEvent] {
        var decoder = OpenAIStreamDecoder()
        let bytes = Array(stream.utf8)
        var events: [ReplyEvent] = []
        if let cut {
            events += decoder.feed(Array(bytes[..<cut]))
            events += decoder.feed(Array(bytes[cut...]))
        } else {
            for byte in bytes { events += decoder.feed([byte]) }
        }
        return events + decoder.finish().events
    }

    static func openAIChunk(_ delta: String) -> String {
        "data: {\"choices\":[{\"delta\":\(delta)}]}\n\n"
    }

    @Test("reasoning_content and reasoning deltas are reasoning, cut at every byte", arguments: ["reasoning_content", "reasoning"])
    func openAIReasoningFields(_ field: String) {
        let stream = Self.openAIChunk(#"{"role":"assistant","content":null}"#)
            + Self.openAIChunk(#"{"\#(field)":"Two and ","content":null}"#)
            + Self.openAIChunk(#"{"\#(field)":"two é."}"#)
            + Self.openAIChunk(#"{"content":"Four"}"#)
            + "data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n"
        for cut in [nil] + Array(0...stream.utf8.count) {
            let events = Self.decodeOpenAI(stream, cutAt: cut)
            let result = Self.split(events)
            #expect(result.reasoning == "Two and two é." && result.answer == "Four", "cut at \(String(describing: cut))")
        }
        #expect(Self.decodeOpenAI(stream, cutAt: stream.utf8.count).filter { if case .started = $0 { false } else { true } }
                == [.reasoning("Two and two é."), .text("Four"), .finished(reason: "stop")], "consecutive reasoning is one event per batch")
    }

    @Test("<think> in OpenAI content, its markers cut across deltas, and the stream cut at every byte")
    func openAIThinkTags() {
        let stream = [#"{"content":"<thi"}"#, #"{"content":"nk>\nHm"}"#, #"{"content":"m.</th"}"#, #"{"content":"ink>\n\nYes"}"#,
                      #"{"content":"."}"#].map(Self.openAIChunk).joined()
            + "data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n"
        for cut in [nil] + Array(0...stream.utf8.count) {
            let result = Self.split(Self.decodeOpenAI(stream, cutAt: cut))
            #expect(result.reasoning == "Hmm." && result.answer == "Yes.", "cut at \(String(describing: cut))")
        }
    }

    @Test("A half marker held back when the stream ends comes out before the finish")
    func heldBackAtTheEnd() {
        let events = Self.decodeOpenAI(Self.openAIChunk(#"{"content":"<thi"}"#)
                                       + "data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n", cutAt: nil)
        #expect(events.filter { if case .started = $0 { false } else { true } } == [.text("<thi"), .finished(reason: "stop")])
        let cutOff = Self.decodeOpenAI(Self.openAIChunk(#"{"content":"<think>Hmm</th"}"#), cutAt: nil)
        #expect(Self.split(cutOff).reasoning == "Hmm</th", "a stream cut mid-thought keeps the thought")
    }

    static func decodeOllama<D: ReplyStreamDecoder>(_ decoder: D, _ stream: String, cutAt cut: Int) -> [ReplyEvent] {
        var decoder = decoder
        let bytes = Array(stream.utf8)
        let events = decoder.feed(Array(bytes[..<cut])) + decoder.feed(Array(bytes[cut...]))
        return events + decoder.finish().events
    }

    static func ollamaLine(content: String, thinking: String? = nil, done: Bool = false) -> String {
        let thought = thinking.map { ",\"thinking\":\"\($0)\"" } ?? ""
        return "{\"model\":\"qwen3\",\"message\":{\"role\":\"assistant\",\"content\":\"\(content)\"\(thought)},\"done\":\(done)}\n"
    }

    @Test("Ollama's message.thinking and <think> in its content, cut at every byte")
    func ollamaThinking() {
        let field = Self.ollamaLine(content: "", thinking: "Sum ") + Self.ollamaLine(content: "", thinking: "it.")
            + Self.ollamaLine(content: "4") + Self.ollamaLine(content: "", done: true)
        let tags = Self.ollamaLine(content: "<think") + Self.ollamaLine(content: ">Sum it.</") + Self.ollamaLine(content: "think>4")
            + Self.ollamaLine(content: "", done: true)
        for stream in [field, tags] {
            for cut in 0...stream.utf8.count {
                let result = Self.split(Self.decodeOllama(OllamaStreamDecoder(), stream, cutAt: cut))
                #expect(result.reasoning == "Sum it." && result.answer == "4", "cut at \(cut)")
            }
        }
        let harness = "data: " + Self.ollamaLine(content: "", thinking: "Sum it.").dropLast() + "\n\n"
            + "data: " + Self.ollamaLine(content: "4", done: true).dropLast() + "\n\n"
        let result = Self.split(Self.decodeOllama(HarnessStreamDecoder(), harness, cutAt: 9))
        #expect(result.reasoning == "Sum it." && result.answer == "4", "the harness's SSE carries Ollama's thinking too")
    }
}
