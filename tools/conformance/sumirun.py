"""One Sumi run as a user makes it: decode (EXIF orientation applied, the default) and encode to
PNG with the pixels untouched (`profile=strip`: no colour conversion; `metadata=strip`). The run
has a time limit and its peak RSS is measured with /usr/bin/time; a refusal must be exit status 1
with one line on stderr and no output file."""

import os
import signal
import subprocess
import tempfile
import time

PIPELINE = "decode ! encode profile=strip metadata=strip"
TIME_LIMIT = 30  # seconds
MEMORY_LIMIT_MB = 500


class SumiResult:
    """What one run did. `problem` names a broken rule (crash, hang, memory, refusal shape)."""

    def __init__(self):
        self.output = None      # the PNG written, when the run succeeded
        self.error = None       # the one-line refusal, when it refused properly
        self.problem = None     # "crash", "bad-exit", "timeout", "memory", "bad-refusal", "no-output"
        self.detail = ""
        self.seconds = 0.0
        self.rss_mb = 0.0


def run(sumi, path, folder):
    """Runs Sumi on `path`, writing into `folder` (which must be empty)."""
    result = SumiResult()
    output = os.path.join(folder, "sumi.png")
    measure = os.path.join(folder, "time.txt")
    command = ["/usr/bin/time", "-f", "%M", "-o", measure,
               "timeout", "--kill-after=5", str(TIME_LIMIT), sumi, "run", "--quiet", PIPELINE, "-i", path, "-o", output]
    started = time.monotonic()
    # timeout(1) ends a hung run; this outer limit is a backstop that ends the whole group.
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        _, stderr_bytes = process.communicate(timeout=TIME_LIMIT + 30)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        result.problem, result.detail = "timeout", f"no exit after {TIME_LIMIT + 30} s"
        return result
    result.seconds = time.monotonic() - started
    result.rss_mb = peak_rss_mb(measure)
    stderr = stderr_bytes.decode("utf-8", "replace")
    lines = [line for line in stderr.splitlines() if line.strip()]
    code = process.returncode
    if result.rss_mb > MEMORY_LIMIT_MB:
        result.problem, result.detail = "memory", f"peak RSS {result.rss_mb:.0f} MB"
    elif code == 124 or code == 137:
        result.problem, result.detail = "timeout", f"killed after {TIME_LIMIT} s"
    elif code == 0:
        if os.path.exists(output):
            result.output = output
        else:
            result.problem, result.detail = "no-output", "exit 0 without an output file"
    elif code == 1:
        if len(lines) != 1 or os.path.exists(output):
            written = "; an output file was written" if os.path.exists(output) else ""
            result.problem = "bad-refusal"
            result.detail = f"exit 1 with {len(lines)} lines on stderr{written}: {summary(stderr)}"
        else:
            result.error = lines[0]
    else:
        result.problem = "crash" if code > 128 else "bad-exit"
        result.detail = f"exit {code}{signal_name(code)}: {summary(stderr)}"
    return result


def peak_rss_mb(measure):
    """The peak RSS /usr/bin/time wrote (kB; its last line, after any note of a signal)."""
    try:
        with open(measure) as handle:
            lines = handle.read().split()
        return int(lines[-1]) / 1024 if lines else 0.0
    except (OSError, ValueError):
        return 0.0


def signal_name(code):
    return f" (signal {code - 128})" if code > 128 else ""


def summary(text):
    text = " ".join(text.split())
    return text[:300] if text else "(nothing on stderr)"


def scratch_folder():
    return tempfile.mkdtemp(prefix="sumi-conformance-")
