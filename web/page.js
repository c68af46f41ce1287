// The page view: screenshots stitched, the capture the PDF opens on picked, the PDF.
import { $, run, form, showError, clearErrors, setBlobURL, setLink, dropZone } from "./service.js";

const page = { files: [], captures: [], factor: 0.5, pdfRequest: 0 };

/** What both page pipelines take besides the captures: `gaps: allow` when the box is ticked. */
function gapsParameter() {
  return $("gaps").checked ? { gaps: "allow" } : {};
}

/**
 * The service's words for the captures as the page shows them: "capture 1 (upload-1)" is the
 * second file chosen, counted from 1 as the page counts, by its name; "give gaps: allow" is the
 * box on this page.
 */
export function readableCaptureError(message, files) {
  const named = (index) => {
    const n = Number(index);
    const file = files[n];
    return `capture ${n + 1}` + (file && file.name ? ` (${file.name})` : "");
  };
  return message
    .replace(/capture (\d+) \((?:[^()]*\/)?upload-\d+\)/g, (_, index) => named(index))
    .replace(/capture (\d+)\b(?! \()/g, (_, index) => named(index))
    .replace(/give gaps: allow to join them below a separator, or offsets/,
      "tick \u201cJoin captures that overlap no other\u201d to join them below a separator, or add the missing screenshot");
}

/** Takes the previous page off the screen (a new build is under way, or it failed). */
function clearPage() {
  $("page-preview").hidden = true;
  $("page-empty").hidden = false;
  $("open-on").hidden = true;
  $("open-on-list").textContent = "";
  $("page-marks").textContent = "";
  setBlobURL($("page-image"), "src", null);
  page.captures = [];
}

function chooseCaptures(files) {
  page.files = Array.from(files || []);
  showError("captures-error", page.files.length === 1 ? "One screenshot is a page already; give the others too." : "");
  $("build-page").disabled = page.files.length === 0;
  $("page-status").textContent = page.files.length ? `${page.files.length} screenshots chosen.` : "";
}

/** The captures' scale for the preview: about 280 pixels wide (read from the first file's size). */
async function previewFactor(file) {
  try {
    const bitmap = await createImageBitmap(file);
    const width = bitmap.width;
    bitmap.close();
    return Math.min(1, Math.round(280 / width * 1000) / 1000);
  } catch (_) {
    return 0.5;
  }
}

async function buildPage() {
  if (!page.files.length) return;
  const button = $("build-page"), progress = $("page-progress");
  clearErrors($("view-page"));
  setLink($("page-download"), null);
  clearPage();
  button.disabled = true;
  progress.hidden = false;
  $("page-status").textContent = "Stitching…";
  try {
    page.factor = await previewFactor(page.files[0]);
    const { blob, report } = await run("page-preview",
      form(Object.assign({ factor: page.factor }, gapsParameter()), page.files.map((f) => ["input", f])));
    const image = $("page-image");
    setBlobURL(image, "src", blob);
    await image.decode();
    $("page-preview").hidden = false;
    $("page-empty").hidden = true;
    page.captures = capturesFrom(report, image.naturalHeight / page.factor);
    showCaptures();
    $("page-status").textContent = `${page.captures.length} captures on one page.`;
    await buildPDF(0);
  } catch (error) {
    $("page-status").textContent = "";
    clearPage();
    showError(error.parameter === "input" ? "captures-error" : "build-error", readableCaptureError(error.message, page.files));
  } finally {
    button.disabled = false;
    progress.hidden = true;
  }
}

/** The captures in page order (top first): the stitch stage's details, or one per file. */
function capturesFrom(report, pageHeight) {
  const stage = report && (report.stages || []).find((s) => s.stage === "stitch");
  const details = stage && stage.details;
  if (!details || !Array.isArray(details.captures)) {
    return page.files.map((file, index) => ({ index, file, offset: null }));
  }
  const list = details.captures.map((c) => ({ index: c.index, file: page.files[c.index], offset: c.offset }))
    .sort((a, b) => a.offset - b.offset);
  const height = pageHeight - list[list.length - 1].offset;
  for (const c of list) c.height = height;
  return list;
}

function showCaptures() {
  const list = $("open-on-list"), marks = $("page-marks");
  list.textContent = "";
  marks.textContent = "";
  page.captures.forEach((capture, n) => {
    const id = `open-on-${n}`;
    const row = document.createElement("div");
    row.className = "field check";
    const radio = document.createElement("input");
    Object.assign(radio, { type: "radio", name: "open-on", id, value: String(n), checked: n === 0 });
    const label = document.createElement("label");
    label.htmlFor = id;
    const name = capture.file ? capture.file.name : `capture ${n + 1}`;
    label.textContent = `Capture ${n + 1}${n === 0 ? " (top)" : ""} — ${name}`;
    radio.addEventListener("change", () => { if (radio.checked) { markCapture(n); buildPDF(n); } });
    row.append(radio, label);
    list.append(row);
    if (capture.offset !== null && capture.height) {
      // A numbered tick at the capture's top, beside the page (the page's pixels stay visible).
      const mark = document.createElement("div");
      mark.className = "mark";
      mark.dataset.capture = String(n);
      mark.style.top = `${capture.offset * page.factor}px`;
      mark.textContent = String(n + 1);
      mark.title = `Capture ${n + 1}: click to open the PDF here`;
      mark.addEventListener("click", () => { radio.checked = true; radio.dispatchEvent(new Event("change")); });
      marks.append(mark);
    }
  });
  $("open-on").hidden = false;
  markCapture(0);
}

/** Shows capture `n` on the preview: its tick marked, its rows outlined and scrolled into view. */
function markCapture(n) {
  for (const mark of $("page-marks").children) mark.classList.toggle("chosen", mark.dataset.capture === String(n));
  const capture = page.captures[n], frame = $("page-chosen");
  frame.hidden = !(capture && capture.offset !== null && capture.height);
  if (frame.hidden) return;
  frame.style.top = `${capture.offset * page.factor}px`;
  frame.style.height = `${capture.height * page.factor}px`;
  const stage = $("page-stage");
  const top = frame.offsetTop + $("page-preview").offsetTop - stage.clientHeight / 2 + frame.offsetHeight / 2;
  stage.scrollTo({ top: Math.max(0, top) });
}

async function buildPDF(n) {
  const id = ++page.pdfRequest;
  const link = $("page-download");
  setLink(link, null);
  delete link.dataset.viewport;
  $("page-status").textContent = `Making the ${$("searchable").checked ? "searchable " : ""}PDF (opens on capture ${n + 1})…`;
  try {
    const text = $("searchable").checked ? "ocr" : "none";
    const { blob, report } = await run("fullpage",
      form(Object.assign({ viewport: `capture:${n}`, text }, gapsParameter()), page.files.map((f) => ["input", f])));
    if (id !== page.pdfRequest) return;
    setLink(link, blob, "page.pdf");
    link.dataset.viewport = `capture:${n}`;
    const out = report && report.outputs && report.outputs[0];
    if (out && out.rectInCurrentPage) link.dataset.rect = out.rectInCurrentPage.join(",");
    $("page-status").textContent = `PDF ready: opens on capture ${n + 1}.`;
  } catch (error) {
    if (id !== page.pdfRequest) return;
    $("page-status").textContent = "";
    showError("page-error", readableCaptureError(error.message, page.files));
  }
}

export function setupPage() {
  $("captures").addEventListener("change", (event) => chooseCaptures(event.target.files));
  dropZone($("captures-drop"), (files) => chooseCaptures(files));
  $("build-page").addEventListener("click", buildPage);
  // A change of the switch makes the PDF again, opening where it did.
  $("searchable").addEventListener("change", () => {
    const chosen = document.querySelector("input[name=open-on]:checked");
    if (page.files.length && chosen) buildPDF(Number(chosen.value));
  });
}
