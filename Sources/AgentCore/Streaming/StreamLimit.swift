/// The most one streamed unit — an SSE event, an NDJSON line — may hold. Replies stream in
/// pieces of a few bytes; a unit this large is a broken or hostile server, and a parser that
/// kept buffering it would eat the memory.
public enum StreamLimit {
    public static let bytes = 16 << 20
    /// What the user is told when a server went over it.
    public static var message: String { tr("The server sent more than 16 MB without a break between events; Agent stopped reading it.") }
}
