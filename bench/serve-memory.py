#!/usr/bin/env python3
"""The memory of `sumi serve` (server plus workers, summed VmRSS from /proc, sampled every 50 ms)
for docs/service.md: idle, then runs on a 50-megapixel photo (the sample photo enlarged to 8000x6250 by vips) at
`--workers` runs at once, under `--max-pixels 50000000` and `--max-memory`: a thumbnail (decoded
DCT-scaled), a full-size recode (streamed in bands), a caption (composed at full size), a
full-size PNG, and a quarter turn (a stage that needs the whole image). Loopback only; writes only in its own temporary folder. Prints each case's peak.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor


def rss(pid):
    try:
        with open("/proc/%d/status" % pid) as f:
            return next(int(l.split()[1]) * 1024 for l in f if l.startswith("VmRSS:"))
    except (OSError, StopIteration):
        return 0


def family(pid):
    pids = [pid]
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open("/proc/%s/stat" % entry) as f:
                    if int(f.read().rsplit(")", 1)[1].split()[1]) == pid:
                        pids.append(int(entry))
            except (OSError, IndexError, ValueError):
                pass
    return pids


class Peak:
    def __init__(self, pid):
        self.pid, self.peak, self.worker, self.stop = pid, 0, 0, False
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        while not self.stop:
            pids = family(self.pid)
            sizes = [rss(p) for p in pids]
            self.peak = max(self.peak, sum(sizes))
            self.worker = max([self.worker] + sizes[1:])
            time.sleep(0.05)

    def end(self):
        self.stop = True
        self.thread.join()
        return self.peak >> 20, self.worker >> 20


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sumi", default=".build/release/sumi")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--max-memory", type=int, default=1024)
    args = parser.parse_args()
    tmp = tempfile.mkdtemp(prefix="sumi-serve-memory-")
    try:
        big = os.path.join(tmp, "big.jpg")
        photo = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "pipelines/samples/photo.jpg")
        subprocess.run(["vips", "resize", photo, big + "[Q=90]", str(8000 / 3000), "--vscale", str(6250 / 2002)], check=True)
        body = open(big, "rb").read()
        # A stage that needs the whole image: a quarter turn.
        os.mkdir(os.path.join(tmp, "pipelines"))
        with open(os.path.join(tmp, "pipelines", "turn.json"), "w") as f:
            f.write('{"sumi": 1, "name": "turn", "params": {"input": {"type": "path"}, "output": {"type": "path", "default": "t.jpg"}},'
                    ' "stages": [{"id": "photo", "stage": "decode", "with": {"path": "${input}"}},'
                    ' {"stage": "rotate", "with": {"angle": 90}}, {"stage": "encode", "with": {"path": "${output}", "quality": 85}}]}')
        server = subprocess.Popen([args.sumi, "serve", "--listen", "127.0.0.1:0", "--workers", str(args.workers),
                                   "--pipelines", os.path.join(tmp, "pipelines"),
                                   "--max-pixels", "50000000", "--max-memory", str(args.max_memory), "--max-body", "200000000",
                                   "--timeout", "300"], env=dict(os.environ, TMPDIR=tmp), stderr=subprocess.PIPE, text=True)
        port = int(re.search(r":(\d+) ", server.stderr.readline()).group(1))
        base = "http://127.0.0.1:%d" % port
        time.sleep(1)
        sizes = [rss(p) >> 20 for p in family(server.pid)]
        print("idle: server %d MB, workers %s MB, summed %d MB" % (sizes[0], sizes[1:], sum(sizes)))
        cases = [("thumbnail 512", "/run/thumbnail?width=512"), ("recode, full size", "/run/thumbnail?width=8000"),
                 ("caption", "/run/caption?text=Tokyo&frame=8000x6250"), ("PNG, full size", "/run/thumbnail?width=8000&format=png"),
                 ("quarter turn", "/run/turn")]
        for name, path in cases:
            peak = Peak(server.pid)
            def one(_):
                request = urllib.request.Request(base + path, data=body, headers={"Content-Type": "image/jpeg"})
                try:
                    with urllib.request.urlopen(request, timeout=300) as answer:
                        return answer.status
                except urllib.error.HTTPError as error:
                    return error.code
            started = time.monotonic()
            with ThreadPoolExecutor(args.workers) as pool:
                statuses = list(pool.map(one, range(args.workers)))
            total, worker = peak.end()
            print("%-18s x%d: statuses %s, %.1f s, summed peak %d MB, one worker at most %d MB" %
                  (name, args.workers, statuses, time.monotonic() - started, total, worker), flush=True)
        server.terminate()
        server.wait(timeout=60)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
