#!/usr/bin/env python3
"""A scripted Ollama for the tests of model management: GET /api/tags, POST /api/pull
(streamed NDJSON progress, layer by layer, as Ollama's API documentation describes it) and
DELETE /api/delete, over a model list that pulls and deletes change.

Each test takes a store of its own by path: /o/<store>/api/…; a new store holds two models.
Paths without /o/<store> (/api/…, as a real Ollama's) use the store named by the second argument.
Words in the store name set its pace: "p<ms>" puts <ms> milliseconds between progress lines
(default 5); "hold" stops every pull half way through its first layer until the test opens
the gate with GET /_release/<store>/<model>.

The model's name scripts the pull: "nosuch…" fails as an unknown model does (an error line
after "pulling manifest"), "broken…" fails mid-download (an error line), "cutoff…" ends the
stream half way without "success", a name Ollama would not accept is refused with 400, and
any other name downloads three layers and joins the list.

GET /_events lists what happened ({"event", "store", "model"}): "held" when a pull waits at
its gate, "client-closed" when the client hung up before the pull ended.

Usage: ollama_scripted_server.py [PORT [STORE]]. Prints "PORT <n>" on its first line of stdout once it is listening; exits when stdin closes.
"""
import hashlib
import json
import os
import re
import socket
import socketserver
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from openai_test_server import Server, exit_when_parent_goes, read_request  # noqa: E402

LOCK = threading.Lock()
STORES = {}
GATES = {}
EVENTS = []
DEFAULT_STORE = sys.argv[2] if len(sys.argv) > 2 else "default"

VALID_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*(/[A-Za-z0-9._-]+)*(:[A-Za-z0-9._-]+)?$")


def model_entry(name, size, family, parameters):
    return {"name": name, "model": name, "modified_at": "2025-05-04T17:37:44.706015396-07:00", "size": size,
            "digest": hashlib.sha256(name.encode()).hexdigest(),
            "details": {"parent_model": "", "format": "gguf", "family": family, "families": [family],
                        "parameter_size": parameters, "quantization_level": "Q4_K_M"}}


def initial_models():
    return [model_entry("llama3.2:latest", 2019393189, "llama", "3.2B"),
            model_entry("qwen3:0.6b", 522653767, "qwen3", "751.63M")]


def normalized(name):
    return name if ":" in name else name + ":latest"


def store(name):
    with LOCK:
        return STORES.setdefault(name, initial_models())


def gate(key):
    with LOCK:
        return GATES.setdefault(key, threading.Event())


def record(event, store_name, model):
    with LOCK:
        EVENTS.append({"event": event, "store": store_name, "model": model, "time": time.monotonic()})


def layers_for(name):
    """The layers a pull downloads: the weights, then the template and the parameters."""
    def digest(part):
        return "sha256:" + hashlib.sha256(f"{name}/{part}".encode()).hexdigest()
    return [(digest("weights"), 268_435_456 + sum(name.encode()) * 4096, 8), (digest("template"), 1_429, 1),
            (digest("params"), 487, 1)]


class ClientGone(Exception):
    pass


class Handler(socketserver.BaseRequestHandler):
    def setup(self):
        self.request.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def send_full(self, status, reason, body, content_type="application/json; charset=utf-8"):
        head = f"HTTP/1.1 {status} {reason}\r\nContent-Type: {content_type}\r\nContent-Length: {len(body)}\r\n" \
               "Connection: close\r\n\r\n"
        self.request.sendall(head.encode() + body)

    def send_json(self, status, reason, obj):
        self.send_full(status, reason, json.dumps(obj).encode())

    def send_line(self, obj):
        data = json.dumps(obj).encode() + b"\n"
        try:
            self.request.sendall(b"%x\r\n" % len(data) + data + b"\r\n")
        except OSError:
            raise ClientGone()

    def handle(self):
        request = read_request(self.request)
        if request is None:
            return
        method, path, _, raw = request
        if path == "/_events":
            with LOCK:
                return self.send_full(200, "OK", json.dumps(EVENTS).encode())
        if path.startswith("/_release/"):
            gate(path[len("/_release/"):]).set()
            return self.send_full(200, "OK", b"{}")
        parts = path.split("/", 3)
        if path.startswith("/api/"):
            store_name, api = DEFAULT_STORE, path
        elif len(parts) == 4 and parts[1] == "o":
            store_name, api = parts[2], "/" + parts[3]
        else:
            return self.send_full(404, "Not Found", b"404 page not found", "text/plain")
        try:
            body = json.loads(raw) if raw else {}
        except ValueError:
            return self.send_json(400, "Bad Request", {"error": "invalid character in request body"})
        if method == "GET" and api == "/api/tags":
            models = store(store_name)
            with LOCK:
                listed = list(models)
            return self.send_json(200, "OK", {"models": listed})
        if method == "POST" and api == "/api/pull":
            return self.pull(store_name, body.get("model") or body.get("name") or "")
        if method == "DELETE" and api == "/api/delete":
            return self.delete(store_name, body.get("model") or body.get("name") or "")
        self.send_full(404, "Not Found", b"404 page not found", "text/plain")

    def delete(self, store_name, name):
        models = store(store_name)
        wanted = normalized(name)
        with LOCK:
            kept = [m for m in models if m["name"] != wanted]
            found = len(kept) != len(models)
            models[:] = kept
        if not found:
            return self.send_json(404, "Not Found", {"error": f"model '{name}' not found"})
        self.send_full(200, "OK", b"")

    def pull(self, store_name, name):
        if not VALID_NAME.match(name):
            return self.send_json(400, "Bad Request", {"error": "invalid model name"})
        words = store_name.split("-")
        pace = next((int(w[1:]) for w in words if re.fullmatch(r"p\d+", w)), 5) / 1000
        holds = "hold" in words
        model = normalized(name)
        self.request.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/x-ndjson\r\nTransfer-Encoding: chunked\r\n"
                             b"Connection: close\r\n\r\n")
        try:
            self.send_line({"status": "pulling manifest"})
            time.sleep(pace)
            if name.startswith("nosuch"):
                self.send_line({"error": "pull model manifest: file does not exist"})
                return self.end()
            layers = layers_for(model)
            for index, (digest, total, steps) in enumerate(layers):
                status = "pulling " + digest[7:19]
                self.send_line({"status": status, "digest": digest, "total": total})
                for step in range(1, steps + 1):
                    time.sleep(pace)
                    self.send_line({"status": status, "digest": digest, "total": total, "completed": total * step // steps})
                    half_way = index == 0 and step == steps // 2
                    if half_way and name.startswith("broken"):
                        self.send_line({"error": "max retries exceeded: unexpected EOF"})
                        return self.end()
                    if half_way and name.startswith("cutoff"):
                        return self.end()
                    if half_way and holds:
                        self.hold(store_name, model)
            for status in ["verifying sha256 digest", "writing manifest"]:
                time.sleep(pace)
                self.send_line({"status": status})
            with LOCK:
                models = STORES.setdefault(store_name, initial_models())
                models[:] = [m for m in models if m["name"] != model]
                base, _, tag = model.partition(":")
                size = sum(total for _, total, _ in layers)
                parameters = tag.upper() if re.fullmatch(r"\d+(\.\d+)?[bm]", tag) else "7B"
                models.append(model_entry(model, size, base.split("/")[-1].rstrip("0123456789.") or base, parameters))
            self.send_line({"status": "success"})
            self.end()
        except ClientGone:
            record("client-closed", store_name, model)

    def hold(self, store_name, model):
        """Waits for /_release/<store>/<model>, noticing when the client hangs up meanwhile."""
        record("held", store_name, model)
        released = gate(f"{store_name}/{model}")
        self.request.settimeout(0.01)
        deadline = time.monotonic() + 120
        while not released.is_set() and time.monotonic() < deadline:
            try:
                if self.request.recv(1) == b"":
                    raise ClientGone()
            except socket.timeout:
                continue
            except OSError:
                raise ClientGone()
        self.request.settimeout(None)

    def end(self):
        try:
            self.request.sendall(b"0\r\n\r\n")
        except OSError:
            pass


def main():
    threading.Thread(target=exit_when_parent_goes, daemon=True).start()
    port = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    server = Server(("127.0.0.1", port), Handler)
    print(f"PORT {server.server_address[1]}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
