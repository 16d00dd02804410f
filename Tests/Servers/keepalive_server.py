#!/usr/bin/env python3
"""An OpenAI-compatible streaming server that keeps connections alive (HTTP/1.1, chunked
replies, many requests per connection) and counts the TCP connections it accepts, for the
connection-reuse tests and bench/connection_reuse.py. Real servers keep connections alive too,
but none reports how many a client opened, slows its handshakes on demand, or drops a
kept-alive connection exactly when the next request arrives on it.

    keepalive_server.py [--handshake-delay MS]

Prints "PORT <n> TLSPORT <m> CAFILE <path>" once listening: plain HTTP, and HTTPS with a
certificate for 127.0.0.1 signed by a throw-away CA (the CA file is for the client). Each new
connection waits MS milliseconds before its handshake (a distant server's round trips).

The reply is chosen by the path, POST /s/<scenario>/v1/chat/completions:
  tokens-<n>   n tokens, as fast as the client reads
  held         a token every 20 ms until POST /_release (a reply to stop, whatever the load)
  drop         answered on a new connection; on a reused one, the server closes it as the
               request arrives (a server that dropped an idle connection just then)
GET /_stats returns {"connections": opened, "open": still open, "dropped": n, "requests": n},
counting only connections that carried a chat request; POST /_release lets held replies end;
POST /_reset zeroes the counts and holds replies again. These three close their connection.
"""
import argparse
import itertools
import json
import os
import signal
import socket
import socketserver
import sys
import tempfile
import threading
import time

from openai_test_server import delta, exit_when_parent_goes, make_certificates, read_request

LOCK = threading.Lock()
STATS = {"connections": 0, "open": 0, "dropped": 0, "requests": 0}
RELEASED = threading.Event()


class Handler(socketserver.BaseRequestHandler):
    def setup(self):
        self.request.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.counted = False
        time.sleep(self.server.handshake_delay)
        context = getattr(self.server, "tls_context", None)
        if context is not None:
            self.request = context.wrap_socket(self.request, server_side=True)

    def finish(self):
        if self.counted:
            with LOCK:
                STATS["open"] -= 1

    def control(self, path):
        """The counts, a release of held replies, or a reset; the connection then closes."""
        if path == "/_release":
            RELEASED.set()
        elif path == "/_reset":
            RELEASED.clear()
            with LOCK:
                for key in STATS:
                    STATS[key] = 0
        with LOCK:
            body = json.dumps(STATS).encode() if path == "/_stats" else b"{}"
        self.send("200 OK", "application/json", body, keep_alive=False)

    def send(self, status, content_type, body=b"", chunks=None, keep_alive=True):
        """A response with Content-Length, or chunked `chunks`; the connection stays open
        unless `keep_alive` is false."""
        head = [f"HTTP/1.1 {status}", f"Content-Type: {content_type}",
                "Connection: keep-alive" if keep_alive else "Connection: close"]
        head.append("Transfer-Encoding: chunked" if chunks is not None else f"Content-Length: {len(body)}")
        self.request.sendall(("\r\n".join(head) + "\r\n\r\n").encode() + body)
        for chunk in chunks or []:
            self.request.sendall(b"%x\r\n" % len(chunk) + chunk + b"\r\n")
        if chunks is not None:
            self.request.sendall(b"0\r\n\r\n")

    def held_tokens(self):
        """A token every 20 ms until released; a client that went away ends it (send fails)."""
        index = 0
        while not RELEASED.wait(0.02):
            yield delta(f"t{index} ")
            index += 1

    def handle(self):
        served = 0
        try:
            while True:
                request = read_request(self.request)
                if request is None:
                    return
                method, path, _, _ = request
                if path in ("/_stats", "/_release", "/_reset"):
                    # Closed after answering, so a client never reuses it for a chat request.
                    self.control(path)
                    return
                with LOCK:
                    STATS["requests"] += 1
                    if not self.counted:
                        STATS["connections"] += 1
                        STATS["open"] += 1
                self.counted = True
                scenario = path.split("/")[2] if path.startswith("/s/") else "tokens-3"
                if scenario == "drop" and served > 0:
                    with LOCK:
                        STATS["dropped"] += 1
                    self.request.shutdown(socket.SHUT_RDWR)
                    return
                count = int(scenario.split("-")[1]) if scenario.startswith("tokens-") else 3
                tokens = self.held_tokens() if scenario == "held" else (delta(f"t{i} ") for i in range(count))
                chunks = itertools.chain([delta(role="assistant", content="")], tokens,
                                         [delta(finish="stop", include_content=False), b"data: [DONE]\n\n"])
                self.send("200 OK", "text/event-stream", chunks=chunks)
                served += 1
        except (ConnectionError, OSError):
            return


class Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True
    handshake_delay = 0.0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--handshake-delay", type=float, default=0.0, help="milliseconds")
    arguments = parser.parse_args()
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    threading.Thread(target=exit_when_parent_goes, daemon=True).start()
    servers = [Server(("127.0.0.1", 0), Handler), Server(("127.0.0.1", 0), Handler)]
    for server in servers:
        server.handshake_delay = arguments.handshake_delay / 1000
    servers[1].tls_context, ca_file = make_certificates(tempfile.mkdtemp(prefix="agent-keepalive-tls-"))
    for server in servers:
        threading.Thread(target=server.serve_forever, daemon=True).start()
    print(f"PORT {servers[0].server_address[1]} TLSPORT {servers[1].server_address[1]} CAFILE {ca_file}", flush=True)
    threading.Event().wait()


if __name__ == "__main__":
    main()
