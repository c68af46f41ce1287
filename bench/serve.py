#!/usr/bin/env python3
"""`make bench-serve`: the same thumbnail job over HTTP from `sumi serve` and from thumbor 7.8.0,
and from `sumi run` started once per request, at concurrency 1, 4 and 16, in one run.

The job: a 512-pixel-wide JPEG (quality 85, as pipelines/thumbnail.json) of the 3000x2002 sample
photo, read from a folder both servers serve (`sumi serve --root DIR`, `GET
/run/thumbnail?input=photo.jpg&width=512`; thumbor's file loader on DIR, `/unsafe/512x0/photo.jpg`,
storage and result storage off, one process per core). The load generator is wrk (Debian's) for
both servers; `sumi run` per request is timed by this script (one process per request, `--jobs`
processes at once). Loopback only; every load is bounded in time. Prints a Markdown table of
requests/s, p50 and p99 (docs/service.md keeps the measured one), and each server's CPU per request
(its processes' user and system time from /proc over the run, divided by the requests wrk counted),
which depends less than requests/s on what else the machine runs.

thumbor==7.8.0 is installed from PyPI into a venv under $XDG_CACHE_HOME/sumi-bench-serve (made once).
"""
import argparse
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CACHE = os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "sumi-bench-serve")
THUMBOR = "7.8.0"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def thumbor_venv():
    venv = os.path.join(CACHE, "thumbor-" + THUMBOR)
    binary = os.path.join(venv, "bin", "thumbor")
    if not os.path.exists(binary):
        os.makedirs(CACHE, exist_ok=True)
        subprocess.run([sys.executable, "-m", "venv", venv], check=True)
        subprocess.run([os.path.join(venv, "bin", "pip"), "install", "-q", "thumbor==" + THUMBOR], check=True)
    return binary


def wait_until_up(url, process, seconds=60):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if process.poll() is not None:
            sys.exit("the server ended before answering: %s" % url)
        try:
            with urllib.request.urlopen(url, timeout=5) as answer:
                return answer.read()
        except OSError:
            time.sleep(0.2)
    sys.exit("no answer from %s within %d s" % (url, seconds))


def jpeg_size(data):
    i = 2
    while i + 9 < len(data) and data[i] == 0xFF:
        if data[i + 1] in (0xC0, 0xC1, 0xC2):
            return int.from_bytes(data[i + 7:i + 9], "big"), int.from_bytes(data[i + 5:i + 7], "big")
        i += 2 + int.from_bytes(data[i + 2:i + 4], "big")
    return None


def seconds(text):
    value, unit = re.match(r"([\d.]+)(us|ms|s|m)", text).groups()
    return float(value) * {"us": 1e-6, "ms": 1e-3, "s": 1, "m": 60}[unit]


def cpu_seconds(pid):
    """User plus system CPU of a process and its children (their threads included), from /proc."""
    total = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % entry) as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(entry) == pid or int(fields[1]) == pid:
            total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def wrk(url, concurrency, duration, pid):
    """(requests/s, p50 s, p99 s, CPU s per request of `pid` and its children) from wrk, failing on
    any error or non-2xx answer."""
    threads = min(concurrency, 2)
    before = cpu_seconds(pid)
    out = subprocess.run(["wrk", "-t%d" % threads, "-c%d" % concurrency, "-d%ds" % duration, "--timeout", "30s",
                          "--latency", url], check=True, capture_output=True, text=True).stdout
    if "Non-2xx" in out or "Socket errors" in out:
        sys.exit("wrk saw errors:\n" + out)
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    p50 = seconds(re.search(r"\s50%\s+(\S+)", out).group(1))
    p99 = seconds(re.search(r"\s99%\s+(\S+)", out).group(1))
    count = int(re.search(r"(\d+) requests in", out).group(1))
    return rate, p50, p99, (cpu_seconds(pid) - before) / max(1, count)


def per_process(sumi, photo, out, concurrency, duration):
    """`sumi run` once per request, `concurrency` at a time, for `duration` seconds."""
    latencies, lock, end = [], threading.Lock(), time.monotonic() + duration

    def loop(n):
        i = 0
        while time.monotonic() < end:
            target = os.path.join(out, "run-%d-%d.jpg" % (n, i % 4))
            start = time.monotonic()
            subprocess.run([sumi, "run", os.path.join(ROOT, "pipelines/thumbnail.json"), "-i", photo, "-o", target,
                            "--set", "width=512", "--quiet"], check=True)
            with lock:
                latencies.append(time.monotonic() - start)
            i += 1

    began = time.monotonic()
    threads = [threading.Thread(target=loop, args=(n,)) for n in range(concurrency)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.monotonic() - began
    ordered = sorted(latencies)
    return len(ordered) / elapsed, ordered[len(ordered) // 2], ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))], None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sumi", default=os.path.join(ROOT, ".build/release/sumi"))
    parser.add_argument("--duration", type=int, default=10, help="seconds of load for each measurement")
    parser.add_argument("--concurrency", default="1,4,16")
    parser.add_argument("--workers", type=int, default=os.cpu_count(), help="sumi serve --workers, and thumbor's processes")
    args = parser.parse_args()
    levels = [int(c) for c in args.concurrency.split(",")]
    thumbor = thumbor_venv()
    tmp = tempfile.mkdtemp(prefix="sumi-bench-serve-")
    photo = os.path.join(tmp, "photo.jpg")
    shutil.copy(os.path.join(ROOT, "pipelines/samples/photo.jpg"), photo)
    servers = []
    results = {}
    try:
        port = free_port()
        serve_env = dict(os.environ, TMPDIR=tmp)
        servers.append(subprocess.Popen([args.sumi, "serve", "--listen", "127.0.0.1:%d" % port, "--root", tmp,
                                         "--workers", str(args.workers)], env=serve_env,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        sumi_url = "http://127.0.0.1:%d/run/thumbnail?input=photo.jpg&width=512" % port
        tport = free_port()
        conf = os.path.join(tmp, "thumbor.conf")
        with open(conf, "w") as f:
            f.write("LOADER = 'thumbor.loaders.file_loader'\nFILE_LOADER_ROOT_PATH = %r\n" % tmp +
                    "STORAGE = 'thumbor.storages.no_storage'\nRESULT_STORAGE = None\nQUALITY = 85\n"
                    "AUTO_WEBP = False\nRESPECT_ORIENTATION = True\n")
        # In a session of its own: thumbor forks its processes, and they are ended with it.
        servers.append(subprocess.Popen([thumbor, "--port", str(tport), "--ip", "127.0.0.1", "--conf", conf,
                                         "--processes", str(args.workers), "--log-level", "error"],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True))
        thumbor_url = "http://127.0.0.1:%d/unsafe/512x0/photo.jpg" % tport
        for name, url in [("sumi serve", sumi_url), ("thumbor " + THUMBOR, thumbor_url)]:
            size = jpeg_size(wait_until_up(url, servers[0] if name == "sumi serve" else servers[1]))
            if size != (512, 342):
                sys.exit("%s answered a %s JPEG, not 512x342" % (name, size))
        for c in levels:
            for name, url, server in [("sumi serve", sumi_url, servers[0]), ("thumbor " + THUMBOR, thumbor_url, servers[1])]:
                wrk(url, c, 2, server.pid)  # warm-up
                results[(name, c)] = wrk(url, c, args.duration, server.pid)
                rate, p50, p99, cpu = results[(name, c)]
                print("%-16s c=%-2d %7.1f req/s  p50 %6.1f ms  p99 %6.1f ms  CPU %5.1f ms/request" %
                      (name, c, rate, 1000 * p50, 1000 * p99, 1000 * cpu), flush=True)
            out = os.path.join(tmp, "out")
            os.makedirs(out, exist_ok=True)
            name = "sumi run / request"
            results[(name, c)] = per_process(args.sumi, photo, out, c, args.duration)
            rate, p50, p99, _ = results[(name, c)]
            print("%-16s c=%-2d %7.1f req/s  p50 %6.1f ms  p99 %6.1f ms" % (name, c, rate, 1000 * p50, 1000 * p99), flush=True)
    finally:
        for server in servers:
            server.terminate()
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
        # thumbor's forked processes (its session: the group led by the process started).
        try:
            os.killpg(servers[1].pid, 15)
        except (IndexError, ProcessLookupError, PermissionError):
            pass
        shutil.rmtree(tmp, ignore_errors=True)
    names = ["sumi serve", "thumbor " + THUMBOR, "sumi run / request"]
    print("\n| concurrency | " + " | ".join(names) + " |")
    print("|---|" + "---|" * len(names))
    for c in levels:
        cells = ["%.0f req/s, p50 %.0f ms, p99 %.0f ms" % (r[0], 1000 * r[1], 1000 * r[2]) for r in (results[(n, c)] for n in names)]
        print("| %d | %s |" % (c, " | ".join(cells)))
    for c in levels:
        serve, thumbor = results[("sumi serve", c)], results[("thumbor " + THUMBOR, c)]
        print("concurrency %d: sumi serve / thumbor %.2fx in requests/s; CPU per request %.1f ms against %.1f ms" %
              (c, serve[0] / thumbor[0], 1000 * serve[3], 1000 * thumbor[3]))


if __name__ == "__main__":
    main()
