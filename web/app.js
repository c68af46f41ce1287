// Sumi's caption editor and page builder: a client of `sumi serve` (docs/service.md), no framework.
// What the preview shows is Sumi's own drawing: the caption is the `caption-label` pipeline's PNG,
// drawn at one pixel per preview pixel, and Render sends the preview's size as `frame` and the
// caption's place as `anchor` + `offset` to the `caption` pipeline, which maps them to the photo.
"use strict";

const $ = (id) => document.getElementById(id);

// ---- Talking to the service -------------------------------------------------------------------

const auth = { token: sessionStorage.getItem("sumi-token") || "", waiting: null };

/** Asks for the token once (the form stays until a token is given); resolves with it. */
function askToken(message) {
  const form = $("token-form");
  $("token-error").textContent = message || "";
  form.hidden = false;
  $("token").focus();
  if (!auth.waiting) {
    auth.waiting = new Promise((resolve) => {
      form.addEventListener("submit", function submitted(event) {
        event.preventDefault();
        auth.token = $("token").value.trim();
        sessionStorage.setItem("sumi-token", auth.token);
        form.hidden = true;
        form.removeEventListener("submit", submitted);
        auth.waiting = null;
        resolve(auth.token);
      });
    });
  }
  return auth.waiting;
}

/** An error the service answered: its message, and the parameter and stage it names. */
class ServiceError extends Error {
  constructor(status, body) {
    super(body && body.error ? body.error : `the service answered ${status}`);
    this.status = status;
    this.parameter = body ? body.parameter : null;
    this.stage = body ? body.stage : null;
  }
}

/** POSTs `body` (a File or FormData) to /run/NAME; resolves with the output blob and the run report. */
async function run(name, body, query) {
  const url = `run/${name}` + (query ? "?" + new URLSearchParams(query) : "");
  for (let attempt = 0; ; attempt++) {
    const headers = auth.token ? { Authorization: `Bearer ${auth.token}` } : {};
    let response;
    try {
      response = await fetch(url, { method: "POST", body, headers });
    } catch (error) {
      throw new ServiceError(0, { error: `cannot reach the server (${error.message})` });
    }
    if (response.status === 401 && attempt < 3) {
      await askToken(attempt ? "That token was refused; try again." : "");
      continue;
    }
    if (!response.ok) {
      let detail = null;
      try { detail = await response.json(); } catch (_) { /* not JSON */ }
      throw new ServiceError(response.status, detail);
    }
    let report = null;
    try { report = JSON.parse(response.headers.get("Sumi-Report") || "null"); } catch (_) { /* no report */ }
    return { blob: await response.blob(), report };
  }
}

/** Shows `message` in the error slot `id` (empty clears it). */
function showError(id, message) {
  const slot = $(id);
  if (slot) slot.textContent = message || "";
}

/** Where a service error is shown: beside the control of the parameter it names, else `fallback`. */
function errorSlot(error, fallback) {
  const name = (error.parameter || "").replace(/^[a-z]+\./, "");
  const slots = { text: "text-error", font: "font-error", size: "size-error", color: "color-error", align: "align-error",
    background: "background-error", padding: "padding-error", border: "border-error", "border-color": "border-color-error",
    "corner-radius": "corner-radius-error", stroke: "stroke-error", "stroke-color": "stroke-color-error",
    shadow: "shadow-error", anchor: "anchor-error", offset: "offset-error", frame: "offset-error", input: "photo-error" };
  return slots[name] || fallback;
}

function clearErrors(root) {
  for (const slot of root.querySelectorAll(".error")) slot.textContent = "";
}

/** Replaces the object URL held by `element[attribute]`, freeing the old one. */
function setBlobURL(element, attribute, blob) {
  const old = element.getAttribute(attribute);
  if (old && old.startsWith("blob:")) URL.revokeObjectURL(old);
  if (blob) element.setAttribute(attribute, URL.createObjectURL(blob));
  else element.removeAttribute(attribute);
}

function setLink(link, blob, name) {
  setBlobURL(link, "href", blob);
  if (blob) {
    link.download = name;
    link.removeAttribute("aria-disabled");
  } else {
    link.removeAttribute("download");
    link.setAttribute("aria-disabled", "true");
  }
}

// ---- Views ------------------------------------------------------------------------------------

const tabs = [$("tab-caption"), $("tab-page")];
function showView(tab) {
  for (const t of tabs) {
    const selected = t === tab;
    t.setAttribute("aria-selected", String(selected));
    t.tabIndex = selected ? 0 : -1;
    $(t.getAttribute("aria-controls")).hidden = !selected;
  }
  if (tab === tabs[0]) layoutPreview();
}
for (const tab of tabs) {
  tab.addEventListener("click", () => showView(tab));
  tab.addEventListener("keydown", (event) => {
    if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
    const other = tabs[(tabs.indexOf(tab) + 1) % tabs.length];
    showView(other);
    other.focus();
    event.preventDefault();
  });
}

// ---- Caption view ---------------------------------------------------------------------------

const ANCHORS = { "top-left": [0, 0], top: [0.5, 0], "top-right": [1, 0], left: [0, 0.5], center: [0.5, 0.5],
  right: [1, 0.5], "bottom-left": [0, 1], bottom: [0.5, 1], "bottom-right": [1, 1] };

const caption = {
  file: null,          // the photo as chosen (sent again, whole, on Render)
  frame: null,         // the preview's size in CSS pixels {width, height}
  offset: { x: 0, y: 0 }, // from the anchor, in preview pixels (what `place` takes)
  size: { width: 0, height: 0 }, // the caption label's size in preview pixels
  anchor: "center",    // the anchor the offset counts from
  labelRequest: 0,
  labelTimer: 0,
};

/** The caption's parameters from the controls (those both caption pipelines take). */
function styleParameters() {
  const p = {
    text: $("text").value, font: $("font").value, size: $("size").value, color: $("color").value,
    align: $("align").value, padding: $("padding").value, border: $("border").value,
    "border-color": $("border-color").value, "corner-radius": $("corner-radius").value,
    stroke: $("stroke").value, "stroke-color": $("stroke-color").value, shadow: $("shadow").value,
    background: $("fill").checked ? $("background").value : "#00000000",
  };
  return p;
}

function form(parameters, files) {
  const data = new FormData();
  for (const [name, value] of Object.entries(parameters)) data.append(name, value);
  for (const [name, file] of files || []) data.append(name, file, file.name || "upload");
  return data;
}

/** The caption's top-left in the preview, from the anchor and offset. */
function captionPosition() {
  const [ux, uy] = ANCHORS[caption.anchor] || ANCHORS.center;
  const f = caption.frame;
  return { left: ux * f.width + caption.offset.x - ux * caption.size.width,
           top: uy * f.height + caption.offset.y - uy * caption.size.height };
}

/** Sets the offset so the caption's top-left is at (left, top), kept at least partly on the photo. */
function moveCaptionTo(left, top) {
  const f = caption.frame, s = caption.size, keep = 8;
  left = Math.min(Math.max(left, keep - s.width), f.width - keep);
  top = Math.min(Math.max(top, keep - s.height), f.height - keep);
  const [ux, uy] = ANCHORS[caption.anchor] || ANCHORS.center;
  caption.offset = { x: left - ux * f.width + ux * s.width, y: top - uy * f.height + uy * s.height };
  placeCaption();
}

function round(value) { return Math.round(value * 1000) / 1000; }

function placeCaption() {
  const element = $("caption");
  if (!caption.frame) return;
  const { left, top } = captionPosition();
  element.style.left = `${left}px`;
  element.style.top = `${top}px`;
  $("offset-x").value = round(caption.offset.x);
  $("offset-y").value = round(caption.offset.y);
}

/** Fits the preview (contain) into the stage: its box is exactly the photo as shown. */
function layoutPreview() {
  const image = $("preview-image");
  if (!image.naturalWidth || $("view-caption").hidden) return;
  const stage = $("stage");
  const available = stage.clientWidth;
  const maxHeight = Math.max(200, Math.min(window.innerHeight * 0.7, 720));
  const scale = Math.min(available / image.naturalWidth, maxHeight / image.naturalHeight);
  const width = Math.max(1, Math.floor(image.naturalWidth * scale));
  const height = width * image.naturalHeight / image.naturalWidth;
  const old = caption.frame;
  if (old && old.width !== width) {
    caption.offset = { x: caption.offset.x * width / old.width, y: caption.offset.y * width / old.width };
  }
  caption.frame = { width, height };
  const preview = $("preview");
  preview.style.width = `${width}px`;
  preview.style.height = `${height}px`;
  placeCaption();
}

/** Asks Sumi for the caption's drawing (debounced while typing). */
function requestLabel(delay) {
  clearTimeout(caption.labelTimer);
  caption.labelTimer = setTimeout(drawLabel, delay === undefined ? 250 : delay);
}

async function drawLabel() {
  const id = ++caption.labelRequest;
  const element = $("caption");
  element.classList.add("stale");
  const parameters = styleParameters();
  try {
    const { blob } = await run("caption-label", form(parameters));
    if (id !== caption.labelRequest) return;
    const url = URL.createObjectURL(blob);
    const image = new Image();
    image.src = url;
    await image.decode();
    if (id !== caption.labelRequest) { URL.revokeObjectURL(url); return; }
    // Keep the caption's anchor point where it was while the drawing changes size.
    caption.size = { width: image.naturalWidth, height: image.naturalHeight };
    const old = element.getAttribute("src");
    if (old && old.startsWith("blob:")) URL.revokeObjectURL(old);
    element.src = url;
    element.style.width = `${image.naturalWidth}px`;
    element.style.height = `${image.naturalHeight}px`;
    element.hidden = false;
    element.classList.remove("stale");
    delete element.dataset.error;
    clearErrors($("caption-form"));
    placeCaption();
    element.dataset.text = parameters.text;
    element.dataset.background = parameters.background;
  } catch (error) {
    if (id !== caption.labelRequest) return;
    element.dataset.error = error.message;
    showError(errorSlot(error, "text-error"), error.message);
  }
}

async function choosePhoto(file) {
  if (!file) return;
  showError("photo-error", "");
  delete $("preview").dataset.photo;
  $("render").disabled = true;
  setLink($("download"), null);
  $("stage").setAttribute("aria-busy", "true");
  $("render-status").textContent = "Loading the photo…";
  try {
    const screen = Math.ceil(Math.max(window.screen.width, window.screen.height) * (window.devicePixelRatio || 1));
    const side = Math.min(2400, Math.max(1200, screen));
    const { blob } = await run("preview", file, { width: side, height: side });
    caption.file = file;
    const image = $("preview-image");
    setBlobURL(image, "src", blob);
    await image.decode();
    $("preview").hidden = false;
    $("stage-empty").hidden = true;
    caption.frame = null;
    caption.offset = { x: 0, y: 0 };
    layoutPreview();
    $("render").disabled = false;
    $("render-status").textContent = "";
    $("preview").dataset.photo = file.name;
    requestLabel(0);
  } catch (error) {
    $("render-status").textContent = "";
    showError("photo-error", error.message);
  } finally {
    $("stage").removeAttribute("aria-busy");
  }
}

async function render(event) {
  event.preventDefault();
  if (!caption.file || !caption.frame) { showError("render-error", "Choose a photo first."); return; }
  const button = $("render"), progress = $("render-progress"), link = $("download");
  clearErrors($("caption-form"));
  setLink(link, null);
  button.disabled = true;
  progress.hidden = false;
  $("render-status").textContent = "Rendering at full size…";
  const parameters = Object.assign(styleParameters(), {
    frame: `${round(caption.frame.width)}x${round(caption.frame.height)}`,
    offset: `${round(caption.offset.x)},${round(caption.offset.y)}`,
    anchor: caption.anchor,
  });
  try {
    const { blob, report } = await run("caption", form(parameters, [["input", caption.file]]));
    const stem = (caption.file.name || "photo").replace(/\.[^.]*$/, "");
    setLink(link, blob, `${stem}-caption.jpg`);
    const out = report && report.outputs && report.outputs[0];
    link.dataset.frame = parameters.frame;
    link.dataset.offset = parameters.offset;
    $("render-status").textContent = out ? `Ready: ${out.width} × ${out.height} pixels.` : "Ready.";
    link.focus();
  } catch (error) {
    $("render-status").textContent = "";
    showError(errorSlot(error, "render-error"), error.message);
  } finally {
    button.disabled = false;
    progress.hidden = true;
  }
}

function setupCaption() {
  caption.anchor = $("anchor").value;
  $("photo").addEventListener("change", (event) => choosePhoto(event.target.files[0]));
  dropZone($("photo-drop"), (files) => choosePhoto(files[0]));
  $("caption-form").addEventListener("submit", render);
  for (const id of ["text", "font", "size", "color", "align", "fill", "background", "padding", "border", "border-color",
    "corner-radius", "stroke", "stroke-color", "shadow"]) {
    $(id).addEventListener("input", () => { setLink($("download"), null); requestLabel(); });
  }
  $("anchor").addEventListener("change", () => {
    // The caption stays where it is; its offset is now counted from the new anchor.
    if (!caption.frame) { caption.anchor = $("anchor").value; return; }
    const { left, top } = captionPosition();
    caption.anchor = $("anchor").value;
    moveCaptionTo(left, top);
  });
  for (const axis of ["x", "y"]) {
    $(`offset-${axis}`).addEventListener("change", (event) => {
      const value = Number(event.target.value);
      if (!Number.isFinite(value)) { showError("offset-error", "Give a number of preview pixels."); return; }
      showError("offset-error", "");
      caption.offset[axis] = value;
      placeCaption();
    });
  }

  const element = $("caption");
  let drag = null;
  element.addEventListener("pointerdown", (event) => {
    if (!caption.frame) return;
    const { left, top } = captionPosition();
    drag = { id: event.pointerId, x: event.clientX, y: event.clientY, left, top };
    element.setPointerCapture(event.pointerId);
    element.classList.add("dragging");
    element.focus({ preventScroll: true });
    event.preventDefault();
  });
  element.addEventListener("pointermove", (event) => {
    if (!drag || event.pointerId !== drag.id) return;
    moveCaptionTo(drag.left + event.clientX - drag.x, drag.top + event.clientY - drag.y);
  });
  const end = (event) => {
    if (!drag || event.pointerId !== drag.id) return;
    drag = null;
    element.classList.remove("dragging");
  };
  element.addEventListener("pointerup", end);
  element.addEventListener("pointercancel", end);
  element.addEventListener("keydown", (event) => {
    const steps = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    const step = steps[event.key];
    if (!step || !caption.frame) return;
    const by = event.shiftKey ? 10 : 1;
    const { left, top } = captionPosition();
    moveCaptionTo(left + step[0] * by, top + step[1] * by);
    event.preventDefault();
  });
  new ResizeObserver(() => layoutPreview()).observe($("stage"));
  requestLabel(0);
}

// ---- Page view --------------------------------------------------------------------------------

const page = { files: [], captures: [], factor: 0.5, pdfRequest: 0 };

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
  button.disabled = true;
  progress.hidden = false;
  $("page-status").textContent = "Stitching…";
  try {
    page.factor = await previewFactor(page.files[0]);
    const { blob, report } = await run("page-preview", form({ factor: page.factor }, page.files.map((f) => ["input", f])));
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
    showError(error.parameter === "input" ? "captures-error" : "build-error", error.message);
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
  $("page-status").textContent = `Making the PDF (opens on capture ${n + 1})…`;
  try {
    const { blob, report } = await run("fullpage", form({ viewport: `capture:${n}` }, page.files.map((f) => ["input", f])));
    if (id !== page.pdfRequest) return;
    setLink(link, blob, "page.pdf");
    link.dataset.viewport = `capture:${n}`;
    const out = report && report.outputs && report.outputs[0];
    if (out && out.rectInCurrentPage) link.dataset.rect = out.rectInCurrentPage.join(",");
    $("page-status").textContent = `PDF ready: opens on capture ${n + 1}.`;
  } catch (error) {
    if (id !== page.pdfRequest) return;
    $("page-status").textContent = "";
    showError("page-error", error.message);
  }
}

function setupPage() {
  $("captures").addEventListener("change", (event) => chooseCaptures(event.target.files));
  dropZone($("captures-drop"), (files) => chooseCaptures(files));
  $("build-page").addEventListener("click", buildPage);
}

// ---- Shared -----------------------------------------------------------------------------------

function dropZone(zone, take) {
  zone.addEventListener("dragover", (event) => { event.preventDefault(); zone.classList.add("over"); });
  zone.addEventListener("dragleave", () => zone.classList.remove("over"));
  zone.addEventListener("drop", (event) => {
    event.preventDefault();
    zone.classList.remove("over");
    if (event.dataTransfer && event.dataTransfer.files.length) take(event.dataTransfer.files);
  });
}

setupCaption();
setupPage();
