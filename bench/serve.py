#!/usr/bin/env python3
"""`make bench-serve`: the same thumbnail job over HTTP from `sumi serve` and from thumbor 7.8.0,
and from `sumi run` started once per request, at concurrency 1, 4 and 16, in one run.

The job: a 512-pixel-wide JPEG (quality 85, as pipelines/thumbnail.json) of the 3000x2002 sample
photo, read from a folder both servers serve (`sumi serve --root DIR`, `GET
/run/thumbnail?input=photo.jpg&width=512`; thumbor's file loader on DIR, `/unsafe/512x0/photo.jpg`,
storage and result storage off, one thumbor process per core, each on its own port, with wrk's
threads spread over them the way a load balancer in front of them would spread connections). The
load generator is wrk (Debian's) for both servers; `sumi run` per request is timed by this script (one process per request, `--jobs`
processes at once). Loopback only; every load is bounded in time. Prints a Markdown table of
requests/s, p50 and p99 (docs/service.md keeps the measured one), and each server's CPU per request
(its processes' user and system time from /proc over the run, divided by the requests wrk counted),
which depends less than requests/s on what else the machine runs. The codec floor is measured in
the same run: the CPU of `djpeg -scale 1/4` of the photo plus `cjpeg -quality 85` of the 512-pixel
answer (the least a JPEG-to-JPEG thumbnail decodes and encodes), and sumi serve's CPU per request
is printed as a multiple of it.

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


# wrk's threads each keep their connections to one address: thread n to the n-th of the ports in
# WRK_PORTS (round robin), so every thumbor process gets the same share of the connections.
SPREAD = """
local ports, started = {}, 0
for port in string.gmatch(os.getenv("WRK_PORTS"), "%d+") do ports[#ports + 1] = port end
function setup(thread)
  started = started + 1
  thread.addr = wrk.lookup(wrk.host, ports[(started - 1) % #ports + 1])[1]
end
"""


def cpu_seconds(pids):
    """User plus system CPU of processes and their children (their threads included), from /proc."""
    total = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % entry) as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(entry) in pids or int(fields[1]) in pids:
            total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def wrk(url, concurrency, duration, pids, spread=None):
    """(requests/s, p50 s, p99 s, CPU s per request of `pids` and their children) from wrk, failing
    on any error or non-2xx answer. `spread`: (the Lua script's path, the ports its threads go to)."""
    threads = min(concurrency, 2)
    before = cpu_seconds(pids)
    command = ["wrk", "-t%d" % threads, "-c%d" % concurrency, "-d%ds" % duration, "--timeout", "30s", "--latency"]
    env = None
    if spread:
        command += ["-s", spread[0]]
        env = dict(os.environ, WRK_PORTS=",".join(map(str, spread[1])))
    out = subprocess.run(command + [url], check=True, capture_output=True, text=True, env=env).stdout
    if "Non-2xx" in out or "Socket errors" in out:
        sys.exit("wrk saw errors:\n" + out)
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    p50 = seconds(re.search(r"\s50%\s+(\S+)", out).group(1))
    p99 = seconds(re.search(r"\s99%\s+(\S+)", out).group(1))
    count = int(re.search(r"(\d+) requests in", out).group(1))
    return rate, p50, p99, (cpu_seconds(pids) - before) / max(1, count)


def codec_floor(photo, answer, tmp, runs=40):
    """CPU seconds of `djpeg -scale 1/4` of `photo` plus `cjpeg -quality 85` of `answer` (a JPEG,
    decoded to PPM first), each the mean of `runs` processes (their user and system time)."""
    ppm = os.path.join(tmp, "answer.ppm")
    subprocess.run(["djpeg", "-outfile", ppm, answer], check=True)

    def cpu(command):
        before = os.times()
        for _ in range(runs):
            subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        after = os.times()
        return (after.children_user + after.children_system - before.children_user - before.children_system) / runs

    return cpu(["djpeg", "-scale", "1/4", "-outfile", os.devnull, photo]) + \
        cpu(["cjpeg", "-quality", "85", "-outfile", os.devnull, ppm])


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
    parser.add_argument("--workers", type=int, default=os.cpu_count(), help="sumi serve --workers, and thumbor processes")
    parser.add_argument("--only-sumi", action="store_true", help="skip thumbor and sumi run per request")
    args = parser.parse_args()
    levels = [int(c) for c in args.concurrency.split(",")]
    thumbor = None if args.only_sumi else thumbor_venv()
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
        conf = os.path.join(tmp, "thumbor.conf")
        with open(conf, "w") as f:
            f.write("LOADER = 'thumbor.loaders.file_loader'\nFILE_LOADER_ROOT_PATH = %r\n" % tmp +
                    "STORAGE = 'thumbor.storages.no_storage'\nRESULT_STORAGE = None\nQUALITY = 85\n"
                    "AUTO_WEBP = False\nRESPECT_ORIENTATION = True\n")
        # One thumbor per core, each on its own port (`--processes N` forks N processes onto one
        # listening socket, and the first to wake accepts every connection wrk opens at once: one
        # process served them all, on one core); wrk's threads are spread over the ports.
        tports = [] if args.only_sumi else [free_port() for _ in range(args.workers)]
        thumbors = [subprocess.Popen([thumbor, "--port", str(p), "--ip", "127.0.0.1", "--conf", conf,
                                      "--log-level", "error"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                    for p in tports]
        servers += thumbors
        spread = os.path.join(tmp, "spread.lua")
        with open(spread, "w") as f:
            f.write(SPREAD)
        answer = wait_until_up(sumi_url, servers[0])
        size = jpeg_size(answer)
        if size != (512, 342):
            sys.exit("sumi serve answered a %s JPEG, not 512x342" % (size,))
        with open(os.path.join(tmp, "answer.jpg"), "wb") as f:
            f.write(answer)
        floor = codec_floor(photo, os.path.join(tmp, "answer.jpg"), tmp)
        print("codec floor (djpeg -scale 1/4 + cjpeg -quality 85 of the answer): %.1f ms CPU" % (1000 * floor), flush=True)
        for p, process in zip(tports, thumbors):
            size = jpeg_size(wait_until_up("http://127.0.0.1:%d/unsafe/512x0/photo.jpg" % p, process))
            if size != (512, 342):
                sys.exit("thumbor answered a %s JPEG, not 512x342" % (size,))
        loads = [("sumi serve", sumi_url, [servers[0].pid], None)]
        if not args.only_sumi:
            thumbor_url = "http://127.0.0.1:%d/unsafe/512x0/photo.jpg" % tports[0]
            loads.append(("thumbor " + THUMBOR, thumbor_url, [t.pid for t in thumbors], (spread, tports)))
        for c in levels:
            for name, url, pids, how in loads:
                wrk(url, c, 2, pids, how)  # warm-up
                results[(name, c)] = wrk(url, c, args.duration, pids, how)
                rate, p50, p99, cpu = results[(name, c)]
                print("%-16s c=%-2d %7.1f req/s  p50 %6.1f ms  p99 %6.1f ms  CPU %5.1f ms/request" %
                      (name, c, rate, 1000 * p50, 1000 * p99, 1000 * cpu), flush=True)
            if args.only_sumi:
                continue
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
        shutil.rmtree(tmp, ignore_errors=True)
    for c in levels:
        print("concurrency %d: sumi serve's CPU per request %.1f ms, %.2fx the codec floor's %.1f ms" %
              (c, 1000 * results[("sumi serve", c)][3], results[("sumi serve", c)][3] / floor, 1000 * floor))
    if args.only_sumi:
        return
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
