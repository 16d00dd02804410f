#!/usr/bin/env python3
"""A hand-written MCP server for tests, over stdio (or HTTP, below): the misbehaviour and edge
cases real servers do not produce on demand (crashes, garbage on stdout, hangs, 10 MiB
answers, list changes, server→client requests, long dotted tool names, event streams left
open). No SDK: newline-delimited JSON-RPC.

    python mcp_scripted_server.py [--modern-only | --answer-version VERSION] [--initialize-delay SECONDS]
                                  [--http [--hold-streams]] [--tag WORD]

Handshake era (default): initialize answers the requested version if it is one of
HANDSHAKE_VERSIONS, else 2025-11-25 (--answer-version: always VERSION, as a server that knows
only that one, such as those of 2024-11-05); tools/list comes in two pages (nextCursor
"page-2"); server/discover is -32601, as on a legacy SDK server. --modern-only: initialize fails with
-32022 {"supported":["2026-07-28"],"requested":…}; server/discover and every request whose
params._meta carries io.modelcontextprotocol/protocolVersion "2026-07-28" are served
statelessly, with "resultType":"complete" in each result. --initialize-delay: initialize is
answered only after SECONDS, as a server slow to start.

Tools: crash (exit 3 mid-call), garbage (3 non-JSON stdout lines, then "after garbage"), hang
(never answers; notifications/cancelled for it logs "cancelled <id>" to stderr), big (10 MiB
of 'x' in one text block), grow ("grown", then notifications/tools/list_changed; from then on
tools/list has `extra`), ask_client (sends sampling/createMessage id "srv-1" and ping id
"srv-2", waits for both answers, returns "sampling answered: <code or result>; ping answered:
<result>"), progress (two notifications/progress "step 1"/"step 2" for _meta.progressToken,
then "done"), echo_args (the arguments as JSON text), and LONG_NAME ("long name ok").
Logs to stderr; exits 0 on stdin EOF.

--http: the same server over Streamable HTTP on 127.0.0.1 (a free port, any path), printing
"READY <port>" on stdout; stdin is then only a lifeline. Each POST of a request is answered
with an event stream of what the server sends while handling it (so ask_client is for stdio);
notifications and responses get 202. --hold-streams: each such stream stays open after its
answer until the client closes it (the spec says the server should close it); GET /_streams
lists them: [{"id", "method", "closed"}].

By hand:
    printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"sh","version":"1"}}}' \
      '{"jsonrpc":"2.0","method":"notifications/initialized"}' '{"jsonrpc":"2.0","id":2,"method":"tools/list"}' \
      | python3 mcp_scripted_server.py
"""
import argparse
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

HANDSHAKE_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
LATEST_HANDSHAKE = "2025-11-25"
MODERN = "2026-07-28"
VERSION_KEY = "io.modelcontextprotocol/protocolVersion"
CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities"
SERVER_INFO = {"name": "agent-scripted", "version": "1.0"}
LONG_NAME = "a.tool.with.dots.and.a.very.long.name.that.goes.past.sixty.four.characters.for.sure"
BIG_SIZE = 10 * 1024 * 1024

# JSON-RPC error codes
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INVALID_REQUEST = -32600
MISSING_CLIENT_CAPABILITY = -32021
UNSUPPORTED_VERSION = -32022


def tool(name, description, properties=None, required=(), open_schema=False):
    schema = {"type": "object", "properties": properties or {}}
    if required:
        schema["required"] = list(required)
    if open_schema:
        schema["additionalProperties"] = True
    return {"name": name, "description": description, "inputSchema": schema}


TOOLS = [
    tool("crash", "Exit with status 3 in the middle of the call, without answering"),
    tool("garbage", "Write three lines that are not JSON-RPC to stdout, then answer"),
    tool("hang", "Never answer (cancel it)"),
    tool("big", "Answer with 10 MiB of text"),
    tool("grow", "Add the tool `extra` and announce notifications/tools/list_changed"),
    tool("ask_client", "Ask the client for sampling and a ping, report what it answered"),
    tool("progress", "Send two progress notifications, then answer"),
    tool("echo_args", "Return the arguments received, as JSON", open_schema=True),
    tool(LONG_NAME, "A name with dots, longer than 64 characters"),
]
EXTRA = tool("extra", "Exists only after `grow`")
PAGE_SIZE = 5  # tools/list answers in two pages


def log(text):
    print(f"scripted server: {text}", file=sys.stderr, flush=True)


def write_line(text):
    sys.stdout.buffer.write(text.encode() + b"\n")
    sys.stdout.buffer.flush()


def send(message):
    write_line(json.dumps(message, ensure_ascii=False, separators=(",", ":")))


class RequestError(Exception):
    def __init__(self, code, message, data=None):
        super().__init__(message)
        self.error = {"code": code, "message": message}
        if data is not None:
            self.error["data"] = data


class Server:
    def __init__(self, modern_only, answer_version=None, initialize_delay=0):
        self.send = send  # where messages go: stdout, or over HTTP the answer to the POST being handled
        self.modern_only = modern_only
        self.answer_version = answer_version
        self.initialize_delay = initialize_delay
        self.initialized = False
        self.grown = False
        self.hanging = set()  # ids of `hang` calls, never answered
        self.asks = {}  # our request id ("srv-N") → the ask_client call it belongs to
        self.next_ask = 1

    # Dispatch

    def receive(self, message):
        if isinstance(message, list):  # a JSON-RPC batch (2025-03-26)
            for item in message:
                self.receive(item)
        elif not isinstance(message, dict):
            log(f"ignoring a message that is not an object: {message!r}")
        elif "method" in message and "id" in message:
            self.request(message)
        elif "method" in message:
            self.notification(message)
        elif "id" in message and ("result" in message or "error" in message):
            self.response(message)
        else:
            log(f"ignoring a message that is neither request, notification nor response: {message!r}")

    def request(self, message):
        request_id, method = message["id"], message["method"]
        params = message.get("params") or {}
        try:
            modern = self.era(method, params)
            result = self.call(request_id, method, params, modern)
        except RequestError as error:
            self.send({"jsonrpc": "2.0", "id": request_id, "error": error.error})
            return
        if result is None:
            return  # answered later (ask_client), or never (hang, crash)
        if modern:
            result["resultType"] = "complete"
        self.send({"jsonrpc": "2.0", "id": request_id, "result": result})

    def era(self, method, params):
        """Whether to serve the request statelessly (2026-07-28); raises what this mode rejects."""
        meta = params.get("_meta") if isinstance(params.get("_meta"), dict) else {}
        if not self.modern_only:
            if method == "server/discover":
                raise RequestError(METHOD_NOT_FOUND, "Method not found", method)
            if method not in ("initialize", "ping") and not self.initialized:
                raise RequestError(INVALID_REQUEST, "Received a request before initialize")
            return False
        if method == "initialize":
            raise RequestError(UNSUPPORTED_VERSION, "Unsupported protocol version",
                               {"supported": [MODERN], "requested": params.get("protocolVersion")})
        if VERSION_KEY not in meta or CAPABILITIES_KEY not in meta:
            raise RequestError(INVALID_PARAMS, f"params._meta must carry {VERSION_KEY} and {CAPABILITIES_KEY}")
        if meta[VERSION_KEY] != MODERN:
            raise RequestError(UNSUPPORTED_VERSION, "Unsupported protocol version",
                               {"supported": [MODERN], "requested": meta[VERSION_KEY]})
        return True

    def call(self, request_id, method, params, modern):
        if method == "initialize":
            requested = params.get("protocolVersion")
            self.initialized = True
            answered = self.answer_version or (requested if requested in HANDSHAKE_VERSIONS else LATEST_HANDSHAKE)
            time.sleep(self.initialize_delay)
            log(f"initialize asked for {requested}, answered {answered}")
            return {"protocolVersion": answered,
                    "capabilities": {"tools": {"listChanged": True}}, "serverInfo": SERVER_INFO}
        if method == "ping" and not modern:  # ping was removed in 2026-07-28
            return {}
        if method == "server/discover":
            return {"supportedVersions": [MODERN], "capabilities": {"tools": {"listChanged": True}},
                    "ttlMs": 0, "cacheScope": "private", "_meta": {"io.modelcontextprotocol/serverInfo": SERVER_INFO}}
        if method == "tools/list":
            return self.list_tools(params.get("cursor"), modern)
        if method == "tools/call":
            return self.call_tool(request_id, params, modern)
        raise RequestError(METHOD_NOT_FOUND, "Method not found", method)

    def notification(self, message):
        method, params = message["method"], message.get("params") or {}
        if method == "notifications/cancelled":
            request_id = params.get("requestId")
            if request_id in self.hanging:
                self.hanging.discard(request_id)
                log(f"cancelled {request_id}")
            else:
                log(f"ignored a cancellation of {request_id!r}: not in flight")
        elif method == "notifications/initialized":
            log("client sent notifications/initialized")

    def response(self, message):
        call = self.asks.pop(message["id"], None)
        if call is None:
            log(f"ignoring a response to an unknown request {message['id']!r}")
            return
        call["answers"][message["id"]] = message
        if len(call["answers"]) < 2:
            return
        sampling, ping = (call["answers"][i] for i in call["ids"])
        sampling_text = (str(sampling["error"].get("code")) if "error" in sampling
                         else json.dumps(sampling["result"], separators=(",", ":")))
        ping_text = (f"error {ping['error'].get('code')}" if "error" in ping
                     else json.dumps(ping["result"], separators=(",", ":")))
        self.send({"jsonrpc": "2.0", "id": call["request_id"],
                   "result": text_result(f"sampling answered: {sampling_text}; ping answered: {ping_text}")})

    # Methods

    def list_tools(self, cursor, modern):
        tools = TOOLS + ([EXTRA] if self.grown else [])
        if cursor is None:
            result = {"tools": tools[:PAGE_SIZE], "nextCursor": "page-2"}
        elif cursor == "page-2":
            result = {"tools": tools[PAGE_SIZE:]}
        else:
            raise RequestError(INVALID_PARAMS, f"Invalid cursor: {cursor!r}")
        if modern:
            result.update(ttlMs=0, cacheScope="private")
        return result

    def call_tool(self, request_id, params, modern):
        name, arguments = params.get("name"), params.get("arguments") or {}
        if name == "crash":
            log("crashing on purpose")
            os._exit(3)
        if name == "garbage":
            for line in ("not json", '{"broken":', ""):
                write_line(line)
            return text_result("after garbage")
        if name == "hang":
            self.hanging.add(request_id)
            log(f"hanging on request {request_id!r}")
            return None
        if name == "big":
            return text_result("x" * BIG_SIZE)
        if name == "grow":
            self.grown = True
            self.send({"jsonrpc": "2.0", "id": request_id, "result": text_result("grown", modern)})
            if not modern:  # 2026-07-28 announces changes only through subscriptions/listen
                self.send({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})
            return None
        if name == "extra" and self.grown:
            return text_result("extra ran")
        if name == "ask_client":
            if modern:  # no server→client requests in 2026-07-28, and the client declared no sampling
                raise RequestError(MISSING_CLIENT_CAPABILITY, "Missing required client capability",
                                   {"requiredCapabilities": {"sampling": {}}})
            ids = (f"srv-{self.next_ask}", f"srv-{self.next_ask + 1}")
            self.next_ask += 2
            call = {"request_id": request_id, "ids": ids, "answers": {}}
            self.asks.update({ids[0]: call, ids[1]: call})
            self.send({"jsonrpc": "2.0", "id": ids[0], "method": "sampling/createMessage",
                       "params": {"messages": [{"role": "user", "content": {"type": "text", "text": "Say hi"}}],
                                  "maxTokens": 16}})
            self.send({"jsonrpc": "2.0", "id": ids[1], "method": "ping"})
            return None
        if name == "progress":
            token = (params.get("_meta") or {}).get("progressToken")
            if token is not None:
                for step in (1, 2):
                    self.send({"jsonrpc": "2.0", "method": "notifications/progress",
                               "params": {"progressToken": token, "progress": step, "total": 2, "message": f"step {step}"}})
            return text_result("done")
        if name == "echo_args":
            return text_result(json.dumps(arguments, ensure_ascii=False, separators=(",", ":")))
        if name == LONG_NAME:
            return text_result("long name ok")
        raise RequestError(INVALID_PARAMS, f"Unknown tool: {name}")


def text_result(text, modern=False):
    result = {"content": [{"type": "text", "text": text}], "isError": False}
    if modern:
        result["resultType"] = "complete"
    return result


class HTTPHandler(BaseHTTPRequestHandler):
    """Streamable HTTP on one URL (any path): every POST is handed to the one Server, and what
    it sends meanwhile is the answer: 202 with no body for notifications and responses, else
    an event stream. HTTP/1.0, so a stream ends when its connection closes."""
    server_version = "agent-scripted"

    def do_POST(self):
        try:
            message = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
        except ValueError:
            return self.answer(400, b"not JSON")
        outbox = []
        with self.server.lock:
            mcp = self.server.mcp
            mcp.send = outbox.append
            try:
                mcp.receive(message)
            finally:
                mcp.send = send
        if not (isinstance(message, dict) and "method" in message and "id" in message):
            return self.answer(202, b"")
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()
        for answer in outbox:
            data = json.dumps(answer, ensure_ascii=False, separators=(",", ":"))
            self.wfile.write(f"event: message\r\ndata: {data}\r\n\r\n".encode())
        self.wfile.flush()
        if self.server.hold_streams:
            stream = {"id": message["id"], "method": message["method"], "closed": False}
            with self.server.lock:
                self.server.streams.append(stream)
            log(f"holding the stream of request {message['id']!r} open")
            self.rfile.read(1)  # nothing more comes on it: this returns when the client closes it
            with self.server.lock:
                stream["closed"] = True
            log(f"the client closed the stream of request {message['id']!r}")

    def do_DELETE(self):
        self.answer(200, b"")

    def do_GET(self):
        if self.path == "/_streams":
            with self.server.lock:
                return self.answer(200, json.dumps(self.server.streams).encode())
        self.answer(405, b"no GET stream")

    def answer(self, status, body):
        self.send_response(status)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format, *args):
        pass


def serve_http(server, hold_streams):
    http = ThreadingHTTPServer(("127.0.0.1", 0), HTTPHandler)
    http.mcp, http.lock, http.hold_streams, http.streams = server, threading.Lock(), hold_streams, []
    threading.Thread(target=exit_when_stdin_closes, daemon=True).start()
    print(f"READY {http.server_address[1]}", flush=True)
    http.serve_forever()


def exit_when_stdin_closes():
    """Over HTTP stdin is the test's lifeline: its end ends the server."""
    sys.stdin.buffer.read()
    os._exit(0)


def main():
    parser = argparse.ArgumentParser()
    era = parser.add_mutually_exclusive_group()
    era.add_argument("--modern-only", action="store_true")
    era.add_argument("--answer-version", metavar="VERSION")
    parser.add_argument("--initialize-delay", type=float, default=0, metavar="SECONDS")
    parser.add_argument("--http", action="store_true")
    parser.add_argument("--hold-streams", action="store_true")
    parser.add_argument("--tag", help="ignored, so a test can find its own server among the processes")
    arguments = parser.parse_args()
    modern_only, answer_version = arguments.modern_only, arguments.answer_version
    log(f"started pid {os.getpid()}")
    log("mode " + ("modern-only (2026-07-28)" if modern_only else f"handshake era, answering {answer_version or 'as asked'}"))
    server = Server(modern_only, answer_version, arguments.initialize_delay)
    if arguments.http:
        return serve_http(server, arguments.hold_streams)
    try:
        for raw in sys.stdin.buffer:
            line = raw.decode("utf-8", "replace").strip()
            if not line:
                continue
            try:
                message = json.loads(line)
            except ValueError:
                log(f"ignoring a line that is not JSON: {line[:80]!r}")  # as SDK servers do: no answer
                continue
            server.receive(message)
    except BrokenPipeError:
        os._exit(0)  # the client closed our stdout; nothing left to say
    log("stdin closed, exiting")


if __name__ == "__main__":
    main()
