#!/usr/bin/env python3
"""A model server as Agent finds one running on this computer, for discovery tests.

    local_model_server.py --host HOST --port PORT --kind KIND

listens on HOST (127.0.0.1 or ::1) and PORT (0: any free one) and answers as KIND does:
ollama (GET /api/tags with Ollama's listing, POST /api/chat streaming an echo), llamacpp,
vllm or lmstudio (GET /v1/models, each model's "owned_by" as that server writes it, POST
/v1/chat/completions streaming an echo), garbage (200 OK with a web page for any request),
stall (accepts the connection and never answers) or redirect (307 to --location, with the
path asked for appended). The listings and replies come from
openai_test_server.py, which scripts everything else.

Prints "PORT <n>" on its first line of stdout once it listens; exits when stdin closes (the
test process ended). An address already in use ends it at once with the reason on stderr.
"""
import argparse
import json
import os
import socket
import socketserver
import sys
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import openai_test_server as base  # noqa: E402

OWNERS = {"llamacpp": "llamacpp", "vllm": "vllm", "lmstudio": "organization_owner"}


class Handler(base.Handler):
    def handle(self):
        kind = self.server.kind
        if kind == "stall":
            # Read nothing, answer nothing: wait until the client gives up and closes.
            while self.request.recv(65536):
                pass
            return
        request = self.read_request()
        if request is None:
            return
        method, path, headers, raw = request
        self.current_path = path
        if kind == "garbage":
            return self.send_full(200, "OK", "text/html", b"<html><body>Welcome to nginx!</body></html>")
        if kind == "redirect":
            return self.send_head(307, "Temporary Redirect", "text/plain", chunked=False,
                                  extra=["Content-Length: 0", f"Location: {self.server.location}{path}"])
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = None
        if kind == "ollama":
            if method == "GET" and path == "/api/tags":
                return self.scenario_ollama("ollama", body, headers)
            if method == "POST" and path == "/api/chat":
                return self.scenario_ollama("ollama-echo", body, headers)
        elif method == "GET" and path == "/v1/models":
            listing = {"object": "list", "data": [{"id": name, "object": "model", "created": 1700000000,
                                                   "owned_by": OWNERS[kind]} for name in (base.MODEL, "test-model-large")]}
            return self.send_full(200, "OK", "application/json", json.dumps(listing).encode())
        elif method == "POST" and path == "/v1/chat/completions":
            return self.scenario_echo("echo", body, headers)
        self.send_full(404, "Not Found", "text/plain", b"404 page not found")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--location", default="", help="where redirect sends every request")
    parser.add_argument("--kind", choices=["ollama", *OWNERS, "garbage", "stall", "redirect"], required=True)
    arguments = parser.parse_args()

    class Server(socketserver.ThreadingTCPServer):
        daemon_threads = True
        allow_reuse_address = True
        address_family = socket.AF_INET6 if ":" in arguments.host else socket.AF_INET

    try:
        server = Server((arguments.host, arguments.port), Handler)
    except OSError as error:
        sys.exit(f"cannot listen on {arguments.host} port {arguments.port}: {error.strerror}")
    server.kind = arguments.kind
    server.location = arguments.location
    threading.Thread(target=base.exit_when_parent_goes, daemon=True).start()
    print(f"PORT {server.server_address[1]}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
