#!/usr/bin/env python3
"""Load and fault test of `sumi serve` on loopback (`make test-serve`).

Starts the server, then, in three phases:
  1. idle: good requests at the given concurrency; their p99 latency;
  2. slow: the same with `--slow` connections open that never finish their request head: every one
     must be closed within 15 s, and the good requests' p99 must stay within 2x the idle one;
  3. mixed: `--requests` requests (good, bad parameters, garbage, oversize bodies, unknown
     pipelines, hostile files from fuzz/corpus) at the given concurrency, plus clients that vanish
     mid-upload and mid-download.
Every answer is checked (a good run's output width, each error's status), the summed resident
memory of the server and its workers is sampled against `--memory-bound`, the /metrics counts must
equal what was sent, no request folder may be left, and SIGTERM must end the server with 0.
Exit status 1 when any check fails. Python's standard library only.
"""
import argparse
import http.client
import json
import os
import random
import re
import selectors
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FAILURES = []


def fail(message):
    FAILURES.append(message)
    print("FAIL: " + message, file=sys.stderr)


def start_server(sumi, tmp, args):
    env = dict(os.environ, TMPDIR=tmp)
    command = [sumi, "serve", "--listen", "127.0.0.1:0", "--max-body", str(args.max_body), "--queue", "4096",
               "--timeout", "120", "--max-memory", str(args.max_memory)]
    if args.workers:
        command += ["--workers", str(args.workers)]
    server = subprocess.Popen(command, env=env, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    line = server.stderr.readline()
    match = re.search(r"listening on http://127\.0\.0\.1:(\d+) ", line)
    if not match:
        server.kill()
        sys.exit("the server did not start: " + line + server.stderr.read())
    threading.Thread(target=lambda: [None for _ in server.stderr], daemon=True).start()
    return server, int(match.group(1))


def request(port, method, path, body=None, timeout=180):
    """(status, headers, body, seconds); status 0 when the connection broke."""
    start = time.monotonic()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request(method, path, body=body, headers={"Content-Type": "application/octet-stream"})
        response = connection.getresponse()
        data = response.read()
        return response.status, dict(response.getheaders()), data, time.monotonic() - start
    except (ConnectionError, http.client.HTTPException, socket.timeout, OSError):
        return 0, {}, b"", time.monotonic() - start
    finally:
        connection.close()


def jpeg_width(data):
    """The width in a JPEG's SOF segment, or None."""
    i = 2
    while i + 9 < len(data):
        if data[i] != 0xFF:
            return None
        marker, length = data[i + 1], int.from_bytes(data[i + 2:i + 4], "big")
        if marker in (0xC0, 0xC1, 0xC2):
            return int.from_bytes(data[i + 7:i + 9], "big")
        i += 2 + length
    return None


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p))] if ordered else 0


class Memory:
    """Samples the summed VmRSS of the server and its children five times a second."""

    def __init__(self, pid):
        self.pid, self.peak, self.stop = pid, 0, False
        threading.Thread(target=self.run, daemon=True).start()

    def rss(self, pid):
        try:
            with open("/proc/%d/status" % pid) as f:
                return next(int(l.split()[1]) * 1024 for l in f if l.startswith("VmRSS:"))
        except (OSError, StopIteration):
            return 0

    def run(self):
        while not self.stop:
            children = []
            for entry in os.listdir("/proc"):
                if entry.isdigit():
                    try:
                        with open("/proc/%s/stat" % entry) as f:
                            if int(f.read().rsplit(")", 1)[1].split()[1]) == self.pid:
                                children.append(int(entry))
                    except (OSError, IndexError, ValueError):
                        pass
            self.peak = max(self.peak, self.rss(self.pid) + sum(self.rss(c) for c in children))
            time.sleep(0.2)


def good(port, rng, page, photo):
    width = rng.randint(8, 64)
    body = photo if rng.random() < 0.1 else page
    status, _, data, seconds = request(port, "POST", "/run/thumbnail?width=%d" % width, body)
    if status != 200 or jpeg_width(data) != width:
        fail("good request width=%d: status %d, width %s" % (width, status, jpeg_width(data)))
    return status, seconds


def phase(port, count, concurrency, rng, page, photo):
    with ThreadPoolExecutor(concurrency) as pool:
        results = list(pool.map(lambda _: good(port, random.Random(rng.random()), page, photo), range(count)))
    return [seconds for _, seconds in results]


def slow_heads(port, count, closed):
    """Opens `count` connections that send half a request head; records how long each stays open."""
    selector = selectors.DefaultSelector()
    opened = {}
    for _ in range(count):
        s = socket.create_connection(("127.0.0.1", port))
        s.sendall(b"POST /run/thumbnail HTTP/1.1\r\nHost: x\r\n")
        s.setblocking(False)
        selector.register(s, selectors.EVENT_READ)
        opened[s] = time.monotonic()
    deadline = time.monotonic() + 30
    while opened and time.monotonic() < deadline:
        for key, _ in selector.select(timeout=0.5):
            s = key.fileobj
            try:
                data = s.recv(4096)
            except (ConnectionError, OSError):
                data = b""
            if not data:
                closed.append(time.monotonic() - opened.pop(s))
                selector.unregister(s)
                s.close()
    for s in opened:
        closed.append(float("inf"))
        s.close()


def vanish_upload(port):
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(b"POST /run/thumbnail HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\n" + b"\xff" * 100000)
    time.sleep(0.05)
    s.close()


def vanish_download(port, page):
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(b"POST /run/thumbnail?width=32 HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n" % len(page) + page)
    s.close()


def metrics(port):
    _, _, data, _ = request(port, "GET", "/metrics")
    values = {}
    for line in data.decode().splitlines():
        if line and not line.startswith("#"):
            name, value = line.rsplit(" ", 1)
            values[name] = float(value)
    return values


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sumi", default=os.path.join(ROOT, ".build/release/sumi"))
    parser.add_argument("--requests", type=int, default=10000)
    parser.add_argument("--concurrency", type=int, default=64)
    parser.add_argument("--slow", type=int, default=500)
    parser.add_argument("--good", type=int, default=400, help="good requests in each of the idle and slow phases")
    parser.add_argument("--workers", type=int, default=0)
    parser.add_argument("--max-body", type=int, default=3000000)
    parser.add_argument("--max-memory", type=int, default=1024, help="--max-memory of each worker, MB")
    parser.add_argument("--memory-bound", type=int, default=0, help="MB; default: 64 + workers x --max-memory")
    args = parser.parse_args()

    tmp = tempfile.mkdtemp(prefix="sumi-serve-load-")
    server, port = start_server(args.sumi, tmp, args)
    memory = Memory(server.pid)
    rng = random.Random(26)
    page = open(os.path.join(ROOT, "pipelines/samples/page-0.png"), "rb").read()
    photo = open(os.path.join(ROOT, "pipelines/samples/photo.jpg"), "rb").read()
    hostile = []
    for folder in sorted(os.listdir(os.path.join(ROOT, "fuzz/corpus"))):
        if folder.startswith("decode_"):
            path = os.path.join(ROOT, "fuzz/corpus", folder)
            hostile += [open(os.path.join(path, f), "rb").read() for f in sorted(os.listdir(path))]
    try:
        idle = phase(port, args.good, args.concurrency, rng, page, photo)
        closed = []
        holder = threading.Thread(target=slow_heads, args=(port, args.slow, closed))
        holder.start()
        time.sleep(1)
        loaded = phase(port, args.good, args.concurrency, rng, page, photo)
        holder.join()
        idle99, loaded99 = percentile(idle, 0.99), percentile(loaded, 0.99)
        if loaded99 > 2 * idle99 + 0.05:
            fail("p99 with %d slow connections %.3f s, more than twice the idle %.3f s" % (args.slow, loaded99, idle99))
        if len(closed) != args.slow or max(closed, default=0) > 15:
            fail("slow connections: %d closed, the longest open %.1f s" % (len(closed), max(closed, default=0)))

        # The mixed load: (kind, expected statuses, body, path).
        kinds = []
        for i in range(args.requests):
            r = rng.random()
            if r < 0.5:
                kinds.append(("good", None, None, None))
            elif r < 0.65:
                kinds.append(("bad", {400}, page, "/run/thumbnail?width=%s" % rng.choice(["wide", "-3", "0", "1e9"])))
            elif r < 0.75:
                kinds.append(("garbage", {415}, bytes(rng.getrandbits(8) for _ in range(2000)), "/run/thumbnail"))
            elif r < 0.8:
                kinds.append(("oversize", {413, 0}, b"\0" * (args.max_body + 1), "/run/thumbnail"))
            elif r < 0.85:
                kinds.append(("unknown", {404}, page, "/run/nothing"))
            else:
                kinds.append(("hostile", {200, 400, 415, 422}, rng.choice(hostile), "/run/thumbnail?width=48"))
        sent = {}

        def one(i):
            kind, expected, body, path = kinds[i]
            if kind == "good":
                status, _ = good(port, random.Random(i), page, photo)
            else:
                status, _, data, _ = request(port, "POST", path, body)
                if status not in expected:
                    fail("%s request %d: status %d %s" % (kind, i, status, data[:200]))
            return kind, status

        with ThreadPoolExecutor(args.concurrency) as pool:
            vanished = [pool.submit(vanish_upload, port) for _ in range(50)]
            downloads = [pool.submit(vanish_download, port, page) for _ in range(50)]
            results = list(pool.map(one, range(args.requests)))
            for f in vanished + downloads:
                f.result()
        for kind, status in results:
            sent[(kind, status)] = sent.get((kind, status), 0) + 1

        # The counts: every request that reached a run is in requests_total by its status; the
        # downloads that vanished were answered 200; oversize bodies are the refused ones.
        time.sleep(2)
        counted = metrics(port)
        by_status = {}
        for (kind, status), n in sent.items():
            if kind != "oversize":
                by_status[status] = by_status.get(status, 0) + n
        by_status[200] = by_status.get(200, 0) + 2 * args.good + len(downloads)
        for status, n in sorted(by_status.items()):
            pipeline = "unknown" if status == 404 else "thumbnail"
            got = counted.get('sumi_serve_requests_total{pipeline="%s",status="%d"}' % (pipeline, status), 0)
            if got != n:
                fail("metrics: %d answers %d counted, %d sent" % (status, got, n))
        oversize = sum(n for (kind, _), n in sent.items() if kind == "oversize")
        if counted.get("sumi_serve_bodies_refused_total") != oversize:
            fail("metrics: %s bodies refused, %d oversize sent" % (counted.get("sumi_serve_bodies_refused_total"), oversize))
        if counted.get("sumi_serve_in_flight") != 0:
            fail("metrics: %s in flight after the load" % counted.get("sumi_serve_in_flight"))
        workers = int(counted.get("sumi_serve_workers", 1))
        bound = args.memory_bound or 64 + workers * args.max_memory
        left = [f for f in os.listdir(tmp) if f.startswith("sumi-")]
        if left:
            fail("request folders left: %s" % left[:5])
        if memory.peak > bound << 20:
            fail("memory: %d MB summed, over the bound of %d MB" % (memory.peak >> 20, bound))
        print("requests %d at concurrency %d: %s" % (args.requests, args.concurrency,
              ", ".join("%s %d: %d" % (k, s, n) for (k, s), n in sorted(sent.items()))))
        print("p99 idle %.3f s, with %d slow connections %.3f s; slow ones closed after %.1f s at most" %
              (idle99, args.slow, loaded99, max(closed, default=0)))
        print("memory: %d MB summed at most (bound %d MB)" % (memory.peak >> 20, bound))
    finally:
        memory.stop = True
        server.send_signal(15)
        try:
            if server.wait(timeout=150) != 0:
                fail("the server exited with %d after SIGTERM" % server.returncode)
        except subprocess.TimeoutExpired:
            server.kill()
            fail("the server did not end within 150 s of SIGTERM")
        shutil.rmtree(tmp, ignore_errors=True)
    if FAILURES:
        print("%d checks failed" % len(FAILURES), file=sys.stderr)
        sys.exit(1)
    print("all checks passed")


if __name__ == "__main__":
    main()
