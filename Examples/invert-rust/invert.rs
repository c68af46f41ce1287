//! invert: a Sumi plugin (ABI version 2) in Rust, with no crates — only the C ABI of
//! `sumi_plugin.h`, declared here by hand. Inverts colours (premultiplied: c' = a - c) and keeps the
//! input's side data (`"effect": "pixels"`); `amount` (0..1) mixes the inverted colour in.
//! It also gives band callbacks, so `decode → invert-rust → encode` streams: the host hands it the
//! image a few rows at a time instead of whole (both paths share `invert_row`, so they agree).
//!
//!   rustc --edition 2021 --crate-type cdylib -O -o libinvert-rust.so invert.rs

#![allow(non_camel_case_types)]

use std::ffi::{c_char, c_void};
use std::ptr;

const SUMI_PLUGIN_ABI_VERSION: u32 = 2;
const SUMI_OK: i32 = 0;
const SUMI_ERROR_PROCESS: i32 = 2;
const SUMI_ERROR_ABI: i32 = 3;
const SUMI_ERROR_OUT_OF_MEMORY: i32 = 4;
const SUMI_KIND_IMAGE: u32 = 1;

#[repr(C)]
pub struct sumi_error {
    size: u32,
    code: i32,
    parameter: [c_char; 64],
    message: [c_char; 1024],
}

#[repr(C)]
pub struct sumi_image {
    size: u32,
    format: u32,
    width: i32,
    height: i32,
    stride: i64,
    pixels: *const u8,
    reserved: [*mut c_void; 4],
}

type Value = c_void;
type Fn = *const c_void; // an api entry this plugin does not call

/// `sumi_api`, in the header's order (only the entries used here are typed).
#[repr(C)]
pub struct sumi_api {
    size: u32,
    reserved_flags: u32,
    kind: extern "C" fn(*const Value) -> u32,
    image_pixels: extern "C" fn(*const Value, *mut sumi_image) -> i32,
    get_side_data: Fn,
    list_count: Fn,
    list_item: Fn,
    layer_info: Fn,
    layer_rasterize: Fn,
    file_info: Fn,
    new_image: extern "C" fn(*mut c_void, i32, i32, *mut *mut u8, *mut i64) -> *mut Value,
    set_side_data: Fn,
    new_list: Fn,
    list_append: Fn,
    new_raster_layer: Fn,
    new_vector_layer: Fn,
    set_placement: Fn,
    write_file: Fn,
    warn: Fn,
    size_hint: Fn,
    write_bytes: Fn,
    param: extern "C" fn(*const c_void, *const c_char) -> *const c_void,
    param_given: Fn,
    param_type: Fn,
    param_number: extern "C" fn(*const c_void, *mut f64) -> i32,
}

#[repr(C)]
pub struct sumi_host {
    abi_version: u32,
    size: u32,
    host_version: *const c_char,
    reserved: [*mut c_void; 4],
    api: *const sumi_api,
    error: *mut sumi_error,
}

type BandBegin = extern "C" fn(*mut c_void, i32, i32, *mut i32, *mut i32, *mut sumi_error) -> i32;
type BandProcess = extern "C" fn(*mut c_void, *const u8, *mut u8, i32, i32, i64, *mut sumi_error) -> i32;
type BandEnd = extern "C" fn(*mut c_void, i32, *mut sumi_error) -> i32;
type Create = extern "C" fn(*const sumi_stage, *const c_void, *mut *mut c_void, *mut sumi_error) -> i32;
type Process = extern "C" fn(*mut c_void, *mut c_void, *const *const Value, u32, *mut *mut Value, *mut sumi_error) -> i32;

#[repr(C)]
pub struct sumi_stage {
    size: u32,
    reserved_flags: u32,
    descriptor_json: *const c_char,
    user_data: *mut c_void,
    create: Create,
    process: Process,
    destroy: extern "C" fn(*mut c_void),
    reserved: [*mut c_void; 4],
    band_begin: BandBegin,
    band_process: BandProcess,
    band_end: BandEnd,
}

#[repr(C)]
pub struct sumi_plugin {
    abi_version: u32,
    size: u32,
    name: *const c_char,
    version: *const c_char,
    licence: *const c_char,
    description: *const c_char,
    stage_count: u32,
    format_count: u32,
    stages: *const sumi_stage,
    formats: *const c_void,
    reserved: [*mut c_void; 4],
}

// The tables are immutable and live for the whole process.
unsafe impl Sync for sumi_stage {}
unsafe impl Sync for sumi_plugin {}

static mut API: *const sumi_api = ptr::null();

fn api() -> &'static sumi_api {
    // Set once by sumi_plugin_init, before any other call, and never changed.
    unsafe { &*API }
}

fn fail(error: *mut sumi_error, code: i32, message: &str) -> i32 {
    if let Some(error) = unsafe { error.as_mut() } {
        if error.size as usize >= std::mem::size_of::<sumi_error>() {
            error.code = code;
            let bytes = message.as_bytes();
            let n = bytes.len().min(error.message.len() - 1);
            for (i, b) in bytes[..n].iter().enumerate() {
                error.message[i] = *b as c_char;
            }
            error.message[n] = 0;
        }
    }
    code
}

static DESCRIPTOR: &[u8] = b"{\"name\": \"invert-rust\", \"summary\": \"Inverts colours (a plugin written in Rust)\", \
\"inputs\": [{\"name\": \"in\", \"type\": \"image\"}], \"output\": \"image\", \"effect\": \"pixels\", \
\"params\": [{\"name\": \"amount\", \"type\": \"number\", \"default\": 1, \"min\": 0, \"max\": 1, \
\"summary\": \"how much of the inverted colour to mix in\"}]}\0";

/// A stage instance: its parameter, and the width of the image being processed in bands.
#[derive(Clone, Copy)]
struct Instance {
    amount: f64,
    width: usize,
}

extern "C" fn create(_stage: *const sumi_stage, params: *const c_void, instance: *mut *mut c_void, _error: *mut sumi_error) -> i32 {
    let mut amount = 1.0f64;
    (api().param_number)((api().param)(params, b"amount\0".as_ptr() as *const c_char), &mut amount);
    unsafe { *instance = Box::into_raw(Box::new(Instance { amount, width: 0 })) as *mut c_void };
    SUMI_OK
}

extern "C" fn process(instance: *mut c_void, call: *mut c_void, inputs: *const *const Value, count: u32,
                      result: *mut *mut Value, error: *mut sumi_error) -> i32 {
    let amount = unsafe { (*(instance as *const Instance)).amount };
    if count != 1 {
        return fail(error, SUMI_ERROR_PROCESS, "expected one input");
    }
    let input = unsafe { *inputs };
    let mut image = sumi_image { size: std::mem::size_of::<sumi_image>() as u32, format: 0, width: 0, height: 0,
                                 stride: 0, pixels: ptr::null(), reserved: [ptr::null_mut(); 4] };
    if (api().kind)(input) != SUMI_KIND_IMAGE || (api().image_pixels)(input, &mut image) != SUMI_OK {
        return fail(error, SUMI_ERROR_PROCESS, "expected an image");
    }
    let mut out: *mut u8 = ptr::null_mut();
    let mut stride: i64 = 0;
    let value = (api().new_image)(call, image.width, image.height, &mut out, &mut stride);
    if value.is_null() {
        return fail(error, SUMI_ERROR_OUT_OF_MEMORY, "cannot allocate the output");
    }
    let (w, h) = (image.width as usize, image.height as usize);
    for y in 0..h {
        let src = unsafe { std::slice::from_raw_parts(image.pixels.add(y * image.stride as usize), w * 4) };
        let dst = unsafe { std::slice::from_raw_parts_mut(out.add(y * stride as usize), w * 4) };
        invert_row(src, dst, amount);
    }
    unsafe { *result = value };
    SUMI_OK
}

/// One row of premultiplied RGBA: c' = c + amount * (a - 2c), alpha kept.
fn invert_row(src: &[u8], dst: &mut [u8], amount: f64) {
    for (s, d) in src.chunks_exact(4).zip(dst.chunks_exact_mut(4)) {
        let a = s[3] as f64;
        for c in 0..3 {
            let v = s[c] as f64;
            d[c] = (v + amount * (a - 2.0 * v)).round().clamp(0.0, a) as u8;
        }
        d[3] = s[3];
    }
}

/// Band mode keeps the size (the host preset `out_width`/`out_height` to the input's); the width is
/// kept for `band_process`, whose rows may be padded (`stride` >= width * 4).
extern "C" fn band_begin(instance: *mut c_void, width: i32, height: i32, _out_width: *mut i32, _out_height: *mut i32,
                         error: *mut sumi_error) -> i32 {
    if width < 0 || height < 0 {
        return fail(error, SUMI_ERROR_PROCESS, "negative image size");
    }
    // The host never calls one instance's band callbacks concurrently.
    unsafe { (*(instance as *mut Instance)).width = width as usize };
    SUMI_OK
}

extern "C" fn band_process(instance: *mut c_void, in_rows: *const u8, out_rows: *mut u8, _first_row: i32, row_count: i32,
                           stride: i64, _error: *mut sumi_error) -> i32 {
    let Instance { amount, width } = unsafe { *(instance as *const Instance) };
    for y in 0..row_count.max(0) as usize {
        let src = unsafe { std::slice::from_raw_parts(in_rows.add(y * stride as usize), width * 4) };
        let dst = unsafe { std::slice::from_raw_parts_mut(out_rows.add(y * stride as usize), width * 4) };
        invert_row(src, dst, amount);
    }
    SUMI_OK
}

extern "C" fn band_end(_instance: *mut c_void, _completed: i32, _error: *mut sumi_error) -> i32 {
    SUMI_OK
}

extern "C" fn destroy(instance: *mut c_void) {
    if !instance.is_null() {
        drop(unsafe { Box::from_raw(instance as *mut Instance) });
    }
}

static STAGES: [sumi_stage; 1] = [sumi_stage {
    size: std::mem::size_of::<sumi_stage>() as u32,
    reserved_flags: 0,
    descriptor_json: DESCRIPTOR.as_ptr() as *const c_char,
    user_data: ptr::null_mut(),
    create,
    process,
    destroy,
    reserved: [ptr::null_mut(); 4],
    band_begin,
    band_process,
    band_end,
}];

static PLUGIN: sumi_plugin = sumi_plugin {
    abi_version: SUMI_PLUGIN_ABI_VERSION,
    size: std::mem::size_of::<sumi_plugin>() as u32,
    name: b"invert-rust\0".as_ptr() as *const c_char,
    version: b"1.0.0\0".as_ptr() as *const c_char,
    licence: b"MIT\0".as_ptr() as *const c_char,
    description: b"Inverts colours; written in Rust against the C ABI\0".as_ptr() as *const c_char,
    stage_count: 1,
    format_count: 0,
    stages: &STAGES as *const sumi_stage,
    formats: ptr::null(),
    reserved: [ptr::null_mut(); 4],
};

#[no_mangle]
pub extern "C" fn sumi_plugin_init(host: *const sumi_host, out: *mut *const sumi_plugin) -> i32 {
    let host = match unsafe { host.as_ref() } {
        Some(host) if host.abi_version >= SUMI_PLUGIN_ABI_VERSION
            && host.size as usize >= std::mem::size_of::<sumi_host>() && !host.api.is_null() => host,
        _ => return SUMI_ERROR_ABI,
    };
    unsafe {
        API = host.api;
        *out = &PLUGIN;
    }
    SUMI_OK
}
