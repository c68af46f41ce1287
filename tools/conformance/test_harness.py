"""Self-test of the conformance harness (`conformance.py --self-test`, run by `make conformance`
before the corpus): the rules it enforces on a run, its comparison and its expected list, checked
with stand-in binaries and synthetic images so a harness that cannot fail is caught."""

import os
import stat
import tempfile
import unittest

from PIL import Image

import compare
import expected
import selection
import sumirun

PNG = b"\x89PNG\r\n\x1a\n"


class TemporaryFolderCase(unittest.TestCase):
    def setUp(self):
        self._folder = tempfile.TemporaryDirectory(prefix="sumi-conformance-test-")
        self.folder = self._folder.name

    def tearDown(self):
        self._folder.cleanup()

    def script(self, body):
        """A stand-in for sumi: `$out` is the -o path it was given (the last argument)."""
        path = os.path.join(self.folder, "fake-sumi")
        with open(path, "w") as handle:
            handle.write("#!/bin/sh\nfor out; do :; done\n" + body + "\n")
        os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)
        return path

    def run_fake(self, body):
        work = os.path.join(self.folder, "work")
        os.mkdir(work)
        return sumirun.run(self.script(body), "/dev/null", work)


class RunRulesTests(TemporaryFolderCase):
    def test_success_gives_the_output_and_a_measured_peak(self):
        result = self.run_fake('printf "x" > "$out"; exit 0')
        self.assertIsNone(result.problem)
        self.assertTrue(result.output.endswith("sumi.png"))
        self.assertGreater(result.rss_mb, 0)

    def test_a_proper_refusal_is_one_line_and_exit_1(self):
        result = self.run_fake('echo "sumi: error: bad file" >&2; exit 1')
        self.assertIsNone(result.problem)
        self.assertEqual(result.error, "sumi: error: bad file")

    def test_a_refusal_of_two_lines_breaks_the_rule(self):
        self.assertEqual(self.run_fake('echo one >&2; echo two >&2; exit 1').problem, "bad-refusal")

    def test_a_refusal_that_leaves_an_output_breaks_the_rule(self):
        self.assertEqual(self.run_fake('echo partial > "$out"; echo "error" >&2; exit 1').problem, "bad-refusal")

    def test_a_signal_is_a_crash(self):
        self.assertEqual(self.run_fake("kill -SEGV $$").problem, "crash")

    def test_exit_2_is_not_a_refusal(self):
        self.assertEqual(self.run_fake('echo usage >&2; exit 2').problem, "bad-exit")

    def test_success_without_output(self):
        self.assertEqual(self.run_fake("exit 0").problem, "no-output")

    def test_a_hang_is_ended_by_the_time_limit(self):
        limit, sumirun.TIME_LIMIT = sumirun.TIME_LIMIT, 1
        try:
            self.assertEqual(self.run_fake("sleep 20").problem, "timeout")
        finally:
            sumirun.TIME_LIMIT = limit

    def test_memory_over_the_limit(self):
        limit, sumirun.MEMORY_LIMIT_MB = sumirun.MEMORY_LIMIT_MB, 20
        try:
            result = self.run_fake('python3 -c "b = bytearray(60 << 20); b[::4096] = b\'x\' * len(b[::4096])"; '
                                   'printf x > "$out"')
            self.assertEqual(result.problem, "memory")
        finally:
            sumirun.MEMORY_LIMIT_MB = limit


class ComparisonTests(unittest.TestCase):
    def test_thresholds(self):
        self.assertEqual(compare.classify(0, 0.0, "png"), "match")
        self.assertEqual(compare.classify(2, 0.5, "png"), "near")
        self.assertEqual(compare.classify(3, 0.1, "png"), "differs")
        self.assertEqual(compare.classify(2, 0.6, "png"), "differs")
        self.assertEqual(compare.classify(4, 0.5, "jpeg"), "near")
        self.assertEqual(compare.classify(5, 0.1, "jpeg"), "differs")

    def test_colour_under_transparent_pixels_is_not_compared(self):
        sumi = Image.new("RGBA", (2, 1), (0, 0, 0, 0))
        reference = Image.new("RGBA", (2, 1), (200, 10, 30, 0))
        self.assertEqual(compare.difference(sumi, reference), (0, 0.0))
        reference.putpixel((1, 0), (200, 10, 30, 1))
        self.assertEqual(compare.difference(sumi, reference)[0], 200)

    def test_mean_is_over_every_channel(self):
        sumi = Image.new("RGBA", (2, 2), (10, 10, 10, 255))
        reference = sumi.copy()
        reference.putpixel((0, 0), (18, 10, 10, 255))
        self.assertEqual(compare.difference(sumi, reference), (8, 0.5))

    def test_a_turned_image_is_recognised(self):
        reference = gradient((6, 3))
        cause, text = compare.guess(reference.transpose(Image.Transpose.ROTATE_90), reference)
        self.assertEqual(cause, "orientation")
        self.assertIn("turned 90", text)

    def test_premultiplied_rounding_is_recognised(self):
        reference = Image.new("RGBA", (1, 1), (201, 7, 99, 3))
        sumi = reference.convert("RGBa").convert("RGBA")
        self.assertNotEqual(sumi.getpixel((0, 0)), reference.getpixel((0, 0)))
        self.assertEqual(compare.guess(sumi, reference)[0], "premultiplied")

    def test_a_real_difference_is_values(self):
        reference = gradient((4, 4))
        sumi = reference.copy()
        sumi.putpixel((1, 1), (0, 255, 0, 255))
        self.assertEqual(compare.guess(sumi, reference)[0], "values")


class ExpectedListTests(unittest.TestCase):
    def load(self, text):
        with tempfile.NamedTemporaryFile("w", suffix=".tsv", delete=False) as handle:
            handle.write(text)
        try:
            return expected.load(handle.name)
        finally:
            os.unlink(handle.name)

    def test_an_entry_covers_only_its_outcome_and_cause(self):
        entries = self.load("# note\nbmp/q/*\trefused|differs:alpha\tquestionable files\n")
        self.assertTrue(entries[0].covers({"file": "bmp/q/a.bmp", "outcome": "refused"}))
        self.assertTrue(entries[0].covers({"file": "bmp/q/a.bmp", "outcome": "differs", "cause": "alpha"}))
        self.assertFalse(entries[0].covers({"file": "bmp/q/a.bmp", "outcome": "differs", "cause": "values"}))
        self.assertFalse(entries[0].covers({"file": "bmp/g/a.bmp", "outcome": "refused"}))

    def test_a_reason_is_required(self):
        with self.assertRaises(SystemExit):
            self.load("a.png\tdiffers\t \n")

    def test_unknown_outcomes_are_refused(self):
        with self.assertRaises(SystemExit):
            self.load("a.png\tdiffers:anything\twhy\n")

    def test_at_most_30_entries(self):
        self.assertEqual(len(self.load("".join(f"f{n}.png\tdiffers\twhy\n" for n in range(30)))), 30)
        with self.assertRaises(SystemExit):
            self.load("".join(f"f{n}.png\tdiffers\twhy\n" for n in range(31)))

    def test_the_committed_list_is_valid(self):
        self.assertLessEqual(len(expected.load(os.path.join(os.path.dirname(__file__), "expected.tsv"))), 30)


class SelectionTests(TemporaryFolderCase):
    def test_content_decides_before_the_extension(self):
        def write(name, data):
            with open(os.path.join(self.folder, name), "wb") as handle:
                handle.write(data)
        write("a.mpo", b"\xff\xd8\xff\xe0" + bytes(40))
        write("b.pbm", PNG + bytes(40))
        write("c.png", b"not a png at all")
        write("d.ppm", b"P6 1 1 255\n" + bytes(3))
        write("e.heic", b"\x00\x00\x00\x18ftypheic" + bytes(20))
        self.assertEqual(selection.select(self.folder, {"jpeg", "png", "heif"}),
                         [("a.mpo", "jpeg"), ("b.pbm", "png"), ("c.png", "png"), ("e.heic", "heif")])


def gradient(size):
    image = Image.new("RGBA", size)
    image.putdata([(x * 40, y * 60, (x + y) * 20, 255) for y in range(size[1]) for x in range(size[0])])
    return image


if __name__ == "__main__":
    unittest.main()
