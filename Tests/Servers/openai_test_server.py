#!/usr/bin/env python3
"""A scriptable OpenAI-compatible chat-completions server for tests.

It reproduces what real servers send (role-only first deltas, null content, keep-alive
comments, usage chunks with empty choices, HTTP/1.1 chunked streams) and what they do
wrong or what the network does to them (errors, cut-offs, resets, stalls, UTF-8
characters split across writes), none of which a real llama-server produces on demand.

The scenario is chosen by the request path: POST /s/<scenario>/v1/chat/completions
(any API path works after the scenario, e.g. /s/echo/llmprompt). Without /s/ it echoes.
Tool-calling scenarios script each round from the request: tools-* speak OpenAI's
protocol, ollama-* Ollama's /api/chat (NDJSON, and /api/tags) as its API documentation
describes it, harness-* the seed's /llmtools (SSE carrying Ollama JSON, context by appID).
GET …/v1/models lists two models. GET /_requests returns the recorded requests; GET /_events returns connection events
(e.g. when a client closed a stalled stream) and each token a long-* reply sent, with its
time, each with its request's path; POST /_reset clears both. GET /_release/<scenario>
opens the gate a gate-* reply waits at.

Prints "PORT <n> TLSPORT <m> CAFILE <path>" on its first line of stdout once it is
listening: the same server over plain HTTP and over HTTPS with a certificate for
127.0.0.1 signed by a throw-away CA made at start-up (the CA file is for the client).
"""
import json
import struct
import os
import signal
import socket
import socketserver
import ssl
import subprocess
import tempfile
import sys
import threading
import time

LOCK = threading.Lock()
REQUESTS = []
EVENTS = []
COUNTERS = {}
GATES = {}
GATE_ARRIVALS = {}
MODEL = "test-model"


def sse(obj):
    return b"data: " + json.dumps(obj, ensure_ascii=False).encode() + b"\n\n"


def delta(content=None, role=None, finish=None, include_content=True):
    d = {}
    if role is not None:
        d["role"] = role
    if include_content:
        d["content"] = content
    return sse({"id": "chatcmpl-test", "object": "chat.completion.chunk", "created": 1700000000,
                "model": MODEL, "choices": [{"index": 0, "delta": d, "finish_reason": finish}]})


def gate(scenario):
    """The gate a gate-* reply waits at, made by whichever comes first: the request or its release."""
    with LOCK:
        return GATES.setdefault(scenario, threading.Event())


def words(text):
    out = []
    for i, w in enumerate(text.split(" ")):
        out.append(w if i == 0 else " " + w)
    return out


def last_user_text(body):
    for message in reversed((body or {}).get("messages", [])):
        if message.get("role") == "user":
            return message.get("content", "")
    return ""


def normal_stream(tokens, done=True, finish="stop"):
    parts = [delta(None, role="assistant")]
    parts += [delta(t) for t in tokens]
    if finish:
        parts.append(delta(None, finish=finish, include_content=False))
    if done:
        parts.append(b"data: [DONE]\n\n")
    return parts


def tool_call_delta(index, call_id=None, name=None, arguments=None, content=None):
    fragment = {"index": index, "function": {}}
    if call_id is not None:
        fragment["id"] = call_id
        fragment["type"] = "function"
    if name is not None:
        fragment["function"]["name"] = name
    if arguments is not None:
        fragment["function"]["arguments"] = arguments
    delta = {"tool_calls": [fragment]}
    if content is not None:
        delta["content"] = content
    return sse({"id": "chatcmpl-tools", "object": "chat.completion.chunk", "created": 1700000000, "model": MODEL,
                "choices": [{"index": 0, "delta": delta, "finish_reason": None}]})


def finish_chunk(reason):
    return sse({"id": "chatcmpl-tools", "object": "chat.completion.chunk", "created": 1700000000, "model": MODEL,
                "choices": [{"index": 0, "delta": {}, "finish_reason": reason}]})


def trailing_tool_messages(body):
    results = []
    for message in reversed((body or {}).get("messages", [])):
        if message.get("role") != "tool":
            break
        results.insert(0, message)
    return results


def ollama_line(content=None, tool_calls=None, done=False, reason="stop"):
    obj = {"model": "llama3.2", "created_at": "2025-05-27T22:54:57.641643Z"}
    if done:
        obj["message"] = {"role": "assistant", "content": ""}
        obj.update({"done_reason": reason, "done": True, "total_duration": 885095291, "load_duration": 3753500,
                    "prompt_eval_count": 122, "prompt_eval_duration": 328493000, "eval_count": 33,
                    "eval_duration": 552222000})
    else:
        message = {"role": "assistant", "content": content or ""}
        if tool_calls is not None:
            message["tool_calls"] = tool_calls
        obj["message"] = message
        obj["done"] = False
    return json.dumps(obj).encode() + b"\n"


OLLAMA_TAGS = {"models": [
    {"name": "llama3.2:latest", "model": "llama3.2:latest", "modified_at": "2025-05-04T17:37:44.706015396-07:00",
     "size": 2019393189, "digest": "a80c4f17acd55265feec403c7aef86be0c25983ab279d83f3bcd3abbcb5b8b72",
     "details": {"parent_model": "", "format": "gguf", "family": "llama", "families": ["llama"],
                 "parameter_size": "3.2B", "quantization_level": "Q4_K_M"}},
    {"name": "qwen3:0.6b", "model": "qwen3:0.6b", "modified_at": "2025-05-04T17:37:44.706015396-07:00",
     "size": 522653767, "digest": "7df6b6e09427a769808717c0a93cadc4ae99ed4eb8bf5ca557c90846becea435",
     "details": {"parent_model": "", "format": "gguf", "family": "qwen3", "families": ["qwen3"],
                 "parameter_size": "751.63M", "quantization_level": "Q4_K_M"}},
]}


def read_request(sock):
    """One HTTP/1.1 request from `sock`: (method, path, headers with lower-case names, body),
    or None when the client closed before a whole head arrived."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            return None
        data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    method, path, _ = lines[0].split(" ", 2)
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    length = int(headers.get("content-length", "0"))
    while len(rest) < length:
        chunk = sock.recv(65536)
        if not chunk:
            break
        rest += chunk
    return method, path, headers, rest[:length]


class Handler(socketserver.BaseRequestHandler):
    def setup(self):
        self.request.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        context = getattr(self.server, "tls_context", None)
        if context is not None:
            self.request = context.wrap_socket(self.request, server_side=True)

    # --- HTTP plumbing -------------------------------------------------------------
    def read_request(self):
        return read_request(self.request)

    def send_head(self, status, reason, content_type, chunked=True, extra=()):
        lines = [f"HTTP/1.1 {status} {reason}", f"Content-Type: {content_type}", "Connection: close"]
        if chunked:
            lines.append("Transfer-Encoding: chunked")
        lines += list(extra)
        self.request.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())

    def send_chunk(self, data):
        if data:
            self.request.sendall(b"%x\r\n" % len(data) + data + b"\r\n")

    def end_chunks(self):
        self.request.sendall(b"0\r\n\r\n")

    def send_full(self, status, reason, content_type, body):
        self.send_head(status, reason, content_type, chunked=False, extra=[f"Content-Length: {len(body)}"])
        self.request.sendall(body)

    def stream(self, parts, delay=0.0, end=True):
        self.send_head(200, "OK", "text/event-stream")
        for part in parts:
            self.send_chunk(part)
            if delay:
                time.sleep(delay)
        if end:
            self.end_chunks()

    # --- dispatch ------------------------------------------------------------------
    def handle(self):
        request = self.read_request()
        if request is None:
            return
        method, path, headers, raw = request
        self.current_path = path
        if path == "/_requests":
            with LOCK:
                body = json.dumps(REQUESTS).encode()
            return self.send_full(200, "OK", "application/json", body)
        if path == "/_events":
            with LOCK:
                body = json.dumps(EVENTS).encode()
            return self.send_full(200, "OK", "application/json", body)
        if path == "/_reset":
            with LOCK:
                REQUESTS.clear()
                EVENTS.clear()
            return self.send_full(200, "OK", "application/json", b"{}")
        if path.startswith("/_release/"):
            gate(path[len("/_release/"):]).set()
            return self.send_full(200, "OK", "application/json", b"{}")
        if path == "/health":
            return self.send_full(200, "OK", "application/json", b'{"status":"ok"}')
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = None
        safe_headers = {k: v for k, v in headers.items()}
        with LOCK:
            REQUESTS.append({"method": method, "path": path, "headers": safe_headers, "body": body})
        scenario = "echo"
        if path.startswith("/s/"):
            scenario = path.split("/")[2]
        if method == "GET" and self.path_ends_with("/v1/models"):
            return self.models(scenario, headers)
        name = "scenario_" + scenario.split("-")[0].replace(".", "_")
        getattr(self, name, self.scenario_unknown)(scenario, body, headers)

    # --- scenarios -----------------------------------------------------------------
    def scenario_unknown(self, scenario, body, headers):
        self.send_full(404, "Not Found", "text/plain", f"unknown scenario {scenario}\n".encode())

    def scenario_echo(self, scenario, body, headers):
        count = len((body or {}).get("messages", []))
        text = f"Echo: {last_user_text(body)} ({count} messages)"
        self.stream(normal_stream(words(text)), delay=0.005)

    def stream_words(self, scenario, text, delay):
        """`text` a word a token, <ms per token> apart when the scenario's name gives them
        (name-<ms per token>), else `delay` seconds."""
        pieces = scenario.split("-")
        self.stream(normal_stream(words(text)), delay=int(pieces[1]) / 1000 if len(pieces) > 1 else delay)

    def scenario_slow(self, scenario, body, headers):
        """A reply slow enough for a window test to watch it grow (slow-<ms per token>)."""
        self.stream_words(scenario, f"Streaming reply to: {last_user_text(body)}. One token at a time, as a model writes.", 0.15)

    SHORT_LINES_REPLY = "Here you are:\n\n- Paris\n- Lyon\n- Marseille\n\nThose are the three largest cities."

    def scenario_lines(self, scenario, body, headers):
        """A reply of short lines in three blocks, the widest last, a word a token
        (lines-<ms per token>)."""
        self.stream_words(scenario, self.SHORT_LINES_REPLY, 0.05)

    @staticmethod
    def held_markdown(body):
        """MARKDOWN_REPLY as scenario_markdown sends it, held in the middle of its code block."""
        text = Handler.MARKDOWN_REPLY
        tokens = [text[i:i + 4] for i in range(0, len(text), 4)]
        held = next(n for n in range(len(tokens)) if "let flipped" in "".join(tokens[:n]))
        return tokens, held

    PARAGRAPHS_REPLY = ("The first paragraph runs on for long enough to wrap over several lines in the bubble, "
                        "so that it is as wide as the column rather than as one short line; it should keep that "
                        "width while the next paragraph is on its way.",
                        "The second paragraph follows it after a blank line, the way a model writes prose, a word at a time.")

    @staticmethod
    def held_paragraphs(body):
        """PARAGRAPHS_REPLY a word a token, held after the blank line that ends its first paragraph."""
        first, second = Handler.PARAGRAPHS_REPLY
        tokens = words(first) + ["\n\n"] + words(second)
        return tokens, len(words(first)) + 1

    # Each reply's tokens, and how many of them come before the gate.
    GATE_REPLIES = {
        "slow": lambda body: (words(f"Streaming reply to: {last_user_text(body)}. One token at a time, as a model writes."), 1),
        "markup": lambda body: (words(Handler.MARKUP_REPLY), 1),
        "markdown": lambda body: Handler.held_markdown(body),
        "paragraphs": lambda body: Handler.held_paragraphs(body),
    }

    def scenario_gate(self, scenario, body, headers):
        """gate-<ms per token>-<passing>-<reply>-<name>: the first token of the reply, then
        nothing until the test opens the gate (GET /_release/<scenario>), then the rest
        <ms per token> apart; a test can act while the reply is surely still streaming,
        however slow the machine. The first <passing> requests stream without waiting (the
        turns before the one the test acts in). <reply> is the text: slow (as scenario_slow),
        markup (as scenario_markup), markdown (as scenario_markdown, held in the middle of
        its code block rather than after the first token) or paragraphs (two paragraphs, held
        after the blank line between them)."""
        _, ms, passing, reply = scenario.split("-")[:4]
        delay = int(ms) / 1000
        tokens, before = self.GATE_REPLIES[reply](body)
        with LOCK:
            GATE_ARRIVALS[scenario] = GATE_ARRIVALS.get(scenario, 0) + 1
            held = GATE_ARRIVALS[scenario] > int(passing)
        self.send_head(200, "OK", "text/event-stream")
        self.send_chunk(delta(None, role="assistant"))
        for token in tokens[:before]:
            self.send_chunk(delta(token))
        if held:
            gate(scenario).wait(60)
        for part in normal_stream(tokens[before:])[1:]:
            time.sleep(delay)
            self.send_chunk(part)
        self.end_chunks()

    @staticmethod
    def authorized(scenario, headers):
        """auth wants "Bearer secret-key"; auth-<end> a key ending in -<end> (the whole key
        stays out of the URL, which a client may well save)."""
        given = headers.get("authorization", "")
        if "-" not in scenario:
            return given == "Bearer secret-key"
        return given.startswith("Bearer ") and given.endswith("-" + scenario.split("-", 1)[1]) and len(given) > 40

    def refuse_key(self):
        payload = {"error": {"code": 401, "message": "Invalid API key", "type": "authentication_error"}}
        self.send_full(401, "Unauthorized", "application/json", json.dumps(payload).encode())

    def models(self, scenario, headers):
        """GET /v1/models as OpenAI and llama-server answer it."""
        if scenario.startswith("auth") and not self.authorized(scenario, headers):
            return self.refuse_key()
        listing = {"object": "list", "data": [{"id": name, "object": "model", "created": 1700000000, "owned_by": "test"}
                                              for name in (MODEL, "test-model-large")]}
        self.send_full(200, "OK", "application/json", json.dumps(listing).encode())

    def scenario_auth(self, scenario, body, headers):
        if not self.authorized(scenario, headers):
            return self.refuse_key()
        self.stream(normal_stream(["Authorized", " reply"]))

    def scenario_split(self, scenario, body, headers):
        """Every byte in its own write, so UTF-8 characters arrive split across reads."""
        parts = normal_stream(["héllo", " wörld", " 👋", " 世界"])
        self.send_head(200, "OK", "text/event-stream")
        for part in parts:
            for i in range(len(part)):
                self.send_chunk(part[i:i + 1])
                time.sleep(0.0005)
        self.end_chunks()

    def scenario_keepalive(self, scenario, body, headers):
        parts = [b": keep-alive\n\n"]
        for part in normal_stream(["Still", " here"]):
            parts += [part, b":\n\n", b": ping\n"]
        self.stream(parts)

    def scenario_link(self, scenario, body, headers):
        """A reply with a link in its text."""
        self.stream(normal_stream(["Read [the manual](https://example.org/manual) ", "before you ask again."]))

    def scenario_emptychoices(self, scenario, body, headers):
        usage = sse({"id": "x", "model": MODEL, "choices": [], "usage": {"prompt_tokens": 3, "completion_tokens": 2}})
        parts = [sse({"id": "x", "model": MODEL, "choices": []})] + normal_stream(["Usage", " follows"], done=False)
        self.stream(parts + [usage, b"data: [DONE]\n\n"])

    def scenario_nullcontent(self, scenario, body, headers):
        parts = [delta(None, role="assistant"),
                 sse({"model": MODEL, "choices": [{"index": 0, "delta": {}}]}),
                 sse({"model": MODEL, "choices": [{"index": 0, "delta": {"content": None}, "finish_reason": None}]}),
                 delta("Null"), delta(" tolerated"),
                 delta(None, finish="stop", include_content=False), b"data: [DONE]\n\n"]
        self.stream(parts)

    def scenario_crlf(self, scenario, body, headers):
        self.stream([p.replace(b"\n", b"\r\n") for p in normal_stream(["CRLF", " lines"])])

    def scenario_cr(self, scenario, body, headers):
        self.stream([p.replace(b"\n", b"\r") for p in normal_stream(["CR", " lines"])])

    def scenario_bom(self, scenario, body, headers):
        parts = normal_stream(["After", " BOM"])
        parts[0] = b"\xef\xbb\xbf" + parts[0]
        self.stream(parts)

    def scenario_multiline(self, scenario, body, headers):
        chunk = json.dumps({"model": MODEL, "choices": [{"index": 0, "delta": {"content": "Two lines"}}]}, indent=1)
        data = b"".join(b"data: " + line.encode() + b"\n" for line in chunk.split("\n")) + b"\n"
        self.stream([delta(None, role="assistant"), data, b"data: [DONE]\n\n"])

    def scenario_http500(self, scenario, body, headers):
        payload = {"error": {"code": 500, "message": "the model crashed", "type": "server_error"}}
        self.send_full(500, "Internal Server Error", "application/json", json.dumps(payload).encode())

    def scenario_late500(self, scenario, body, headers):
        """HTTP 500 after a wait (late500-<ms>): a reply that never starts, then fails."""
        pieces = scenario.split("-")
        time.sleep(int(pieces[1]) / 1000 if len(pieces) > 1 else 1.0)
        self.scenario_http500(scenario, body, headers)

    def scenario_late(self, scenario, body, headers):
        """late-<ms>: nothing for <ms> milliseconds (1000 by default), then the echo: a model
        slow to begin, its reply still empty meanwhile."""
        pieces = scenario.split("-")
        time.sleep(int(pieces[1]) / 1000 if len(pieces) > 1 else 1.0)
        self.scenario_echo(scenario, body, headers)

    def scenario_textonly(self, scenario, body, headers):
        """A text-only model: a request with an image is refused as llama-server refuses it."""
        images = [part for message in (body or {}).get("messages", []) if isinstance(message.get("content"), list)
                  for part in message["content"] if part.get("type") == "image_url"]
        if not images:
            return self.scenario_echo(scenario, body, headers)
        payload = {"error": {"code": 500, "type": "server_error",
                             "message": "image input is not supported - hint: if this is unexpected, you may need to provide the mmproj"}}
        self.send_full(500, "Internal Server Error", "application/json", json.dumps(payload).encode())

    def scenario_http403(self, scenario, body, headers):
        """A key the server knows but will not serve (403 Forbidden), as OpenAI refuses a key
        without access to the project or the model."""
        payload = {"error": {"code": 403, "message": "This key is not allowed to use this model", "type": "permission_error"}}
        self.send_full(403, "Forbidden", "application/json", json.dumps(payload).encode())

    def scenario_http404(self, scenario, body, headers):
        self.send_full(404, "Not Found", "text/plain", b"no route for this path\n")

    def scenario_knownmodels(self, scenario, body, headers):
        """Echoes for the models GET /v1/models lists; any other model gets OpenAI's 404
        model_not_found, as a server answers for a model it no longer has."""
        model = (body or {}).get("model")
        if model in (MODEL, "test-model-large"):
            return self.scenario_echo(scenario, body, headers)
        payload = {"error": {"message": f"The model `{model}` does not exist or you do not have access to it.",
                             "type": "invalid_request_error", "param": None, "code": "model_not_found"}}
        self.send_full(404, "Not Found", "application/json", json.dumps(payload).encode())

    def scenario_http503(self, scenario, body, headers):
        self.send_head(503, "Service Unavailable", "text/plain", chunked=False,
                       extra=["Content-Length: 0", "Retry-After: 5"])

    def scenario_http429(self, scenario, body, headers):
        payload = {"error": {"code": 429, "message": "Rate limit reached for requests", "type": "requests"}}
        data = json.dumps(payload).encode()
        self.send_head(429, "Too Many Requests", "application/json", chunked=False,
                       extra=[f"Content-Length: {len(data)}", "Retry-After: 30"])
        self.request.sendall(data)

    def scenario_redirect(self, scenario, body, headers):
        """redirect-<scenario>: 307 to that scenario on this host; redirectother-<scenario>:
        to it under another host name (localhost for 127.0.0.1)."""
        kind, _, target = scenario.partition("-")
        port = self.request.getsockname()[1]
        host = "localhost" if kind == "redirectother" else "127.0.0.1"
        rest = self.current_path.split("/", 3)[3]
        self.send_head(307, "Temporary Redirect", "text/plain", chunked=False,
                       extra=["Content-Length: 0", f"Location: http://{host}:{port}/s/{target}/{rest}"])

    scenario_redirectother = scenario_redirect

    def scenario_rst(self, scenario, body, headers):
        """Two tokens, then the connection is reset (RST, not a clean close)."""
        self.stream(normal_stream(["Reset", " here"], done=False, finish=None), end=False)
        self.request.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.request.close()

    def scenario_huge(self, scenario, body, headers):
        """huge-<MB>: a reply of that many megabytes (default 10), as fast as it can go."""
        megabytes = int(scenario.split("-")[1]) if "-" in scenario else 10
        line = "All work and no play makes a long reply. " * 2 + "\n"
        token_count = megabytes * 1_000_000 // len(line.encode())
        self.send_head(200, "OK", "text/event-stream")
        self.send_chunk(delta(None, role="assistant"))
        batch = []
        for _ in range(token_count):
            batch.append(delta(line))
            if len(batch) == 200:
                self.send_chunk(b"".join(batch))
                batch = []
        batch += [delta(None, finish="stop", include_content=False), b"data: [DONE]\n\n"]
        self.send_chunk(b"".join(batch))
        self.end_chunks()

    def scenario_badutf8(self, scenario, body, headers):
        """Invalid UTF-8 inside JSON strings, in a comment and in an unknown field."""
        bad = [b'data: {"choices":[{"delta":{"content":"caf\xc3"}}]}\n\n',
               b': \xff\xfe comment\n',
               b'data: {"choices":[{"delta":{"content":" ok \xe2\x82"}}]}\n\n',
               b'x-\xff: \xfe\n\n',
               b'data: {"choices":[{"delta":{"content":" end"}}]}\n\n']
        self.stream([delta(None, role="assistant")] + bad + [delta(None, finish="stop", include_content=False),
                                                             b"data: [DONE]\n\n"])

    def scenario_garbageonly(self, scenario, body, headers):
        """No chat completion at all: HTML and noise where SSE should be."""
        self.stream([b"<html><body>502 Bad Gateway</body></html>\n", b"data: {not json\n\n", b"\x00\x01\x02\n\n"])

    def scenario_errorevent(self, scenario, body, headers):
        parts = normal_stream(["Partial", " answer"], done=False, finish=None)
        parts += [b"event: error\ndata: quota exceeded for this key\n\n", b"data: [DONE]\n\n"]
        self.stream(parts)

    def scenario_erroronly(self, scenario, body, headers):
        """An error event before any word of the reply."""
        self.stream([delta(None, role="assistant"), b"event: error\ndata: the model is overloaded\n\n", b"data: [DONE]\n\n"])

    def scenario_dataerror(self, scenario, body, headers):
        parts = normal_stream(["Before", " the error"], done=False, finish=None)
        parts.append(sse({"error": {"code": 500, "message": "context size exceeded", "type": "server_error"}}))
        self.stream(parts)

    def scenario_wholejson(self, scenario, body, headers):
        """A 200 answer that is no stream but one JSON object, as a server or proxy that
        ignores `stream` sends it: a whole chat completion, or (wholejson-error) an error
        object with a string code; (wholejson-bom) the completion after a UTF-8 byte-order
        mark; (wholejson-cut) the completion's first half, then the connection drops."""
        if scenario == "wholejson-error":
            payload = {"error": {"message": "This model's maximum context length is 8192 tokens.",
                                 "type": "invalid_request_error", "param": "messages", "code": "context_length_exceeded"}}
        else:
            payload = {"id": "chatcmpl-whole", "object": "chat.completion", "created": 1700000000, "model": MODEL,
                       "choices": [{"index": 0, "message": {"role": "assistant", "content": "Not streamed after all"},
                                    "finish_reason": "stop"}],
                       "usage": {"prompt_tokens": 3, "completion_tokens": 4}}
        data = json.dumps(payload).encode()
        if scenario == "wholejson-bom":
            data = b"\xef\xbb\xbf" + data
        if scenario == "wholejson-cut":
            self.send_head(200, "OK", "application/json", chunked=False, extra=[f"Content-Length: {len(data)}"])
            self.request.sendall(data[:len(data) // 2])
            self.request.shutdown(socket.SHUT_RDWR)
            return
        self.send_full(200, "OK", "application/json", data)

    def scenario_cutoff(self, scenario, body, headers):
        """The stream ends cleanly at the HTTP level but without [DONE] or a finish reason."""
        self.stream(normal_stream(["Half", " a"], done=False, finish=None))

    def scenario_reset(self, scenario, body, headers):
        """The connection drops mid-stream: no terminating chunk."""
        self.stream(normal_stream(["Dropped", " mid"], done=False, finish=None), end=False)
        self.request.shutdown(socket.SHUT_RDWR)

    def scenario_silentcut(self, scenario, body, headers):
        """A reply that never says a word: the role, a moment later the token counts, then
        the connection ends — two events, neither with text."""
        self.send_head(200, "OK", "text/event-stream")
        self.send_chunk(delta(None, role="assistant"))
        time.sleep(0.15)
        self.send_chunk(sse({"id": "x", "model": MODEL, "choices": [], "usage": {"prompt_tokens": 3, "completion_tokens": 0}}))
        time.sleep(0.15)
        self.end_chunks()

    def scenario_endless(self, scenario, body, headers):
        """One SSE event that never ends: megabytes of data without a line break, until the
        client hangs up (at most 64 MB)."""
        self.send_head(200, "OK", "text/event-stream")
        try:
            self.send_chunk(b"data: ")
            for _ in range(64):
                self.send_chunk(b"x" * (1 << 20))
        except OSError:
            with LOCK:
                EVENTS.append({"event": "endless-closed", "time": time.monotonic(), "path": self.current_path})
            return
        self.end_chunks()

    def scenario_finishonly(self, scenario, body, headers):
        self.stream(normal_stream(["Finished", " without", " DONE"], done=False))

    def scenario_garbage(self, scenario, body, headers):
        parts = [b"data: this is not json\n\n", b"nonsense line\n\n"] + normal_stream(["Survived"])
        self.stream(parts)

    def scenario_stall(self, scenario, body, headers):
        """One token, then silence for up to 60 s; records when the client hangs up."""
        self.send_head(200, "OK", "text/event-stream")
        self.send_chunk(delta(None, role="assistant"))
        self.send_chunk(delta("Waiting"))
        with LOCK:
            EVENTS.append({"event": "stalled", "time": time.monotonic(), "path": self.current_path})
        self.request.settimeout(0.001)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if self.request.recv(1) == b"":
                    with LOCK:
                        EVENTS.append({"event": "client-closed", "time": time.monotonic(), "path": self.current_path})
                    return
            except socket.timeout:
                continue
            except OSError:
                with LOCK:
                    EVENTS.append({"event": "client-closed", "time": time.monotonic(), "path": self.current_path})
                return

    def scenario_pause(self, scenario, body, headers):
        """pause-<ms>: one token, then nothing for <ms> milliseconds (3000 by default), then
        the rest of the reply: a server slow to go on, which an idle timeout shorter than the
        pause gives up on and none waits out. A write that fails because the client has gone
        is recorded as "client-closed"."""
        pieces = scenario.split("-")
        pause = int(pieces[1]) / 1000 if len(pieces) > 1 else 3.0
        self.send_head(200, "OK", "text/event-stream")
        self.send_chunk(delta(None, role="assistant"))
        self.send_chunk(delta("Waiting"))
        time.sleep(pause)
        try:
            for part in normal_stream([" over"])[1:]:
                self.send_chunk(part)
            self.end_chunks()
        except OSError:
            with LOCK:
                EVENTS.append({"event": "client-closed", "time": time.monotonic(), "path": self.current_path})

    # --- tool calling, OpenAI protocol ----------------------------------------------
    def scenario_tools(self, scenario, body, headers):
        """tools-<kind>: the first round asks for tools, the follow-up answers with the results
        (tools-tworounds: words and a call, then more words and another call, then the answer;
        tools-twoasks: two calls in one round that each ask the user, get_location twice)."""
        kind = scenario.split("-", 1)[1] if "-" in scenario else "single"
        results = trailing_tool_messages(body)
        if kind == "tworounds" and len(results) == 1 and results[0].get("tool_call_id") == "call_loc":
            # The second round: more words, then another call.
            return self.stream([delta(None, role="assistant"), delta("Now the **time**. "),
                                tool_call_delta(0, "call_time", "get_datetime", "{}"), finish_chunk("tool_calls"),
                                b"data: [DONE]\n\n"])
        if results and kind != "loop":
            if kind == "error":
                payload = {"error": {"code": 500, "message": "the tool round failed", "type": "server_error"}}
                return self.send_full(500, "Internal Server Error", "application/json", json.dumps(payload).encode())
            text = "Tool results: " + "; ".join(m.get("content", "") for m in results)
            return self.stream(normal_stream(words(text)))
        parts = [delta(None, role="assistant")]
        if kind == "single":
            parts += [tool_call_delta(0, "call_loc", "get_location", "{}"), finish_chunk("tool_calls")]
        elif kind == "tworounds":
            parts += [delta("Let me look. "), tool_call_delta(0, "call_loc", "get_location", "{}"), finish_chunk("tool_calls")]
        elif kind == "several":
            parts += [delta("Let me look. "),
                      tool_call_delta(0, "call_a", "get_location", ""), tool_call_delta(0, arguments="{}"),
                      tool_call_delta(1, "call_b", "get_datetime", "{}"), finish_chunk("tool_calls")]
        elif kind == "twoasks":
            parts += [tool_call_delta(0, "call_a", "get_location", "{}"), tool_call_delta(1, "call_b", "get_location", "{}"),
                      finish_chunk("tool_calls")]
        elif kind in ("fragmented", "error"):
            parts += [tool_call_delta(0, "call_frag", "forecast", ""),
                      tool_call_delta(0, arguments='{"ci'), tool_call_delta(0, arguments='ty": "Pa'),
                      tool_call_delta(0, arguments='ris", "days"'), tool_call_delta(0, arguments=': 3, "metric": true}'),
                      finish_chunk("tool_calls")]
        elif kind == "badargs":
            parts += [tool_call_delta(0, "call_bad", "forecast", '{"city": 7, "days": "soon"'), finish_chunk("tool_calls")]
        elif kind == "unknown":
            parts += [tool_call_delta(0, "call_x", "launch_rocket", '{"target": "moon"}'), finish_chunk("tool_calls")]
        elif kind == "loop":
            parts += [tool_call_delta(0, "call_again", "get_datetime", "{}"), finish_chunk("tool_calls")]
        elif kind == "mcptime":  # the MCP reference server mcp-server-time's tool
            parts += [tool_call_delta(0, "call_time", "get_current_time", '{"timezone": "UTC"}'), finish_chunk("tool_calls")]
        parts.append(b"data: [DONE]\n\n")
        self.stream(parts)

    # --- Ollama /api/chat and /api/tags ------------------------------------------------
    def scenario_ollama(self, scenario, body, headers):
        if self.path_ends_with("/api/tags"):
            return self.send_full(200, "OK", "application/json; charset=utf-8", json.dumps(OLLAMA_TAGS).encode())
        kind = scenario.split("-", 1)[1] if "-" in scenario else "echo"
        if kind == "http404":
            payload = {"error": "model \"nosuch\" not found, try pulling it first"}
            return self.send_full(404, "Not Found", "application/json; charset=utf-8", json.dumps(payload).encode())
        results = trailing_tool_messages(body)
        lines = []
        if kind == "echo" or (results and kind != "loop"):
            text = f"Echo: {last_user_text(body)}" if not results else \
                "Tool results: " + "; ".join(f"{m.get('tool_name')}={m.get('content')}" for m in results)
            lines = [ollama_line(w) for w in words(text)] + [ollama_line(done=True)]
        elif kind == "tools":
            lines = [ollama_line(tool_calls=[{"function": {"name": "forecast",
                                                           "arguments": {"city": "Paris", "days": 3, "metric": True}}}]),
                     ollama_line(done=True)]
        elif kind == "several":
            lines = [ollama_line("Checking. "),
                     ollama_line(tool_calls=[{"function": {"name": "get_location", "arguments": {}}},
                                             {"function": {"name": "get_datetime", "arguments": {}}}]),
                     ollama_line(done=True)]
        elif kind == "unknown":
            lines = [ollama_line(tool_calls=[{"function": {"name": "launch_rocket", "arguments": {"target": "moon"}}}]),
                     ollama_line(done=True)]
        elif kind == "loop":
            lines = [ollama_line(tool_calls=[{"function": {"name": "get_datetime", "arguments": {}}}]), ollama_line(done=True)]
        elif kind == "errorline":
            lines = [ollama_line("Half"), ollama_line(" way"), json.dumps({"error": "an unexpected error occurred"}).encode() + b"\n"]
        elif kind == "cutoff":
            lines = [ollama_line("Never"), ollama_line(" done")]
        elif kind == "nonewline":
            # The last line — with text, the end and the token counts — has no newline.
            last = json.loads(ollama_line(done=True))
            last["message"]["content"] = " world"
            lines = [ollama_line("Hello"), json.dumps(last).encode()]
        self.send_head(200, "OK", "application/x-ndjson")
        for line in lines:
            self.send_chunk(line)
        self.end_chunks()

    # --- the seed's /llmtools harness ----------------------------------------------------
    def scenario_harness(self, scenario, body, headers):
        kind = scenario.split("-", 1)[1] if "-" in scenario else "tools"
        messages = (body or {}).get("messages", [])
        self.send_head(200, "OK", "text/event-stream")
        if kind == "error":
            self.send_chunk(b"event: error\ndata: the harness could not reach Ollama\n\n")
            return self.end_chunks()
        if messages and messages[0].get("role") == "tool":
            for piece in words("You are at " + messages[0].get("content", "")):
                self.send_chunk(b"data: " + ollama_line(piece).rstrip(b"\n") + b"\n\n")
            self.send_chunk(b"data: " + ollama_line(done=True).rstrip(b"\n") + b"\n\n")
            return self.end_chunks()
        self.send_chunk(b"data: " + ollama_line("Checking. ").rstrip(b"\n") + b"\n\n")
        call = ollama_line(tool_calls=[{"function": {"name": "get_location", "arguments": {}}}]).rstrip(b"\n")
        self.send_chunk(b"event: tool_calls\ndata: " + call + b"\n\n")
        self.end_chunks()

    def path_ends_with(self, suffix):
        return self.current_path.endswith(suffix)

    MARKDOWN_REPLY = (
        "## Reversing a string\n\n"
        "Use **`reversed()`** — it works on any *sequence*:\n\n"
        "```swift\nlet word = \"stressed\"\nlet flipped = String(word.reversed())\nprint(flipped) // desserts\n```\n\n"
        "| Language | Call |\n|---|---|\n| Swift | `String(s.reversed())` |\n| Python | `s[::-1]` |\n\n"
        "- short\n- and <span foreground=\"red\">safe</span> & sound\n"
    )

    def scenario_markdown(self, scenario, body, headers):
        """A reply in Markdown, streamed a few characters at a time (markdown-<ms>)."""
        pieces = scenario.split("-")
        delay = int(pieces[1]) / 1000 if len(pieces) > 1 else 0.005
        text = self.MARKDOWN_REPLY
        tokens = [text[i:i + 4] for i in range(0, len(text), 4)]
        self.stream(normal_stream(tokens), delay=delay)

    WIDE_CODE_REPLY = (
        "A paragraph before the code.\n\n```python\n"
        + "\n".join(f"value_{n} = compute('{'a fairly long argument ' * 6}', {n})  # line {n}" for n in range(1, 26))
        + "\ndef total(values):\n    return sum(values)  # keywords in bold"
        + "\n```\n\nOne line after it."
    )

    def scenario_widecode(self, scenario, body, headers):
        """A reply ending in a code block of 27 lines too wide for the window (two with keywords, bold)."""
        text = self.WIDE_CODE_REPLY
        self.stream(normal_stream([text[i:i + 64] for i in range(0, len(text), 64)]), delay=0.001)

    SPEECH_REPLY = (
        "## Reading aloud\n\n"
        "This reply has **bold words**, a [link to the docs](https://example.org/a/very/long/address) and `code`.\n\n"
        "- first item\n- second item\n\n"
        "```sh\necho hello\n```\n\n"
        + "\n\n".join(f"Paragraph {n} goes on for a while, so that reading it aloud takes long enough "
                       "to watch the highlight move from one word to the next." for n in range(1, 41))
    )

    def scenario_speech(self, scenario, body, headers):
        """A long reply in Markdown to read aloud: a heading, emphasis, a link, a list, code,
        then forty paragraphs of plain sentences (about 900 words); to a message with
        "short" in it, one sentence."""
        text = "A short reply to read." if "short" in last_user_text(body) else self.SPEECH_REPLY
        self.stream(normal_stream([text[i:i + 32] for i in range(0, len(text), 32)]), delay=0.001)

    HONEY_REPLY = (
        "## How bees make honey\n\n"
        "Honey starts as **nectar**, the sugary liquid flowers make to attract pollinators. A forager bee "
        "sips it and carries it home in her *honey stomach*.\n\n"
        "Back at the hive the work is shared:\n\n"
        "- House bees pass the nectar from mouth to mouth, adding enzymes that split its sugars.\n"
        "- They spread it thinly over the wax cells of the comb.\n"
        "- Fanning their wings, they dry it until less than a fifth of it is water.\n\n"
        "When it is thick enough, the bees seal each cell with a lid of wax. Stored this way, honey keeps "
        "for years: it is too sweet and too dry for bacteria to grow in it. A bee makes about a twelfth of "
        "a teaspoon of honey in her whole life, so every jar holds the work of hundreds of bees."
    )

    def scenario_honey(self, scenario, body, headers):
        """A plain answer in Markdown, for the pictures of a reply read aloud."""
        text = self.HONEY_REPLY
        self.stream(normal_stream([text[i:i + 8] for i in range(0, len(text), 8)]), delay=0.002)

    TABLE_REPLY = (
        "| Model | Size | Licence |\n|---|---|---|\n"
        "| a small model for phones | about one hundred million weights | the Apache licence |\n"
        "| a larger model | about one billion weights | its own terms |\n"
    )

    def scenario_table(self, scenario, body, headers):
        """A reply that is a three-column table of wrapping cells."""
        text = self.TABLE_REPLY
        self.stream(normal_stream([text[i:i + 6] for i in range(0, len(text), 6)]), delay=0.002)

    # The streamed Markdown that reads differently in pieces than whole: a reference link
    # whose target comes later, a footnote, a list item with a later paragraph and a fence.
    REFS_REPLY = (
        "See [the manual][man] first.\n\n"
        "1. Install it:\n\n"
        "   ```sh\n   make install\n   ```\n\n"
        "   Then run it.\n\n"
        "A claim.[^1]\n\n"
        "[man]: https://example.com/manual\n"
        "[^1]: The footnote.\n"
    )

    def scenario_refs(self, scenario, body, headers):
        """REFS_REPLY, a few characters at a time."""
        text = self.REFS_REPLY
        self.stream(normal_stream([text[i:i + 3] for i in range(0, len(text), 3)]), delay=0.01)

    def scenario_longurl(self, scenario, body, headers):
        """A reply holding a URL far wider than the column, which must copy as it was written."""
        url = "https://example.com/" + "/".join(f"segment{i}" for i in range(30)) + "?query=" + "x" * 60
        self.stream(normal_stream(words(f"Here: {url} — that is all.")), delay=0.002)

    @staticmethod
    def sized_reply(size):
        """Markdown of exactly `size` bytes (ASCII): a heading, then paragraphs with bold words
        and code, as a long answer has."""
        paragraph = "Some **bold words** and `inline code` in a sentence that goes on for a while.\n\n"
        text = "## A long answer\n\n" + paragraph * (size // len(paragraph) + 1)
        return text[:size]

    def scenario_sized(self, scenario, body, headers):
        """A Markdown reply as many bytes long as the first number in the user's message says."""
        size = next((int(w) for w in last_user_text(body).split() if w.isdigit()), 1000)
        text = self.sized_reply(size)
        self.stream(normal_stream([text[i:i + 256] for i in range(0, len(text), 256)]))

    MARKUP_REPLY = "Use <b>bold</b> & <i>care</i> here"

    def scenario_markup(self, scenario, body, headers):
        """A reply that looks like markup: it must reach a notification as the text it is
        (markup-<ms per token>)."""
        self.stream_words(scenario, self.MARKUP_REPLY, 0.002)

    def scenario_failtwice(self, scenario, body, headers):
        """failtwice-<marker>: HTTP 500 for the first two requests, then as counter-<marker>:
        a server that was down when the user first sent and retried, and is back after."""
        with LOCK:
            COUNTERS[scenario] = COUNTERS.get(scenario, 0) + 1
            count = COUNTERS[scenario]
        if count <= 2:
            return self.scenario_http500(scenario, body, headers)
        self.stream(normal_stream(words(f"Reply number {count - 2} to: {last_user_text(body)}")), delay=0.005)

    def scenario_counter(self, scenario, body, headers):
        """A different reply each time (counter-<marker>): "Reply number N to: …"."""
        with LOCK:
            COUNTERS[scenario] = COUNTERS.get(scenario, 0) + 1
            number = COUNTERS[scenario]
        self.stream(normal_stream(words(f"Reply number {number} to: {last_user_text(body)}")), delay=0.005)

    # Questions a model asked again answers otherwise (the pictures of a reply's versions).
    DRAFTS = {
        "Suggest a name for our hiking club.": [
            "How about **Trailblazers**? It is short, and it says you go where the path is not worn yet.",
            "**The Switchbacks**, after the zigzag paths up steep hills, and a club that keeps coming back.",
            "Try **Summit Seekers**: easy to remember, and it says what the weekends are for.",
        ],
        "Something friendlier, please.": [
            "**The Switchback Social**: the same hills, with a picnic at the top.",
        ],
        "Könnten Sie mir bitte sagen, wie spät es ist?": [
            "Could you please tell me what time it is?",
        ],
    }

    def scenario_drafts(self, scenario, body, headers):
        """Each time a question is asked, the next of its answers in DRAFTS (drafts-<marker>);
        "Answer number N to: …" for another question."""
        question = last_user_text(body)
        with LOCK:
            COUNTERS[(scenario, question)] = COUNTERS.get((scenario, question), 0) + 1
            number = COUNTERS[(scenario, question)]
        answers = self.DRAFTS.get(question, [])
        text = answers[(number - 1) % len(answers)] if answers else f"Answer number {number} to: {question}"
        self.stream(normal_stream(words(text)), delay=0.005)

    def scenario_paced(self, scenario, body, headers):
        """paced-<N>-<ms>: N tokens, one every <ms> milliseconds, like a model generating."""
        pieces = scenario.split("-")
        count = int(pieces[1]) if len(pieces) > 1 else 100
        delay = int(pieces[2]) / 1000 if len(pieces) > 2 else 0.01
        self.stream(normal_stream([f" w{i}" for i in range(count)]), delay=delay)

    def scenario_long(self, scenario, body, headers):
        """long-<N>-<ms>[-…]: N numbered tokens (" t0", " t1", …), the i-th due <ms> × i
        milliseconds after the first (a clock, not sleeps that add up; 1500 every 20 ms by
        default, half a minute). Each token's send is an event ("sent", its number, the
        monotonic time its write returned, and when it was due), so a test knows what the
        client had been sent at any moment and when the last token will go; a client gone is
        "client-closed"."""
        pieces = scenario.split("-")
        count = int(pieces[1]) if len(pieces) > 1 else 1500
        step = int(pieces[2]) / 1000 if len(pieces) > 2 else 0.02
        self.send_head(200, "OK", "text/event-stream")
        try:
            self.send_chunk(delta(None, role="assistant"))
            start = time.monotonic()
            for i in range(count):
                time.sleep(max(0.0, start + i * step - time.monotonic()))
                self.send_chunk(delta(f" t{i}"))
                with LOCK:
                    EVENTS.append({"event": "sent", "token": i, "time": time.monotonic(), "due": start + i * step,
                                   "path": self.current_path})
            self.send_chunk(delta(None, finish="stop", include_content=False) + b"data: [DONE]\n\n")
            self.end_chunks()
        except OSError:
            with LOCK:
                EVENTS.append({"event": "client-closed", "time": time.monotonic(), "path": self.current_path})

    def scenario_rate(self, scenario, body, headers):
        """rate-<N>-<per second>: N tokens at that rate, sent every 10 ms in batches (a fast
        model as the client sees it)."""
        pieces = scenario.split("-")
        count = int(pieces[1]) if len(pieces) > 1 else 10000
        rate = int(pieces[2]) if len(pieces) > 2 else 2000
        self.send_head(200, "OK", "text/event-stream")
        self.send_chunk(delta(None, role="assistant"))
        start = time.monotonic()
        sent = 0
        while sent < count:
            due = min(count, int((time.monotonic() - start) * rate) + 1)
            if due > sent:
                # Words and, now and then, a paragraph break, like prose.
                self.send_chunk(b"".join(delta(" word" if (i + 1) % 60 else " word.\n\n") for i in range(sent, due)))
                sent = due
            time.sleep(0.01)
        self.send_chunk(delta(None, finish="stop", include_content=False) + b"data: [DONE]\n\n")
        self.end_chunks()

    def scenario_fast(self, scenario, body, headers):
        """fast-<N>: N one-word tokens as fast as the socket takes them."""
        pieces = scenario.split("-")
        count = int(pieces[1]) if len(pieces) > 1 else 10000
        token = delta(" tok")
        blob = delta(None, role="assistant") + token * count + delta(None, finish="stop", include_content=False) \
            + b"data: [DONE]\n\n"
        self.send_head(200, "OK", "text/event-stream")
        step = 16384
        for i in range(0, len(blob), step):
            self.send_chunk(blob[i:i + step])
        self.end_chunks()

    # --- a long session ----------------------------------------------------------------
    SOAK_WORDS = ("a long session holds replies of every length in its chats while the window streams "
                  "each one saves it and lets it go when another chat is opened so nothing it made "
                  "for an earlier reply should still be there at the end").split()

    @staticmethod
    def soak_prose(seed, count):
        """`count` words of plain sentences, different for each seed."""
        pool = Handler.SOAK_WORDS
        text = " ".join(pool[(seed * 7 + i) % len(pool)] for i in range(count))
        sentences = text.split(" ")
        for i in range(11, len(sentences), 12):
            sentences[i] += "."
        return " ".join(sentences).capitalize().rstrip(".") + "."

    @staticmethod
    def soak_reply(kind, n):
        """The text of a soak reply of that kind; `n` varies its length and words."""
        if kind == "medium":
            return "\n\n".join(Handler.soak_prose(n + p, 40 + (n * 13 + p * 7) % 41) for p in range(3))
        if kind == "long":
            items = "\n".join(f"- point {i + 1}: {Handler.soak_prose(n + i, 8)}" for i in range(5))
            paragraphs = [Handler.soak_prose(n + p, 80) for p in range(8 + n % 7)]
            return f"## Answer {n}\n\n{Handler.soak_prose(n, 30)}\n\n{items}\n\n" + "\n\n".join(paragraphs)
        if kind == "code":
            lines = [f"def step_{n}(values):", '    """Adds up what it is given, one value at a time."""', "    total = 0"]
            lines += [f"    total += values[{i}] * {i + 1}  # weight {i + 1}" for i in range(12 + n % 31)]
            lines += ["    return total", "", f"print(step_{n}(list(range(100))))"]
            code = "\n".join(lines)
            return f"{Handler.soak_prose(n, 35)}\n\n```python\n{code}\n```\n\n{Handler.soak_prose(n + 1, 25)}"
        return Handler.soak_prose(n, 8 + n % 10)

    def scenario_soak(self, scenario, body, headers):
        """soak-<ms per token>: the replies of a long session (bench/soak.py), chosen by the
        user's message: with "time" in it, a get_datetime call, then a sentence quoting what the
        tool returned; with "code", a paragraph, a fenced Python block of 17 to 47 lines and a
        paragraph; "long", a heading, a list and 8 to 14 paragraphs (up to 1,200 words);
        "medium", three paragraphs; else one sentence. The first number in the message varies
        the length and the words. Prose comes a word a token, code eight characters a token."""
        pieces = scenario.split("-")
        delay = int(pieces[1]) / 1000 if len(pieces) > 1 else 0.005
        question = last_user_text(body)
        results = trailing_tool_messages(body)
        if results:
            return self.stream(normal_stream(words("It is " + "; ".join(m.get("content", "") for m in results) + ".")),
                               delay=delay)
        n = next((int(w.strip(",.:")) for w in question.split() if w.strip(",.:").isdigit()), 0)
        if "time" in question:
            return self.stream([delta(None, role="assistant"), tool_call_delta(0, f"call_time_{n}", "get_datetime", "{}"),
                                finish_chunk("tool_calls"), b"data: [DONE]\n\n"], delay=delay)
        kind = next((k for k in ("code", "long", "medium") if k in question), "short")
        text = self.soak_reply(kind, n)
        tokens = []
        for block, piece in enumerate(text.split("```")):
            if block % 2:  # inside a fence
                piece = "```" + piece + "```"
                tokens += [piece[i:i + 8] for i in range(0, len(piece), 8)]
            else:
                tokens += [t for t in words(piece) if t]
        self.stream(normal_stream(tokens), delay=delay)

    # --- reasoning models ------------------------------------------------------------------
    THINKING = ["The user", " says hello.", " I should", " greet them", " back."]
    ANSWER = ["Hello!", " How can", " I help?"]
    THINKING_LONG = words("The user asks how many r's are in \"strawberry\". Let me spell it out: s, t, r, a, w, b, e, r, r, y. "
                          "The r's are at positions 3, 8 and 9. That makes three. Let me double-check by counting again: "
                          "st-R-awbe-R-R-y. Yes, three.")
    ANSWER_LONG = words("There are **three** r's in \"strawberry\": one after the *st*, and two together near the end (*berry*).")

    def scenario_think(self, scenario, body, headers):
        """think-<form>[-<ms>][-held][-…]: a reasoning model's reply, every byte in its own write.
        <form> is reasoningcontent (delta.reasoning_content), reasoning (delta.reasoning) or tags
        (<think>…</think> opening the content, each marker cut across two deltas). <ms> paces
        the deltas; with "held" the reply waits after its thinking until GET /_release/<scenario>;
        with "long" it thinks and answers at more length (the README's pictures)."""
        pieces = scenario.split("-")
        form = pieces[1] if len(pieces) > 1 else "tags"
        delay = int(pieces[2]) / 1000 if len(pieces) > 2 and pieces[2].isdigit() else 0.0
        thoughts, answers = (self.THINKING_LONG, self.ANSWER_LONG) if "long" in pieces else (self.THINKING, self.ANSWER)
        if form == "tags":
            thinking = [delta("<thi"), delta("nk>\n")] + [delta(t) for t in thoughts[:-1]] + \
                [delta(thoughts[-1] + "</th"), delta("ink>\n\n")]
        else:
            field = "reasoning_content" if form == "reasoningcontent" else "reasoning"
            thinking = [sse({"id": "chatcmpl-test", "object": "chat.completion.chunk", "created": 1700000000, "model": MODEL,
                             "choices": [{"index": 0, "delta": {field: t, "content": None}, "finish_reason": None}]})
                        for t in thoughts]
        answer = [delta(t) for t in answers] + [delta(None, finish="stop", include_content=False), b"data: [DONE]\n\n"]
        self.send_head(200, "OK", "text/event-stream")
        self.send_bytewise([delta(None, role="assistant")] + thinking, delay)
        if "held" in pieces:
            gate(scenario).wait(60)
        self.send_bytewise(answer, delay)
        self.end_chunks()

    def send_bytewise(self, parts, delay):
        """Each part byte by byte (markers and UTF-8 split across reads), `delay` after each part."""
        for part in parts:
            for i in range(len(part)):
                self.send_chunk(part[i:i + 1])
            if delay:
                time.sleep(delay)

    def scenario_ollamathink(self, scenario, body, headers):
        """ollamathink-<form>: Ollama's /api/chat from a thinking model, every byte in its own write.
        <form> is field (message.thinking, as Ollama sends it) or tags (<think>…</think> opening
        message.content, each marker cut across two lines)."""
        form = scenario.split("-")[1] if "-" in scenario else "field"

        def line(content="", thinking=None):
            message = {"role": "assistant", "content": content}
            if thinking is not None:
                message["thinking"] = thinking
            return json.dumps({"model": "qwen3:0.6b", "created_at": "2025-05-27T22:54:57.641643Z", "message": message,
                               "done": False}).encode() + b"\n"
        if form == "tags":
            lines = [line("<thi"), line("nk>")] + [line(t) for t in self.THINKING[:-1]] + \
                [line(self.THINKING[-1] + "</think"), line(">\n\n")]
        else:
            lines = [line(thinking=t) for t in self.THINKING]
        lines += [line(t) for t in self.ANSWER] + [ollama_line(done=True)]
        self.send_head(200, "OK", "application/x-ndjson")
        self.send_bytewise(lines, 0)
        self.end_chunks()

class Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


def exit_when_parent_goes():
    """The test process holds our stdin open; when it ends, so do we."""
    sys.stdin.buffer.read()
    os._exit(0)


def make_certificates(directory):
    """A CA and a server certificate for 127.0.0.1 signed by it (openssl CLI)."""
    def run(*arguments):
        subprocess.run(["openssl", *arguments], check=True, cwd=directory,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    run("req", "-x509", *curve, "-keyout", "ca.key", "-out", "ca.crt", "-days", "2", "-subj", "/CN=Agent Test CA")
    run("req", *curve, "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=127.0.0.1")
    with open(os.path.join(directory, "san.ext"), "w") as f:
        f.write("subjectAltName=IP:127.0.0.1\n")
    run("x509", "-req", "-in", "server.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial",
        "-out", "server.crt", "-days", "2", "-extfile", "san.ext")
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(os.path.join(directory, "server.crt"), os.path.join(directory, "server.key"))
    return context, os.path.join(directory, "ca.crt")


def main():
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    threading.Thread(target=exit_when_parent_goes, daemon=True).start()
    port = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    server = Server(("127.0.0.1", port), Handler)
    tls_server = Server(("127.0.0.1", 0), Handler)
    tls_server.tls_context, ca_file = make_certificates(tempfile.mkdtemp(prefix="agent-test-tls-"))
    threading.Thread(target=tls_server.serve_forever, daemon=True).start()
    print(f"PORT {server.server_address[1]} TLSPORT {tls_server.server_address[1]} CAFILE {ca_file}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
