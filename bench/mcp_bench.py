#!/usr/bin/env python3
"""MCP client cost against a real stdio server (mcp-server-time, from scripts/install-test-servers):
agent-cli against the official Python SDK's client (mcp.client.stdio), same run, same server.
(a) spawn → tools listed; (b) one tools/call round trip (get_current_time, timezone UTC), and the
per-call overhead: round trip − the server's own time, which bench/mcp_timing_proxy.py measures
between client and server (both clients go through it for (b); its own hops count as overhead).

agent-cli, given {"mcpServers": {"time": {"command": …, "args": […]}}}:
  --mcp-config CONFIG --list-tools             (a) wall time to its last line of output (the
                                               process also starts agent-cli and stops the server)
  --mcp-config CONFIG --call-tool NAME --arguments JSON --repeat N
                                               (b) prints "call <microseconds>" per call on stderr
The Python SDK, in this process: stdio_client() → initialize → list_tools() (a); call_tool() (b).
Until agent-cli has these options, its row says why it was not measured and the script exits 0.

    mcp_bench.py [--agent-cli PATH] [--runs N] [--rows-only]   (.build/release/agent-cli, 20 runs)
Re-runs itself under the test servers' Python (it needs the SDK); prints a Markdown table.
"""
import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DATA_HOME = os.environ.get("XDG_DATA_HOME", os.path.expanduser("~/.local/share"))
SERVERS_DIR = os.environ.get("AGENT_TEST_SERVERS_DIR",
                             os.path.join(DATA_HOME, "io.github.agentdesktop.Agent", "test-servers"))
VENV = os.path.join(SERVERS_DIR, "venv")

try:
    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client
except ImportError:
    python = os.path.join(VENV, "bin", "python")
    if os.path.realpath(sys.prefix) != os.path.realpath(VENV) and os.access(python, os.X_OK):
        os.execv(python, [python, os.path.abspath(__file__), *sys.argv[1:]])
    sys.exit(f"mcp_bench: the Python SDK is not installed in {VENV}; run scripts/install-test-servers")

from common import AGENT_CLI, row, spread  # noqa: E402  (after the re-exec above)

SERVER = [os.path.join(VENV, "bin", "mcp-server-time"), "--local-timezone", "UTC"]
PROXY = os.path.join(HERE, "mcp_timing_proxy.py")
TOOL, ARGUMENTS = "get_current_time", {"timezone": "UTC"}
TIMEOUT = 120  # seconds for one agent-cli run


def proxied(log):
    """The server command behind the timing proxy, writing to `log`."""
    return [sys.executable, PROXY, "--log", log, "--", *SERVER]


def server_times(log):
    """The server's own time per tools/call, in µs, in call order."""
    with open(log) as f:
        return [entry["us"] for entry in map(json.loads, f) if entry["method"] == "tools/call"]


def overhead(round_trips, server):
    """Median of round trip − server time, call by call (medians' difference if counts differ)."""
    if len(round_trips) == len(server):
        return statistics.median(r - s for r, s in zip(round_trips, server))
    return statistics.median(round_trips) - statistics.median(server)


# The Python SDK's client

async def sdk_list_once(errlog):
    start = time.perf_counter()
    async with stdio_client(StdioServerParameters(command=SERVER[0], args=SERVER[1:]), errlog=errlog) as streams:
        async with ClientSession(*streams) as session:
            await session.initialize()
            tools = await session.list_tools()
            elapsed = time.perf_counter() - start
    assert any(tool.name == TOOL for tool in tools.tools), "mcp-server-time lists no get_current_time"
    return elapsed * 1000


async def sdk_calls(command, runs, errlog):
    """`runs` timed tools/call round trips in one session, in µs."""
    times = []
    async with stdio_client(StdioServerParameters(command=command[0], args=command[1:]), errlog=errlog) as streams:
        async with ClientSession(*streams) as session:
            await session.initialize()
            await session.list_tools()  # the SDK validates structuredContent against the listed outputSchema
            for _ in range(runs):
                start = time.perf_counter_ns()
                result = await session.call_tool(TOOL, ARGUMENTS)
                times.append((time.perf_counter_ns() - start) / 1000)
                assert not result.is_error, result
    return times


# agent-cli

def write_config(directory, command):
    path = os.path.join(directory, "mcp.json")
    with open(path, "w") as f:
        json.dump({"mcpServers": {"time": {"command": command[0], "args": command[1:]}}}, f)
    return path


def failure(what, completed):
    message = (completed.stderr or completed.stdout or "").strip().splitlines()
    return f"{what} exited {completed.returncode}" + (f": {message[0][:120]}" if message else "")


def agent_list_probe(agent, config):
    """None if `--list-tools` works, else why not."""
    try:
        completed = subprocess.run([agent, "--mcp-config", config, "--list-tools"], capture_output=True,
                                   text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return f"--list-tools did not finish in {TIMEOUT} s"
    if completed.returncode != 0:
        return failure("--list-tools", completed)
    if TOOL not in completed.stdout:
        return f"--list-tools did not list {TOOL}"
    return None


def agent_list_once(agent, config):
    """(ms to the last line of output, ms to exit)."""
    start = time.perf_counter()
    process = subprocess.Popen([agent, "--mcp-config", config, "--list-tools"], stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL)
    last = start
    for _ in process.stdout:
        last = time.perf_counter()
    process.wait(TIMEOUT)
    return (last - start) * 1000, (time.perf_counter() - start) * 1000


def agent_calls(agent, config, runs):
    """(round trips in µs, None) or (None, why not)."""
    command = [agent, "--mcp-config", config, "--call-tool", TOOL, "--arguments", json.dumps(ARGUMENTS),
               "--repeat", str(runs)]
    try:
        completed = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return None, f"--call-tool did not finish in {TIMEOUT} s"
    if completed.returncode != 0:
        return None, failure("--call-tool", completed)
    times = [float(line.split()[1]) for line in completed.stderr.splitlines() if line.startswith("call ")]
    if len(times) != runs:
        return None, f"--call-tool --repeat {runs} printed {len(times)} 'call <µs>' lines"
    return times, None


def ratio(ours, reference):
    return f"{statistics.median(ours) / statistics.median(reference):.2f}×"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--agent-cli", default=AGENT_CLI)
    parser.add_argument("--runs", type=int, default=int(os.environ.get("BENCH_RUNS", "20")))
    parser.add_argument("--rows-only", action="store_true", help="no table header (for bench/run)")
    args = parser.parse_args()
    runs, agent = args.runs, args.agent_cli
    if not os.access(SERVER[0], os.X_OK):
        sys.exit(f"mcp_bench: {SERVER[0]} is missing; run scripts/install-test-servers")

    with tempfile.TemporaryDirectory() as directory, open(os.devnull, "w") as devnull:
        direct_config = write_config(directory, SERVER)
        agent_missing = None if os.access(agent, os.X_OK) else f"{agent} not built"
        list_missing = agent_missing or agent_list_probe(agent, direct_config)  # also the warm-up

        # (a) spawn → tools listed, alternating the two clients.
        asyncio.run(sdk_list_once(devnull))  # warm-up: the server's files in the page cache
        sdk_list, agent_list, agent_exit = [], [], []
        for _ in range(runs):
            sdk_list.append(asyncio.run(sdk_list_once(devnull)))
            if not list_missing:
                listed, exited = agent_list_once(agent, direct_config)
                agent_list.append(listed)
                agent_exit.append(exited)

        # (b) tools/call round trips, through the timing proxy for both clients.
        sdk_log = os.path.join(directory, "sdk.log")
        sdk_rt = asyncio.run(sdk_calls(proxied(sdk_log), runs, devnull))
        sdk_server = server_times(sdk_log)
        sdk_direct = asyncio.run(sdk_calls(SERVER, runs, devnull))  # what the proxy's hops cost
        agent_log = os.path.join(directory, "agent.log")
        agent_rt, call_missing = (None, agent_missing) if agent_missing else \
            agent_calls(agent, write_config(directory, proxied(agent_log)), runs)
        agent_server = server_times(agent_log) if agent_rt else None

    if not args.rows_only:
        print("| measure | Agent | reference (same run) | ratio | goal | verdict |")
        print("|---|---|---|---|---|---|")
    sdk_cell = f"Python SDK {spread(sdk_list)}"
    if agent_list:
        row(f"MCP stdio: spawn mcp-server-time → tools listed (median / p90 / max of {runs})",
            f"{spread(agent_list)} (process exit: {statistics.median(agent_exit):.0f} ms)", sdk_cell,
            ratio(agent_list, sdk_list), "report the ratio", "measured")
    else:
        row(f"MCP stdio: spawn mcp-server-time → tools listed (median / p90 / max of {runs})",
            "not measured", sdk_cell, "–", "report the ratio", "not measured")
    sdk_cell = f"Python SDK {spread(sdk_rt, 'µs')} (without the proxy: {statistics.median(sdk_direct):.0f} µs)"
    sdk_overhead = overhead(sdk_rt, sdk_server)
    sdk_overhead_cell = (f"Python SDK {sdk_overhead:.0f} µs (server {statistics.median(sdk_server):.0f} µs "
                         f"of {statistics.median(sdk_rt):.0f})")
    if agent_rt:
        agent_overhead = overhead(agent_rt, agent_server)
        row(f"MCP tools/call round trip, {TOOL} (median / p90 / max of {runs})", spread(agent_rt, "µs"),
            sdk_cell, ratio(agent_rt, sdk_rt), "report the ratio", "measured")
        row(f"MCP per-call client overhead: round trip − server's own time (median of {runs})",
            f"{agent_overhead:.0f} µs (server {statistics.median(agent_server):.0f} µs "
            f"of {statistics.median(agent_rt):.0f})", sdk_overhead_cell,
            f"{agent_overhead / sdk_overhead:.2f}×", "< 5 ms", "met" if agent_overhead < 5000 else "missed")
    else:
        row(f"MCP tools/call round trip, {TOOL} (median / p90 / max of {runs})", "not measured", sdk_cell,
            "–", "report the ratio", "not measured")
        row(f"MCP per-call client overhead: round trip − server's own time (median of {runs})", "not measured",
            sdk_overhead_cell, "–", "< 5 ms", "not measured")
    reasons = [reason for reason in dict.fromkeys([list_missing, call_missing]) if reason]
    if reasons:
        row("agent-cli: not measured", "; ".join(reasons), "–", "–", "–", "not measured")


if __name__ == "__main__":
    main()
