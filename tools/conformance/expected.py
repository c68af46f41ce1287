"""The reviewed list of expected differences (expected.tsv): at most 30 entries, one a line,
`PATH<TAB>OUTCOME<TAB>REASON`. PATH is relative to Tests/images and may be a shell pattern
(`bmp/q/pal8o*.bmp`) for one class of files; OUTCOME is the outcome the file is expected to have,
several joined by `|`: `differs` (any difference) or `differs:CAUSE` (only a difference of that
checked kind, see compare.guess), `refused`, `sumi-only`, or one of the broken rules (crash,
bad-exit, timeout, memory, bad-refusal, no-output, bad-output); REASON says why, and is required. A file is
excused by the first entry that covers both its path and its outcome."""

import fnmatch

LIMIT = 30
OUTCOMES = {"differs", "refused", "sumi-only", "crash", "bad-exit", "timeout", "memory", "bad-refusal", "no-output", "bad-output"}
CAUSES = {"rounding", "premultiplied", "orientation", "size", "alpha", "black", "values"}


class Entry:
    def __init__(self, pattern, outcomes, reason, line):
        self.pattern, self.outcomes, self.reason, self.line = pattern, outcomes, reason, line
        self.used = False

    def covers(self, record):
        outcome = record["outcome"]
        detailed = f"{outcome}:{record['cause']}" if record.get("cause") else outcome
        return fnmatch.fnmatchcase(record["file"], self.pattern) and (outcome in self.outcomes or detailed in self.outcomes)


def load(path):
    """The entries of the list; a malformed list stops the run with the line at fault."""
    entries = []
    with open(path, encoding="utf-8") as handle:
        for number, text in enumerate(handle, start=1):
            text = text.rstrip("\n")
            if not text.strip() or text.lstrip().startswith("#"):
                continue
            fields = text.split("\t")
            where = f"{path}:{number}"
            if len(fields) != 3 or not fields[2].strip():
                raise SystemExit(f"conformance: {where}: expected PATH<TAB>OUTCOME<TAB>REASON")
            outcomes = set(fields[1].split("|"))
            known = OUTCOMES | {f"differs:{cause}" for cause in CAUSES}
            if not outcomes <= known:
                unknown = ", ".join(sorted(outcomes - known))
                raise SystemExit(f"conformance: {where}: unknown outcome {unknown} (one of {', '.join(sorted(known))})")
            entries.append(Entry(fields[0], outcomes, fields[2].strip(), number))
    if len(entries) > LIMIT:
        raise SystemExit(f"conformance: {path} has {len(entries)} entries; the limit is {LIMIT}")
    return entries


def find(entries, record):
    """The first entry that covers the record's file and outcome, or None."""
    for entry in entries:
        if entry.covers(record):
            return entry
    return None
