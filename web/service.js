// The service's client for the web editor: runs, errors, the token, object URLs (docs/service.md).

export const $ = (id) => document.getElementById(id);

const auth = { token: sessionStorage.getItem("sumi-token") || "", waiting: null };

/** Asks for the token once (the form stays until a token is given); resolves with it. */
export function askToken(message) {
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
export class ServiceError extends Error {
  constructor(status, body) {
    super(body && body.error ? body.error : `the service answered ${status}`);
    this.status = status;
    this.parameter = body ? body.parameter : null;
    this.stage = body ? body.stage : null;
  }
}

/** POSTs `body` (a File or FormData) to /run/NAME; resolves with the output blob and the run report. */
export async function run(name, body, query) {
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
export function showError(id, message) {
  const slot = $(id);
  if (slot) slot.textContent = message || "";
}

/** Where a service error is shown: beside the control of the parameter it names, else `fallback`. */
export function errorSlot(error, fallback) {
  const name = (error.parameter || "").replace(/^[a-z]+\./, "");
  const slots = { text: "text-error", font: "font-error", size: "size-error", color: "color-error", align: "align-error", width: "width-error",
    background: "background-error", padding: "padding-error", border: "border-error", "border-color": "border-color-error",
    "corner-radius": "corner-radius-error", stroke: "stroke-error", "stroke-color": "stroke-color-error",
    shadow: "shadow-error", anchor: "anchor-error", offset: "offset-error", frame: "offset-error", input: "photo-error" };
  return slots[name] || fallback;
}

export function clearErrors(root) {
  for (const slot of root.querySelectorAll(".error")) slot.textContent = "";
}

/** Replaces the object URL held by `element[attribute]`, freeing the old one. */
export function setBlobURL(element, attribute, blob) {
  const old = element.getAttribute(attribute);
  if (old && old.startsWith("blob:")) URL.revokeObjectURL(old);
  if (blob) element.setAttribute(attribute, URL.createObjectURL(blob));
  else element.removeAttribute(attribute);
}

export function setLink(link, blob, name) {
  setBlobURL(link, "href", blob);
  if (blob) {
    link.download = name;
    link.removeAttribute("aria-disabled");
  } else {
    link.removeAttribute("download");
    link.setAttribute("aria-disabled", "true");
  }
}

/** A form of text fields and `[field, File]` pairs, as `POST /run` takes it. */
export function form(parameters, files) {
  const data = new FormData();
  for (const [name, value] of Object.entries(parameters)) data.append(name, value);
  for (const [name, file] of files || []) data.append(name, file, file.name || "upload");
  return data;
}

/** Files dropped on `zone` go to `take`. */
export function dropZone(zone, take) {
  zone.addEventListener("dragover", (event) => { event.preventDefault(); zone.classList.add("over"); });
  zone.addEventListener("dragleave", () => zone.classList.remove("over"));
  zone.addEventListener("drop", (event) => {
    event.preventDefault();
    zone.classList.remove("over");
    if (event.dataTransfer && event.dataTransfer.files.length) take(event.dataTransfer.files);
  });
}
