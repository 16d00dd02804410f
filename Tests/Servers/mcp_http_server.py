#!/usr/bin/env python3
"""An MCP server over HTTP for tests, built on the official Python SDK (`mcp` 2.3).

    python mcp_http_server.py --port N --token TOKEN [--transport streamable-http|sse] [--json-response] [--only TOOL,…]

Listens on 127.0.0.1 (--port 0 picks a free port) and prints "READY <port>" on stdout once
it accepts connections. Every request must carry "Authorization: Bearer TOKEN"; anything
else gets 401 with a JSON body. Endpoints: streamable-http POST/GET/DELETE /mcp; sse GET
/sse, whose first event (`event: endpoint`, `data: /messages/?session_id=…`, relative) names
where to POST; each POST gets 202 "Accepted" and its answer comes as `event: message` on /sse.
Tools: add, echo, slow_steps (progress), make_image, fail (isError), weather (structured), and
get_weather (no arguments: what a 270M model calls reliably).
With --json-response the SDK drops progress notifications of handshake-era sessions: they
reach neither the JSON answer nor the GET stream (SSE answers and the 2026-07-28 path carry them).

A session by curl (handshake era; the answer is one SSE event, or JSON with --json-response):
    curl -si http://127.0.0.1:$PORT/mcp -H "Authorization: Bearer $TOKEN" \
      -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \
      -d '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"curl","version":"1"}}}'
    # -> 200, mcp-session-id: <hex>, content-type: text/event-stream,
    #    body "event: message\r\ndata: {…"result":{…"protocolVersion":"2025-11-25"…}}\r\n\r\n"
    # Later requests add -H "Mcp-Session-Id: <hex>" -H 'MCP-Protocol-Version: 2025-11-25';
    # send {"jsonrpc":"2.0","method":"notifications/initialized"} first (-> 202, empty body).
The stateless 2026-07-28 protocol needs no session; the headers must match the body's _meta:
    curl -si http://127.0.0.1:$PORT/mcp -H "Authorization: Bearer $TOKEN" \
      -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \
      -H 'MCP-Protocol-Version: 2026-07-28' -H 'Mcp-Method: tools/call' -H 'Mcp-Name: add' \
      -d '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":2,"b":3},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}'
    # -> 200 application/json, {"result":{…"structuredContent":{"result":5},"resultType":"complete",…}}
    # (server/discover the same way with -H 'Mcp-Method: server/discover' and no Mcp-Name.)
    # The SDK picks the era by the MCP-Protocol-Version header alone: without it this body goes
    # to the session path and gets 400 "Bad Request: Missing session ID".
"""
import argparse
import asyncio
import base64
import hmac
import json
import os
import sys
import threading

import uvicorn
from pydantic import BaseModel

from mcp.server.mcpserver import Context, Image, MCPServer
from mcp.server.mcpserver.exceptions import ToolError

# A 1×1 opaque red PNG.
TINY_PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC")

server = MCPServer("agent-test-http", version="1.0")


@server.tool(description="Add two integers")
def add(a: int, b: int) -> int:
    return a + b


@server.tool(description="Get the weather where the user is")
def get_weather() -> str:
    return "sunny, 21 degrees"


@server.tool(description="Return the text unchanged")
def echo(text: str) -> str:
    return text


@server.tool(description="Take `steps` steps of 0.2 s, reporting progress after each")
async def slow_steps(steps: int, ctx: Context) -> str:
    for step in range(1, steps + 1):
        await asyncio.sleep(0.2)
        await ctx.report_progress(step, steps, f"step {step} of {steps}")
    return f"finished {steps} steps"


@server.tool(description="Return a 1×1 PNG image")
def make_image() -> Image:
    return Image(data=TINY_PNG, format="png")


@server.tool(description="Fail with the given reason (an isError result)")
def fail(reason: str):  # no return annotation, so no outputSchema
    raise ToolError(reason)  # logged on one line; the client gets "Error executing tool fail: <reason>"


class Weather(BaseModel):
    city: str
    temperature: float
    conditions: str


@server.tool(description="Made-up weather for a city, as structured output")
def weather(city: str) -> Weather:
    return Weather(city=city, temperature=21.5, conditions="sunny")


class RequireBearer:
    """ASGI middleware: 401 unless the request carries the bearer token. Lifespan passes through."""

    def __init__(self, app, token):
        self.app = app
        self.expected = f"Bearer {token}".encode()

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http":
            given = dict(scope["headers"]).get(b"authorization", b"")
            if not hmac.compare_digest(given, self.expected):
                body = json.dumps({"error": "unauthorized",
                                   "error_description": "missing or wrong bearer token"}).encode()
                await send({"type": "http.response.start", "status": 401,
                            "headers": [(b"content-type", b"application/json"),
                                        (b"content-length", str(len(body)).encode()),
                                        (b"www-authenticate", b'Bearer error="invalid_token"')]})
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--transport", choices=["streamable-http", "sse"], default="streamable-http")
    parser.add_argument("--json-response", action="store_true",
                        help="answer requests with application/json instead of an SSE stream")
    parser.add_argument("--tls-dir", help="serve HTTPS with server.crt and server.key from this folder")
    parser.add_argument("--only", help="offer only these tools (comma-separated): a small model copes with few")
    args = parser.parse_args()
    # Its schema as TypeScript servers write it, without pydantic's "title": Gemma 3 270M
    # reads that title as text to repeat instead of calling the tool.
    server._tool_manager.get_tool("get_weather").parameters.pop("title", None)
    if args.only:
        keep = set(args.only.split(","))
        for tool in await server.list_tools():
            if tool.name not in keep:
                server.remove_tool(tool.name)

    if args.transport == "sse":
        app = server.sse_app()
    else:
        app = server.streamable_http_app(json_response=args.json_response)
    config = uvicorn.Config(RequireBearer(app, args.token), host="127.0.0.1", port=args.port,
                            log_level="warning", lifespan="on",
                            ssl_certfile=os.path.join(args.tls_dir, "server.crt") if args.tls_dir else None,
                            ssl_keyfile=os.path.join(args.tls_dir, "server.key") if args.tls_dir else None)
    http = uvicorn.Server(config)

    async def announce():
        while not http.started:  # set once the app's lifespan has started and the socket listens
            await asyncio.sleep(0.01)
        print(f"READY {http.servers[0].sockets[0].getsockname()[1]}", flush=True)

    announcing = asyncio.create_task(announce())
    try:
        await http.serve()  # a failed start (port in use) exits with status 3; uvicorn logs why
    finally:
        announcing.cancel()


def exit_when_stdin_closes():
    """A test hands the server a pipe as stdin and never writes to it: its end — the test
    process ended, however it ended — ends the server too."""
    if not sys.stdin.isatty():
        sys.stdin.buffer.read()
        os._exit(0)


if __name__ == "__main__":
    threading.Thread(target=exit_when_stdin_closes, daemon=True).start()
    asyncio.run(main())
