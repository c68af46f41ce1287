"""The results as a table per format (console and Markdown) and as JSON."""

import json
import re

COLUMNS = ["match", "near", "differs", "refused", "both-refuse", "sumi-only", "broken"]
PASSING = {"match", "near", "both-refuse"}
RULE_BREAKS = {"crash", "bad-exit", "timeout", "memory", "bad-refusal", "no-output", "bad-output", "harness-error"}


def column(outcome):
    return "broken" if outcome in RULE_BREAKS else outcome


def table(records):
    """Rows [format, counts...] and a total row."""
    formats = sorted({record["format"] for record in records})
    rows = []
    for name in formats + ["total"]:
        chosen = [r for r in records if name == "total" or r["format"] == name]
        rows.append([name] + [sum(1 for r in chosen if column(r["outcome"]) == c) for c in COLUMNS] + [len(chosen)])
    return rows


def text_table(records):
    header = ["format"] + COLUMNS + ["files"]
    rows = [header] + [[str(cell) for cell in row] for row in table(records)]
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    return "\n".join("  ".join(cell.rjust(widths[i]) if i else cell.ljust(widths[i]) for i, cell in enumerate(row))
                     for row in rows)


def markdown_table(records):
    header = ["format"] + COLUMNS + ["files"]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in table(records)]
    return "\n".join(lines)


def describe(record):
    """One line: what happened to a file that did not match or come near."""
    outcome = record["outcome"]
    if outcome == "differs":
        numbers = f"max {record['max']}, mean {record['mean']:.2f}; " if record.get("max") is not None else ""
        return f"{numbers}{record.get('cause', '')}: {record.get('guess', '')}"
    if outcome == "refused":
        return f"Sumi: {short(record.get('sumi_error', ''))}"
    if outcome == "sumi-only":
        return f"reference refused ({record.get('reference_error', '')}); Sumi decoded it"
    return f"{outcome}: {record.get('detail', '')}"


def short(message):
    """Sumi's refusal without its fixed "sumi: error: pipeline: column 1 (decode): " lead."""
    return re.sub(r"^sumi: error: pipeline: column \d+ \(decode\): ", "", message)


def failure_lines(failures):
    return [f"  {r['file']} [{r['format']}] {r['outcome']}: {describe(r)}" for r in failures]


def markdown(records, failures, entries, stale, timing, command):
    """The report as Markdown: the table, the unexpected results, then the expected ones under the
    entry of the list that covers them, the stale entries, the near files and the both-refuse."""
    lines = ["# Conformance report", "",
             f"Command: `{command}`", "",
             f"{len(records)} files, {timing['seconds']:.0f} s wall time with {timing['jobs']} jobs, "
             f"slowest Sumi run {timing['slowest']:.1f} s, peak RSS of any Sumi run {timing['peak_rss_mb']:.0f} MB.",
             "", markdown_table(records), "",
             f"## Unexpected ({len(failures)}): these fail the run", ""]
    lines += [f"- `{r['file']}` ({r['format']}, {r['outcome']}): {describe(r)}" for r in failures] or ["(none)"]
    excused = [r for r in records if "expected" in r]
    lines += ["", f"## Expected ({len(excused)} files), by entry of tools/conformance/expected.tsv", ""]
    for entry in entries:
        covered = [r for r in excused if r.get("entry") == entry.line]
        if not covered:
            continue
        lines += [f"### `{entry.pattern}` ({'|'.join(sorted(entry.outcomes))}): {entry.reason}", ""]
        lines += [f"- `{r['file']}` ({r['format']}, {r['outcome']}): {describe(r)}" for r in covered] + [""]
    if stale:
        lines += ["## Entries of the expected list no file needs any more", ""]
        lines += [f"- line {e.line}: `{e.pattern}` ({'|'.join(sorted(e.outcomes))})" for e in stale] + [""]
    lines += ["## Near (within the tolerance)", ""]
    lines += [f"- `{r['file']}` ({r['format']}): max {r['max']}, mean {r['mean']:.3f}"
              for r in records if r["outcome"] == "near"] or ["(none)"]
    lines += ["", "## Both refuse", ""]
    lines += [f"- `{r['file']}`: Sumi: {short(r.get('sumi_error', ''))} / {r.get('reference_error', '')}"
              for r in records if r["outcome"] == "both-refuse"] or ["(none)"]
    return "\n".join(lines) + "\n"


def write_json(path, records, failures, stale, timing, versions):
    data = {
        **versions, **timing,
        "table": {row[0]: dict(zip(COLUMNS + ["files"], row[1:])) for row in table(records)},
        "failures": [r["file"] for r in failures],
        "stale_expected": [e.pattern for e in stale],
        "files": records,
    }
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(data, handle, indent=1)
        handle.write("\n")
