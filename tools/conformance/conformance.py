#!/usr/bin/env python3
"""`make conformance`: Sumi against Pillow 13.0.0 (and heif-convert for HEIF/AVIF) on the images of
Pillow's source distribution. See docs/architecture.md, "Testing".

    python3 tools/conformance/conformance.py --sumi .build/release/sumi [--jobs 2]
        [--json report.json] [--markdown report.md] [--only 'bmp/*']
    python3 tools/conformance/conformance.py --self-test

Started with any python3, it fills the cache (corpus.py) and runs itself again with the venv's
python, which has Pillow. Exit status 0 when every file matches, comes near, both sides refuse,
or has the outcome the expected list gives it; 1 otherwise."""

import argparse
import fnmatch
import os
import shutil
import signal
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.dont_write_bytecode = True  # no __pycache__ in the clone

import corpus  # noqa: E402  (standard library only)

CORPUS_VARIABLE = "SUMI_CONFORMANCE_CORPUS"
REFERENCE_TIME_LIMIT = 120


def arguments():
    parser = argparse.ArgumentParser(description="Compare Sumi's decoding with Pillow and heif-convert.")
    parser.add_argument("--sumi", help="the sumi binary")
    parser.add_argument("--self-test", action="store_true", help="test the harness itself (test_harness.py)")
    parser.add_argument("--jobs", type=int, default=2, help="files checked at once (default 2)")
    parser.add_argument("--corpus", choices=["pillow", "image-rs"], default="pillow",
                        help="Pillow's Tests/images (from its source distribution), or image-rs/image's test images "
                             "kept in tools/conformance/image-rs, compared with their own reference renderings where "
                             "they have one and with Pillow elsewhere")
    parser.add_argument("--expected", help="the list of expected differences (default: expected.tsv, or "
                                           "expected-image-rs.tsv for --corpus image-rs)")
    parser.add_argument("--json", help="write the machine-readable report here")
    parser.add_argument("--markdown", help="write the report as Markdown here")
    parser.add_argument("--only", help="check only the files matching this pattern (relative to Tests/images)")
    return parser.parse_args()


def check(task):
    """The record of one file: Sumi's run, the reference, and their comparison."""
    relative, container, images, sumi, references = task
    import compare
    import reference
    import sumirun
    from PIL import Image

    path = os.path.join(images, relative)
    record = {"file": relative, "format": container}
    folder = sumirun.scratch_folder()
    try:
        run = sumirun.run(sumi, path, folder)
        record.update(seconds=round(run.seconds, 3), rss_mb=round(run.rss_mb, 1))
        wanted = None
        signal.alarm(REFERENCE_TIME_LIMIT)
        try:
            rendering = os.path.join(references, relative + ".png") if references else None
            if rendering and os.path.isfile(rendering):
                with Image.open(rendering) as own:
                    wanted, record["reference"] = own.convert("RGBA"), "corpus reference"
            else:
                wanted, record["reference"] = reference.decode(path, container)
        except reference.Refused as refusal:
            record["reference_error"] = str(refusal).replace(images + os.sep, "")
        except TimeoutError:
            record["reference_error"] = f"the reference took over {REFERENCE_TIME_LIMIT} s"
        finally:
            signal.alarm(0)
        if run.problem:
            record.update(outcome=run.problem, detail=run.detail)
        elif run.error:
            message = run.error.replace(images + os.sep, "")
            record.update(outcome="refused" if wanted is not None else "both-refuse", sumi_error=message)
        elif wanted is None:
            record["outcome"] = "sumi-only"
        else:
            try:
                with Image.open(run.output) as written:
                    got = written.convert("RGBA")
            except Exception as error:  # Sumi's PNG does not read back
                record.update(outcome="bad-output", detail=f"Sumi's PNG: {type(error).__name__}: {error}")
                return record
            found = compare.difference(got, wanted)
            if found is None:
                record.update(outcome=compare.DIFFERS, max=None, mean=None)
            else:
                record.update(outcome=compare.classify(found[0], found[1], container), max=found[0],
                              mean=round(found[1], 4))
            if record["outcome"] == compare.DIFFERS:
                record["cause"], record["guess"] = compare.guess(got, wanted)
    except Exception as error:  # a defect of the harness itself: reported, and it fails the run
        record.update(outcome="harness-error", detail=f"{type(error).__name__}: {error}")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return record


def alarm(signum, frame):
    raise TimeoutError


def initialise_worker():
    signal.signal(signal.SIGALRM, alarm)
    # libtiff inside Pillow prints its warnings on stderr; the records say what happened.
    quiet = os.open(os.devnull, os.O_WRONLY)
    os.dup2(quiet, 2)
    os.close(quiet)
    sys.path.insert(0, str(HERE))


def judge(records, entries):
    """(unexpected failures, files excused by an entry); marks the entries used."""
    import expected
    import report

    failures, excused = [], []
    for record in records:
        if record["outcome"] in report.PASSING:
            continue
        entry = expected.find(entries, record)
        if entry:
            entry.used = True
            record["expected"], record["entry"] = entry.reason, entry.line
            excused.append(record)
        else:
            failures.append(record)
    return failures, excused


def compare_all(options, images):
    import expected
    import report
    import selection

    sumi = os.path.abspath(options.sumi)
    entries = expected.load(options.expected)
    files = selection.select(images, selection.readable_formats(sumi))
    if options.only:
        files = [(path, kind) for path, kind in files if fnmatch.fnmatchcase(path, options.only)]
    started = time.monotonic()
    references = str(HERE / "image-rs" / "reference") if options.corpus == "image-rs" else None
    tasks = [(path, kind, str(images), sumi, references) for path, kind in files]
    with ProcessPoolExecutor(max_workers=options.jobs, initializer=initialise_worker) as pool:
        records = list(pool.map(check, tasks, chunksize=4))
    elapsed = time.monotonic() - started
    failures, excused = judge(records, entries)
    stale = [] if options.only else [entry for entry in entries if not entry.used]
    timing = {"seconds": round(elapsed, 1), "jobs": options.jobs,
              "slowest": max((r.get("seconds", 0) for r in records), default=0),
              "peak_rss_mb": max((r.get("rss_mb", 0) for r in records), default=0)}

    print(report.text_table(records))
    print(f"\n{len(records)} files in {elapsed:.0f} s ({options.jobs} jobs); slowest Sumi run "
          f"{timing['slowest']:.1f} s; peak RSS {timing['peak_rss_mb']:.0f} MB; "
          f"{len(excused)} expected differences ({options.expected}).")
    for entry in stale:
        print(f"note: {options.expected}:{entry.line}: {entry.pattern} is no longer needed; remove it")
    if failures:
        print(f"\n{len(failures)} unexpected results (a difference, a refusal or a broken rule):")
        print("\n".join(report.failure_lines(failures)))
    command = f"conformance.py --sumi {options.sumi}" + (f" --only '{options.only}'" if options.only else "")
    if options.markdown:
        Path(options.markdown).write_text(report.markdown(records, failures, entries, stale, timing, command))
    if options.json:
        Path(options.json).parent.mkdir(parents=True, exist_ok=True)
        from PIL import __version__ as pillow_version
        report.write_json(options.json, records, failures, stale, timing, {"pillow": pillow_version, "sumi": sumi})
    return 1 if failures else 0


def main():
    options = arguments()
    if not options.self_test and not (options.sumi and os.access(options.sumi, os.X_OK)):
        sys.exit(f"conformance: {options.sumi or 'no --sumi'}: not an executable; build it or pass --sumi")
    if not options.expected:
        options.expected = str(HERE / ("expected-image-rs.tsv" if options.corpus == "image-rs" else "expected.tsv"))
    images = os.environ.get(CORPUS_VARIABLE)
    if images is None:
        images, python = corpus.prepare()
        os.environ[CORPUS_VARIABLE] = str(images)
        os.execv(str(python), [str(python), str(Path(__file__).resolve()), *sys.argv[1:]])
    if options.self_test:
        import unittest
        suite = unittest.defaultTestLoader.loadTestsFromName("test_harness")
        sys.exit(0 if unittest.TextTestRunner(verbosity=1).run(suite).wasSuccessful() else 1)
    if options.corpus == "image-rs":
        images = str(HERE / "image-rs" / "images")
    sys.exit(compare_all(options, images))


if __name__ == "__main__":
    main()
