#!/usr/bin/env python3
"""Load and fault test of `sumi serve` on loopback (`make test-serve`).

Starts the server (its request folders, plugins and pipelines in a fresh temporary folder of its
own), with the `crash` test plugin (Examples/crash-c) loaded through `--plugin-path` for a pipeline
`crashy` (the thumbnail with a `crash` stage), then, in three phases:
  1. idle: good requests at the given concurrency; their p99 latency;
  2. slow: the same with `--slow` connections open that never finish their request head: every one
     must be closed within 15 s, and the good requests' p99 must stay within 2x the idle one;
  3. mixed: `--requests` requests at the given concurrency: good ones (JPEG or PNG, their format and
     both dimensions checked), bad parameters (400), garbage (415), oversize bodies (413), unknown
     pipelines (404), the decoder files of fuzz/corpus (200/400/415/422, never 500), runs whose
     plugin stage crashes the worker (SIGSEGV or abort: 500) and runs of the same pipeline that do
     not; plus clients that vanish mid-upload and mid-download.
Afterwards the /metrics counts must equal what was sent (answers by pipeline and status, bodies
refused, bytes in and out, slow clients, worker restarts = crashes), nothing may be in flight, no
request folder may be left, the summed resident memory of the server and its workers (sampled five
times a second from /proc) must stay within `--memory-bound`, and SIGTERM must end the server with
0. Every request loop is bounded in count, and the whole run by `--deadline`. Exit status 1 when
any check fails. Python's standard library only.
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
CHECKS = {"passed": 0, "failed": 0}
LOCK = threading.Lock()

# The thumbnail with the crash test plugin's stage after the scale.
CRASHY = {
    "sumi": 1, "name": "crashy", "summary": "the thumbnail, through a stage that crashes on request",
    "params": {"input": {"type": "path", "summary": "image", "default": "in.jpg"},
               "output": {"type": "path", "summary": "thumbnail", "default": "out.jpg"},
               "width": {"type": "integer", "summary": "width", "default": 64}},
    "stages": [{"id": "photo", "stage": "decode", "with": {"path": "${input}"}},
               {"id": "small", "stage": "scale", "with": {"width": "${width}"}},
               {"id": "crash", "stage": "crash"},
               {"stage": "encode", "with": {"path": "${output}", "quality": 85}}],
}


def check(ok, message):
    with LOCK:
        CHECKS["passed" if ok else "failed"] += 1
    if not ok:
        print("FAIL: " + message, file=sys.stderr)
    return ok


def start_server(sumi, tmp, args):
    work = os.path.join(tmp, "work")
    os.mkdir(work)
    env = dict(os.environ, TMPDIR=work)
    env.pop("SUMI_PLUGIN_PATH", None)
    # Every client here is 127.0.0.1: the per-address limit (a quarter of --connections by default)
    # would close the slow connections and the load's own, so it is lifted to --connections.
    command = [sumi, "serve", "--listen", "127.0.0.1:0", "--max-body", str(args.max_body), "--queue", "4096",
               "--timeout", "120", "--max-memory", str(args.max_memory), "--connections-per-client", "1024",
               "--plugin-path", os.path.join(tmp, "plugins"), "--pipelines", os.path.join(tmp, "pipelines")]
    if args.workers:
        command += ["--workers", str(args.workers)]
    server = subprocess.Popen(command, env=env, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    line = server.stderr.readline()
    match = re.search(r"listening on http://127\.0\.0\.1:(\d+) ", line)
    if not match:
        server.kill()
        sys.exit("the server did not start: " + line + server.stderr.read())
    threading.Thread(target=lambda: [None for _ in server.stderr], daemon=True).start()
    return server, int(match.group(1)), work


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


def dimensions(data):
    """(format, width, height) of a JPEG (its SOF segment) or a PNG (IHDR), else None."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR":
        return "png", int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    if data[:2] != b"\xff\xd8":
        return None
    i = 2
    while i + 9 < len(data):
        if data[i] != 0xFF:
            return None
        marker, length = data[i + 1], int.from_bytes(data[i + 2:i + 4], "big")
        if marker in (0xC0, 0xC1, 0xC2):
            return "jpeg", int.from_bytes(data[i + 7:i + 9], "big"), int.from_bytes(data[i + 5:i + 7], "big")
        i += 2 + length
    return None


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p))] if ordered else 0


class Memory:
    """Samples the summed VmRSS of the server and its children five times a second."""

    def __init__(self, pid):
        self.pid, self.peak, self.server, self.worker, self.stop = pid, 0, 0, 0, False
        threading.Thread(target=self.run, daemon=True).start()

    @staticmethod
    def rss(pid):
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
            server, workers = self.rss(self.pid), [self.rss(c) for c in children]
            self.server, self.worker = max(self.server, server), max([self.worker] + workers)
            self.peak = max(self.peak, server + sum(workers))
            time.sleep(0.2)


class Load:
    """The inputs and the expected answers."""

    def __init__(self, port):
        self.port = port
        self.page = open(os.path.join(ROOT, "pipelines/samples/page-0.png"), "rb").read()
        self.photo = open(os.path.join(ROOT, "pipelines/samples/photo.jpg"), "rb").read()
        self.sizes = {id(self.page): (390, 844), id(self.photo): (3000, 2002)}
        self.received, self.sent = 0, 0  # body bytes of runs; output bytes of 200 answers

    def good(self, rng, pipeline="thumbnail"):
        """A run with its output checked: format, width, and height (the aspect ratio kept)."""
        width = rng.randint(8, 64)
        body = self.photo if rng.random() < 0.1 else self.page
        fmt = "png" if pipeline == "thumbnail" and rng.random() < 0.2 else "jpeg"
        query = "width=%d" % width + ("&format=png" if fmt == "png" else "")
        status, headers, data, seconds = request(self.port, "POST", "/run/%s?%s" % (pipeline, query), body)
        w, h = self.sizes[id(body)]
        expected = (fmt, width, max(1, round(h * width / w)))
        check(status == 200 and dimensions(data) == expected and headers.get("Content-Type") == "image/" + fmt,
              "good %s %s: status %d, %s %s, expected %s" % (pipeline, query, status, headers.get("Content-Type"),
                                                            dimensions(data), expected))
        with LOCK:
            self.received += len(body)
            self.sent += len(data)
        return status, seconds

    def phase(self, count, concurrency, rng):
        with ThreadPoolExecutor(concurrency) as pool:
            results = list(pool.map(lambda _: self.good(random.Random(rng.random())), range(count)))
        return [seconds for _, seconds in results]


def slow_heads(port, count, closed):
    """Opens `count` connections that send half a request head; records how long each stays open."""
    selector = selectors.DefaultSelector()
    opened = {}
    for _ in range(count):
        s = socket.create_connection(("127.0.0.1", port))
        s.sendall(b"POST /run/thumbnail HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n" % port)
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
    """Sends a tenth of a body, then goes."""
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(b"POST /run/thumbnail HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Length: 1000000\r\n\r\n" % port + b"\xff" * 100000)
    time.sleep(0.05)
    s.close()


VANISH_DOWNLOAD = "/run/thumbnail?width=1200&format=png"


def vanish_download(port, photo):
    """Asks for a large output (a 1200-pixel PNG), reads its first 16 KiB through a small receive
    buffer (so the server is still sending), then goes."""
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.settimeout(180)
    s.connect(("127.0.0.1", port))
    s.sendall(b"POST %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Length: %d\r\n\r\n" % (VANISH_DOWNLOAD.encode(), port, len(photo)) + photo)
    got = b""
    try:
        while len(got) < 16384:
            data = s.recv(4096)
            if not data:
                break
            got += data
    except OSError:
        pass
    s.close()
    return got.split(b" ", 2)[1:2] == [b"200"]


def metrics(port):
    _, _, data, _ = request(port, "GET", "/metrics")
    values = {}
    for line in data.decode().splitlines():
        if line and not line.startswith("#"):
            name, value = line.rsplit(" ", 1)
            values[name] = float(value)
    return values


def mixed(load, args, rng, hostile):
    """The mixed load; returns {(kind, pipeline, status): count} and the number of crashes sent."""
    kinds = []
    for i in range(args.requests):
        r = rng.random()
        if r < 0.45:
            kinds.append(("good", "thumbnail", None, None, None))
        elif r < 0.48:
            kinds.append(("good", "crashy", None, None, None))
        elif r < 0.485:
            mode = rng.choice(["segv", "abort"])
            kinds.append(("crash", "crashy", {500}, load.page, "/run/crashy?width=32&crash.mode=" + mode))
        elif r < 0.63:
            kinds.append(("bad", "thumbnail", {400}, load.page, "/run/thumbnail?width=%s" % rng.choice(["wide", "-3", "0", "1e9"])))
        elif r < 0.73:
            kinds.append(("garbage", "thumbnail", {415}, bytes(rng.getrandbits(8) for _ in range(2000)), "/run/thumbnail"))
        elif r < 0.78:
            kinds.append(("oversize", "thumbnail", {413, 0}, b"\0" * (args.max_body + 1), "/run/thumbnail"))
        elif r < 0.83:
            kinds.append(("unknown", "unknown", {404}, load.page, "/run/nothing"))
        else:
            kinds.append(("hostile", "thumbnail", {200, 400, 415, 422}, rng.choice(hostile), "/run/thumbnail?width=48"))

    def one(i):
        kind, pipeline, expected, body, path = kinds[i]
        if kind == "good":
            status, _ = load.good(random.Random(i), pipeline)
        else:
            status, _, data, _ = request(load.port, "POST", path, body)
            check(status in expected, "%s request %d (%s): status %d %s" % (kind, i, path, status, data[:200]))
            if kind == "crash":
                check(b"by signal" in data, "crash request %d: %s" % (i, data[:200]))
            if kind not in ("oversize", "unknown"):
                with LOCK:
                    load.received += len(body)
                    load.sent += len(data) if status == 200 else 0
        return kind, pipeline, status

    with ThreadPoolExecutor(args.concurrency) as pool:
        uploads = [pool.submit(vanish_upload, load.port) for _ in range(args.vanish)]
        downloads = [pool.submit(vanish_download, load.port, load.photo) for _ in range(args.vanish)]
        results = list(pool.map(one, range(args.requests)))
        for f in uploads:
            f.result()
        check(all(f.result() for f in downloads), "a vanishing download did not start with 200")
    sent = {}
    for key in results:
        sent[key] = sent.get(key, 0) + 1
    return sent, sum(1 for k in kinds if k[0] == "crash")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sumi", default=os.path.join(ROOT, ".build/release/sumi"))
    parser.add_argument("--crash-plugin", default=os.path.join(ROOT, ".build/plugins/libcrash.so"),
                        help="the crash test plugin (make examples builds it)")
    parser.add_argument("--requests", type=int, default=10000)
    parser.add_argument("--concurrency", type=int, default=64)
    parser.add_argument("--slow", type=int, default=500)
    parser.add_argument("--good", type=int, default=400, help="good requests in each of the idle and slow phases")
    parser.add_argument("--vanish", type=int, default=50, help="clients vanishing mid-upload, and as many mid-download")
    parser.add_argument("--workers", type=int, default=0)
    parser.add_argument("--max-body", type=int, default=3000000)
    parser.add_argument("--max-memory", type=int, default=1024, help="--max-memory of each worker, MB")
    parser.add_argument("--memory-bound", type=int, default=0,
                        help="MB; default: 30 + 100 x workers (docs/service.md, Memory)")
    parser.add_argument("--deadline", type=int, default=600, help="seconds for the whole run; then it fails")
    args = parser.parse_args()

    began = time.monotonic()
    tmp = tempfile.mkdtemp(prefix="sumi-serve-load-")
    os.mkdir(os.path.join(tmp, "plugins"))
    os.mkdir(os.path.join(tmp, "pipelines"))
    shutil.copy(args.crash_plugin, os.path.join(tmp, "plugins"))
    with open(os.path.join(tmp, "pipelines", "crashy.json"), "w") as f:
        json.dump(CRASHY, f)
    server, port, work = start_server(args.sumi, tmp, args)
    # Ends the server (so every request ends) if the run takes longer than --deadline.
    watchdog = threading.Timer(args.deadline, lambda: (check(False, "the run took longer than %d s" % args.deadline), server.kill()))
    watchdog.daemon = True
    watchdog.start()
    memory = Memory(server.pid)
    rng = random.Random(26)
    load = Load(port)
    hostile = []
    for folder in sorted(os.listdir(os.path.join(ROOT, "fuzz/corpus"))):
        if folder.startswith("decode_"):
            path = os.path.join(ROOT, "fuzz/corpus", folder)
            hostile += [open(os.path.join(path, f), "rb").read() for f in sorted(os.listdir(path))]
    try:
        # The size of the vanishing downloads' output (they are sent whole, as far as the server knows).
        status, _, data, _ = request(port, "POST", VANISH_DOWNLOAD, load.photo)
        check(status == 200 and dimensions(data) == ("png", 1200, 801), "the vanishing downloads' output: %d %s" % (status, dimensions(data)))
        download_size = len(data)
        load.received, load.sent = len(load.photo), len(data)

        start = time.monotonic()
        idle = load.phase(args.good, args.concurrency, rng)
        closed = []
        holder = threading.Thread(target=slow_heads, args=(port, args.slow, closed))
        holder.start()
        time.sleep(1)
        loaded = load.phase(args.good, args.concurrency, rng)
        holder.join()
        idle99, loaded99 = percentile(idle, 0.99), percentile(loaded, 0.99)
        check(loaded99 <= 2 * idle99 + 0.05, "p99 with %d slow connections %.3f s, more than twice the idle %.3f s" % (args.slow, loaded99, idle99))
        check(len(closed) == args.slow and max(closed, default=0) <= 15,
              "slow connections: %d closed, the longest open %.1f s" % (len(closed), max(closed, default=0)))
        slow_seconds = time.monotonic() - start

        start = time.monotonic()
        sent, crashes = mixed(load, args, rng, hostile)
        mixed_seconds = time.monotonic() - start

        # The counts: every request that reached a run is in requests_total by pipeline and status
        # (the vanished downloads were answered 200); oversize bodies are the refused ones.
        time.sleep(2)
        counted = metrics(port)
        by_status = {("thumbnail", 200): 1 + 2 * args.good + args.vanish}
        for (kind, pipeline, status), n in sent.items():
            if kind != "oversize":
                by_status[(pipeline, status)] = by_status.get((pipeline, status), 0) + n
        for (pipeline, status), n in sorted(by_status.items()):
            got = counted.get('sumi_serve_requests_total{pipeline="%s",status="%d"}' % (pipeline, status), 0)
            check(got == n, "metrics: %s %d answers %d counted, %d sent" % (pipeline, status, got, n))
        listed = sum(v for k, v in counted.items() if k.startswith("sumi_serve_requests_total{"))
        check(listed == sum(by_status.values()), "metrics: %d answers counted in all, %d sent" % (listed, sum(by_status.values())))
        check(counted.get("sumi_serve_request_seconds_count") == listed, "metrics: the latency histogram counts %s" % counted.get("sumi_serve_request_seconds_count"))
        oversize = sum(n for (kind, _, _), n in sent.items() if kind == "oversize")
        for name, expected in [("sumi_serve_bodies_refused_total", oversize), ("sumi_serve_worker_restarts_total", crashes),
                               ("sumi_serve_worker_timeouts_total", 0), ("sumi_serve_in_flight", 0), ("sumi_serve_queued", 0),
                               ("sumi_serve_received_bytes_total", load.received + args.vanish * len(load.photo)),
                               ("sumi_serve_sent_bytes_total", load.sent + args.vanish * download_size)]:
            check(counted.get(name) == expected, "metrics: %s is %s, expected %d" % (name, counted.get(name), expected))
        # Closed as slow: every head left unfinished, and those vanished uploads whose end the
        # sweeper saw (a body that stopped arriving) before the daemon read the close.
        closed_slow = counted.get("sumi_serve_slow_clients_closed_total")
        check(args.slow <= closed_slow <= args.slow + args.vanish,
              "metrics: %s slow clients closed, expected %d heads and at most %d vanished uploads" % (closed_slow, args.slow, args.vanish))
        workers = int(counted.get("sumi_serve_workers", 0))
        check(workers == (args.workers or os.cpu_count()), "metrics: %d workers running after the crashes" % workers)
        bound = args.memory_bound or 30 + 100 * workers
        left = os.listdir(work)
        check(not left, "request folders left: %s" % left[:5])
        check(memory.peak <= bound << 20, "memory: %d MB summed, over the bound of %d MB" % (memory.peak >> 20, bound))
        print("requests %d at concurrency %d in %.1f s: %s" % (args.requests, args.concurrency, mixed_seconds,
              ", ".join("%s %s %d: %d" % (k, p, s, n) for (k, p, s), n in sorted(sent.items()))))
        print("p99 idle %.3f s, with %d slow connections %.3f s; slow ones closed after %.1f s at most; %.1f s" %
              (idle99, args.slow, loaded99, max(closed, default=0), slow_seconds))
        print("crashes %d, workers restarted %d" % (crashes, counted.get("sumi_serve_worker_restarts_total", 0)))
        print("memory: %d MB summed at most (bound %d MB); server %d MB, one worker %d MB at most" %
              (memory.peak >> 20, bound, memory.server >> 20, memory.worker >> 20))
    finally:
        memory.stop = True
        server.send_signal(15)
        try:
            check(server.wait(timeout=150) == 0, "the server exited with %s after SIGTERM" % server.returncode)
        except subprocess.TimeoutExpired:
            server.kill()
            check(False, "the server did not end within 150 s of SIGTERM")
        watchdog.cancel()
        shutil.rmtree(tmp, ignore_errors=True)
    print("%.1f s in all" % (time.monotonic() - began))
    print("serve-load: %d passed, %d failed" % (CHECKS["passed"], CHECKS["failed"]))
    sys.exit(1 if CHECKS["failed"] else 0)


if __name__ == "__main__":
    main()
