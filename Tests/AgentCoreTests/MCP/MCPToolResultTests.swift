import AgentCore
import Testing

@Suite("MCP tool results as the model reads them")
struct MCPToolResultTests {
    @Test("Text joined; images, audio, links and binary resources as placeholders; embedded text inlined; isError kept")
    func everyBlock() throws {
        let result = try JSONParser.parse("""
            {"content": [
              {"type": "text", "text": "first"},
              {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"},
              {"type": "audio", "data": "UklGRg==", "mimeType": "audio/wav"},
              {"type": "resource_link", "uri": "file:///tmp/a.txt", "name": "a.txt", "mimeType": "text/plain"},
              {"type": "resource", "resource": {"uri": "file:///tmp/b.md", "text": "# B"}},
              {"type": "resource", "resource": {"uri": "file:///tmp/c.bin", "mimeType": "application/octet-stream", "blob": "AAAA"}},
              {"type": "something-new", "x": 1}
            ], "isError": true}
            """)
        let (text, isError) = MCPToolResult.text(of: result)
        #expect(isError)
        #expect(text == """
            first
            [image image/png, 9 bytes]
            [audio audio/wav, 6 bytes]
            [link to file:///tmp/a.txt “a.txt”, text/plain]
            [resource file:///tmp/b.md]
            # B
            [resource file:///tmp/c.bin, application/octet-stream, 3 bytes]
            """)
    }

    @Test("structuredContent stands in only when there is no text")
    func structured() throws {
        let onlyStructured = try JSONParser.parse(#"{"content": [], "structuredContent": {"temperature": 21.5}}"#)
        #expect(MCPToolResult.text(of: onlyStructured).text == #"{"temperature":21.5}"#)
        let both = try JSONParser.parse(#"{"content": [{"type": "text", "text": "21.5 °C"}], "structuredContent": {"temperature": 21.5}}"#)
        #expect(MCPToolResult.text(of: both).text == "21.5 °C")
        #expect(MCPToolResult.text(of: try JSONParser.parse(#"{"content": []}"#)).text == "(the tool returned nothing)")
    }
}
